"""Rules of seed 003 (Harrington et al., Online Bayes Point Machines): the generalised
perceptron (Algorithm 1) and OBPM (Algorithm 2).

Rule ids (family 50–59): GENERALIZED_PERCEPTRON = 50, OBPM = 51.

Generalised perceptron. w = vecs[0]; scal slots: BIAS = b, SQ = ‖w‖² + b² (the bias is an
extra attribute +1 of x, footnote 4, so it counts in ‖w‖), UPDATES = k − 1 (updates made so
far), WORK (see below). hp = [rho, eta, rho_schedule, eta_schedule, fit_intercept] with
schedule 0 = constant (ρ_k = ρ, η_k = η) and 1 = inverse square root (ρ_k = ρ/√k, η_k = η/√k).

OBPM. vecs[0] = Σ_j w_j (the member sum; the classifier is its mean), vecs[1..N] = the N
members' weight vectors, vecs[N+1] = scratch (the support of x in the member being updated,
read back to get its change). scal header: SUM_BIAS = Σ_j b_j, SUM_SQ = ‖Σ_j w_j‖² +
(Σ_j b_j)², STEP = rounds seen (the draw counter), WORK, BASE = the member rule id; member j's
scalar block (its own layout, e.g. the bias in its slot 0) is scal[HEADER + j·BLOCK :
HEADER + (j+1)·BLOCK]. hp = [N, tau, seed, base rule id, base hp …] (base hp from HP_BASE).

Squared norms (SQ, SUM_SQ) are updated incrementally in O(nnz(x)); WORK counts the nonzeros
of the rows that changed the vector since the last exact recomputation, which is made (O(d))
when WORK reaches 4d — amortized O(nnz), and rounding drift is bounded. The count uses the
nonzero *values* of x, so dense and CSR rows trigger it at the same steps.
"""
import math

import numba as nb

from ..caching import jit
from ..rule_ids import GENERALIZED_PERCEPTRON, OBPM, PASSIVE_AGGRESSIVE, PERCEPTRON

from ..kernels import INLINE, axpy, dot, sign, sqnorm
from ..random import uniform
from .linear import passive_aggressive_step, perceptron_step


# The rules of the base learners OBPM accepts.
SUPPORTED_BASE_RULES = (PERCEPTRON, PASSIVE_AGGRESSIVE, GENERALIZED_PERCEPTRON)

# generalised perceptron: scal slots and hp layout
BIAS, SQ, UPDATES, WORK = 0, 1, 2, 3
GP_RHO, GP_ETA, GP_RHO_SCHEDULE, GP_ETA_SCHEDULE, GP_FIT_INTERCEPT = 0, 1, 2, 3, 4
CONSTANT, INV_SQRT = 0, 1

# OBPM: scal header, member blocks, hp layout
SUM_BIAS, SUM_SQ, STEP, OBPM_WORK, BASE = 0, 1, 2, 3, 4
HEADER = 8
BLOCK = 4
HP_N, HP_TAU, HP_SEED, HP_BASE_RULE, HP_BASE = 0, 1, 2, 3, 4

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
    return dot(vecs[0], idx, val, fast) + scal[BIAS]


@jit(inline=INLINE)
def gp_step(idx, val, y, vecs, ints, scal, hp, fast):
    """Algorithm 1, one round: update when y(w_k·x)/‖w_k‖ ≤ ρ_k (line 3), w_{k+1} = w_k +
    η_k y x (line 4), k ← k + 1 (line 5). Tested as y(w·x + b) ≤ ρ_k‖(w, b)‖ (the same for
    ‖w‖ > 0; at w = 0, where the paper's ratio is 0/0, the margin counts as 0, so the first
    round updates as the perceptron's does)."""
    w = vecs[0]
    s = dot(w, idx, val, fast) + scal[BIAS]
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0
    k = scal[UPDATES] + 1.0
    rho = hp[GP_RHO]
    if hp[GP_RHO_SCHEDULE] == INV_SQRT:
        rho = rho / math.sqrt(k)
    sq = scal[SQ]
    if y * s > rho * math.sqrt(sq):
        return s, pred, False, 0.0
    eta = hp[GP_ETA]
    if hp[GP_ETA_SCHEDULE] == INV_SQRT:
        eta = eta / math.sqrt(k)
    a = eta * y
    fit = hp[GP_FIT_INTERCEPT] != 0.0
    xx, nz = _sqnorm_count(idx, val)
    # ‖(w + a x, b + a)‖² = ‖(w, b)‖² + 2a(w·x + b) + a²(‖x‖² + 1); without a bias b = 0.
    new_sq = sq + 2.0 * a * s + a * a * (xx + (1.0 if fit else 0.0))
    if not math.isfinite(new_sq):
        return math.inf, pred, False, 0.0  # the update would overflow: decline (contract)
    axpy(a, idx, val, w)
    if fit:
        scal[BIAS] += a
    scal[UPDATES] = k
    work = scal[WORK] + nz + 1.0
    if work >= RECOMPUTE_FACTOR * w.shape[0]:
        b = scal[BIAS]
        new_sq = sqnorm(None, w) + b * b
        work = 0.0
    scal[SQ] = new_sq if new_sq > 0.0 else 0.0
    scal[WORK] = work
    return s, pred, True, 0.0


