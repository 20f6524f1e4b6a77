"""``KernelExtraClassifier``: a kernel learner (``kernel_model.KernelClassifier``) whose state
is the pool followed by an extra block sized by the capacity (``layouts/kernel_extra.py``):
the Projectron's inverse Gram matrix, the kernel OBPM's member coefficients. The pool's own
code (growth, reserve, checks on load, fitted attributes) runs on the pool part of ``scal``;
this class grows the extra block with it and checks it on load.

The pool is by feature, or a CSR pool when the first input is CSR and wide
(``KernelClassifier._pool_is_csr``): the capacity is then the CSR header's, not the width of
``vecs``, and the stored rows are read through ``kernel_csr``."""
import numpy as np

from ..._compiled.layouts import kernel as pool
from ..._compiled.layouts import kernel_csr
from ..._compiled.layouts import kernel_extra as extra
from ..._compiled.layouts.kernel import KernelScal as KS
from .kernel_model import KernelClassifier


class KernelExtraClassifier(KernelClassifier):
    """Subclasses set ``_extra_shape()`` → (square, rows, constants) and may check their
    extra block on load (``_check_extra``)."""

    def _extra_shape(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def _sizes(self, cap):
        return extra.n_scalars(cap, *self._extra_shape())

    def _parts(self, scal, cap):
        core, rest = extra.split(scal, cap)
        return core, extra.extra_parts(rest, cap, *self._extra_shape())

    _csr_pool = True  # its rules take the pool by feature or the CSR pool

    def _capacity(self, vecs, ints=None):
        """The pool's slots: the columns of a pool by feature, a CSR pool's CAP."""
        csr = self._pool_is_csr() if ints is None else ints.shape[-1] > 0
        if csr:
            return int(vecs.reshape(-1, vecs.shape[-2])[0, kernel_csr.CAP])
        return vecs.shape[-1]

    def _initial_state(self, n_features):
        vecs, core = super()._initial_state(n_features)
        cap = pool.capacity(core)
        return vecs, np.concatenate([core, np.zeros(extra.extra_size(cap,
                                                                     *self._extra_shape()))])

    def _with_extra(self, resized, scal, old):
        if resized is None:
            return None
        vecs, core = resized
        new = pool.capacity(core)
        rest = extra.resized_extra(extra.split(scal, old)[1], old, new, *self._extra_shape())
        return vecs, np.concatenate([core, rest], axis=-1)

    def _grow_state(self, vecs, scal):
        cap = self._capacity(vecs)
        return self._with_extra(super()._grow_state(vecs, extra.split(scal, cap)[0]), scal,
                                cap)

    def _reserve_state(self, vecs, scal, n_rows):
        cap = self._capacity(vecs)
        core = extra.split(scal, cap)[0]
        return self._with_extra(super()._reserve_state(vecs, core, n_rows), scal, cap)

    def _loaded_state_shapes(self, n_features, vecs, ints, scal):
        if ints.shape == kernel_csr.CSR_INTS.shape:  # a CSR pool: its header's capacity
            if vecs.shape[-1] != 1 or vecs.shape[0] < kernel_csr.CSR_HEADER:
                raise ValueError(f"vecs: a CSR pool is one column of at least "
                                 f"{kernel_csr.CSR_HEADER} slots, found shape {vecs.shape}")
            head = vecs[kernel_csr.CAP, 0]
            if head != int(head) or head < 1:
                raise ValueError(f"vecs 'cap': a capacity of {head!r} rows (an integer ≥ 1 "
                                 "expected)")
            cap = int(head)
            super()._loaded_state_shapes(n_features, vecs, ints,
                                         np.zeros(pool.n_scalars(cap)))
            return vecs.shape, ints.shape, (self._sizes(cap),)
        cap = vecs.shape[-1]
        if cap < 1:
            raise ValueError(f"vecs 'pool': a capacity of {cap} rows (at least 1 expected)")
        return ((n_features, cap), np.shape(self._initial_ints(n_features)),
                (self._sizes(cap),))

    def _check_loaded_state(self, vecs, ints, scal):
        cap = self._capacity(vecs, ints)
        core, parts = self._parts(scal, cap)
        problem = super()._check_loaded_state(vecs, ints, core)
        if problem:
            return problem
        n = int(core[KS.N_STORED])
        return self._check_extra(self._stored_rows(vecs, n, ints), core, parts, n)

    def _check_continuation(self):
        budget = self._budget()
        if budget is None:
            return
        stored = np.max(self._scal[..., KS.N_STORED])
        if stored > budget or self._capacity(self._vecs) > budget:
            from .validation import InputError
            raise InputError(f"budget={budget} is below the {int(stored)} rows the fitted "
                             "pool holds (or its capacity); refit, or keep the budget")

    def _check_extra(self, stored, core, parts, n):
        """None, or what is wrong with the extra block (``stored``: the n stored rows in slot
        order, :meth:`_stored_rows`)."""
        return None

    def _pool_arrays(self, vecs, scal):
        """(steps, rows (n, d), coefficients) oldest first, of either kind of pool."""
        core = extra.split(scal, self._capacity(vecs))[0]
        if self._pool_is_csr():
            return KernelClassifier._rows_of_pool(self, vecs, core)
        return KernelClassifier._pool_arrays(vecs, core)

    def _rows_of_pool(self, vecs, scal):
        return self._pool_arrays(vecs, scal)

    def _linear_model(self):
        if self.kernel != "linear":
            return super()._linear_model()
        _, rows, coef = self._pool_arrays(self._vecs, self._scal)
        return rows.T @ coef, float(coef.sum()) if self.fit_intercept else 0.0

    @staticmethod
    def _stored_rows(vecs, n, ints):
        """The n stored rows in slot order: (n, d), a CSR matrix for a CSR pool."""
        if not ints.shape[-1]:
            return vecs[:, :n].T
        import scipy.sparse as sp

        V = vecs[:, 0]
        rows = kernel_csr.rows_of(V, range(n))
        indptr = np.concatenate([[0], np.cumsum([idx.shape[0] for idx, _ in rows])])
        indices = np.concatenate([idx for idx, _ in rows] + [np.zeros(0, np.int64)])
        values = np.concatenate([val for _, val in rows] + [np.zeros(0)])
        return sp.csr_matrix((values, indices, indptr), shape=(n, int(V[kernel_csr.D])))

    def _stored_gram(self, stored):
        """The Gram matrix of the stored rows (slot order), with the intercept's constant."""
        from sklearn.metrics.pairwise import pairwise_kernels

        if not stored.shape[0]:
            return np.zeros((0, 0))
        params = {"linear": {}, "poly": {"gamma": self.gamma, "degree": self.degree,
                                         "coef0": self.coef0},
                  "rbf": {"gamma": self.gamma}}[self.kernel]
        gram = pairwise_kernels(stored, metric=self.kernel, **params)
        return gram + float(self.fit_intercept)
