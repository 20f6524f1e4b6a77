"""Download one URL into a temporary file next to its final place.

The file is written under a temporary name in the destination folder (same file
system, so the caller's final ``os.replace`` is atomic) and only renamed after the
caller has verified its checksum: an interrupted or corrupt download never looks
like a complete file. Only ``urllib`` is used, so nothing beyond the standard
library is needed. Tests replace :data:`urlopen` to stay offline.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .._util.atomic import new_file_mode

__all__ = ["download_to_temp", "DestinationNotWritable", "TIMEOUT_S"]


def urlopen(request, timeout=None):
    """``urllib.request.urlopen``, imported on first use: urllib's http, ssl and email
    modules take ~40 ms to import, which every command that only reads a local file paid."""
    from urllib.request import urlopen as open_url

    return open_url(request, timeout=timeout)


class DestinationNotWritable(OSError):
    """The destination folder cannot be created or written: retrying elsewhere won't help."""


TIMEOUT_S = 60.0
_BLOCK = 1 << 20
_USER_AGENT = "olc-data/0.1 (+https://pypi.org/project/olc)"


def download_to_temp(url: str, folder: Path) -> Path:
    """Stream ``url`` into a new temporary file inside ``folder`` and return its path.

    Raises :class:`DestinationNotWritable` if ``folder`` cannot be written, else
    whatever ``urllib`` raises (``URLError``, ``HTTPError``, ``TimeoutError``,
    ``OSError``); the partial file is removed in that case.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".download-", suffix=".part", dir=folder)
    except OSError as e:  # read-only data home (e.g. a shared folder), no permission
        raise DestinationNotWritable(e.errno, f"cannot write into {folder}: {e.strerror or e}") from e
    try:
        from urllib.request import Request

        request = Request(url, headers={"User-Agent": _USER_AGENT})
        # `urlopen` is resolved as a module global at call time, so tests can
        # monkeypatch olc.data._download.urlopen to keep the suite offline.
        with urlopen(request, timeout=TIMEOUT_S) as response, os.fdopen(fd, "wb") as out:
            fd = -1  # now owned by `out`
            while True:
                block = response.read(_BLOCK)
                if not block:
                    break
                out.write(block)
            out.flush()
            os.fsync(out.fileno())  # complete on disk before the caller renames it
    except BaseException:
        if fd != -1:
            os.close(fd)
        Path(tmp).unlink(missing_ok=True)
        raise
    # mkstemp creates 0600 files; a data file gets the permissions of any new file
    os.chmod(tmp, new_file_mode())
    return Path(tmp)
