"""The Python side of the one-example entries (``loops/one_row.py``, River's ``learn_one`` /
``predict_one``): the family's compiled entries as numba entry points, and the scratch row
they write an example into."""
import numpy as np

from ..families import load_one_row
from ..loops.codes import BAD_VALUE, DECLINED, NOT_UPDATED, UPDATED  # noqa: F401 (River reads them)
from ..loops.one_row_state import descriptor
from ..rule_ids import family_of


def entries_for(rule):
    """The one-example entries of the family that holds ``rule`` (an id)."""
    return load_one_row(family_of(rule).name)


def row_buffers(width):
    """The scratch row ``learn_one`` / ``score_one`` write an example into: (uint32 columns,
    float64 values) of ``width`` (≥ 1) entries — the row's capacity, ``val.shape[0]`` —,
    read-only views of writable arrays (the entries write through ``kernels.writable``; the
    read-only type is the loops' CSR rows', which lets the entries reuse the loops' compiled
    rule step); the uint32 array has one entry more, the last row's length (written by every
    entry that builds the row, read by ``learn_row``). ``width`` must be at least the number
    of distinct columns of any example: the model's column count."""
    width = max(1, width)
    idx, val = np.zeros(width + 1, np.uint32), np.zeros(width)
    views = idx.view(), val.view()
    for view in views:
        view.flags.writeable = False
    return views


def bind(rule, vecs, ints, scal, hp):
    """(learn_one, learn_row, score_one) of ``rule``'s family as numba's *entry points*: the
    compiled wrappers that only unbox their arguments. Calling the dispatcher instead also
    works out every argument's type on every call, 0.4 µs of the ~1 µs a one-example call
    cost. An entry point trusts its arguments' types: the caller passes bytes for ``cols``
    and ``raw`` and a state descriptor (``loops/one_row_state.descriptor``) for the state arrays,
    whose types are checked here. Without compilation (NUMBA_DISABLE_JIT=1) the plain
    functions."""
    descriptor(vecs, ints, scal, hp, *row_buffers(1))  # the types the entries read
    module = entries_for(rule)
    learn, learn_row, score = module.learn_one, module.learn_row, module.score_one
    if getattr(learn, "compile", None) is None:
        return learn, learn_row, score
    from numba import types

    raw, state = types.Bytes(types.uint8, 1, "C", readonly=True), types.int64[::1]
    learn = learn.compile((types.int64, raw, raw, types.float64, state, types.boolean))
    learn_row = learn_row.compile((types.int64, types.float64, state, types.boolean))
    score = score.compile((types.int64, raw, raw, state, types.boolean))
    return learn, learn_row, score
