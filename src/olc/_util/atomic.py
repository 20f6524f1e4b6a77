"""Atomic file writes: a kill at any moment leaves the old file or the new one, never a mix.

Every file olc writes (models, results, tables, figures, caches, downloads) goes through
:func:`atomic_path` (or the helpers built on it): the content is written to a temporary file
in the target's folder (same file system, so the final rename is atomic), flushed and
fsynced, given the permissions of an ordinary new file (``0666 & ~umask``; ``mkstemp`` would
leave 0600), then renamed over the target, and the folder is fsynced so the rename itself
survives a power cut. The temporary name is hidden (``.NAME.XXXXXXXX.part``); a writer that
is killed leaves at most such a file behind, never a truncated target, and the next write of
the same target removes leftovers older than an hour.

Concurrent writers of the same target are safe too: each writes its own temporary file and
the last rename wins, so a reader sees one complete version or another.
"""
import glob
import os
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

__all__ = ["atomic_path", "atomic_open", "new_file_mode", "write_bytes", "write_text",
           "TEMP_SUFFIX", "check_out_dir"]

TEMP_SUFFIX = ".part"


def new_file_mode():
    """0666 masked by the process umask (what ``open(path, "w")`` would create)."""
    try:  # Linux: read the umask without changing it (os.umask is process-wide, racy)
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _fsync_folder(folder):
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # e.g. platforms where folders cannot be opened
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


#: A temporary file of the same target older than this was left by a killed writer.
STALE_SECONDS = 3600


def _remove_stale_temporaries(target):
    """Remove what killed writers of ``target`` left (never a recent one: another process
    may be writing it right now)."""
    now = time.time()
    try:
        leftovers = list(target.parent.glob(f".{glob.escape(target.name)}.*{TEMP_SUFFIX}"))
    except OSError:
        return
    for path in leftovers:
        try:
            if now - path.stat().st_mtime > STALE_SECONDS:
                path.unlink()
        except OSError:
            pass


@contextmanager
def atomic_path(target, *, mkdir=True):
    """``with atomic_path(target) as tmp: write(tmp)`` — the block writes the complete new
    content into ``tmp`` (a path in the target's folder); on normal exit it is fsynced and
    renamed over ``target``; on an exception it is removed and ``target`` is untouched."""
    target = Path(target)
    folder = target.parent
    if mkdir:
        folder.mkdir(parents=True, exist_ok=True)
    _remove_stale_temporaries(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=folder)
    os.close(fd)
    tmp = Path(tmp)
    try:
        yield tmp
        with open(tmp, "rb+") as fh:  # the writer may have closed (or replaced) the file
            os.fsync(fh.fileno())
        os.chmod(tmp, new_file_mode())
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_folder(folder)


@contextmanager
def atomic_open(target, mode="w", **kwargs):
    """``open`` for writing, atomically: the target changes only when the block ends
    without an exception. ``mode`` is ``"w"`` or ``"wb"`` (plus ``open``'s keywords)."""
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_open writes whole files: mode 'w' or 'wb', got {mode!r}")
    with atomic_path(target) as tmp:
        with open(tmp, mode, **kwargs) as fh:
            yield fh
            fh.flush()


def write_bytes(target, data):
    with atomic_open(target, "wb") as fh:
        fh.write(data)
    return Path(target)


def write_text(target, text, encoding="utf-8"):
    with atomic_open(target, "w", encoding=encoding) as fh:
        fh.write(text)
    return Path(target)


def check_out_dir(path, option="--out"):
    """Fail (one line) when ``path`` cannot be the output folder; creates nothing."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ValueError(f"{option} {path} is a file, not a folder")
    probe = path
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir():
        raise ValueError(f"{option} {path}: {probe} is a file, not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise ValueError(f"{option} {path} is not writable ({probe} is read-only)")
