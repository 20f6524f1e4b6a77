"""Named datasets: which files they need, their checksums, where they come from.

Layout on disk
--------------
Files of dataset ``NAME`` live in ``data_home() / spec.folder`` (the folder is the
dataset name unless stated otherwise: ``mnist-test`` uses ``mnist/``). This is
the layout of the shared data folder, so ``OLC_DATA=/path/to/datasets`` works
as is.

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
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

import platformdirs

from . import _download, _verified
from ._compression import (
    COMPRESSED_SUFFIXES,
    detect_compression,
    sha256_content,
    sha256_file,
    strip_compression_suffix,
)
from .errors import ChecksumError, DataFormatError, DatasetNotFoundError, UnknownDatasetError

__all__ = [
    "RemoteFile",
    "DatasetSpec",
    "data_home",
    "datasets",
    "get_spec",
    "register",
    "fetch",
    "check_file",
    "local_candidates",
]

_SUFFIX_OF = {None: "", "xz": ".xz", "gz": ".gz", "bz2": ".bz2"}


@dataclass(frozen=True)
class RemoteFile:
    """One file of a dataset.

    name            file name as stored in the reference data folder (``a9a.xz``)
    sha256          sha256 of that file as stored; None: not recorded (a data set we could
                    not obtain when registering it, e.g. SRAA): any file under ``name`` is
                    accepted unverified and its loader checks the layout instead
    size            bytes of that file as stored
    url             where the downloader fetches the content (the original public
                    source wherever it still serves these exact bytes); None: not
                    downloadable, must be put in place by hand
    content_sha256  sha256 of the decompressed content (defaults to ``sha256``
                    for a file stored uncompressed)
    content_size    bytes of the decompressed content
    mirrors         further URLs tried in order if ``url`` fails
    alt_sha256      other accepted digests of the file as stored under ``name``
                    (e.g. the original tarball where we keep a re-pack)
    optional        not needed by the loader (kept for completeness, still verified)
    note            provenance remarks shown in error messages
    """

    name: str
    sha256: str | None
    size: int | None
    url: str | None
    content_sha256: str | None = None
    content_size: int | None = None
    mirrors: tuple[str, ...] = ()
    alt_sha256: tuple[str, ...] = ()
    optional: bool = False
    note: str = ""

    def __post_init__(self):
        if self.content_sha256 is None and strip_compression_suffix(self.name) == self.name:
            object.__setattr__(self, "content_sha256", self.sha256)
            object.__setattr__(self, "content_size", self.size)

    @property
    def content_name(self) -> str:
        """Name of the decompressed content (``a9a.xz`` -> ``a9a``)."""
        return strip_compression_suffix(self.name)

    @property
    def urls(self) -> tuple[str, ...]:
        return ((self.url,) if self.url else ()) + tuple(self.mirrors)

    @property
    def token(self) -> str:
        """Everything a verification depends on; a registry change re-triggers it."""
        return "|".join([self.name, str(self.sha256), str(self.content_sha256), *self.alt_sha256])


@dataclass(frozen=True)
class DatasetSpec:
    """A named dataset.

    ``splits`` maps a split name to the names of the files it needs; the first
    split is the default of :func:`olc.data.load`. ``loader`` is a key of
    :data:`olc.data.loaders.LOADERS` (a string, so that this module does not
    import the loaders). ``n_rows`` per split and ``n_features`` are the
    documented shapes; ``n_features`` is authoritative for sparse files whose
    largest index may be absent from a split (a9a's test file stops at 122).
    """

    name: str
    description: str
    files: tuple[RemoteFile, ...]
    splits: Mapping[str, tuple[str, ...]]
    loader: str
    n_rows: Mapping[str, int]
    n_features: int | None
    citation: str
    source: str = ""
    license: str = ""
    folder: str = ""
    extra: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self):
        if not self.folder:
            object.__setattr__(self, "folder", self.name)
        object.__setattr__(self, "splits", MappingProxyType(dict(self.splits)))
        object.__setattr__(self, "n_rows", MappingProxyType(dict(self.n_rows)))
        object.__setattr__(self, "extra", MappingProxyType(dict(self.extra)))
        names = {f.name for f in self.files}
        for split, needed in self.splits.items():
            missing = set(needed) - names
            if missing:
                raise ValueError(f"{self.name}: split {split!r} needs unregistered files {missing}")

    @property
    def default_split(self) -> str:
        return next(iter(self.splits))

    def file(self, name: str) -> RemoteFile:
        for f in self.files:
            if f.name == name:
                return f
        raise KeyError(name)

    def files_for(self, split: str | None = None) -> tuple[RemoteFile, ...]:
        """Files needed by ``split`` (all splits when None), registry order."""
        if split is None:
            wanted = {n for needed in self.splits.values() for n in needed}
        else:
            wanted = set(self.splits[check_split(self, split)])
        return tuple(f for f in self.files if f.name in wanted)


# --------------------------------------------------------------------------- data home


def data_home() -> Path:
    """Root folder of local datasets: ``$OLC_DATA`` if set, else the user cache dir.

    The user cache dir is ``platformdirs.user_cache_dir('olc')`` (e.g.
    ``~/.cache/olc`` on Linux). Dataset ``NAME`` lives in ``data_home()/NAME/``.
    Nothing is created here; :func:`fetch` creates folders when it downloads.
    """
    env = os.environ.get("OLC_DATA")
    return Path(env).expanduser() if env else Path(platformdirs.user_cache_dir("olc"))


_default_data_home = data_home  # `fetch` has a parameter of the same name


def derived_home() -> Path:
    """Folder for data derived from the raw files (a filtered data set, its exact
    max-margin solution, ...): ``derived/`` in olc's own cache (``$OLC_CACHE`` or the user
    cache dir), never the data home, which may be a read-only shared folder. Nothing is
    created here; writers create it (and may fall back to no caching when it is not
    writable)."""
    return _verified.cache_dir() / "derived"


# --------------------------------------------------------------------------- registry

_REGISTRY: dict[str, DatasetSpec] = {}


def register(spec: DatasetSpec, *, replace: bool = False) -> DatasetSpec:
    """Add ``spec`` to the registry (``replace=True`` to overwrite a name)."""
    if spec.name in _REGISTRY and not replace:
        raise ValueError(f"dataset {spec.name!r} is already registered")
    _REGISTRY[spec.name] = spec
    return spec


def datasets() -> list[str]:
    """Names of the registered datasets, sorted."""
    return sorted(_REGISTRY)


def get_spec(name: str) -> DatasetSpec:
    """The :class:`DatasetSpec` registered as ``name``."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownDatasetError(
            f"unknown dataset {name!r}; registered datasets: {', '.join(datasets())}"
        ) from None


