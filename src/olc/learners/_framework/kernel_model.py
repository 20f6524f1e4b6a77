"""``KernelClassifier``: the classifier contract of ``classifier`` for the learners whose model
is a pool of stored rows, f(x) = Σ_s c_s k(x_s, x) (the ``kernel`` family:
``_compiled/layouts/kernel.py``, ``_compiled/rules/support_set.py``).

A kernel learner declares its layout, its own parameters' constraints (the kernel's are
here) and ``_own_hp_values``; the pool's state, its growth, its checks on load and the
fitted attributes are written once, here. Two classes: one pool. K ≥ 3 classes:
one-vs-rest, K pools stacked (each class's learner is exactly its binary algorithm on
y == class; the kernel rows are computed per class, not shared).

The pool keeps its rows by feature, (d, capacity), or — when the learner's first input is
CSR (``_csr_pool`` learners) — as a CSR slab (``_compiled/layouts/kernel_csr.py``): O(nnz)
to store or remove a row and O(d + Σ nnz) memory. Both give the same bits.
"""
from numbers import Integral, Real

import numpy as np

from ..._compiled.driver.inputs import NO_INTS
from ..._compiled.layouts import kernel as pool
from ..._compiled.layouts import kernel_csr
from ..._compiled.layouts.kernel import KernelScal as KS
from .classifier import N_JOBS_CONSTRAINT, OnlineLinearClassifier
from .constraints import Interval, StrOptions
from .validation import InputError

KERNEL_CONSTRAINTS = {
    "kernel": [StrOptions(set(pool.KERNELS))],
    "gamma": [Interval(Real, 0, None, closed="neither"), None],
    "degree": [Interval(Integral, 1, None, closed="left")],
    "coef0": [Interval(Real, None, None, closed="neither")],
    "fit_intercept": ["boolean"],
}
BUDGET = [Interval(Integral, 1, None, closed="left"), None]
#: The width from which a first CSR input starts a CSR pool. Below it the pool by feature is
#: faster (its kernel row runs contiguously across the slots; the slab's gathers cost ~3×
#: per stored entry), and an insertion's O(d) is small: measured (CPU µs a row, B = 25,
#: 100 values a row, loaded machine) 1.8 by feature against 6.6 CSR at d = 1,000; 110 against
#: 8 at d = 64,000; the wall times crossed between d = 8,000 and 64,000.
CSR_POOL_MIN_FEATURES = 16384
#: The ``kernel`` family's learners also take ``n_jobs`` (one-vs-rest on threads).
KERNEL_FAMILY_CONSTRAINTS = {**KERNEL_CONSTRAINTS, "n_jobs": N_JOBS_CONSTRAINT}

KERNEL_DOC = """
    Kernel parameters (scikit-learn's names, ``sklearn.svm.SVC``)
    ----------------------------------------------------------------
    kernel : {"linear", "poly", "rbf"} (default "rbf"): x·z, (γ·x·z + coef0)^degree,
        exp(−γ‖x − z‖²).
    gamma : float > 0 or None (default None: 1/n_features, the default of scikit-learn's
        pairwise kernels; SVC's "scale" needs the data's variance, which an online learner
        has not seen).
    degree : int ≥ 1 (default 3), coef0 : float (default 0), as scikit-learn's.
    fit_intercept : bool: a constant 1 is added to the kernel, so the bias is the sum of the
        stored coefficients (it is learned, shrunk and forgotten with them).

    n_jobs : int or None (the ``kernel`` family's learners: kernel perceptron, stoptron,
        randomized budget perceptron, kernel PA family, regularized and L2-constrained PA,
        Forgetron, NORMA; Projectron, Projectron++, budget PA, kernel OBPM; NOGD): threads for
        K ≥ 3 classes one-vs-rest, each learning a group of classes' pools (joblib's
        semantics; results bit for bit those of one thread).

    Fitted attributes (binary; one-vs-rest: lists, one entry per class's learner)
    ------------------------------------------------------------------------------
    support_ : stream step (0-based, over the learner's lifetime) of each stored row, oldest
        first (scikit-learn's ``support_`` holds training-set indices).
    support_vectors_ : (n, d) the stored rows, oldest first.
    dual_coef_ : (1, n) their coefficients c_s (the lazy scale applied; labels included, as
        scikit-learn's ``dual_coef_`` holds y_i·α_i).
    n_support_ : (1,) the number of stored rows ((K,) one-vs-rest; scikit-learn's counts per
        class do not apply: one pool holds rows of both labels).
"""


