"""A registered file's local copies: where they are looked up, how they are verified,
how a missing one is downloaded, and what to say when it cannot be.

What is verified
----------------
Every :class:`RemoteFile` records the file *as stored* in our reference data
folder (``name``, ``sha256``, ``size``; e.g. ``a9a.xz``, which we recompressed)
and the sha256 of its *decompressed content* (``content_sha256``; for ``a9a.xz``
that is the sha256 of LIBSVM's plain ``a9a``). The original sources often ship
another compression than we store (LIBSVM serves plain text), so:

* ``NAME/<name>`` is accepted if its bytes match ``sha256`` (or one of
  ``alt_sha256``, e.g. the original 20 Newsgroups tarball), else if its content
  matches ``content_sha256``;
* the same content under another compression (``a9a``, ``a9a.gz``, ``a9a.bz2``,
  ``a9a.xz``) is accepted if its decompressed bytes match ``content_sha256``;
* a download is accepted under the same two rules and kept as the source
  shipped it (LIBSVM's plain ``a9a`` is saved as ``a9a``). Loaders detect
  compression from the magic bytes, so any accepted variant loads the same.

Anything else raises :class:`ChecksumError`; a file that is missing and cannot be
downloaded raises :class:`DatasetNotFoundError` saying which file to put where.
"""

from __future__ import annotations

import lzma
import os
import zlib
from pathlib import Path

from . import _download, _verified
from ._compression import (
    COMPRESSED_SUFFIXES,
    detect_compression,
    sha256_content,
    sha256_file,
)
from .dataset_spec import DatasetSpec, RemoteFile
from .errors import ChecksumError, DataFormatError

__all__ = ["local_candidates", "check_file", "find_local", "download_one", "missing_message"]

_SUFFIX_OF = {None: "", "xz": ".xz", "gz": ".gz", "bz2": ".bz2"}


# --------------------------------------------------------------------------- verification


def local_candidates(folder: Path, f: RemoteFile) -> list[Path]:
    """Paths under which ``f`` is accepted, in the order they are looked up."""
    names = [f.name]
    if f.content_sha256 is not None:  # other encodings can only be checked by content
        names += [f.content_name + s for s in ("", *COMPRESSED_SUFFIXES)]
    seen: list[str] = []
    for n in names:
        if n not in seen:
            seen.append(n)
    return [folder / n for n in seen]


def _content_digest(path: Path) -> tuple[str | None, str]:
    """(sha256 of the decompressed content, "") or (None, why it does not decompress)."""
    try:
        return sha256_content(path)[0], ""
    except (OSError, EOFError, lzma.LZMAError, zlib.error, DataFormatError) as e:
        e = e.__cause__ if isinstance(e, DataFormatError) and e.__cause__ is not None else e
        return None, f"does not decompress: {type(e).__name__}: {e}"


def check_file(path: Path, f: RemoteFile, *, deep: bool = False) -> None:
    """Hash ``path`` and raise :class:`ChecksumError` unless it is an accepted copy of ``f``.

    A file named exactly ``f.name`` is accepted if its bytes match ``sha256`` or
    ``alt_sha256``; any file (including one named ``f.name`` but compressed
    differently) is accepted if its decompressed content matches
    ``content_sha256``. ``deep=True`` additionally requires that a byte-matched
    file decompresses to ``content_sha256`` (used by the tests that check the
    shared folder against its READMEs; unnecessary in normal use, since equal
    bytes imply equal content).
    """
    path = Path(path)
    if f.sha256 is None and f.content_sha256 is None:
        return  # nothing recorded to verify against (see RemoteFile.sha256)
    if path.name == f.name:
        actual = sha256_file(path)
        if actual == f.sha256 or actual in f.alt_sha256:
            if deep and actual == f.sha256 and f.content_sha256 != f.sha256:
                content, why = _content_digest(path)
                if content != f.content_sha256:
                    raise ChecksumError(
                        path, f.content_sha256, content or actual, what="decompressed content of", detail=why
                    )
            return
        # Not the stored bytes; it may still be the same content compressed with
        # other settings. Report the digest of the file as stored if not.
        if f.content_sha256 != f.sha256 or detect_compression(path) is not None:
            content, _ = _content_digest(path)
            if content == f.content_sha256:
                return
        raise ChecksumError(path, f.sha256, actual)
    content, why = _content_digest(path)
    if content != f.content_sha256:
        raise ChecksumError(
            path,
            f.content_sha256,
            content if content is not None else sha256_file(path),
            what="decompressed content of" if content is not None else "file",
            detail=why,
        )