def check_split(spec: DatasetSpec, split: str | None) -> str:
    """Return ``split`` (the default split when None) or raise UnknownDatasetError."""
    if split is None:
        return spec.default_split
    if split not in spec.splits:
        raise UnknownDatasetError(
            f"dataset {spec.name!r} has no split {split!r}; splits: {', '.join(spec.splits)}"
        )
    return split


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


def _find_local(folder: Path, f: RemoteFile, verify: str) -> Path | None:
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


def _download_one(folder: Path, f: RemoteFile) -> tuple[Path | None, list[str]]:
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


def _missing_message(spec: DatasetSpec, split: str | None, folder: Path, missing) -> str:
    what = f"dataset {spec.name!r}" + (f" (split {split!r})" if split else "")
    lines = [f"{what} is incomplete in {folder}/ and could not be downloaded."]
    for f, reasons in missing:
        target = folder / f.name
        lines.append(f"  missing: {target}")
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


# --------------------------------------------------------------------------- fetch


def fetch(
    name: str,
    split: str | None = None,
    *,
    data_home: str | os.PathLike | None = None,
    download: bool = True,
    verify: str = "once",
) -> dict[str, Path]:
    """Make sure the files of ``name`` (one split, or all splits when None) are local.

    Returns ``{registered file name: local path}``; the path may be another
    accepted variant (``a9a`` instead of ``a9a.xz``). Local files are hashed once
    and remembered (``verify='once'``, see :mod:`olc.data._verified`) or hashed
    on every call (``verify='always'``). Missing files are downloaded when
    ``download`` is true.

    Raises :class:`ChecksumError` for a file with the wrong digest and
    :class:`DatasetNotFoundError` (with the exact target path and source URL) for
    a file that is missing and cannot be downloaded.
    """
    if verify not in ("once", "always"):
        raise ValueError(f"verify must be 'once' or 'always', got {verify!r}")
    spec = get_spec(name)
    if split is not None:
        check_split(spec, split)
    root = Path(data_home).expanduser() if data_home is not None else _default_data_home()
    folder = root / spec.folder
    found: dict[str, Path] = {}
    missing = []
    for f in spec.files_for(split):
        path = _find_local(folder, f, verify)
        reasons: list[str] = []
        if path is None:
            if not download:
                reasons = ["downloads disabled (download=False)"]
            elif not f.urls:
                reasons = ["no public download URL is registered for this file"]
            else:
                path, reasons = _download_one(folder, f)
        if path is None:
            missing.append((f, reasons))
        else:
            found[f.name] = path
    if missing:
        f0 = missing[0][0]
        raise DatasetNotFoundError(
            _missing_message(spec, split, folder, missing), path=folder / f0.name, url=f0.url
        )
    return found