class KernelClassifier(OnlineLinearClassifier):
    """Base of the kernel learners (module docstring)."""

    _features_axis = 0  # the pool is stored by feature, (d, capacity)
    @property
    def _csr_pool(self):
        """Whether a first input in CSR starts a CSR pool: the ``kernel`` family's rules
        (the ``kernel_extra`` and ``nystrom`` learners say so themselves)."""
        return self._layout.family == "kernel"

    def _own_hp_values(self):  # pragma: no cover - abstract
        """The rule's own hyper-parameters after the kernel's (by name)."""
        raise NotImplementedError

    def _budget(self):
        return getattr(self, "budget", None)

    def _hp_values(self):
        budget = self._budget()
        return {"kernel": pool.KERNELS[self.kernel],
                "gamma": 0.0 if self.gamma is None else self.gamma,
                "degree": self.degree, "coef0": self.coef0,
                "fit_intercept": self.fit_intercept, "budget": 0 if budget is None else budget,
                **self._own_hp_values()}

    # -- the pool's state ------------------------------------------------------------------
    def learn_prepared(self, stream, start=0, stop=None, order=None, out=None, check=None):
        self._pending = (stream, start, stop, order)  # the call's rows: the pool's kind, room
        try:
            return super().learn_prepared(stream, start, stop, order, out, check)
        finally:
            del self._pending

    def _pool_is_csr(self):
        """Whether the state is (or, before the first row, will be) a CSR pool: a first input
        in CSR at least :data:`CSR_POOL_MIN_FEATURES` wide."""
        ints = getattr(self, "_ints", None)
        if ints is not None:
            return ints.shape[-1] > 0
        pending = getattr(self, "_pending", None)
        return (self._csr_pool and pending is not None and pending[0].X.sparse
                and pending[0].source.shape[1] >= CSR_POOL_MIN_FEATURES)

    def _initial_state(self, n_features):
        if self._pool_is_csr():
            return pool.csr_initial_state(n_features, self._budget())
        return pool.initial_state(n_features, self._budget())

    def _initial_ints(self, n_features):
        return kernel_csr.CSR_INTS.copy() if self._pool_is_csr() else NO_INTS

    def _grow_state(self, vecs, scal):
        if self._pool_is_csr():
            return pool.csr_grow(vecs, scal, self._budget())
        return pool.grow(vecs, scal, self._budget())

    def _reserve_state(self, vecs, scal, n_rows):
        if self._pool_is_csr():
            return pool.csr_reserve(vecs, scal, self._budget(), n_rows, self._call_lengths())
        return pool.reserve(vecs, scal, self._budget(), n_rows)

    def _call_lengths(self):
        """The stored entries of each row the current call learns."""
        stream, start, stop, order = self._pending
        X = stream.X
        rows = np.arange(stream.n_rows) if order is None else np.asarray(order)
        rows = rows[start:stream.n_rows if stop is None else stop]
        if X.sparse:
            return (X.indptr[rows + 1] - X.indptr[rows]).astype(np.int64)
        return np.count_nonzero(X.dense[rows], axis=1).astype(np.int64)

    def _loaded_state_shapes(self, n_features, vecs, ints, scal):
        cap = pool.capacity(scal)
        if cap < 1 or scal.shape[0] != pool.n_scalars(cap):
            raise ValueError(f"scal 'pool': {scal.shape[0]} slots is not {pool.HEADER} + "
                             f"{pool.N_BLOCKS}·capacity for a capacity ≥ 1")
        if ints.shape == kernel_csr.CSR_INTS.shape:  # a CSR pool
            if vecs.shape[-1] != 1 or vecs.shape[0] < kernel_csr.CSR_HEADER:
                raise ValueError(f"vecs: a CSR pool is one column of at least "
                                 f"{kernel_csr.CSR_HEADER} slots, found shape {vecs.shape}")
            if vecs[kernel_csr.D, 0] != n_features:
                raise ValueError(f"vecs 'd': the CSR pool's {vecs[kernel_csr.D, 0]!r} "
                                 f"features are not n_features_in = {n_features}")
            return vecs.shape, ints.shape, scal.shape
        return (n_features, cap), NO_INTS.shape, scal.shape

    def _check_loaded_state(self, vecs, ints, scal):
        if ints.shape[0] and not np.array_equal(ints, kernel_csr.CSR_INTS):
            return f"ints: expected [] (a pool by feature) or [1] (a CSR pool), found {ints}"
        if ints.shape[0] and not self._csr_pool:
            return f"ints: {type(self).__name__} keeps its pool by feature (ints [])"
        cap = pool.capacity(scal)
        n = scal[KS.N_STORED]
        budget = self._budget()
        if n != int(n) or not 0 <= n <= cap:
            return f"scal 'n_stored': expected an integer in [0, {cap}], found {n!r}"
        n = int(n)
        if budget is not None and n > budget:
            return f"scal 'n_stored': {n} stored rows exceed the budget {budget}"
        if budget is not None and cap > budget:
            return f"vecs: a capacity of {cap} rows exceeds the budget {budget}"
        if scal[KS.SCALE] == 0.0:
            return "scal 'scale': expected a nonzero scale, found 0.0"
        if scal[KS.GROW] != 0.0:
            return f"scal 'grow': expected 0, found {scal[KS.GROW]!r}"
        order = pool.block(scal, pool.ORDER, n)
        if not np.array_equal(np.sort(order), np.arange(n)):
            return f"scal 'order': expected a permutation of 0..{n - 1}, found {order[:20]}"
        born = pool.block(scal, pool.BORN, n)
        steps = scal[KS.STEPS]
        if n and (np.any(born != np.floor(born)) or born.min() < 0 or born.max() >= steps):
            return f"scal 'born': expected integer steps in [0, {steps}), found {born[:20]}"
        sq = pool.block(scal, pool.SQNORM, n)
        if ints.shape[0]:
            problem = kernel_csr.check(vecs, n, cap, order.astype(np.intp))
            if problem:
                return problem
            slots = np.arange(n)
            norms = np.array([np.dot(v, v) for _, v in kernel_csr.rows_of(vecs[:, 0], slots)])
        else:
            norms = np.einsum("ij,ij->j", vecs[:, :n], vecs[:, :n])
        if not np.allclose(sq, norms, rtol=1e-9, atol=0.0):
            bad = int(np.flatnonzero(~np.isclose(sq, norms, rtol=1e-9, atol=0.0))[0])
            return (f"scal 'sqnorm': slot {bad} holds {sq[bad]!r}, but its stored row's "
                    f"squared norm is {norms[bad]!r}")
        if not ints.shape[0] and np.any(vecs[:, n:] != 0.0):
            return "vecs: the slots beyond 'n_stored' must be zero"
        return None

    def _check_continuation(self):
        budget = self._budget()
        if budget is None:
            return
        stored = np.max(self._scal[..., KS.N_STORED])
        if stored > budget or pool.capacity(self._scal) > budget:
            raise InputError(f"budget={budget} is below the {int(stored)} rows the fitted "
                             "pool holds (or its capacity); refit, or keep the budget")

    # -- the model ---------------------------------------------------------------------------
    def _pools(self):
        """[(vecs, scal)] of each class's learner (one when binary)."""
        self._check_fitted()
        if self._vecs.ndim == 3:
            return [(self._vecs[c], self._scal[c]) for c in range(self._vecs.shape[0])]
        return [(self._vecs, self._scal)]

    def _rows_of_pool(self, vecs, scal):
        """(steps, rows (n, d), coefficients) oldest first, of either kind of pool."""
        if not self._pool_is_csr():
            return self._pool_arrays(vecs, scal)
        n = int(scal[KS.N_STORED])
        order = pool.block(scal, pool.ORDER, n).astype(np.intp)
        V = vecs[:, 0]
        rows = np.zeros((n, int(V[kernel_csr.D])))
        for p, (idx, val) in enumerate(kernel_csr.rows_of(V, order)):
            rows[p, idx] = val
        coef = pool.block(scal, pool.ALPHA, n)[order] * scal[KS.SCALE]
        born = pool.block(scal, pool.BORN, n)[order].astype(np.int64)
        return born, rows, coef

    @staticmethod
    def _pool_arrays(vecs, scal):
        """(steps, rows (n, d), coefficients) oldest first."""
        n = int(scal[KS.N_STORED])
        order = pool.block(scal, pool.ORDER, n).astype(np.intp)
        coef = pool.block(scal, pool.ALPHA, n)[order] * scal[KS.SCALE]
        born = pool.block(scal, pool.BORN, n)[order].astype(np.int64)
        return born, vecs[:, order].T.copy(), coef

    def _fitted(self, which):
        parts = [self._rows_of_pool(v, s)[which] for v, s in self._pools()]
        return parts[0] if len(parts) == 1 else parts

    @property
    def support_(self):
        return self._fitted(0)

    @property
    def support_vectors_(self):
        return self._fitted(1)

    @property
    def dual_coef_(self):
        coef = self._fitted(2)
        return coef[np.newaxis, :] if isinstance(coef, np.ndarray) else \
            [c[np.newaxis, :] for c in coef]

    @property
    def n_support_(self):
        return np.array([int(s[KS.N_STORED]) for _, s in self._pools()], dtype=np.int32)

    def _linear_model(self):
        """w = Σ c_s x_s, b = Σ c_s (with fit_intercept): the linear kernel's model only."""
        if self.kernel != "linear":
            raise AttributeError(f"coef_ is only available when kernel='linear' (as "
                                 f"scikit-learn's SVC); this learner's kernel is "
                                 f"{self.kernel!r}")
        vecs, scal = self._vecs, self._scal
        n = int(scal[KS.N_STORED])
        coef = pool.block(scal, pool.ALPHA, n) * scal[KS.SCALE]
        if self._pool_is_csr():  # the same product as the pool by feature's, same bits
            by_feature = np.zeros((int(vecs[kernel_csr.D, 0]), pool.capacity(scal)))
            for s, (idx, val) in enumerate(kernel_csr.rows_of(vecs[:, 0], range(n))):
                by_feature[idx, s] = val
            vecs = by_feature
        w = vecs[:, :n] @ coef
        return w, float(coef.sum()) if self.fit_intercept else 0.0
