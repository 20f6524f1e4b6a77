"""The state that Shen & Dietterich's PA rules (10–12) share (layout: ``layouts/regularized.py``).

w̃ = (w, b) is a scaled vector with a tracked support (``kernels/scaled.py``): w = S·v and b = S·BRAW,
so rules 10 and 11 shrink w̃ by changing S only (O(1)); rule 12 never rescales (S = 1). The
support list makes every whole-vector operation (folding S into v, the exact norm recompute,
the L1-ball projection, small-weight removal) cost O(nnz(w)) instead of O(d). The norm NORM
(‖w̃‖² or ‖w̃‖₁) is maintained incrementally with a bound ERR on its rounding error; when the
bound exceeds NORM_RTOL·NORM the norm is recomputed exactly over the support (rare).
"""
import math

import numpy as np

from ..caching import jit
from ..kernels.vector import COLD, INLINE, SHARED, dot, sign
from ..layouts.regularized import UPDATE_HINGE, UPDATE_MISTAKE, SupportBlock, SupportInt
from ..layouts.regularized import ShenDietterichScal as SDScal
from ..layouts.regularized import ShenDietterichVec as SDVec
from ..kernels.scaled import (
    support_add,
    support_clear,
    support_compact,
    support_fold,
    support_l1norm,
    support_sqnorm,
    sv_add,
    sv_in_range,
)

BRAW, S, NORM, ERR = SDScal.BIAS_RAW, SDScal.SCALE, SDScal.NORM, SDScal.NORM_ERR
V = SDVec.V
COUNT = SupportInt.SUPPORT_COUNT
# Offsets of the integer blocks, as Layout.int_block computes them (plain ints for numba).
_N_INT_SLOTS = len(SupportInt)
_LIST_BLOCK = int(SupportBlock.SUPPORT_LIST)
_POS_BLOCK = int(SupportBlock.SUPPORT_POS)

EPS = 2.220446049250313e-16
NORM_RTOL = 1e-11  # recompute the tracked norm exactly when its error bound exceeds this
# w_t counts as inside the ball (rules 11, 12) when its norm exceeds β by no more than
# rounding (an update lands on the sphere, and the stored norm is β only up to a few ulps).
BALL_RTOL = 1e-12


@jit(inline=INLINE)
def support_blocks(vecs):
    """(list_base, pos_base): where the support list and the position table start in ints."""
    d = vecs.shape[1]
    return _N_INT_SLOTS + _LIST_BLOCK * d, _N_INT_SLOTS + _POS_BLOCK * d


@jit()
def fold(vecs, ints, scal):
    """Fold the scale into v and the raw bias (w̃ unchanged), O(nnz(w))."""
    s = scal[S]
    list_base, _ = support_blocks(vecs)
    support_fold(vecs[V], scal, S, ints, COUNT, list_base)
    scal[BRAW] *= s


@jit(inline=INLINE)
def rescale(vecs, ints, scal, s_new):
    """S ← s_new (w̃ scaled by s_new/S in O(1)); folds when S leaves its range."""
    scal[S] = s_new
    if not sv_in_range(s_new):
        fold(vecs, ints, scal)


@jit()
def exact_norm(vecs, ints, scal, l1):
    """‖w̃‖₁ (l1) or ‖w̃‖², summed over the support; also resets the error bound."""
    s = scal[S]
    list_base, _ = support_blocks(vecs)
    b = s * scal[BRAW]
    if l1:
        acc = support_l1norm(vecs[V], s, ints, COUNT, list_base) + abs(b)
    else:
        acc = support_sqnorm(vecs[V], s, ints, COUNT, list_base) + b * b
    scal[NORM] = acc
    scal[ERR] = (ints[COUNT] + 2) * EPS * acc
    return acc