# --------------------------------------------------------------------------- the datasets

_LIBSVM = "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary/"
_UCI_ADULT = "https://archive.ics.uci.edu/ml/machine-learning-databases/adult/"
_LECUN = "http://yann.lecun.com/exdb/mnist/"
# torchvision's mirror of the same original gzip files (LeCun's site often refuses).
_MNIST_MIRROR = "https://ossci-datasets.s3.amazonaws.com/mnist/"
_LIBSVM_CITE = (
    "C.-C. Chang and C.-J. Lin, LIBSVM: a library for support vector machines, "
    "ACM TIST 2(3), 2011; data: J. C. Platt, Fast training of support vector machines "
    "using sequential minimal optimization, Advances in Kernel Methods, MIT Press, 1998."
)

register(
    DatasetSpec(
        name="a9a",
        description="UCI Adult preprocessed by Platt (LIBSVM a9a): 123 sparse binary "
        "features, labels -1/+1 (+1 = income >50K).",
        files=(
            RemoteFile(
                "a9a.xz",
                "c7a2952bcd0877f2c8a6c44b52b1e8086ffff5c4cb1ff9e4d700c97313f2d6a4",
                153384,
                _LIBSVM + "a9a",
                content_sha256="f5d5ffd8d865ff41328e7ee043e4b020816914ff6843ff15b98905ddbedce906",
                content_size=2329875,
            ),
            RemoteFile(
                "a9a.t.xz",
                "062c4d552cafaf641effeb9742e80775d9c5593245da70817ed5c22f3dd9e0bc",
                78544,
                _LIBSVM + "a9a.t",
                content_sha256="1f448a153f0320399a7e40836eb207655b0bde0f21fc941cc472193daa9f5de9",
                content_size=1164628,
            ),
        ),
        splits={"train": ("a9a.xz",), "test": ("a9a.t.xz",)},
        loader="svmlight",
        n_rows={"train": 32561, "test": 16281},
        n_features=123,
        citation=_LIBSVM_CITE + " Underlying data: B. Becker and R. Kohavi, Adult, UCI "
        "Machine Learning Repository, 1996, https://doi.org/10.24432/C5XW20.",
        source="https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary.html#a9a",
        license="no explicit license (LIBSVM page); underlying UCI Adult: CC BY 4.0",
        extra={"positives": {"train": 7841, "test": 3846}},
    )
)

register(
    DatasetSpec(
        name="w8a",
        description="Platt's web-page classification data (LIBSVM w8a): 300 sparse binary "
        "keyword features, labels -1/+1; many rows have no features at all.",
        files=(
            RemoteFile(
                "w8a.xz",
                "290f6e8676b48fff31b557cbd09be4772120230198f0d0346f9fdf65e732cb30",
                356284,
                _LIBSVM + "w8a",
                content_sha256="6a9fa8fd5f524303240a5db07d4b3d4a51e8b7b4b20a914105d8e3e8c81640f2",
                content_size=3478238,
                note="a copy with one extra trailing empty line (3478239 bytes, sha256 "
                "b464b4f6...) parses identically but is not accepted",
            ),
            RemoteFile(
                "w8a.t.xz",
                "8807fb7d82a8de9609ac8d570c9286f3595f271e1a61d830db3c8a0f08c756fc",
                121232,
                _LIBSVM + "w8a.t",
                content_sha256="618929ecb01bebb841daec4cae4aa07b97832d29b08652452775598929547fde",
                content_size=1045870,
            ),
        ),
        splits={"train": ("w8a.xz",), "test": ("w8a.t.xz",)},
        loader="svmlight",
        n_rows={"train": 49749, "test": 14951},
        n_features=300,
        citation=_LIBSVM_CITE,
        source="https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary.html#w8a",
        license="no explicit license (LIBSVM page)",
        extra={"positives": {"train": 1479, "test": 454}},
    )
)

