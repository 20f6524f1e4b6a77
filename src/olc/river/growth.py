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

Each growable rule below was read for (a) and (b):

- perceptron, PA, PA-I, PA-II (``rules/linear.py``) and PA regression (``rules/regression.py``):
  w·x over x's support, w += τy·x on it, the bias a scalar.
- e-OMM ℓ2 (``rules/omm.py``): v₊, v₋ scaled vectors (``sv_*``: O(1) scale changes, adds on
  x's support, folds coordinate-wise); the cached products are scalars updated by formulas;
  ``_reset_to`` clears v (coordinate-wise) then adds x.
- ALMA₂ (``rules/alma.py``): w = S·v, the norm kept by formula, the projection an O(1) change
  of S, the fold coordinate-wise.
- Shen & Dietterich's PA rules (``rules/regularized.py``, ``shen_dietterich.py``,
  ``l1_ball.py``): every whole-vector operation runs over the tracked support list; the
  integer blocks (list, positions) are re-laid out at the new width with their contents (a
  position block indexed by coordinate: untouched coordinates hold 0, "not listed").
- NORMA (``rules/norma.py``), SGD (``rules/sgd.py``): scaled vectors; SGD's clamp w ← 0
  clears coordinate-wise.
- Averaging (``average=``, ``_compiled/kernels/averaging.py``) adds the row ``avg_sum``, changed on
  x's support only, scalars, and SGD's rebase u ← (u + a·v)/b, coordinate by coordinate
  (0 stays 0): (a) and (b) hold.
- AROW, diagonal and diagonal-precision (``rules/second_order.py``), and AROW regression in
  those layouts: μ_j, Σ_jj change only where x_j ≠ 0; the pad is the prior (μ 0, Σ_jj 1).
- AROW full covariance (classification and regression): z = Σx̃ is accumulated over the
  rows of Σ of x's nonzeros, then the bias row. For a pristine coordinate j (μ_j = 0,
  Σ_jj = 1, Σ_ij = Σ_ji = 0 for i ≠ j): z_j = Σᵢ xᵢΣᵢⱼ + Σ_bj = 0 since x_j = 0; so
  μ_j += c·z_j keeps 0, row j is skipped (z_j = 0), and every other row's entry j becomes
  Σᵢⱼ − zᵢ·0/β = 0. The maxima (|z|, |μ|) ignore zeros; x̃ᵀΣx̃ sums over x's support and the
  bias. The bias is the last coordinate, so growing moves its row and column to the new
  last index (values copied, not recomputed).

Refused (the learner keeps the width it started with — its ``features=`` or the first
example's keys — and an unknown feature is an error): see ``REFUSED``.
"""
import numpy as np

from .._compiled import rule_ids as ids
from .._compiled.layouts.second_order import FIRST_SIGMA_ROW
from ..learners._framework.validation import InputError

REFUSED = {
    ids.ROMMA: "its exact norm refresh sets an error bound computed from the width d "
               "(exact_err(d)), and that bound decides when the next refresh happens",
    ids.AGGRESSIVE_ROMMA: "its exact norm refresh sets an error bound computed from the "
                          "width d (exact_err(d)), and that bound decides when the next "
                          "refresh happens",
    ids.PUMMA: "its exact norm refresh sets an error bound computed from the width d "
               "(exact_err(d)), and that bound decides when the next refresh happens",
    ids.GENERALIZED_PERCEPTRON: "it recomputes ‖w‖² exactly once its work reaches 4d "
                                "nonzeros, d the width",
    ids.OBPM: "it recomputes the members' ‖Σw‖² exactly once its work reaches 4d nonzeros, "
              "d the width",
    ids.NAIVE_OMM: "its update runs reassociated sums over all d coordinates (and keeps two "
                   "extra columns)",
    ids.EFFICIENT_OMM_LP: "its bias is a reassociated dot product over all d coordinates",
    ids.WINNOW: "its threshold defaults to N = d and its weights start at 1, so an unseen "
                "feature is not a zero column",
    ids.WEIGHTED_MAJORITY: "every expert (feature) must predict ±1 on every round",
    ids.RANDOMIZED_WEIGHTED_MAJORITY: "every expert (feature) must predict ±1 on every round",
}
_FULL_COVARIANCE = (ids.AROW_FULL, ids.AROW_REGRESSION_FULL)
# (The multiclass families' rules, K prototypes, are not wrapped at all: ``state._setup``.)
GROWABLE = frozenset(rule for family in ids.FAMILIES.values() if not family.multiclass
                     for rule in family.rules if rule not in REFUSED)


def refusal(learner):
    """Why ``learner``'s state cannot grow exactly, or None when it can."""
    return REFUSED.get(learner._rule)


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
