"""Rules of Harrington, Herbrich, Kivinen, Platt & Williamson, "Online Bayes Point
Machines" (PAKDD 2003): the generalised perceptron (Algorithm 1) and OBPM (Algorithm 2).
Their state and hyper-parameters are named in ``layouts/bayes_point.py``.

Generalised perceptron: w = vecs[W]; scal[SQ] = ‖w‖² + b² (the bias is an extra attribute
+1 of x, footnote 4, so it counts in ‖w‖), scal[UPDATES] = k − 1. Schedules: CONSTANT
(ρ_k = ρ, η_k = η) or INV_SQRT (ρ_k = ρ/√k, η_k = η/√k).

OBPM: vecs[SUM] = Σ_j w_j (the classifier is its mean), member j's w in row
FIRST_MEMBER_ROW + j, vecs[SCRATCH] = the support of x in the member being updated (read back
to get its change); member j's scalar block (the base rule's own layout, e.g. its bias in
MEMBER_BIAS) starts at FIRST_MEMBER_BLOCK + MEMBER_BLOCK·j, and the block of the member being
updated is saved at SAVED_BLOCK. hp: N, τ, seed, the base rule id, then the base rule's hp.

Squared norms (SQ, SUM_SQ) are updated incrementally in O(nnz(x)); WORK counts the nonzeros
of the rows that changed the vector since the last exact recomputation, which is made (O(d))
when WORK reaches 4d — amortized O(nnz), and rounding drift is bounded. The count uses the
nonzero *values* of x, so dense and CSR rows trigger it at the same steps.
"""
import math

from ..kernels.averaging import average_step, averaged_score
from ..caching import jit
from ..kernels.vector import INLINE, axpy, dot, sign, sqnorm
from ..layouts.bayes_point import (
    FIRST_BASE_HP,
    FIRST_MEMBER_BLOCK,
    FIRST_MEMBER_ROW,
    INV_SQRT,
    MEMBER_BIAS,
    MEMBER_BLOCK,
    SAVED_BLOCK,
    ObpmHP,
    ObpmScal,
    ObpmVec,
)
from ..layouts.averaging import AveragingScal
from ..layouts.bayes_point import AveragedGeneralizedPerceptronHP as AvgGPHP
from ..layouts.bayes_point import AveragedGeneralizedPerceptronScal as AvgGPScal
from ..layouts.bayes_point import AveragedGeneralizedPerceptronVec as AvgGPVec
from ..layouts.bayes_point import GeneralizedPerceptronHP as GPHP
from ..layouts.bayes_point import GeneralizedPerceptronScal as GPScal
from ..layouts.linear import LinearVec
from ..kernels.random import uniform
from ..rule_ids import GENERALIZED_PERCEPTRON, PASSIVE_AGGRESSIVE, PERCEPTRON
from .linear import passive_aggressive_step, perceptron_step

W = LinearVec.W
AVG_SUM, AVG = AvgGPVec.AVG_SUM, AvgGPScal.AVG_ROWS
AVG_COUNT = AveragingScal.COUNT
SUM, SCRATCH = ObpmVec.SUM, ObpmVec.SCRATCH

RECOMPUTE_FACTOR = 4


@jit(inline=INLINE)
def _sqnorm_count(idx, val):
    """(‖x‖², number of nonzero values of x), strict order."""
    sq = 0.0
    c = 0
    for k in range(val.shape[0]):
        x = val[k]
        sq += x * x
        if x != 0.0:
            c += 1
    return sq, c


# -- generalised perceptron -----------------------------------------------------------------

@jit(inline=INLINE)
def gp_score(idx, val, vecs, ints, scal, hp, fast):
    if vecs.shape[0] > AVG_SUM and scal[AVG + AVG_COUNT] > 0.0:  # averaging has begun
        return averaged_score(vecs[AVG_SUM], vecs[W], idx, val, scal, AVG, fast)
    return dot(vecs[W], idx, val, fast) + scal[GPScal.BIAS]


