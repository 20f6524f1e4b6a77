"""Remember which local files already passed their checksum.

Hashing every file at every ``load`` would cost more than reading small data sets,
so a file is hashed once and a small marker records (path, size, mtime, inode,
expected digest). While these are unchanged the file counts as verified.

Markers live in the *user cache* folder (``$OLC_CACHE`` or
``platformdirs.user_cache_dir('olc')``), never next to the data: a data home may
be read-only (a shared data set folder), and we must never write there. If the
cache folder is not writable the markers are silently skipped (only an
in-process memo remains), which costs a re-hash per process, nothing else.

Trade-off, on purpose: a file rewritten in place with the same size and a forged
mtime would not be re-hashed; ``fetch(..., verify='always')`` hashes anyway.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

import platformdirs

__all__ = ["cache_dir", "is_verified", "mark_verified", "forget"]

_memo: dict[str, tuple] = {}


def cache_dir() -> Path:
    """Folder for olc's own bookkeeping: ``$OLC_CACHE`` or the user cache dir."""
    env = os.environ.get("OLC_CACHE")
    return Path(env) if env else Path(platformdirs.user_cache_dir("olc"))


def _key(path: Path) -> str:
    return str(Path(path).resolve())


def _stamp(path: Path, token: str) -> tuple:
    st = os.stat(path)
    return (st.st_size, st.st_mtime_ns, st.st_ino, token)


def _marker(key: str) -> Path:
    name = hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return cache_dir() / ".verified" / f"{name}.json"


def is_verified(path: Path, token: str) -> bool:
    """True if ``path`` was verified against ``token`` and has not changed since."""
    key = _key(path)
    try:
        stamp = _stamp(path, token)
    except OSError:
        return False
    if _memo.get(key) == stamp:
        return True
    try:
        data = json.loads(_marker(key).read_text())
    except (OSError, ValueError):
        return False
    ok = data.get("path") == key and tuple(data.get("stamp", ())) == stamp
    if ok:
        _memo[key] = stamp
    return ok


def mark_verified(path: Path, token: str) -> None:
    """Record that ``path`` matched ``token``; never fails (best effort)."""
    key = _key(path)
    try:
        stamp = _stamp(path, token)
    except OSError:
        return
    _memo[key] = stamp
    marker = _marker(key)
    tmp = None
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        # atomic write: parallel workers (joblib) may verify the same file at once
        fd, tmp = tempfile.mkstemp(dir=marker.parent, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump({"path": key, "stamp": list(stamp)}, f)
        os.replace(tmp, marker)
    except OSError:
        # read-only or missing cache folder: keep the in-process memo only
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def forget(path: Path) -> None:
    """Drop any record for ``path`` (used before re-checking a file)."""
    key = _key(path)
    _memo.pop(key, None)
    try:
        _marker(key).unlink(missing_ok=True)
    except OSError:
        pass
