"""Layout of the ``nystrom`` family: NOGD (Lu et al. 2016), kernel online gradient descent on
the support-set pool of ``layouts/kernel.py`` until it holds B rows, then online gradient
descent in the Nyström feature space of those B landmark rows.

``scal`` is the pool's (``kernel.n_scalars(cap)``: the header and its five blocks of ``cap``
slots) followed by an extra block, in the shape of ``layouts/kernel_extra.py``
(``square``, ``rows``, ``constants`` = True, 2, 2):

    MAP      cap × cap, row-major: row i < r is Λᵢ^{−1/2}·vᵢᵀ (the i-th largest eigenpair
             of the landmarks' kernel matrix, slot order); rows ≥ r zero; zero before the
             map is built (also the Gram matrix's scratch while it is built)
    W        cap slots: the weights w over the r features (slots ≥ r zero)
    Z        cap slots: scratch z(x) = MAP·k_B(x) of the row in hand, zero between rows
    MAPPED   1 slot: 1 once the map is built (stage 2), 0 while the pool fills (stage 1)
    RANK     1 slot: r, the number of eigenpairs kept (0 before the map; 0 also when the
             landmarks' kernel matrix is 0: then f = 0)

The pool's ALPHA holds stage 1's coefficients a (α = η·y per stored row) and is not changed
after the map is built (the model is then w; ``dual_coef_`` reports MAPᵀw).
"""
from . import kernel as pool
from .base import Layout, fields, refuses
from ..rule_ids import NOGD

EXTRA_SHAPE = (True, 2, 2)  # (square, rows, constants) as layouts/kernel_extra.py
W_ROW, Z_ROW = 0, 1
MAPPED_CONSTANT, RANK_CONSTANT = 0, 1
#: Eigenpairs with λ ≤ EIG_RTOL·λ_max are dropped (numerically in the kernel's null space).
EIG_RTOL = 1e-12

NOGD_LAYOUT = Layout(
    NOGD, hp=fields(*pool._KERNEL_HP, "eta", "rank"), scalars=pool.KernelScal, vectors=None,
    variable_vectors=True, variable_scalars=True, family="nystrom",
    growth=refuses("the landmark rows are kept by feature in a (d, capacity) block, the "
                   "kernel (RBF, polynomial) reads all of a row's coordinates, and the map is "
                   "built from the landmarks' kernel matrix"))