@jit(inline=INLINE)
def gp_step(idx, val, y, vecs, ints, scal, hp, fast):
    """Algorithm 1, one round: update when y(w_k·x)/‖w_k‖ ≤ ρ_k (line 3), w_{k+1} = w_k +
    η_k y x (line 4), k ← k + 1 (line 5). Tested as y(w·x + b) ≤ ρ_k‖(w, b)‖ (the same for
    ‖w‖ > 0; at w = 0, where the paper's ratio is 0/0, the margin counts as 0, so the first
    round updates as the perceptron's does). Then, when the state has it, the averaging of
    the iterate (``kernels/averaging.py``)."""
    w = vecs[W]
    s = dot(w, idx, val, fast) + scal[GPScal.BIAS]
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0
    k = scal[GPScal.UPDATES] + 1.0
    rho = hp[GPHP.RHO]
    if hp[GPHP.RHO_SCHEDULE] == INV_SQRT:
        rho = rho / math.sqrt(k)
    sq = scal[GPScal.SQ]
    if y * s > rho * math.sqrt(sq):
        if vecs.shape[0] > AVG_SUM:  # averaging (the state has the sum row): a call
            average_step(idx, val, vecs[AVG_SUM], scal, AVG, hp, AvgGPHP.AVERAGE, 0.0, 1.0,
                         scal[GPScal.BIAS])
        return s, pred, False, 0.0
    eta = hp[GPHP.ETA]
    if hp[GPHP.ETA_SCHEDULE] == INV_SQRT:
        eta = eta / math.sqrt(k)
    a = eta * y
    fit = hp[GPHP.FIT_INTERCEPT] != 0.0
    xx, nz = _sqnorm_count(idx, val)
    # ‖(w + a x, b + a)‖² = ‖(w, b)‖² + 2a(w·x + b) + a²(‖x‖² + 1); without a bias b = 0.
    new_sq = sq + 2.0 * a * s + a * a * (xx + (1.0 if fit else 0.0))
    if not math.isfinite(new_sq):
        return math.inf, pred, False, 0.0  # the update would overflow: decline (contract)
    axpy(a, idx, val, w)
    if fit:
        scal[GPScal.BIAS] += a
    scal[GPScal.UPDATES] = k
    work = scal[GPScal.WORK] + nz + 1.0
    if work >= RECOMPUTE_FACTOR * w.shape[0]:
        b = scal[GPScal.BIAS]
        new_sq = sqnorm(None, w) + b * b
        work = 0.0
    scal[GPScal.SQ] = new_sq if new_sq > 0.0 else 0.0
    scal[GPScal.WORK] = work
    if vecs.shape[0] > AVG_SUM:
        average_step(idx, val, vecs[AVG_SUM], scal, AVG, hp, AvgGPHP.AVERAGE, a, 1.0,
                     scal[GPScal.BIAS])
    return s, pred, True, 0.0


# -- OBPM -----------------------------------------------------------------------------------

@jit()
def member_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    """One member's round with the base learner's own rule (state (w, b) in vecs[W] and
    scal[MEMBER_BIAS], additive update of w on the support of x). Members never average (a
    member's state is one row, so the steps' averaging branch never runs)."""
    if rule == PERCEPTRON:
        return perceptron_step(idx, val, y, vecs, ints, scal, hp, fast)
    if rule == PASSIVE_AGGRESSIVE:
        return passive_aggressive_step(idx, val, y, vecs, ints, scal, hp, fast)
    return gp_step(idx, val, y, vecs, ints, scal, hp, fast)


@jit(inline=INLINE)
def _denominator(vecs, scal):
    """N·max(1, ‖mean‖) = max(N, ‖Σ_j (w_j, b_j)‖): w̃ = mean/max(1, ‖mean‖) (line 15)."""
    n = float(vecs.shape[0] - FIRST_MEMBER_ROW)
    sq = scal[ObpmScal.SUM_SQ]
    r = math.sqrt(sq) if sq > 0.0 else 0.0
    return r if r > n else n


@jit(inline=INLINE)
def obpm_score(idx, val, vecs, ints, scal, hp, fast):
    """w̃·x + b̃ with (w̃, b̃) = (Σ_j (w_j, b_j)/N) / max(1, ‖Σ_j (w_j, b_j)/N‖)."""
    sx = dot(vecs[SUM], idx, val, fast) + scal[ObpmScal.SUM_BIAS]
    return sx / _denominator(vecs, scal)


@jit(inline=INLINE)
def _snapshot(idx, val, w, buf):
    if idx is None:
        for j in range(val.shape[0]):
            buf[j] = w[j]
    else:
        for k in range(idx.shape[0]):
            buf[k] = w[idx[k]]


@jit(inline=INLINE)
def _restore(idx, val, w, buf):
    if idx is None:
        for j in range(val.shape[0]):
            w[j] = buf[j]
    else:
        for k in range(idx.shape[0]):
            w[idx[k]] = buf[k]


@jit(inline=INLINE)
def _change_products(idx, val, w, buf, total):
    """(Σ_i total_i δ_i, Σ_i δ_i²) over the nonzeros of x, δ = w − buf (the member's change)."""
    cross = 0.0
    dd = 0.0
    if idx is None:
        for j in range(val.shape[0]):
            if val[j] != 0.0:
                dl = w[j] - buf[j]
                cross += total[j] * dl
                dd += dl * dl
    else:
        for k in range(idx.shape[0]):
            if val[k] != 0.0:
                j = idx[k]
                dl = w[j] - buf[k]
                cross += total[j] * dl
                dd += dl * dl
    return cross, dd


