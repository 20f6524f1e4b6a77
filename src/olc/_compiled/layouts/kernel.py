"""Layouts of the ``kernel`` family: online learners whose model is a pool of stored rows,
f(x) = S·Σ_s a_s k(x_s, x) (the support-set core, ``kernels/support_set.py``).

The state of one binary learner, for d features and a capacity of ``cap`` slots:

  vecs   P, (d, cap): the stored rows **by feature** (P[j, s] = x_s[j]); the slots in use are
         0..n−1. Stored by feature, the kernel row of a CSR row x is nnz(x) contiguous
         passes over the n slots (P[j, :n] · x_j, vectorized), and a dense row skips its
         zero entries; both in the same order, so dense and CSR rows give the same bits.
  scal   the named header (:data:`KernelScal`), then five blocks of ``cap`` slots:
         ALPHA (the coefficients a_s, in units of the scale S), SQNORM (‖x_s‖²), BORN (the
         0-based step at which x_s was stored), ORDER (position p → slot, oldest first) and
         KROW (scratch: k(x_s, x) of the row in hand).
  ints   none.

Every rule's hyper-parameters start with the kernel's (:data:`KernelHP`): kernel (LINEAR,
POLY, RBF), gamma, degree, coef0, fit_intercept (a constant 1 added to the kernel) and
budget (0: none). The capacity grows by doubling (never beyond the budget): the step asks
for it (GROW) and the learner grows the arrays (:func:`grow`); one-vs-rest reserves it
before a call (:func:`reserve`).
"""
import numpy as np

from . import kernel_csr
from .base import Layout, fields, refuses
from ..rule_ids import (FORGETRON, KERNEL_L2_CONSTRAINED_PA, KERNEL_NORMA, KERNEL_PA,
                        KERNEL_PERCEPTRON, KERNEL_REGULARIZED_PA, RANDOMIZED_BUDGET_PERCEPTRON,
                        STOPTRON)

LINEAR, POLY, RBF = 0.0, 1.0, 2.0
KERNELS = {"linear": LINEAR, "poly": POLY, "rbf": RBF}

_KERNEL_HP = ("kernel", "gamma", "degree", "coef0", "fit_intercept", "budget")
#: The kernel's fields, the prefix of every rule's hp (the core reads them by these names).
KernelHP = fields(*_KERNEL_HP)

#: SCALE: S; FNORM2: ‖f‖² (kept by the rules that need it); N_STORED: n; STEPS: rows
#: learned; GROW: the step asks for more slots; Q, MISTAKES: the Forgetron's Q_t and M_t;
#: REMOVED: rows removed.
KernelScal = fields("scale", "fnorm2", "n_stored", "steps", "grow", "q", "mistakes",
                    "removed")
HEADER = len(KernelScal)
ALPHA, SQNORM, BORN, ORDER, KROW = range(5)
N_BLOCKS = 5
INITIAL_CAPACITY = 16

_NO_GROWTH = refuses("the stored rows are kept by feature in a (d, capacity) block and the "
                     "kernel (RBF, polynomial) reads all of a row's coordinates")


def _layout(rule, *extra):
    return Layout(rule, hp=fields(*_KERNEL_HP, *extra), scalars=KernelScal, vectors=None,
                  variable_vectors=True, variable_scalars=True, growth=_NO_GROWTH,
                  family="kernel")


KERNEL_PERCEPTRON_LAYOUT = _layout(KERNEL_PERCEPTRON)
PA_CLASSIC, PA_I, PA_II = 0.0, 1.0, 2.0
KERNEL_PA_LAYOUT = _layout(KERNEL_PA, "c", "variant")
UPDATE_MISTAKE, UPDATE_HINGE, UPDATE_ALWAYS = 0.0, 1.0, 2.0
KERNEL_REGULARIZED_PA_LAYOUT = _layout(KERNEL_REGULARIZED_PA, "alpha", "update")
KERNEL_L2_CONSTRAINED_PA_LAYOUT = _layout(KERNEL_L2_CONSTRAINED_PA, "beta", "update")
FORGETRON_LAYOUT = _layout(FORGETRON)
RANDOMIZED_BUDGET_PERCEPTRON_LAYOUT = _layout(RANDOMIZED_BUDGET_PERCEPTRON, "seed")
STOPTRON_LAYOUT = _layout(STOPTRON)
SCHEDULE_CONSTANT, SCHEDULE_SQRT = 0.0, 1.0
KERNEL_NORMA_LAYOUT = _layout(KERNEL_NORMA, "eta", "lam", "rho", "schedule", "tau")


def n_scalars(cap):
    return HEADER + N_BLOCKS * cap


def capacity(scal):
    """The number of slots of a state's ``scal`` (its last axis)."""
    return (scal.shape[-1] - HEADER) // N_BLOCKS


def block(scal, which, n=None):
    """The block ``which`` (ALPHA, SQNORM, BORN, ORDER, KROW) of one state's ``scal``, its
    first ``n`` slots (all by default)."""
    cap = capacity(scal)
    start = HEADER + which * cap
    return scal[start:start + (cap if n is None else n)]


def initial_state(n_features, budget):
    """(vecs, scal) of an empty pool: S = 1, ``min(16, budget)`` slots."""
    cap = INITIAL_CAPACITY if not budget else min(INITIAL_CAPACITY, int(budget))
    scal = np.zeros(n_scalars(cap))
    scal[KernelScal.SCALE] = 1.0
    return np.zeros((n_features, cap)), scal