register(
    DatasetSpec(
        name="adult",
        description="UCI Adult (Census Income), the original raw files: 14 attributes "
        "(6 continuous, 8 categorical, '?' = missing) and the income label.",
        files=(
            RemoteFile(
                "adult.data.xz",
                "1a26c887f4b7b4b4e0f99750aca36e24a777e32b8f3a51118d33048407422670",
                313124,
                _UCI_ADULT + "adult.data",
                content_sha256="5b00264637dbfec36bdeaab5676b0b309ff9eb788d63554ca0a249491c86603d",
                content_size=3974305,
            ),
            RemoteFile(
                "adult.test.xz",
                "7b7089b2b40308e71efb4afe0dc2a9b80b761ad4b9b19f2157ff54d952a621e2",
                160484,
                _UCI_ADULT + "adult.test",
                content_sha256="a2a9044bc167a35b2361efbabec64e89d69ce82d9790d2980119aac5fd7e9c05",
                content_size=2003153,
            ),
            RemoteFile(
                "adult.names.xz",
                "6739ab8145b2611093eed8fb1ab3cecad1d5d1c8683b963db7948ee206465fa1",
                2644,
                _UCI_ADULT + "adult.names",
                content_sha256="c248284c0b5de30c9e1958d6cdd168a34a654758b620e68f46aefa83fc0a576a",
                content_size=5229,
                optional=True,
                note="description only; the loader does not read it",
            ),
        ),
        splits={"train": ("adult.data.xz",), "test": ("adult.test.xz",)},
        loader="adult",
        n_rows={"train": 32561, "test": 16281},
        n_features=14,
        citation="B. Becker and R. Kohavi, Adult, UCI Machine Learning Repository, 1996, "
        "https://doi.org/10.24432/C5XW20; R. Kohavi, Scaling up the accuracy of "
        "naive-Bayes classifiers: a decision-tree hybrid, KDD 1996.",
        source="https://archive.ics.uci.edu/dataset/2/adult",
        license="CC BY 4.0",
        extra={"positives": {"train": 7841, "test": 3846}},
    )
)

register(
    DatasetSpec(
        name="usps",
        description="USPS handwritten digits, 16x16 grey levels in [0, 1] (ESL version "
        "rescaled by (x+1)/2, Kaggle HDF5 layout), digits 0-9.",
        files=(
            RemoteFile(
                "usps.h5.xz",
                "cbe18fe78f18f83a664fd9f4098ebeddc4f8bb8974fb8e0dd5664376b7980519",
                2886268,
                # The originals are not downloadable in this form: ESL's zip.train.gz /
                # zip.test.gz are text in [-1, 1], the Kaggle HDF5 needs a login. This
                # pinned commit holds the exact usps.h5 bytes we verify (see README).
                "https://raw.githubusercontent.com/niuers/Learning-From-Data-A-Short-Course/"
                "35684e893b63bf4039bafcc6d34fe935851baf9a/data/usps.h5",
                content_sha256="734f88c541104a956d88be2c95d03b4a463ffd74ccc2ba9c80841fb98e3fcb36",
                content_size=2913522,
                note="the download URL is a public copy of Kaggle's usps.h5 (bistaumanga/"
                "usps-dataset), byte-identical to what is verified here",
            ),
        ),
        splits={"train": ("usps.h5.xz",), "test": ("usps.h5.xz",)},
        loader="usps",
        n_rows={"train": 7291, "test": 2007},
        n_features=256,
        citation="J. J. Hull, A database for handwritten text recognition research, "
        "IEEE Trans. PAMI 16(5):550-554, 1994.",
        source="https://hastie.su.domains/ElemStatLearn/data.html",
        license="no explicit license",
    )
)

register(
    DatasetSpec(
        name="20newsgroups",
        description="Rennie's 20news-bydate: raw Usenet posts (Latin-1), 20 newsgroups "
        "numbered 0-19 in alphabetical order (as scikit-learn does).",
        files=(
            RemoteFile(
                "20news-bydate.tar.gz",
                "f934583ecd65eae06e4d23af0fcb72ade56b76bad2279c0aed7d520aa6527b02",
                14387951,
                "http://qwone.com/~jason/20Newsgroups/20news-bydate.tar.gz",
                content_sha256="6e55aa92bc0071082b5cd34e3c8d66718a0f2a64a7d5e2e083f42b9cc4459d93",
                content_size=50288640,
                # scikit-learn's mirror of the original tarball, and its checksum
                # (sklearn/datasets/_twenty_newsgroups.py): accepted as an equivalent
                # copy, since our reference file is a re-pack of the same members.
                mirrors=("https://ndownloader.figshare.com/files/5975967",),
                alt_sha256=("8f1b2514ca22a5ade8fbb9cfa5727df95fa587f4c87b786e15c759fa66d95610",),
                note="the shared copy is a re-pack (same member files); the original "
                "tarball is accepted by its own sha256 8f1b2514...",
            ),
            RemoteFile(
                "20news-bydate.files.sha256.xz",
                "9be1bdd87e48bbd2e6f140f03ae6ed264433de906614b798311df960d56cbb34",
                656720,
                None,
                content_sha256="20701c5675b5327116388288aa3225c61bc1005708ccbda9bfb83c22891263d6",
                content_size=2042261,
                optional=True,
                note="per-member sha256 manifest of the re-packed archive",
            ),
        ),
        splits={"train": ("20news-bydate.tar.gz",), "test": ("20news-bydate.tar.gz",)},
        loader="20newsgroups",
        n_rows={"train": 11314, "test": 7532},
        n_features=None,
        citation="K. Lang, NewsWeeder: learning to filter netnews, ICML 1995; "
        "J. Rennie, 20 Newsgroups, http://qwone.com/~jason/20Newsgroups/.",
        source="http://qwone.com/~jason/20Newsgroups/",
        license="no explicit license (public Usenet posts, 1993)",
    )
)

