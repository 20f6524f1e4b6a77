"""Numba-compiled core: vector kernels, per-algorithm update rules, and one online loop per
input layout (dense rows, CSR rows). Nothing here knows about files, labels or metrics.

On-disk cache. numba checks only the cached function's own source file for staleness, so an
edit to a rule would not invalidate the cached loops that inline it. The compiled modules are
therefore cached in a folder named after a fingerprint of all their sources
(``<user cache>/olc/numba/<fingerprint>``, or under ``NUMBA_CACHE_DIR`` when set): any change
to any of them starts a fresh cache. numba's global setting is restored right after our
functions are decorated, so other numba code in the process is unaffected.
"""
import hashlib
import os
from pathlib import Path


def _fingerprint():
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        digest.update(path.relative_to(Path(__file__).parent).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _cache_root():
    from numba.core import config

    if config.CACHE_DIR:
        return Path(config.CACHE_DIR) / "olc"
    import platformdirs

    return Path(platformdirs.user_cache_dir("olc")) / "numba"


def _import_compiled_modules():
    from numba.core import config

    previous = config.CACHE_DIR
    config.CACHE_DIR = os.fspath(_cache_root() / _fingerprint())
    try:
        from . import dispatch, kernels, loops  # noqa: F401  (decorating caches them here)
    finally:
        config.CACHE_DIR = previous


_import_compiled_modules()