def resized(vecs, scal, cap):
    """The same pool in ``cap`` ≥ n slots (vecs (…, d, cap), scal (…, n_scalars))."""
    old = capacity(scal)
    new_vecs = np.zeros(vecs.shape[:-1] + (cap,))
    keep = min(old, cap)
    new_vecs[..., :keep] = vecs[..., :keep]
    new_scal = np.zeros(scal.shape[:-1] + (n_scalars(cap),))
    new_scal[..., :HEADER] = scal[..., :HEADER]
    for which in range(N_BLOCKS):
        new_scal[..., HEADER + which * cap:HEADER + which * cap + keep] = \
            scal[..., HEADER + which * old:HEADER + which * old + keep]
    new_scal[..., KernelScal.GROW] = 0.0
    return new_vecs, new_scal


def grow(vecs, scal, budget):
    """Twice the slots (at most ``budget``) when the step asked for them (GROW), else None."""
    if scal[KernelScal.GROW] != 1.0:
        return None
    cap = capacity(scal)
    new = 2 * max(cap, 1)
    if budget:
        new = min(new, int(budget))
    return resized(vecs, scal, new)


def reserve(vecs, scal, budget, n_rows):
    """(vecs, scal) with room for ``n_rows`` more stored rows in every stacked state (at most
    ``budget``), or None when they have it: one-vs-rest cannot resume a row that some classes
    have learned, so its pools grow before the call."""
    n = int(np.max(scal[..., KernelScal.N_STORED])) if scal.size else 0
    need = n + n_rows
    if budget:
        need = min(need, int(budget))
    cap = capacity(scal)
    if need <= cap:
        return None
    new = max(need, 2 * cap)
    if budget:
        new = min(new, int(budget))  # more slots than B would let the pool pass its budget
    return resized(vecs, scal, new)


# -- the CSR pool (``kernel_csr``): the same scal, the rows in a slab --------------------------
INITIAL_SLAB = 1024


def csr_initial_state(n_features, budget):
    """(vecs, scal) of an empty CSR pool."""
    vecs, scal = initial_state(1, budget)
    return kernel_csr.empty(n_features, vecs.shape[1], INITIAL_SLAB), scal


def _order_slots(scal):
    n = int(scal[KernelScal.N_STORED])
    return block(scal, ORDER, n).astype(np.intp)


def csr_resized(vecs, scal, cap, slab):
    """The same CSR pools (vecs (…, L, 1), scal (…, n_scalars)) in ``cap`` slots and a slab
    of ``slab`` entries, compacted."""
    _, new_scal = resized(np.zeros(scal.shape[:-1] + (1, 1)), scal, cap)
    flat_v = vecs.reshape((-1,) + vecs.shape[-2:])
    flat_s = scal.reshape(-1, scal.shape[-1])
    pools = [kernel_csr.rebuilt(v, _order_slots(s), cap, slab) for v, s in zip(flat_v, flat_s)]
    return np.stack(pools).reshape(vecs.shape[:-2] + pools[0].shape), new_scal


def _csr_sizes(vecs):
    """(LIVE, NEED, SLAB) maxima over the stacked pools."""
    head = vecs.reshape(-1, vecs.shape[-2])[:, :kernel_csr.CSR_HEADER]
    return (int(head[:, kernel_csr.LIVE].max()), int(head[:, kernel_csr.NEED].max()),
            int(head[0, kernel_csr.SLAB]))


def csr_grow(vecs, scal, budget):
    """The CSR pool grown as its step asked (GROW): twice the slots when they are full below
    the budget, a larger slab when a row found no room in it (NEED); else None."""
    if scal[KernelScal.GROW] != 1.0:
        return None
    old_cap = cap = capacity(scal)
    if scal[KernelScal.N_STORED] >= cap and (not budget or cap < budget):
        cap = min(2 * cap, int(budget)) if budget else 2 * cap
    live, need, old_slab = _csr_sizes(vecs)
    slab = kernel_csr.needed_slab(live, need, old_slab) if need else old_slab
    if (cap, slab) == (old_cap, old_slab):
        return None  # nothing to grow: a real overflow
    return csr_resized(vecs, scal, cap, slab)


def csr_reserve(vecs, scal, budget, n_rows, lengths):
    """``reserve`` for stacked CSR pools: slots as ``reserve``, and a slab that holds, in
    every pool, what the call can store (``lengths``: the call's rows' entries): the sum of
    the largest B of its rows' and the call's lengths (every one without a budget), plus
    one row more (the room test counts the new row before a removal); or None."""
    slots = reserve(np.zeros(scal.shape[:-1] + (1, 1)), scal, budget, n_rows)
    cap = capacity(scal) if slots is None else capacity(slots[1])
    lengths = np.asarray(lengths, dtype=np.int64)
    extra = int(lengths.max()) if lengths.size else 0
    need = 0
    flat_v = vecs.reshape((-1,) + vecs.shape[-2:])
    for v, s in zip(flat_v, scal.reshape(-1, scal.shape[-1])):
        stored = np.array([idx.shape[0] for idx, _ in kernel_csr.rows_of(v[:, 0],
                                                                          _order_slots(s))],
                          dtype=np.int64)
        both = np.concatenate([stored, lengths])
        if budget and both.size > budget:
            both = np.partition(both, both.size - int(budget))[-int(budget):]
        need = max(need, int(both.sum()) + extra)
    slab = int(vecs.reshape(-1, vecs.shape[-2])[0, kernel_csr.SLAB])
    if slots is None and need <= slab:
        return None
    return csr_resized(vecs, scal, cap, max(slab, need))