@jit(inline=INLINE)
def _add_change(idx, val, w, buf, total):
    if idx is None:
        for j in range(val.shape[0]):
            if val[j] != 0.0:
                total[j] += w[j] - buf[j]
    else:
        for k in range(idx.shape[0]):
            if val[k] != 0.0:
                j = idx[k]
                total[j] += w[j] - buf[k]


@jit(inline=INLINE)
def _copy_block(source, target):
    for k in range(MEMBER_BLOCK):
        target[k] = source[k]


@jit(inline=INLINE)
def obpm_step(idx, val, y, vecs, ints, scal, hp, fast):
    """Algorithm 2, one round t: predict with w̃_{t−1} (the average of the previous round);
    then for each member j draw b_{j,t} = [uniform(seed, j, t) < τ] (line 6) and, if 1, run
    the base learner's round on (x_t, y_t) (line 8); the member sum, its bias sum and its
    squared norm follow each member's change in O(nnz(x)) (line 13). aux = the number of
    members that updated.

    Overflow: a member whose own step declines (non-finite), or whose change would make
    ‖Σ_j (w_j, b_j)‖² overflow, is restored and the round is reported as an overflow (the
    loop stops); members updated earlier in that round keep their update.
    """
    total = vecs[SUM]
    n = vecs.shape[0] - FIRST_MEMBER_ROW
    d = vecs.shape[1]
    sx = dot(total, idx, val, fast) + scal[ObpmScal.SUM_BIAS]
    if not math.isfinite(sx):
        return sx, sign(sx), False, 0.0  # NaN/inf in x (or overflow): nothing is touched
    s = sx / _denominator(vecs, scal)
    pred = sign(s)
    tau = hp[ObpmHP.TAU]
    seed = hp[ObpmHP.SEED]
    t = scal[ObpmScal.STEP]
    base_rule = int(hp[ObpmHP.BASE_RULE])
    base_hp = hp[FIRST_BASE_HP:]
    buf = vecs[SCRATCH]
    saved = scal[SAVED_BLOCK:SAVED_BLOCK + MEMBER_BLOCK]
    nz = -1
    updated = 0
    for j in range(n):
        if not uniform(seed, j, t) < tau:
            continue
        row = FIRST_MEMBER_ROW + j
        member = vecs[row:row + 1]
        start = FIRST_MEMBER_BLOCK + MEMBER_BLOCK * j
        block = scal[start:start + MEMBER_BLOCK]
        w = member[W]
        _snapshot(idx, val, w, buf)
        _copy_block(block, saved)
        sj, _, uj, _ = member_step(base_rule, idx, val, y, member, ints, block, base_hp, fast)
        if not math.isfinite(sj):
            return math.inf, pred, updated > 0, float(updated)
        if not uj:
            continue
        db = block[MEMBER_BIAS] - saved[MEMBER_BIAS]
        cross, dd = _change_products(idx, val, w, buf, total)
        sb = scal[ObpmScal.SUM_BIAS]
        new_sq = scal[ObpmScal.SUM_SQ] + 2.0 * (cross + sb * db) + (dd + db * db)
        if not math.isfinite(new_sq):
            _restore(idx, val, w, buf)
            _copy_block(saved, block)
            return math.inf, pred, updated > 0, float(updated)
        _add_change(idx, val, w, buf, total)
        scal[ObpmScal.SUM_BIAS] = sb + db
        if nz < 0:
            _, nz = _sqnorm_count(idx, val)
        work = scal[ObpmScal.WORK] + nz + 1.0
        if work >= RECOMPUTE_FACTOR * d:
            sb = scal[ObpmScal.SUM_BIAS]
            new_sq = sqnorm(None, total) + sb * sb
            work = 0.0
        scal[ObpmScal.SUM_SQ] = new_sq if new_sq > 0.0 else 0.0
        scal[ObpmScal.WORK] = work
        updated += 1
    scal[ObpmScal.STEP] = t + 1.0
    return s, pred, updated > 0, float(updated)


# -- family dispatchers ---------------------------------------------------------------------

@jit()
def family_score(rule, idx, val, vecs, ints, scal, hp, fast):
    if rule == GENERALIZED_PERCEPTRON:
        return gp_score(idx, val, vecs, ints, scal, hp, fast)
    return obpm_score(idx, val, vecs, ints, scal, hp, fast)


@jit()
def family_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    if rule == GENERALIZED_PERCEPTRON:
        return gp_step(idx, val, y, vecs, ints, scal, hp, fast)
    return obpm_step(idx, val, y, vecs, ints, scal, hp, fast)