register(
    DatasetSpec(
        name="mnist-test",
        description="MNIST test set: 10000 28x28 grey-level digits (LeCun's original "
        "idx files). The training images are not available in the reference folder.",
        files=(
            RemoteFile(
                "t10k-images-idx3-ubyte.gz",
                "8d422c7b0a1c1c79245a5bcf07fe86e33eeafee792b84584aec276f5a2dbc4e6",
                1648877,
                _LECUN + "t10k-images-idx3-ubyte.gz",
                content_sha256="0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7",
                content_size=7840016,
                mirrors=(_MNIST_MIRROR + "t10k-images-idx3-ubyte.gz",),
            ),
            RemoteFile(
                "t10k-labels-idx1-ubyte.gz",
                "f7ae60f92e00ec6debd23a6088c31dbd2371eca3ffa0defaefb259924204aec6",
                4542,
                _LECUN + "t10k-labels-idx1-ubyte.gz",
                content_sha256="ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2",
                content_size=10008,
                mirrors=(_MNIST_MIRROR + "t10k-labels-idx1-ubyte.gz",),
            ),
            RemoteFile(
                "train-labels-idx1-ubyte.gz",
                "3552534a0a558bbed6aed32b30c495cca23d567ec52cac8be1a0730e8010255c",
                28881,
                _LECUN + "train-labels-idx1-ubyte.gz",
                content_sha256="65a50cbbf4e906d70832878ad85ccda5333a97f0f4c3dd2ef09a8a9eef7101c5",
                content_size=60008,
                mirrors=(_MNIST_MIRROR + "train-labels-idx1-ubyte.gz",),
                optional=True,
                note="training labels without training images: not used by the loader",
            ),
        ),
        splits={"test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")},
        loader="mnist",
        n_rows={"test": 10000},
        n_features=784,
        citation="Y. LeCun, C. Cortes, C. J. C. Burges, The MNIST database of handwritten "
        "digits; Y. LeCun et al., Gradient-based learning applied to document "
        "recognition, Proc. IEEE 86(11), 1998.",
        source="http://yann.lecun.com/exdb/mnist/",
        license="CC BY-SA 3.0 (as stated on the MNIST page)",
        folder="mnist",
    )
)

register(
    DatasetSpec(
        name="sraa",
        description="SRAA (Simulated/Real/Aviation/Auto): UseNet articles from four "
        "discussion groups (folders realauto, realaviation, simauto, simaviation), one "
        "article per file with its header.",
        files=(
            RemoteFile(
                "sraa.tar.gz",
                None,  # not recorded: the archive was not obtainable when registered
                None,
                "http://www.cs.umass.edu/~mccallum/data/sraa.tar.gz",
                note="its checksum is not recorded (the archive could not be obtained when "
                "olc registered it); the loader checks the folder layout instead: "
                "sraa/{realauto,realaviation,simauto,simaviation}/<one article per file>",
            ),
        ),
        splits={"all": ("sraa.tar.gz",)},
        loader="sraa",
        n_rows={"all": 73218},  # as documented by the source page; not verified here
        n_features=None,
        citation="A. McCallum, SRAA: Simulated/Real/Aviation/Auto UseNet data, "
        "http://www.cs.umass.edu/~mccallum/data/sraa.tar.gz (used by Shen & Dietterich 2009, "
        "§4, and Nigam et al.).",
        source="http://www.cs.umass.edu/~mccallum/data/sraa.tar.gz",
        license="no explicit license (public Usenet posts)",
    )
)
