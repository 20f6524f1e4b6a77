"""Errors raised by the data layer.

Each one says *where* the problem is (file, line, folder) and *what to do*,
because a data error is usually fixed by a person moving a file, not by code.
They also subclass the matching built-in exception so that generic
``except FileNotFoundError`` / ``except ValueError`` handlers keep working.
"""

from __future__ import annotations

__all__ = [
    "DataError",
    "DatasetNotFoundError",
    "ChecksumError",
    "ChangedFileError",
    "DataFormatError",
    "UnknownDatasetError",
]


class DataError(Exception):
    """Base class of every error raised by :mod:`olc.data`."""


class DatasetNotFoundError(DataError, FileNotFoundError):
    """A file of a dataset is missing locally and could not be downloaded.

    The message names the file, the full target path and where to get it.
    """

    def __init__(self, message: str, *, path=None, url=None):
        super().__init__(message)
        self.path = path
        self.url = url

    def __str__(self) -> str:  # FileNotFoundError would otherwise print errno-style
        return self.args[0]

    def __reduce__(self):
        return (_rebuild, (type(self), self.args, {"path": self.path, "url": self.url}))


class ChecksumError(DataError, ValueError):
    """A file's sha256 digest is not the one recorded in the registry."""

    def __init__(self, path, expected: str, actual: str, *, what: str = "file", detail: str = ""):
        self.path = path
        self.expected = expected
        self.actual = actual
        extra = f" ({detail})" if detail else ""
        super().__init__(
            f"checksum mismatch for {what} {path}: expected sha256 {expected}, "
            f"got {actual}{extra}. The file is corrupt, truncated or a different "
            "version; delete it and fetch it again."
        )
        self._init_args = (path, expected, actual)
        self._init_kwargs = {"what": what, "detail": detail}

    def __reduce__(self):  # picklable across joblib workers despite the custom __init__
        return (_rebuild, (type(self), self._init_args, self._init_kwargs))


class ChangedFileError(ChecksumError):
    """A file that passed its checksum earlier fails to read and, hashed again, no longer
    matches: it changed (damaged in place) after it was verified."""

    def __str__(self) -> str:
        detail = self._init_kwargs["detail"]
        return (f"checksum no longer matches: replace {self.path} (it was verified on an "
                f"earlier use and has changed since: expected sha256 {self.expected}, got "
                f"{self.actual}{'; ' + detail if detail else ''})")


class DataFormatError(DataError, ValueError):
    """A data file does not parse; ``line`` is 1-based (None if unknown)."""

    def __init__(self, path, line: int | None, text: str | None, reason: str):
        self.path = path
        self.line = line
        self.text = text
        self.reason = reason
        where = f"{path}" if line is None else f"{path}, line {line}"
        shown = ""
        if text is not None:
            shown = text if len(text) <= 200 else text[:200] + "..."
            shown = f": {shown!r}"
        super().__init__(f"{where}: {reason}{shown}")

    def __reduce__(self):
        return (type(self), (self.path, self.line, self.text, self.reason))


class UnknownDatasetError(DataError, KeyError):
    """A dataset name (or split) that the registry does not know."""

    def __str__(self) -> str:  # KeyError would wrap the message in quotes
        return self.args[0]


def _rebuild(cls, args, kwargs):
    return cls(*args, **kwargs)
