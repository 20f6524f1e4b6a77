"""Layouts of the ``regularized`` family: Shen & Dietterich's objective-regularized and
norm-constrained Passive-Aggressive rules (10–12) and NORMA (13).

Rules 10–12 keep w̃ = (w, b) — the bias is the weight of an appended constant feature 1 when
``fit_intercept``, 0 otherwise — as a scaled vector: w = S·v (``vecs[V]``, ``scal[SCALE]``)
and b = S·``scal[BIAS_RAW]``, so shrinking w̃ costs O(1). Their integer state is the support
of v (``kernels/scaled.py``'s tracked support): ``ints[SUPPORT_COUNT]`` coordinates listed in the
``SUPPORT_LIST`` block, and the ``SUPPORT_POS`` block holding 1 + the position of each listed
coordinate (0: not listed); the list may hold stale zeros until compacted. ``scal[NORM]`` is
‖w̃‖² (rules 10, 11) or ‖w̃‖₁ (rule 12), maintained incrementally, and ``scal[NORM_ERR]`` a
bound on its rounding error (the norm is recomputed exactly over the support when the bound
grows too large).

NORMA keeps w = S·v (``vecs[V]``, ``scal[SCALE]``), its unregularized bias b in
``scal[BIAS]`` (not scaled) and the number of rounds seen in ``scal[ROUNDS]``.
"""
from .base import Layout, fields, grows
from ..rule_ids import L1_CONSTRAINED_PA, L2_CONSTRAINED_PA, NORMA, OBJECTIVE_PA

# -- rules 10-12 ---------------------------------------------------------------------------
ShenDietterichScal = fields("bias_raw", "scale", "norm", "norm_err")
ShenDietterichVec = fields("v")
SupportInt = fields("support_count")
SupportBlock = fields("support_list", "support_pos")

# update: when the problem is solved, on y(w·x + b) ≤ 0 (UPDATE_MISTAKE), < 1 (UPDATE_HINGE)
# or every round (UPDATE_ALWAYS); sigma: the small-weight removal threshold (0: off).
ObjectivePaHP = fields("alpha", "update", "fit_intercept", "sigma")
BallPaHP = fields("beta", "update", "fit_intercept", "sigma")
UPDATE_MISTAKE, UPDATE_HINGE, UPDATE_ALWAYS = 0, 1, 2

# Growth: every whole-vector operation runs over the tracked support list; the integer blocks
# are re-laid out at the new width with their contents (an untouched coordinate's position
# is 0, "not listed").
_SD_STATE = dict(scalars=ShenDietterichScal, vectors=ShenDietterichVec, int_slots=SupportInt,
                 int_blocks=SupportBlock,
                 growth=grows("whole-vector operations run over the tracked support list"))
OBJECTIVE_PA_LAYOUT = Layout(OBJECTIVE_PA, hp=ObjectivePaHP, **_SD_STATE, family="regularized")
L2_CONSTRAINED_PA_LAYOUT = Layout(L2_CONSTRAINED_PA, hp=BallPaHP, **_SD_STATE, family="regularized")
L1_CONSTRAINED_PA_LAYOUT = Layout(L1_CONSTRAINED_PA, hp=BallPaHP, **_SD_STATE, family="regularized")

# -- rule 13 -------------------------------------------------------------------------------
# schedule: η_t = η (SCHEDULE_CONSTANT) or η/√t (SCHEDULE_SQRT).
NormaHP = fields("eta", "lam", "rho", "schedule", "fit_intercept")
SCHEDULE_CONSTANT, SCHEDULE_SQRT = 0, 1
NormaScal = fields("bias", "scale", "rounds")
NormaVec = fields("v")
NORMA_LAYOUT = Layout(NORMA, hp=NormaHP, scalars=NormaScal, vectors=NormaVec,
                      growth=grows("w = S·v: the shrink is O(1), the add on x's support"),
                      family="regularized")
