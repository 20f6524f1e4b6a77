"""Cache entries that heal: an entry that cannot be read or does not verify (truncated,
wrong shape, wrong version, valid JSON of the wrong shape) is discarded with a one-line
:class:`CacheDiscardedWarning` and rebuilt by the caller.

Entries are written with :mod:`olc._util.atomic` (temporary file, fsync, rename), so concurrent
builders of the same entry cannot corrupt it: each writes its own temporary file and the
last rename wins with a complete entry (both hold the same content, since an entry is a
function of its key). No lock is needed.
"""
import json
import warnings
import zipfile

import numpy as np

#: What reading a damaged .npz or JSON entry can raise (besides the checks of the caller).
READ_ERRORS = (OSError, ValueError, KeyError, IndexError, TypeError, EOFError,
               UnicodeError, zipfile.BadZipFile)


class CacheDiscardedWarning(UserWarning):
    """A cache entry was unreadable or stale in a way that should not happen (damaged):
    it is removed and rebuilt."""


def discard(path, reason):
    """Warn (one line: the file and why) and remove the entry; never fails."""
    warnings.warn(f"discarding the cache entry {path} ({reason}); rebuilding it",
                  CacheDiscardedWarning, stacklevel=3)
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass


def read_npz(path, required):
    """{name: array} of an .npz entry holding at least ``required`` (no pickle), or None
    after :func:`discard` when it cannot be read. A missing file is None, silently."""
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            if not isinstance(data, np.lib.npyio.NpzFile):
                raise ValueError("not an .npz archive")
            missing = sorted(set(required) - set(data.files))
            if missing:
                raise KeyError(f"no {', '.join(missing)}")
            arrays = {k: data[k] for k in data.files}
    except READ_ERRORS as exc:
        discard(path, f"{type(exc).__name__}: {exc}")
        return None
    bad = [k for k, v in arrays.items() if not isinstance(v, np.ndarray)]
    if bad:
        discard(path, f"entries {bad} are not arrays")
        return None
    return arrays


def read_json_object(path):
    """The JSON object of an entry, or None (missing: silently; unreadable or not an
    object: after :func:`discard`)."""
    if not path.exists():
        return None
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
    except READ_ERRORS as exc:
        discard(path, f"{type(exc).__name__}: {exc}")
        return None
    if not isinstance(payload, dict):
        discard(path, f"a JSON {type(payload).__name__}, not an object")
        return None
    return payload
