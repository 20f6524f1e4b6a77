"""AROW — Adaptive Regularization of Weight Vectors (Crammer, Kulesza & Dredze, NIPS 2009;
the textbook chapter §31.3, Fig. 31.6), with full and with diagonal covariance.

The weight distribution is N(μ, Σ); the prediction is μ·x + b. With a bias the input is the
textbook's augmented x̃ = (x, 1) (Fig. 31.7, ``x(:,3)=1``), so the bias is one more
coordinate of μ with its own (co)variances; without one, x̃ = x.

On a round with margin m = y(μ·x̃) < 1 (NIPS 2009 Fig. 1; Fig. 31.6 step 2):
    β = x̃ᵀΣx̃ + r,   μ ← μ + y(1 − m)·Σx̃/β,   Σ ← Σ − Σx̃x̃ᵀΣ/β,
r > 0 being the chapter's λ. (The chapter's intermediate equation Σ̂⁻¹ = Σ̃⁻¹ − x̃x̃ᵀ/λ has a
sign error: the update above is, by the matrix inversion lemma, Σ̂⁻¹ = Σ̃⁻¹ + x̃x̃ᵀ/λ.)
The regression rule of §31.3.3 (recursive least squares) has the same β and Σ update and
μ ← μ + (y − μ·x̃)·Σx̃/β on every round (``_arow_regression_step``, ids 72–74, through
``arow_update``; layouts in ``layouts/regression.py``).

Layouts (named in ``layouts/second_order.py``):

AROW_FULL — vecs[MU] = μ (μ[d] = bias), then Σ[i, j] = vecs[FIRST_SIGMA_ROW + i, j] over
    D = d + 1 coordinates (the last row/column belong to the bias coordinate, unused — left
    at the prior — when there is no bias). Σx̃ costs O(nnz·D) and the rank-one update
    O(D²): forced by the math (Σ is dense after the first update whatever the sparsity of
    x). Σ is kept exactly symmetric (Σᵢⱼ and Σⱼᵢ get the same rounded decrement).
AROW_DIAGONAL — "diagonal of the full update": vecs[MU] = μ, vecs[SIGMA] = diag Σ; μ's bias
    in scal[BIAS], its variance in scal[SIGMA_B]. With Σ diagonal, Σx̃ = (Σᵢᵢxᵢ) and the full
    update's diagonal is Σᵢᵢ ← Σᵢᵢ − Σᵢᵢ²xᵢ²/β. O(nnz(x)).
AROW_DIAGONAL_PRECISION — "diagonal precision": same layout; Σ⁻¹ ← Σ⁻¹ + x̃x̃ᵀ/r restricted
    to its diagonal, i.e. Σᵢᵢ ← Σᵢᵢ/(1 + Σᵢᵢxᵢ²/r). O(nnz(x)). The μ step is the same.

Numerical guards (never NaN): the computed x̃ᵀΣx̃ is clamped at 0 (rounding can make a
covariance that has shrunk to ~0 in some direction slightly indefinite), so β ≥ r > 0; in the
diagonal-of-the-full-update variant Σᵢᵢ − Σᵢᵢ²xᵢ²/β, whose exact value is Σᵢᵢ(r + Σ_{j≠i}
Σⱼⱼxⱼ²)/β > 0, is clamped at 0 when rounding makes it negative. When x̃ᵀΣx̃ = 0 (x̃ = 0, or
a direction of zero variance) nothing can move: the round is not an update.
"""
import math

import numpy as np

from ..caching import jit
from ..kernels.vector import INLINE, dot, sign
from ..layouts.second_order import FIRST_SIGMA_ROW, ArowDiagonalScal, ArowDiagonalVec
from ..layouts.second_order import ArowHP as HP
from ..rule_ids import (AROW_DIAGONAL, AROW_DIAGONAL_PRECISION, AROW_FULL,
                        AROW_REGRESSION_DIAGONAL, AROW_REGRESSION_DIAGONAL_PRECISION,
                        AROW_REGRESSION_FULL)

MU, SIGMA = ArowDiagonalVec.MU, ArowDiagonalVec.SIGMA  # MU is also the full layout's row
BIAS, SIGMA_B = ArowDiagonalScal.BIAS, ArowDiagonalScal.SIGMA_B


# -- full covariance ---------------------------------------------------------------------------

