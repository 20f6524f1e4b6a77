"""River's measure of a model's memory, walked safely (``LearnerState._raw_memory_usage``)."""
import sys

import numpy as np


def reachable_bytes(roots):
    """River's walk (``river.base.Base._raw_memory_usage``) from ``roots``, except that a weak
    proxy is counted as itself and not followed: ``isinstance`` on a proxy whose referent is
    gone raises ReferenceError (seen once in CI inside River's own walk, from an object we
    could not pin down)."""
    import gc
    import types
    import weakref

    blacklist = (type, types.ModuleType, types.FunctionType)
    seen, size, pending = set(), 0, list(roots)
    while pending:
        following = []
        for obj in pending:
            if type(obj) in weakref.ProxyTypes:
                continue
            if isinstance(obj, blacklist) or id(obj) in seen:
                continue
            seen.add(id(obj))
            size += sys.getsizeof(obj)
            if isinstance(obj, np.ndarray):
                size += obj.nbytes
            following.append(obj)
        pending = gc.get_referents(*following)
    return size