@jit()
def remove_small(vecs, ints, scal, sigma, l1):
    """Small-weight removal (Shen & Dietterich, §3.3, Eq. 3.17 corrected:
    w_{t+1} = w''_t − v_t).

    Sort the features by |w_j| ascending (ties: lower index first) and zero the first k, k the
    largest with Σ of the removed w_j² < σ. The bias is not a feature and is never removed.
    O(nnz(w)) over the support list plus a sort of the candidates (w_j² < σ); the tracked
    norm is recomputed exactly."""
    v = vecs[V]
    list_base, pos_base = support_blocks(vecs)
    support_compact(v, ints, COUNT, list_base, pos_base)
    s = scal[S]
    # Only weights with w_j² < σ can be removed (one alone would exceed σ otherwise): sort
    # just those candidates, by index first so that the stable sort breaks ties by index.
    nl = ints[COUNT]
    ids = np.empty(nl, dtype=np.int64)
    n = 0
    for i in range(nl):
        j = ints[list_base + i]
        w = s * v[j]
        if w * w < sigma:
            ids[n] = j
            n += 1
    ids = np.sort(ids[:n])
    key = np.empty(n)
    for i in range(n):
        key[i] = abs(s * v[ids[i]])
    order = np.argsort(key, kind="mergesort")
    cum = 0.0
    k = 0
    for r in range(n):
        w = key[order[r]]
        cum += w * w
        if cum < sigma:
            k += 1
        else:
            break
    for r in range(k):
        v[ids[order[r]]] = 0.0
    if k > 0:
        support_compact(v, ints, COUNT, list_base, pos_base)
    exact_norm(vecs, ints, scal, l1)


@jit(inline=INLINE)
def sd_score(idx, val, vecs, ints, scal, hp, fast):
    """w̃·x̃ = S·(v·x + BRAW)."""
    return scal[S] * (dot(vecs[V], idx, val, fast) + scal[BRAW])


@jit(inline=INLINE)
def sd_round(idx, val, y, vecs, ints, scal, hp, fast, update):
    """(score, prediction, margin y·score, whether the round solves its problem: a finite
    score that passes the update test)."""
    s = sd_score(idx, val, vecs, ints, scal, hp, fast)
    m = y * s
    return s, sign(s), m, math.isfinite(s) and active(m, update)


@jit(inline=INLINE)
def active(m, mode):
    """The update test on the margin m = y(w·x + b)."""
    if mode == UPDATE_MISTAKE:
        return m <= 0.0
    if mode == UPDATE_HINGE:
        return m < 1.0
    return True


@jit(inline=SHARED)
def scaled_step(idx, val, vecs, ints, scal, step, bias, shrink):
    """w̃ ← (w̃ + step·x̃)/shrink in O(nnz(x)): v += (step/S)·x, BRAW += step/S, S ← S/shrink."""
    if step != 0.0:
        if not math.isfinite(step / scal[S]):
            fold(vecs, ints, scal)  # representation only: w̃ is unchanged, S = 1
        sv_add(vecs[V], scal, S, step, idx, val)
        if bias:
            scal[BRAW] += step / scal[S]
        list_base, pos_base = support_blocks(vecs)
        support_add(ints, COUNT, list_base, pos_base, idx, val)
    if shrink != 1.0:
        rescale(vecs, ints, scal, scal[S] / shrink)


@jit(inline=INLINE)
def track_sq(vecs, ints, scal, new_sq, w_sq, tau, m, tau2a, step_norm, nx, shrink):
    """Store the incrementally computed ‖w̃'‖² = (W + 2τm + τ²a)/shrink² with its error bound
    (rounding of the three terms, and of the dot product m: nnz(x)·eps·‖w̃‖‖x̃‖ times 2τ);
    recompute it exactly when the bound exceeds NORM_RTOL relative (after cancellation)."""
    err = scal[ERR] + 4.0 * EPS * (w_sq + 2.0 * abs(tau * m) + tau2a) \
        + 2.0 * (nx + 2) * EPS * step_norm * math.sqrt(w_sq)
    err /= shrink * shrink
    scal[NORM] = new_sq
    scal[ERR] = err
    if err > NORM_RTOL * new_sq:
        exact_norm(vecs, ints, scal, False)


@jit(inline=COLD)
def reset_to_x(idx, val, vecs, ints, scal, c, bias):
    """w̃ ← c·x̃ (O(nnz(w) + nnz(x))): clear the support, then write x."""
    list_base, pos_base = support_blocks(vecs)
    support_clear(vecs[V], ints, COUNT, list_base, pos_base)
    scal[S] = 1.0
    scal[BRAW] = c if bias else 0.0
    sv_add(vecs[V], scal, S, c, idx, val)
    support_add(ints, COUNT, list_base, pos_base, idx, val)
