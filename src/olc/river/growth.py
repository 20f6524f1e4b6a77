"""Growing a learner's state when new features appear, exactly — or refusing to.

A River stream names its features as they come, so the state arrays (``_vecs`` k × width,
``_ints`` with blocks of length width, ``_scal``) must widen. We keep a *capacity* (the width
of the arrays, doubled when exceeded) larger than the number d of columns in use, and pad new
columns with each coordinate's initial state (zeros; AROW's prior variance 1). That is exact —
learning at width ≥ d gives, bit for bit, what learning at width d gives (tested against
pre-declared columns and against ``partial_fit``) — when two facts hold for the rule:

(a) a coordinate j that no example has touched keeps its initial value, whatever the width:
    the step reads and writes only the coordinates of x (``dot``, ``axpy``, the tracked
    support lists of ``scaled.py``, which list touched coordinates only), the scalar slots,
    and whole-vector operations that act coordinate by coordinate (folding a scale into v,
    clearing v): v_j·s and 0·s are 0, so a pristine coordinate stays pristine;
(b) the width never enters the arithmetic: no sum runs over all d coordinates (a
    reassociated sum over d entries groups its terms by position, so trailing zeros move the
    rounding), and no count, threshold or error bound is computed from d.

Each layout declares which it is, with the reason, next to the state it is about
(``growth=grows(why)`` / ``refuses(why)``, ``_compiled/layouts/base.py``); a layout that
declares neither is a contract error. A refused learner keeps the width it started with — its
``features=`` or the first example's keys — and an unknown feature is an error naming the
reason. AROW's full covariance keeps the bias as its last coordinate: growing moves that row
and column to the new last index (values copied, not recomputed).
"""
import numpy as np

from .._compiled import rule_ids as ids
from .._compiled.layouts.second_order import FIRST_SIGMA_ROW
from ..learners._framework.validation import InputError

_FULL_COVARIANCE = (ids.AROW_FULL, ids.AROW_REGRESSION_FULL)


def refusal(learner):
    """Why ``learner``'s state cannot grow exactly (its layout's declaration), or None when it
    can."""
    declared = learner._layout.growth
    if declared is None:
        return "its layout declares no growth (grows or refuses)"
    return None if declared.exact else declared.why


def initial_state(learner, width):
    """(vecs, ints, scal) of ``learner`` before any example, ``width`` columns."""
    vecs, scal = learner._initial_state(width)
    return vecs, np.array(learner._initial_ints(width)), scal


def resize(learner, state, width, new_width):
    """The state at ``new_width`` columns: the first min(width, new_width) columns copied, the
    others at their initial value (growing; or cutting columns still at their initial value,
    for a fitted olc learner of exactly d columns). Scalars are the state's own."""
    vecs, ints, scal = state
    new_vecs, new_ints, _ = initial_state(learner, new_width)
    keep = min(width, new_width)
    if learner._rule in _FULL_COVARIANCE:
        _move_covariance(vecs, width, new_vecs, new_width, keep)
    else:
        new_vecs[:, :keep] = vecs[:, :keep]
    layout = learner._layout
    if new_ints.size:
        slots = layout.n_int_slots
        new_ints[:slots] = ints[:slots]
        for block in range(layout.n_int_blocks):
            old, new = slots + block * width, slots + block * new_width
            new_ints[new:new + keep] = ints[old:old + keep]
    return new_vecs, new_ints, scal.copy()


def _move_covariance(vecs, width, new_vecs, new_width, keep):
    """AROW's full layout: row 0 = μ, then the rows of Σ; coordinate ``width`` (the last) is
    the bias, which moves to ``new_width``."""
    F = FIRST_SIGMA_ROW
    new_vecs[0, :keep] = vecs[0, :keep]
    new_vecs[0, new_width] = vecs[0, width]
    new_vecs[F:F + keep, :keep] = vecs[F:F + keep, :keep]
    new_vecs[F:F + keep, new_width] = vecs[F:F + keep, width]
    new_vecs[F + new_width, :keep] = vecs[F + width, :keep]
    new_vecs[F + new_width, new_width] = vecs[F + width, width]


def grown(learner, state, width, needed):
    """The state widened to hold ``needed`` columns: capacity doubled (at least 8), or
    exactly ``needed`` when the doubled state would be refused as too large (AROW's full
    covariance has a size limit)."""
    target = max(needed, 2 * width, 8)
    try:
        return resize(learner, state, width, target), target
    except (InputError, MemoryError):
        if target == needed:
            raise
        return resize(learner, state, width, needed), needed
