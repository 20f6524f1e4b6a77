"""``KernelExtraClassifier``: a kernel learner (``kernel_model.KernelClassifier``) whose state
is the pool followed by an extra block sized by the capacity (``layouts/kernel_extra.py``):
the Projectron's inverse Gram matrix, the kernel OBPM's member coefficients. The pool's own
code (growth, reserve, checks on load, fitted attributes) runs on the pool part of ``scal``;
this class grows the extra block with it and checks it on load."""
import numpy as np

from ..._compiled.layouts import kernel as pool
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

    def _initial_state(self, n_features):
        vecs, core = pool.initial_state(n_features, self._budget())
        cap = vecs.shape[1]
        return vecs, np.concatenate([core, np.zeros(extra.extra_size(cap,
                                                                     *self._extra_shape()))])

    def _with_extra(self, resized, scal, old):
        if resized is None:
            return None
        vecs, core = resized
        new = vecs.shape[-1]
        rest = extra.resized_extra(extra.split(scal, old)[1], old, new, *self._extra_shape())
        return vecs, np.concatenate([core, rest], axis=-1)

    def _grow_state(self, vecs, scal):
        cap = vecs.shape[-1]
        return self._with_extra(pool.grow(vecs, extra.split(scal, cap)[0], self._budget()),
                                scal, cap)

    def _reserve_state(self, vecs, scal, n_rows):
        cap = vecs.shape[-1]
        core = extra.split(scal, cap)[0]
        return self._with_extra(pool.reserve(vecs, core, self._budget(), n_rows), scal, cap)

    def _loaded_state_shapes(self, n_features, vecs, ints, scal):
        cap = vecs.shape[-1]
        if cap < 1:
            raise ValueError(f"vecs 'pool': a capacity of {cap} rows (at least 1 expected)")
        return ((n_features, cap), np.shape(self._initial_ints(n_features)),
                (self._sizes(cap),))

    def _check_loaded_state(self, vecs, ints, scal):
        cap = vecs.shape[-1]
        core, parts = self._parts(scal, cap)
        problem = super()._check_loaded_state(vecs, ints, core)
        if problem:
            return problem
        return self._check_extra(vecs, core, parts, int(core[KS.N_STORED]))

    def _check_continuation(self):
        budget = self._budget()
        if budget is None:
            return
        stored = np.max(self._scal[..., KS.N_STORED])
        if stored > budget or self._vecs.shape[-1] > budget:
            from .validation import InputError
            raise InputError(f"budget={budget} is below the {int(stored)} rows the fitted "
                             "pool holds (or its capacity); refit, or keep the budget")

    def _check_extra(self, vecs, core, parts, n):
        return None

    @staticmethod
    def _pool_arrays(vecs, scal):
        return KernelClassifier._pool_arrays(vecs, extra.split(scal, vecs.shape[-1])[0])

    def _linear_model(self):
        if self.kernel != "linear":
            return super()._linear_model()
        _, rows, coef = self._pool_arrays(self._vecs, self._scal)
        return rows.T @ coef, float(coef.sum()) if self.fit_intercept else 0.0

    def _stored_gram(self, vecs, core, n):
        """The Gram matrix of the stored rows (slot order), with the intercept's constant."""
        from sklearn.metrics.pairwise import pairwise_kernels

        rows = vecs[:, :n].T
        if not n:
            return np.zeros((0, 0))
        params = {"linear": {}, "poly": {"gamma": self.gamma, "degree": self.degree,
                                         "coef0": self.coef0},
                  "rbf": {"gamma": self.gamma}}[self.kernel]
        return pairwise_kernels(rows, metric=self.kernel, **params) + float(self.fit_intercept)