@jit(inline=INLINE)
def full_score(idx, val, vecs, fast):
    """μ·x + μ_b (the bias coordinate is the last entry of μ)."""
    return dot(vecs[MU], idx, val, fast) + vecs[MU, vecs.shape[1] - 1]


@jit()
def _full_sigma_x(idx, val, vecs, bias, z):
    """z ← Σx̃ and returns x̃ᵀΣx̃ (clamped at 0). Rows of Σ are read for the nonzeros of x,
    in increasing column order for both layouts (dense zeros skipped), so dense and CSR rows
    give the same bits."""
    D = z.shape[0]
    for j in range(D):
        z[j] = 0.0
    if idx is None:
        for i in range(val.shape[0]):
            xi = val[i]
            if xi != 0.0:
                row = vecs[FIRST_SIGMA_ROW + i]
                for j in range(D):
                    z[j] += xi * row[j]
    else:
        for k in range(idx.shape[0]):
            xi = val[k]
            if xi != 0.0:
                row = vecs[FIRST_SIGMA_ROW + idx[k]]
                for j in range(D):
                    z[j] += xi * row[j]
    if bias:
        row = vecs[FIRST_SIGMA_ROW + D - 1]  # the bias coordinate's row
        for j in range(D):
            z[j] += row[j]
    v = 0.0
    if idx is None:
        for i in range(val.shape[0]):
            if val[i] != 0.0:
                v += val[i] * z[i]
    else:
        for k in range(idx.shape[0]):
            if val[k] != 0.0:
                v += val[k] * z[idx[k]]
    if bias:
        v += z[D - 1]
    return v if v > 0.0 else 0.0


@jit()
def full_update(idx, val, vecs, hp, coef_numerator):
    """Apply μ ← μ + c·Σx̃/β with c = ``coef_numerator`` (y(1 − m) or the residual), and
    Σ ← Σ − Σx̃x̃ᵀΣ/β. Returns 1 (updated), 0 (x̃ᵀΣx̃ = 0: nothing moves) or -1 (the update
    would not be finite: declined, state untouched)."""
    D = vecs.shape[1]
    bias = hp[HP.FIT_INTERCEPT] != 0.0
    z = np.empty(D)
    v = _full_sigma_x(idx, val, vecs, bias, z)
    if v == 0.0:
        return 0
    if not math.isfinite(v):
        return -1
    beta = v + hp[HP.R]
    c = coef_numerator / beta
    inv_beta = 1.0 / beta
    zmax = 0.0
    mu_max = 0.0
    mu = vecs[MU]
    for j in range(D):
        a = abs(z[j])
        if a > zmax:
            zmax = a
        m = abs(mu[j])
        if m > mu_max:
            mu_max = m
    if not (math.isfinite(c * zmax) and math.isfinite(mu_max + abs(c) * zmax)
            and math.isfinite(zmax * zmax * inv_beta)):
        return -1
    for j in range(D):
        mu[j] += c * z[j]
    for i in range(D):
        zi = z[i]
        if zi == 0.0:
            continue
        row = vecs[FIRST_SIGMA_ROW + i]
        for j in range(D):
            row[j] -= (zi * z[j]) * inv_beta
    return 1


# -- diagonal covariance ------------------------------------------------------------------------

@jit(inline=INLINE)
def diagonal_score(idx, val, vecs, scal, fast):
    return dot(vecs[MU], idx, val, fast) + scal[BIAS]


@jit(inline=INLINE)
def _diag_confidence(idx, val, vecs, scal, bias):
    """(x̃ᵀΣx̃, max |Σᵢᵢx̃ᵢ|) for diagonal Σ, O(nnz)."""
    sig = vecs[SIGMA]
    v = 0.0
    zmax = 0.0
    if idx is None:
        for i in range(val.shape[0]):
            zi = sig[i] * val[i]
            v += zi * val[i]
            if abs(zi) > zmax:
                zmax = abs(zi)
    else:
        for k in range(idx.shape[0]):
            zi = sig[idx[k]] * val[k]
            v += zi * val[k]
            if abs(zi) > zmax:
                zmax = abs(zi)
    if bias:
        v += scal[SIGMA_B]
        if scal[SIGMA_B] > zmax:
            zmax = scal[SIGMA_B]
    return (v if v > 0.0 else 0.0), zmax


@jit(inline=INLINE)
def _shrink_diag(s, x, beta, r, precision):
    """New Σᵢᵢ for old value s and input coordinate x."""
    if precision:
        return s / (1.0 + s * x * x / r)
    zi = s * x
    new = s - zi * zi / beta
    return new if new > 0.0 else 0.0


