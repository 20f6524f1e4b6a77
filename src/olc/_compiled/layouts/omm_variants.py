"""Layouts of the ``omm_variants`` family: n-OMM (ℓ2, naïve implementation) and e-OMM for an
ℓp norm (Ho-Nguyen et al. 2025, Algorithm 1 and §5.1). Phases as in ``layouts/omm.py``.

n-OMM (``rules/nomm.py``). Rows of ``vecs`` have length d + 2 (a stored point is augmented
by two entries, see ``nearest_point``); their first d entries are a vector of ℝ^d:

  vecs   W, ORIGIN, VPOS, VNEG, U (named rows), then three blocks: Q (kmax rows: the corral's
         orthonormal basis), R (kmax rows: upper triangular k × k in the first kmax
         columns), B (cap rows: the stored points, centered and augmented).
  scal   the named header, then λ (cap slots: convex weights of the stored points) and the
         keys (cap slots: a fixed weighted sum of each stored row, ``nomm._row_key``).
  ints   the named counters, then the corral (d + 2 slots: stored-row indices).

The capacity ``cap`` is the shape: scal has NOMM_HEADER + 2·cap slots; kmax = min(cap, d + 2)
(a corral has at most d + 2 points). The buffer doubles when full (:func:`grow_nomm`).
Centered rows, σ, SCALE, U, VPOS and VNEG are kept in units of 2^E (UNIT = 2^−E fixed by the
first nonzero centered row, as e-OMM's unit: E = 0 for rows of magnitude within 2^±450);
W, BIAS and GAMMA are in the data's units.

ℓp e-OMM (``rules/omm_lp.py``): vecs W = ℓ(u) = ∇‖u‖_p, VPOS = v₊, VNEG = v₋ (explicit:
the update is O(d) anyway); NORM = ‖v₊ − v₋‖_p.
"""
import numpy as np

from .base import Layout, fields, refuses
from ..rule_ids import EFFICIENT_OMM_LP, NAIVE_OMM

# -- n-OMM ------------------------------------------------------------------------------------
NommHP = fields("rho", "store")
STORE_UPDATES, STORE_ALL = 0.0, 1.0  # Algorithm 1 line 20 / the §3 text: every point seen
STORE_OPTIONS = ("updates", "all")   # the learner's ``store`` values, in that order
NommVec = fields("w", "origin", "vpos", "vneg", "u")
# GROW: the step asks the learner for a bigger buffer (a flag read by ``_grow_state``);
# SCALE: S = max ‖bᵢ‖ (the solver's relative tolerances).
NommScal = fields("bias", "phase", "y1", "gamma", "sigma", "scale", "unit", "grow")
# K: corral size; STATUS: the last solve's status; MAJORS: major cycles so far (diagnostics).
NommInt = fields("n_stored", "k", "status", "majors")
NAIVE_OMM_LAYOUT = Layout(NAIVE_OMM, hp=NommHP, scalars=NommScal, vectors=NommVec,
                          int_slots=NommInt, variable_vectors=True, variable_scalars=True,
                          growth=refuses("its update runs reassociated sums over all d "
                                         "coordinates (and keeps two extra columns)"),
                          family="omm_variants")

NOMM_ROWS = len(NommVec)       # the Q block starts here
NOMM_HEADER = len(NommScal)    # λ starts here
NOMM_COUNTERS = len(NommInt)   # the corral starts here
INITIAL_CAPACITY = 16


def nomm_sizes(cap, d):
    """(kmax, rows of vecs, slots of scal, length of ints) for ``cap`` stored points."""
    kmax = min(cap, d + 2)
    return kmax, NOMM_ROWS + 2 * kmax + cap, NOMM_HEADER + 2 * cap, NOMM_COUNTERS + d + 2


def nomm_capacity(scal):
    """How many points the buffer holds."""
    return (scal.shape[0] - NOMM_HEADER) // 2


def nomm_initial_state(d, cap=INITIAL_CAPACITY):
    """Zeroed (vecs, ints, scal) of n-OMM for d features and ``cap`` stored points."""
    _, rows, n_scal, n_ints = nomm_sizes(cap, d)
    return np.zeros((rows, d + 2)), np.zeros(n_ints, dtype=np.int64), np.zeros(n_scal)


def grow_nomm(vecs, scal):
    """Twice the capacity, same contents (the loop resumes the row that asked for it); the
    integer state (counters, corral) does not depend on the capacity."""
    d = vecs.shape[1] - 2
    cap = nomm_capacity(scal)
    kmax = nomm_sizes(cap, d)[0]
    new_kmax, rows, n_scal, _ = nomm_sizes(2 * cap, d)
    new_vecs, new_scal = np.zeros((rows, d + 2)), np.zeros(n_scal)
    new_vecs[:NOMM_ROWS] = vecs[:NOMM_ROWS]
    starts = (NOMM_ROWS, NOMM_ROWS + kmax, NOMM_ROWS + 2 * kmax)  # Q, R, B
    new_starts = (NOMM_ROWS, NOMM_ROWS + new_kmax, NOMM_ROWS + 2 * new_kmax)
    for old, new, count in zip(starts, new_starts, (kmax, kmax, cap)):
        new_vecs[new:new + count] = vecs[old:old + count]
    h = NOMM_HEADER
    new_scal[:h] = scal[:h]
    new_scal[h:h + cap] = scal[h:h + cap]                            # λ
    new_scal[h + 2 * cap:h + 3 * cap] = scal[h + cap:h + 2 * cap]    # keys
    new_scal[NommScal.GROW] = 0.0
    return new_vecs, new_scal


# -- ℓp e-OMM ---------------------------------------------------------------------------------
LpHP = fields("rho", "p")
LpVec = fields("w", "vpos", "vneg")
LpScal = fields("bias", "phase", "y1", "gamma", "norm")
EFFICIENT_OMM_LP_LAYOUT = Layout(
    EFFICIENT_OMM_LP, hp=LpHP, scalars=LpScal, vectors=LpVec,
    growth=refuses("its bias is a reassociated dot product over all d coordinates"),
    family="omm_variants")