# -- OBPM -----------------------------------------------------------------------------------

@jit()
def member_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    """One member's round with the base learner's own rule (state (w, b) in vecs[0]/scal[0],
    additive update of w on the support of x)."""
    if rule == PERCEPTRON:
        return perceptron_step(idx, val, y, vecs, ints, scal, hp, fast)
    if rule == PASSIVE_AGGRESSIVE:
        return passive_aggressive_step(idx, val, y, vecs, ints, scal, hp, fast)
    return gp_step(idx, val, y, vecs, ints, scal, hp, fast)


@jit(inline=INLINE)
def _denominator(vecs, scal):
    """N·max(1, ‖mean‖) = max(N, ‖Σ_j (w_j, b_j)‖): w̃ = mean/max(1, ‖mean‖) (line 15)."""
    n = float(vecs.shape[0] - 2)
    sq = scal[SUM_SQ]
    r = math.sqrt(sq) if sq > 0.0 else 0.0
    return r if r > n else n


@jit(inline=INLINE)
def obpm_score(idx, val, vecs, ints, scal, hp, fast):
    """w̃·x + b̃ with (w̃, b̃) = (Σ_j (w_j, b_j)/N) / max(1, ‖Σ_j (w_j, b_j)/N‖)."""
    return (dot(vecs[0], idx, val, fast) + scal[SUM_BIAS]) / _denominator(vecs, scal)


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
    total = vecs[0]
    n = vecs.shape[0] - 2
    d = vecs.shape[1]
    sx = dot(total, idx, val, fast) + scal[SUM_BIAS]
    if not math.isfinite(sx):
        return sx, sign(sx), False, 0.0  # NaN/inf in x (or overflow): nothing is touched
    s = sx / _denominator(vecs, scal)
    pred = sign(s)
    tau = hp[HP_TAU]
    seed = hp[HP_SEED]
    t = scal[STEP]
    base_rule = int(hp[HP_BASE_RULE])
    base_hp = hp[HP_BASE:]
    buf = vecs[n + 1]
    nz = -1
    updated = 0
    for j in range(n):
        if not uniform(seed, j, t) < tau:
            continue
        member = vecs[j + 1:j + 2]
        block = scal[HEADER + BLOCK * j:HEADER + BLOCK * (j + 1)]
        w = member[0]
        _snapshot(idx, val, w, buf)
        b0, c1, c2, c3 = block[0], block[1], block[2], block[3]
        sj, _, uj, _ = member_step(base_rule, idx, val, y, member, ints, block, base_hp, fast)
        if not math.isfinite(sj):
            return math.inf, pred, updated > 0, float(updated)
        if not uj:
            continue
        db = block[0] - b0
        cross, dd = _change_products(idx, val, w, buf, total)
        sb = scal[SUM_BIAS]
        new_sq = scal[SUM_SQ] + 2.0 * (cross + sb * db) + (dd + db * db)
        if not math.isfinite(new_sq):
            _restore(idx, val, w, buf)
            block[0], block[1], block[2], block[3] = b0, c1, c2, c3
            return math.inf, pred, updated > 0, float(updated)
        _add_change(idx, val, w, buf, total)
        scal[SUM_BIAS] = sb + db
        if nz < 0:
            _, nz = _sqnorm_count(idx, val)
        work = scal[OBPM_WORK] + nz + 1.0
        if work >= RECOMPUTE_FACTOR * d:
            sb = scal[SUM_BIAS]
            new_sq = sqnorm(None, total) + sb * sb
            work = 0.0
        scal[SUM_SQ] = new_sq if new_sq > 0.0 else 0.0
        scal[OBPM_WORK] = work
        updated += 1
    scal[STEP] = t + 1.0
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