@jit()
def diagonal_update(idx, val, vecs, scal, hp, coef_numerator, precision):
    """The diagonal variants' μ and Σ update (see the module docstring); same return codes
    as ``full_update``."""
    bias = hp[HP.FIT_INTERCEPT] != 0.0
    r = hp[HP.R]
    v, zmax = _diag_confidence(idx, val, vecs, scal, bias)
    if v == 0.0:
        return 0
    if not math.isfinite(v):
        return -1
    beta = v + r
    c = coef_numerator / beta
    if not (math.isfinite(c * zmax) and math.isfinite(zmax * zmax / beta)):
        return -1
    mu = vecs[MU]
    sig = vecs[SIGMA]
    if idx is None:
        for i in range(val.shape[0]):
            xi = val[i]
            if xi != 0.0:
                s = sig[i]
                mu[i] += c * (s * xi)
                sig[i] = _shrink_diag(s, xi, beta, r, precision)
    else:
        for k in range(idx.shape[0]):
            xi = val[k]
            if xi != 0.0:
                i = idx[k]
                s = sig[i]
                mu[i] += c * (s * xi)
                sig[i] = _shrink_diag(s, xi, beta, r, precision)
    if bias:
        s = scal[SIGMA_B]
        scal[BIAS] += c * s
        scal[SIGMA_B] = _shrink_diag(s, 1.0, beta, r, precision)
    return 1


# -- the classification rule (Fig. 31.6) --------------------------------------------------------

@jit(inline=INLINE)
def arow_score(rule, idx, val, vecs, scal, fast):
    if rule == AROW_FULL:
        return full_score(idx, val, vecs, fast)
    return diagonal_score(idx, val, vecs, scal, fast)


@jit(inline=INLINE)
def arow_update(rule, idx, val, vecs, scal, hp, coef_numerator):
    if rule == AROW_FULL:
        return full_update(idx, val, vecs, hp, coef_numerator)
    return diagonal_update(idx, val, vecs, scal, hp, coef_numerator,
                           rule == AROW_DIAGONAL_PRECISION)


@jit(inline=INLINE)
def _arow_classification_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    s = arow_score(rule, idx, val, vecs, scal, fast)
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0
    m = y * s
    if not m < 1.0:
        return s, pred, False, 0.0
    status = arow_update(rule, idx, val, vecs, scal, hp, y * (1.0 - m))
    if status < 0:
        return math.inf, pred, False, 0.0
    return s, pred, status > 0, 0.0


# AROW regression (the textbook chapter §31.3.3): the AROW update on the residual, every
# round; the regression layout's slots are AROW's (``layouts/regression.py``).
@jit(inline=INLINE)
def _arow_rule(rule):
    if rule == AROW_REGRESSION_FULL:
        return AROW_FULL
    if rule == AROW_REGRESSION_DIAGONAL:
        return AROW_DIAGONAL
    return AROW_DIAGONAL_PRECISION


@jit(inline=INLINE)
def _arow_regression_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    base = _arow_rule(rule)
    s = arow_score(base, idx, val, vecs, scal, fast)
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0
    status = arow_update(base, idx, val, vecs, scal, hp, y - s)
    if status < 0:
        return math.inf, pred, False, 0.0
    return s, pred, status > 0, 0.0


# -- family dispatchers (ids 65–67, 72–74) ----------------------------------------------------------

@jit()
def family_score(rule, idx, val, vecs, ints, scal, hp, fast):
    if rule == AROW_FULL or rule == AROW_DIAGONAL or rule == AROW_DIAGONAL_PRECISION:
        return arow_score(rule, idx, val, vecs, scal, fast)
    if AROW_REGRESSION_FULL <= rule <= AROW_REGRESSION_DIAGONAL_PRECISION:
        return arow_score(_arow_rule(rule), idx, val, vecs, scal, fast)
    raise ValueError("unknown second-order rule id")


@jit()
def family_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    if rule == AROW_FULL or rule == AROW_DIAGONAL or rule == AROW_DIAGONAL_PRECISION:
        return _arow_classification_step(rule, idx, val, y, vecs, ints, scal, hp, fast)
    if AROW_REGRESSION_FULL <= rule <= AROW_REGRESSION_DIAGONAL_PRECISION:
        return _arow_regression_step(rule, idx, val, y, vecs, ints, scal, hp, fast)
    raise ValueError("unknown second-order rule id")
