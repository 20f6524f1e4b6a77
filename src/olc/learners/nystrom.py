"""NOGD, Nyström Online Gradient Descent (Lu, Hoi, Wang, Zhao & Liu 2016, JMLR 17(47), "Large
scale online kernel learning", Algorithm 2, NOGD): kernel online gradient descent until B
rows are stored, then a Nyström feature map of those B landmark rows, built once in the
compiled step, and online gradient descent on the hinge loss over it. The rule:
``olc._compiled.rules.nystrom``; the state: ``_compiled/layouts/nystrom.py``."""
from numbers import Integral, Real

import numpy as np

from .._compiled.layouts import kernel as pool
from .._compiled.layouts.kernel import KernelScal as KS
from .._compiled.layouts.nystrom import (EXTRA_SHAPE, MAPPED_CONSTANT, NOGD_LAYOUT, RANK_CONSTANT,
                                        W_ROW, Z_ROW)
from ._framework.constraints import Interval
from ._framework.kernel_extra_model import KernelExtraClassifier
from ._framework.kernel_model import KERNEL_DOC, KERNEL_FAMILY_CONSTRAINTS
from ._framework.validation import InputError

__all__ = ["NOGD"]


class NOGD(KernelExtraClassifier):
    __doc__ = """NOGD: kernel online gradient descent on the hinge loss until ``budget`` rows
    are stored, then online gradient descent over the Nyström features of those B rows
    (Lu, Hoi, Wang, Zhao & Liu 2016, JMLR 17(47), Algorithm 2, NOGD).

    Stage 1: f(x) = Σ_s α_s k(x_s, x); on a positive hinge loss (y·f(x) < 1) x is stored with
    α = η·y (the kernel OGD step). The step that stores the B-th row builds the map: the
    landmarks' kernel matrix K̂ = VΛVᵀ (``numpy.linalg.eigh`` in the compiled step, once;
    the paper's [V, D] = eigs(K̂, k)), its r = min(rank, #{λ > 1e-12·λ_max}) largest
    eigenpairs (the others are numerically the kernel's null space), z(x) = Λ_r^{−1/2}V_rᵀ
    k_B(x), and carries f into it: w = Λ_r^{1/2}V_rᵀα (the paper's initialisation
    w = α(Λ^{−1/2}Vᵀ)⁻¹, with the pseudo-inverse when r < B), so that w·z(x) = αᵀV_rV_rᵀk_B(x)
    (f itself at full rank). Stage 2: f(x) = w·z(x); if y·f(x) < 1, w ← w + η·y·z(x).
    Per row O(B·nnz(x)) for the kernel row plus O(r·B) for z(x); O(B²·d + B³) once.

    [Decision] The map is built in the step the pool fills, as the paper's algorithm reads;
    the authors' C++ code (LIBOL's KOL, ``kernel_nogd.h``) builds it at the first update
    after, starts w at 0 instead of the paper's initialisation, uses a second step size for
    stage 2 and a general (unsorted) eigensolver; olc follows the paper.

    eta : float > 0 (default 0.5; tune it, as the paper does), both stages' step size.
    budget : int ≥ 1 (default 100; required): B, the landmark rows.
    rank : int in [1, budget] or None (default None: B): the eigenpairs kept, the paper's k.
    ``fit_intercept`` adds 1 to the kernel (the map is that of k + 1). One-vs-rest: each
    class its own landmarks and map (its binary algorithm on y == class).

    ``dual_coef_`` holds α in stage 1 and V_rΛ_r^{−1/2}w after (f's coefficients over the
    landmarks); ``nystrom_map_`` (r, B) the map Λ_r^{−1/2}V_rᵀ (landmarks oldest first) and
    ``nystrom_coef_`` (r,) w, both empty before the pool fills.
""" + KERNEL_DOC

    _layout = NOGD_LAYOUT
    _parameter_constraints = {**KERNEL_FAMILY_CONSTRAINTS,
                              "eta": [Interval(Real, 0, None, closed="neither")],
                              "budget": [Interval(Integral, 1, None, closed="left")],
                              "rank": [Interval(Integral, 1, None, closed="left"), None]}

    def __init__(self, eta=0.5, budget=100, rank=None, kernel="rbf", gamma=None, degree=3,
                 coef0=0.0, fit_intercept=False, n_jobs=None):
        self.eta = eta
        self.n_jobs = n_jobs
        self.budget = budget
        self.rank = rank
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.fit_intercept = fit_intercept

    def _rank_value(self):
        return int(self.budget) if self.rank is None else int(self.rank)

    def _own_hp_values(self):
        if self.rank is not None and self.rank > self.budget:
            raise InputError(f"rank={self.rank} exceeds budget={self.budget}: the map of B "
                             "landmark rows has at most B eigenpairs")
        return {"eta": self.eta, "rank": self._rank_value()}

    def _extra_shape(self):
        return EXTRA_SHAPE

    # -- the map ---------------------------------------------------------------------------
    def _map_parts(self, scal, cap):
        """(core, MAP (cap, cap), w (cap,), z (cap,), mapped, r) of one state."""
        core, (matrix, rows, constants) = self._parts(scal, cap)
        return (core, matrix, rows[W_ROW], rows[Z_ROW], constants[MAPPED_CONSTANT],
                constants[RANK_CONSTANT])

    def _check_continuation(self):
        super()._check_continuation()
        cap = self._capacity(self._vecs)
        scal = self._scal.reshape(-1, self._scal.shape[-1])
        for s in scal:
            _, _, _, _, mapped, r = self._map_parts(s, cap)
            n = int(s[KS.N_STORED])
            if mapped and (n != self.budget or r > self._rank_value()):
                raise InputError(f"budget={self.budget}, rank={self.rank} differ from the "
                                 f"fitted map ({n} landmarks, rank {int(r)}); fit starts over")

    def _check_extra(self, stored, core, parts, n):
        matrix, rows, constants = parts
        mapped, r = constants[MAPPED_CONSTANT], constants[RANK_CONSTANT]
        w, z = rows[W_ROW], rows[Z_ROW]
        if np.any(z != 0.0):
            return "scal 'z': the scratch features must be zero between rows"
        if mapped not in (0.0, 1.0):
            return f"scal 'mapped': expected 0 or 1, found {mapped!r}"
        if r != int(r) or not 0 <= r <= min(n, self._rank_value()):
            return (f"scal 'rank': expected an integer in [0, {min(n, self._rank_value())}], "
                    f"found {r!r}")
        r = int(r)
        if not mapped:
            if n >= self.budget:
                return (f"scal 'mapped': {n} stored rows fill the budget {self.budget}, but "
                        "no map was built from them")
            if r or np.any(matrix != 0.0) or np.any(w != 0.0):
                return "scal 'nystrom_map': a map or weights before the pool is full"
            return None
        if n != self.budget:
            return (f"scal 'n_stored': a map is built from {self.budget} landmark rows, the "
                    f"pool holds {n}")
        if np.any(matrix[r:, :] != 0.0) or np.any(matrix[:, n:] != 0.0) or np.any(w[r:] != 0):
            return "scal 'nystrom_map': entries beyond the rank and the landmarks must be zero"
        if not (np.all(np.isfinite(matrix)) and np.all(np.isfinite(w))):
            return "scal 'nystrom_map': non-finite entries"
        return self._check_map(matrix[:r, :n], self._stored_gram(stored))

    @staticmethod
    def _check_map(M, gram):
        """M = Λ_r^{−1/2}V_rᵀ of ``gram`` = VΛVᵀ: M·K̂·Mᵀ = I_r and the squared row norms
        1/λ_i are the r largest eigenvalues' inverses."""
        r = M.shape[0]
        lam = np.linalg.eigvalsh(gram)[::-1] if gram.size else np.zeros(0)
        top = lam[0] if lam.size else 0.0
        if r == 0:
            if top > 0.0:
                return "scal 'nystrom_map': rank 0, but the landmarks' kernel matrix is not 0"
            return None
        if not top > 0.0:
            return "scal 'nystrom_map': a map, but the landmarks' kernel matrix is 0"
        kept = 1.0 / np.einsum("ij,ij->i", M, M)
        if not np.allclose(kept, lam[:r], rtol=1e-6, atol=1e-9 * top):
            return ("scal 'nystrom_map': its eigenvalues disagree with the landmarks' kernel "
                    f"matrix ({kept[:4]} against {lam[:4]})")
        residual = np.abs(M @ gram @ M.T - np.eye(r)).max()
        # M·K̂·Mᵀ loses about eps·λ_max/λ_r to rounding.
        tolerance = 1e-8 + 1e4 * np.finfo(float).eps * top / lam[r - 1]
        if not residual <= tolerance:
            return (f"scal 'nystrom_map': M·K·Mᵀ is not the identity (max deviation "
                    f"{residual:.3g}): the map disagrees with its landmark rows")
        return None

    def _pool_arrays(self, vecs, scal):
        born, rows, coef = super()._pool_arrays(vecs, scal)
        cap = self._capacity(vecs)
        core, matrix, w, _, mapped, r = self._map_parts(scal, cap)
        if mapped:
            n = int(core[KS.N_STORED])
            order = pool.block(core, pool.ORDER, n).astype(np.intp)
            r = int(r)
            coef = (matrix[:r, :n].T @ w[:r])[order]
        return born, rows, coef

    def _maps(self, which):
        out = []
        for vecs, scal in self._pools():
            cap = self._capacity(vecs)
            core, matrix, w, _, mapped, r = self._map_parts(scal, cap)
            n, r = int(core[KS.N_STORED]), int(r)
            order = pool.block(core, pool.ORDER, n).astype(np.intp)
            if not mapped:
                out.append(np.zeros((0, n)) if which == 0 else np.zeros(0))
            else:
                out.append(matrix[:r, :n][:, order].copy() if which == 0 else w[:r].copy())
        return out[0] if len(out) == 1 else out

    @property
    def nystrom_map_(self):
        """(r, B) Λ_r^{−1/2}V_rᵀ over the landmarks (oldest first); (0, n) before the map."""
        return self._maps(0)

    @property
    def nystrom_coef_(self):
        """(r,) the weights w over the Nyström features; empty before the map."""
        return self._maps(1)
