"""Layouts of the ``kernel_extra`` family: kernel learners on the support-set pool of
``layouts/kernel.py`` that keep state beyond it — the Projectron's inverse Gram matrix, the
kernel OBPM's N coefficient columns — and BPA-S (no extra state; here with its siblings of
the same papers' generation).

Their ``scal`` is the pool's (``kernel.n_scalars(cap)``: the header and its five blocks of
``cap`` slots) followed by an **extra block** whose size depends on the capacity:

    EXTRA = [ matrix (cap × cap, row-major) if ``square`` ]
            [ ``rows`` rows of cap slots                   ]
            [ ``constants`` slots                          ]

  projectron, projectron++   square: K⁻¹ of the stored rows (slot order); rows = 1: the
                             scratch d* = K⁻¹k_t (zero between rows)
  kernel-obpm                rows = N: member j's coefficients α_j (the pool's ALPHA holds
                             β = Σ_j α_j); constants = N: scratch (member j adds x_t), zero
                             between rows
  budget-pa                  none

The compiled rules find the extra block at ``HEADER + N_BLOCKS·cap`` (cap = ``capacity(P)``,
the pool by feature's or the CSR pool's, ``rules/csr_pool.py``); the learners grow it with the
pool (:func:`resized_extra`).
"""
import numpy as np

from . import kernel as pool
from .base import Layout, fields, refuses
from ..rule_ids import BUDGET_PA, KERNEL_OBPM, PROJECTRON

_NO_GROWTH = refuses("the stored rows are kept by feature in a (d, capacity) block and the "
                     "kernel (RBF, polynomial) reads all of a row's coordinates")


def _layout(rule, *extra):
    return Layout(rule, hp=fields(*pool._KERNEL_HP, *extra), scalars=pool.KernelScal,
                  vectors=None, variable_vectors=True, variable_scalars=True,
                  growth=_NO_GROWTH, family="kernel_extra")


#: eta: the Projectron's threshold on ‖δ_t‖; plus: 1 for Projectron++.
PROJECTRON_LAYOUT = _layout(PROJECTRON, "eta", "plus")
#: The Projectron with ``threshold_on="squared_norm"``: its fields, then squared = 1 (η
#: bounds ‖δ_t‖²). A layout of its own so that the default's layout, and with it the
#: fingerprint of every file saved before the choice existed, stays as it was.
PROJECTRON_SQUARED_LAYOUT = _layout(PROJECTRON, "eta", "plus", "squared")
BUDGET_PA_LAYOUT = _layout(BUDGET_PA, "c")
#: n_members: N; tau: the sub-stream probability; seed: the draws' seed.
KERNEL_OBPM_LAYOUT = _layout(KERNEL_OBPM, "n_members", "tau", "seed")


def extra_size(cap, square, rows, constants):
    return (cap * cap if square else 0) + rows * cap + constants


def n_scalars(cap, square, rows, constants):
    return pool.n_scalars(cap) + extra_size(cap, square, rows, constants)


def split(scal, cap):
    """(pool part, extra part) of a state's ``scal`` (views; leading axes kept)."""
    k = pool.n_scalars(cap)
    return scal[..., :k], scal[..., k:]


def extra_parts(extra, cap, square, rows, constants):
    """(matrix (…, cap, cap) or None, rows (…, rows, cap), constants (…, constants)) views."""
    lead = extra.shape[:-1]
    m = cap * cap if square else 0
    matrix = extra[..., :m].reshape(lead + (cap, cap)) if square else None
    block = extra[..., m:m + rows * cap].reshape(lead + (rows, cap))
    return matrix, block, extra[..., m + rows * cap:]


def resized_extra(extra, old, new, square, rows, constants):
    """The extra block for ``new`` slots: the matrix and rows kept in their top-left corner,
    the constants (scratch) zero."""
    lead = extra.shape[:-1]
    out = np.zeros(lead + (extra_size(new, square, rows, constants),))
    keep = min(old, new)
    m_old, b_old, _ = extra_parts(extra, old, square, rows, constants)
    m_new, b_new, _ = extra_parts(out, new, square, rows, constants)
    if square:
        m_new[..., :keep, :keep] = m_old[..., :keep, :keep]
    b_new[..., :keep] = b_old[..., :keep]
    return out