def find_local(folder: Path, f: RemoteFile, verify: str) -> Path | None:
    """The first accepted copy of ``f`` in ``folder`` (None: none there), hashed unless
    already verified (``verify='always'``: hashed again)."""
    for path in local_candidates(folder, f):
        if not path.is_file():
            continue
        if verify == "always":
            _verified.forget(path)
        if not _verified.is_verified(path, f.token):
            check_file(path, f)
            _verified.mark_verified(path, f.token)
        return path
    return None


# --------------------------------------------------------------------------- download


def download_one(folder: Path, f: RemoteFile) -> tuple[Path | None, list[str]]:
    """Try the URLs of ``f`` in order; return (final path or None, why each failed).

    Raises :class:`ChecksumError` if no URL gave acceptable bytes and at least one
    gave wrong bytes: a source that answers with other content is a data problem
    the user must see, not a connectivity problem.
    """
    reasons: list[str] = []
    mismatch: ChecksumError | None = None
    for url in f.urls:
        try:
            tmp = _download.download_to_temp(url, folder)
        except _download.DestinationNotWritable as e:
            reasons.append(str(e))
            break  # every other URL would fail the same way
        except Exception as e:  # URLError, HTTPError, timeouts, other OSError ...
            reasons.append(f"{url}: {type(e).__name__}: {e}")
            continue
        try:
            raw = sha256_file(tmp)
            if f.sha256 is None or raw == f.sha256 or raw in f.alt_sha256:
                final = folder / f.name
            else:
                content, why = _content_digest(tmp)
                if content != f.content_sha256:
                    raise ChecksumError(
                        f"{folder / f.name} (downloaded from {url})",
                        f.content_sha256,
                        content if content is not None else raw,
                        what="decompressed content of" if content is not None else "file",
                        detail=why,
                    )
                # Keep it as the source shipped it (plain, .gz, ...): loaders detect
                # compression by magic bytes, and re-compressing would cost time for nothing.
                final = folder / (f.content_name + _SUFFIX_OF[detect_compression(tmp)])
            os.replace(tmp, final)
        except ChecksumError as e:
            mismatch = e
            reasons.append(str(e))
            continue
        finally:
            tmp.unlink(missing_ok=True)
        _verified.mark_verified(final, f.token)
        return final, reasons
    if mismatch is not None:
        raise mismatch
    return None, reasons


def missing_message(spec: DatasetSpec, split: str | None, folder: Path, missing) -> str:
    what = f"dataset {spec.name!r}" + (f" (split {split!r})" if split else "")
    lines = [f"{what} is incomplete in {folder}/ and could not be downloaded."]
    for f, reasons in missing:
        target = folder / f.name
        blocking = [p for p in local_candidates(folder, f) if p.exists() and not p.is_file()]
        lines.append(f"  missing: {target}")
        for path in blocking:
            kind = "a folder" if path.is_dir() else "not a regular file"
            lines.append(f"    {path} is {kind}, not the data file: remove or rename it "
                         "(a data file must be a regular file)")
        if f.url:
            lines.append(f"    get it from {f.url}")
            for m in f.mirrors:
                lines.append(f"             or {m}")
            if f.content_name != f.name:
                lines.append(
                    f"    (the content may also be saved as {folder / f.content_name}, "
                    f"or compressed as .xz, .gz or .bz2; it is verified by its sha256 "
                    f"{f.content_sha256})"
                )
        else:
            lines.append("    it has no public download; copy it from the shared data folder")
        if f.note:
            lines.append(f"    note: {f.note}")
        for r in reasons:
            lines.append(f"    download attempt: {r}")
    lines.append(
        f"Or set OLC_DATA to a folder that already contains {spec.folder}/ "
        f"(current data home: {folder.parent})."
    )
    return "\n".join(lines)

