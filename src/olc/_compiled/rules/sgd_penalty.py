"""scikit-learn's penalties on the SGD rule (``rules/sgd.py``, with the extension of
``layouts.sgd.SklearnSGDHP``): the pieces of ``_plain_sgd`` (``sklearn/linear_model/
_sgd_fast.pyx.tp``) and its ``WeightVector`` (``sklearn/utils/_weight_vector.pyx.tp``) that
the textbook rule does not have, written for olc's scaled vector w = s·v (``kernels/scaled.py``).

- The L1 part of the penalty by the *cumulative penalty* of Tsuruoka, Tsujii & Ananiadou
  (2009), "Stochastic gradient descent training for L1-regularized log-linear models with
  cumulative penalty", ACL-IJCNLP, pp. 477–485, §3 and its pseudo-code (the
  procedures UPDATEWEIGHTS and APPLYPENALTY): u is the total L1 step ρη_tλ every
  weight could have received so far, q_j the penalty weight j did receive; after each row,
  each coordinate of the row is pulled toward 0 by u ± q_j without crossing it ("clipping at
  zero"), so the penalty costs O(nnz(x)) and weights that should be 0 become exactly 0.
  scikit-learn's SGD docs (user guide §1.5, "Mathematical formulation" and "Implementation
  details") name this as its L1 method.
- The norms scikit-learn reports in its epoch objective: ``WeightVector`` keeps ‖w‖² and
  ‖w‖₁ and, on each ``add``, sets them to the sums over the *row's* coordinates only (not
  the whole vector); the L1 truncation does not update them. Their values only enter the
  stopping rule (``tol``), and we keep them as scikit-learn keeps them, so that the same
  epochs are run.
"""
import math

from ..caching import jit
from ..kernels.vector import INLINE, SHARED


@jit(inline=INLINE)
def penalty_term(sq_norm, l1_norm, lam, rho):
    """λ((1 − ρ)·½‖w‖² + ρ‖w‖₁), scikit-learn's per-row penalty in its objective, with its
    operations (‖w‖ = √sq_norm, squared again)."""
    norm = math.sqrt(sq_norm)
    return lam * ((1.0 - rho) * 0.5 * (norm * norm) + rho * l1_norm)


@jit(inline=SHARED)
def add_tracking_norms(v, scal, slot_s, sq_slot, l1_slot, a, idx, val):
    """w ← w + a·x (v += x·(a/s)), then scal[sq_slot] and scal[l1_slot] set to the squared
    and L1 norms of w over the row's coordinates (``WeightVector.add``, in its order)."""
    s = scal[slot_s]
    coef = a / s
    sq = 0.0
    l1 = 0.0
    if idx is None:
        if val is not None:  # see the docstring of kernels/vector.py
            for j in range(val.shape[0]):
                v[j] += val[j] * coef
                sq += v[j] * v[j]
                l1 += abs(v[j])
    else:
        for k in range(idx.shape[0]):
            j = idx[k]
            v[j] += (1.0 if val is None else val[k]) * coef
            sq += v[j] * v[j]
            l1 += abs(v[j])
    scal[sq_slot] = sq * (s * s)
    scal[l1_slot] = l1 * s


@jit(inline=SHARED)
def l1_cumulative_penalty(v, q, s, u, idx, val):
    """Tsuruoka et al. (2009), §3, the procedure APPLYPENALTY on the row's coordinates j, for
    w = s·v: a positive w_j becomes max(0, w_j − (u + q_j)), a negative one
    min(0, w_j + (u − q_j)), and q_j accumulates what w_j moved."""
    if idx is None:
        if val is not None:
            for j in range(val.shape[0]):
                _penalize(v, q, s, u, j)
    else:
        for k in range(idx.shape[0]):
            _penalize(v, q, s, u, idx[k])


@jit(inline=INLINE)
def _penalize(v, q, s, u, j):
    z = v[j]
    if s * z > 0.0:
        v[j] = max(0.0, z - (u + q[j]) / s)
    elif s * z < 0.0:
        v[j] = min(0.0, z + (u - q[j]) / s)
    q[j] += s * (v[j] - z)
