"""Per-family one-example entry points (``one_row.py``, a template): compiled on first use,
cached on disk, announced while compiling — the counterpart of ``families.py`` for the loops.

``load(family)`` first loads the family's loops (``families.load``: the rule modules are
imported and their disk caches switched on), then executes ``one_row.py`` as a module of its
own, ``olc._compiled._one_row_<family>``, with that family's ``family_step`` /
``family_score``. Its disk cache lives in ``<root>/one-row-<family>-<fingerprint>``, the
fingerprint hashing the family's sources, the shared core and ``one_row.py`` itself, so an
edit of any of them recompiles (and never reuses a stale entry).
"""
import importlib
import importlib.util
import os
import sys
import threading

import numpy as np

from . import caching, families
from .rule_ids import CORE_SOURCES, FAMILIES, family_of

# learn_one's result: the step's ``updated`` flag, or why it stopped before learning.
NOT_UPDATED, UPDATED, BAD_VALUE, DECLINED = 0, 1, 2, 3

_TEMPLATE_SOURCES = ("one_row.py", "one_row_entries.py")
ENTRY_POINTS = ("learn_one", "score_one")

_lock = threading.RLock()
_loaded = {}       # family name -> its one-row module instance
_loading = None    # the Family whose one-row module is executing (read by one_row.py)


def loading():
    """The family whose one-row module is being executed (``one_row.py`` asks at import)."""
    if _loading is None:
        raise ImportError("olc._compiled.one_row is a template: get a family's entry points "
                          "with olc._compiled.one_row_entries.load(name) or entries_for(rule)")
    return _loading


def fingerprint(family):
    return families._fingerprint(CORE_SOURCES + FAMILIES[family].sources + _TEMPLATE_SOURCES)


def cache_dir(family):
    return families.cache_root() / f"one-row-{family}-{fingerprint(family)}"


def is_cached(family):
    """Whether ``family``'s ``learn_one`` is in the disk cache (an index file exists)."""
    directory = cache_dir(family)
    return directory.is_dir() and any(directory.glob("**/one_row.learn_one-*.nbi"))


def load(family):
    """The one-row module of ``family`` (a name), executed and cached once per process."""
    global _loading
    module = _loaded.get(family)
    if module is not None:
        return module
    with _lock:
        if family in _loaded:
            return _loaded[family]
        families.load(family)  # rule modules imported, their caches switched on
        spec = FAMILIES[family]
        rules = importlib.import_module(f"{__package__}.{spec.module}")
        template = importlib.util.find_spec(f"{__package__}.one_row")
        name = f"{__package__}._one_row_{family}"
        instance_spec = importlib.util.spec_from_file_location(name, template.origin)
        module = importlib.util.module_from_spec(instance_spec)
        _loading = spec
        try:
            module.family_step, module.family_score = rules.family_step, rules.family_score
            instance_spec.loader.exec_module(module)
        finally:
            _loading = None
        sys.modules[name] = module
        caching.enable_cache(name, cache_dir(family))
        if not is_cached(family):
            _announce(family)
        _loaded[family] = module
        return module


def entries_for(rule):
    """The one-row module of the family that holds ``rule`` (an id)."""
    return load(family_of(rule).name)


def row_buffers(width):
    """The scratch row ``learn_one`` / ``score_one`` write an example into: (uint32 columns,
    float64 values) of ``width`` (≥ 1) entries, read-only views of writable arrays (the
    entries write through ``kernels.writable``; the read-only type is the loops' CSR rows',
    which lets the entries reuse the loops' compiled rule step). ``width`` must be at least
    the number of distinct columns of any example: the model's column count."""
    idx, val = np.zeros(max(1, width), np.uint32), np.zeros(max(1, width))
    views = idx.view(), val.view()
    for view in views:
        view.flags.writeable = False
    return views


def bind(rule, vecs, ints, scal, hp):
    """(learn_one, score_one) of ``rule``'s family, compiled for these state arrays' types,
    as numba's *entry points*: the compiled wrappers that only unbox their arguments. Calling
    the dispatcher instead also works out every argument's type on every call, 0.4 µs of the
    ~1 µs a one-example call costs. An entry point trusts its arguments' types: the caller
    binds again whenever it replaces a state array, and passes bytes for ``cols`` and ``raw``
    and the ``row_buffers`` pair. Without compilation (NUMBA_DISABLE_JIT=1) the plain
    functions."""
    module = entries_for(rule)
    learn, score = module.learn_one, module.score_one
    compile_ = getattr(learn, "compile", None)
    if compile_ is None:
        return learn, score
    from numba import typeof, types

    state = tuple(typeof(a) for a in (vecs, ints, scal, hp)) + tuple(
        typeof(a) for a in row_buffers(1))
    raw = typeof(b"")
    learn = learn.compile((types.int64, raw, raw, types.float64) + state + (types.boolean,))
    score = score.compile((types.int64, raw, raw) + state + (types.boolean,))
    return learn, score


def _announce(family):
    if os.environ.get("OLC_COMPILE_NOTICE", "1") in ("0", "false", "no"):
        return
    seconds = max(1, families.ESTIMATED_SECONDS.get(family, 20) // 2)
    print(f"olc: compiling {family} ({FAMILIES[family].description}) for one example at a "
          f"time (River), on this machine, once: ~{seconds} s", file=sys.stderr, flush=True)
