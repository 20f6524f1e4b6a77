"""``jit``: numba's ``njit`` with the disk cache switched on later, by family.

numba checks only a cached function's own source file for staleness, so a cached loop that
inlines a rule from another file would survive an edit of that rule. Every compiled function
of olc is therefore declared with :func:`jit` (no cache at decoration time) and its cache is
enabled by ``loader.py`` in a folder named after a fingerprint of exactly the source files
its family depends on: an edit to one family recompiles that family only, and never reuses a
stale cache. Functions used outside a family's loops (e.g. the nearest-point solver behind
``olc.max_margin``) are enabled the same way (``families.ensure_cached``).
"""
from collections import defaultdict

import numba as nb

_DISPATCHERS = defaultdict(list)  # module name -> its jit dispatchers, in definition order


def jit(*args, **options):
    """``numba.njit`` (nopython) whose disk cache :func:`enable_cache` switches on later."""
    if options.pop("cache", False):
        raise TypeError("olc's jit enables the cache by family; do not pass cache=True")

    def decorate(func):
        dispatcher = nb.njit(**options)(func)
        _DISPATCHERS[func.__module__].append(dispatcher)
        return dispatcher

    if args and callable(args[0]) and len(args) == 1 and not options:
        return decorate(args[0])
    if args:
        raise TypeError("jit takes keyword options only")
    return decorate


def enable_cache(module_name, directory):
    """Cache every dispatcher that ``module_name`` defined with :func:`jit` in ``directory``
    (numba reads ``CACHE_DIR`` when a dispatcher's cache is created; restored after)."""
    from numba.core import config

    previous = config.CACHE_DIR
    config.CACHE_DIR = str(directory)
    try:
        for dispatcher in _DISPATCHERS.get(module_name, ()):
            if not nb.config.DISABLE_JIT:
                dispatcher.enable_caching()
    finally:
        config.CACHE_DIR = previous


def dispatchers(module_name):
    return list(_DISPATCHERS.get(module_name, ()))
