"""``average=``: the averaged weights of the perceptron, PA, SGD and generalized-perceptron
learners, with scikit-learn's meaning (``SGDClassifier``/``PassiveAggressiveClassifier``'s
``average``).

- ``average=False`` (default): no averaging; the learner's state, layout, arithmetic and
  model files are exactly those of a learner without the parameter.
- ``average=True`` or an int k ≥ 1 (True means 1): from the k-th row the learner has seen
  (over its lifetime; ``fit`` starts over) the iterates w_k, w_{k+1}, … — the weights after
  each row's update — are averaged, and so are the biases. Once at least one iterate is
  averaged, ``coef_``, ``intercept_``, ``decision_function`` and ``predict`` use the average
  (scikit-learn: ``coef_ = _average_coef`` once ``average <= t_ - 1``); before that, the
  current weights. The update rule itself never sees the average: each row is learned from
  the current weights as without averaging, and the per-step record (``predict_then_learn``,
  ``progressive``) holds that rule's own score and prediction, as scikit-learn's training
  loop computes its loss on the current weights.

The average is kept in O(nnz(x)) per row by the lazy sum of ``olc._compiled.kernels.averaging``
(scikit-learn's arithmetic; Freund & Schapire 1999; Daumé III 2006; Bottou 2012), in state
rows that exist only when averaging (``layouts/averaging.py``): the learner's ``_layout`` is
its rule's layout, or the averaged one. [Decision] Every learned row is an iterate, zero rows
included; scikit-learn's PA-I (``learning_rate="pa1"``) skips an all-zero row without
counting it (a ``continue`` in ``_plain_sgd``), so the two averages differ on streams with
all-zero rows.
"""
from numbers import Integral

import numpy as np

from ..._compiled.layouts import feature_major
from .constraints import Interval
from .validation import InputError

#: scikit-learn's declaration of ``average`` (``BaseSGD._parameter_constraints``).
AVERAGE_CONSTRAINT = [Interval(Integral, 0, None, closed="neither"), "boolean"]


def average_start(value):
    """The row from which the iterates are averaged (0: averaging off) for a *valid*
    ``average`` (True ↦ 1, False ↦ 0, an int k ≥ 1 ↦ k); anything else ↦ 0 (invalid values
    are rejected by the declared constraints before any use)."""
    if isinstance(value, (bool, np.bool_)):
        return int(bool(value))
    if isinstance(value, Integral) and value > 0:
        return int(value)
    return 0


def _axpy(a, x, y):
    """y + a·x as a new array, by BLAS ``daxpy`` (scipy's, the one scikit-learn calls)."""
    from scipy.linalg.blas import daxpy  # lazily: only averaged models need it

    out = np.array(y, dtype=np.float64)  # a C-contiguous copy: daxpy writes into it
    if out.size == 0:
        return out
    return daxpy(np.ascontiguousarray(x, dtype=np.float64), out, a=a)


class LayoutChoice:
    """``_layout`` of a learner with ``average``: its rule's layout, or the averaged one when
    the instance averages. Read on the class, the rule's own layout (what code that asks
    which rule a class runs — e.g. OBPM's supported bases — compares)."""

    def __init__(self, plain, averaged):
        self.plain, self.averaged = plain, averaged

    def __get__(self, learner, owner=None):
        if learner is None or not average_start(getattr(learner, "average", False)):
            return self.plain
        return self.averaged


class AveragingMixin:
    """What a learner with ``average=`` adds to ``OnlineLinearModel`` (put it first among the
    bases). The class sets ``_layout = LayoutChoice(plain, averaged)`` and declares
    ``"average": AVERAGE_CONSTRAINT``."""

    def _averages(self):
        return average_start(getattr(self, "average", False)) > 0

    def _hyperparameters(self):
        """``OnlineLinearModel._hyperparameters`` plus the ``average`` field (the starting
        row) when averaging."""
        self._validate_params()
        self._check_params()
        values = self._hp_values()
        if self._averages():
            values["average"] = average_start(self.average)
        return self._layout.pack(**values)

    def _avg_slot(self, name):
        return self._layout.scalars["AVG_" + name.upper()]

    def _initial_state(self, n_features):
        vecs, scal = super()._initial_state(n_features)
        vecs = self._stored_vecs(vecs)
        if self._averages():
            scal[self._avg_slot("b")] = 1.0  # the lazy sum's b starts at 1 (scikit-learn)
            if "avg_base_scale" in self._layout.describe()["scalars"]:
                scal[self._avg_slot("base_scale")] = 1.0  # the initial scale
        return vecs, scal

    # -- the state's storage ---------------------------------------------------------------
    # A wide averaged state (its rows: the rule's weight row and ``avg_sum``) is stored
    # feature-major, w_j and u_j side by side (``_compiled/layouts/feature_major.py``): Python reads it
    # as the usual (…, rows, d) view. ``_vecs`` is a property so that every state given to
    # the learner (fit, a file, a stacked one-vs-rest state, River's) is stored so, and a
    # state that lost the layout (a pickle, a deep copy: plain copies) gets it back on read.
    def _stored_vecs(self, vecs):
        if (isinstance(vecs, np.ndarray) and vecs.ndim >= 2
                and vecs.shape[-2] > type(self)._layout.n_vectors):
            return feature_major.stored(vecs)
        return vecs

    @property
    def _vecs(self):
        try:
            vecs = self.__dict__["_state_vecs"]
        except KeyError:
            raise AttributeError("_vecs") from None
        stored = self._stored_vecs(vecs)
        if stored is not vecs:
            self.__dict__["_state_vecs"] = stored
        return stored

    @_vecs.setter
    def _vecs(self, vecs):
        self.__dict__["_state_vecs"] = self._stored_vecs(vecs)

    @_vecs.deleter
    def _vecs(self):
        try:
            del self.__dict__["_state_vecs"]
        except KeyError:
            raise AttributeError("_vecs") from None

    # -- the state must match ``average`` -------------------------------------------------
    def _state_averages(self):
        """The fitted state has the averaging rows (more rows than the rule's own layout; the
        rows are the second-last axis, binary (rows, d) or stacked per class (K, rows, d))."""
        return self._vecs.shape[-2] > type(self)._layout.n_vectors

    def _check_average_state(self):
        """A fitted state is averaged iff ``average`` is on: refuse a switch made by
        ``set_params`` after fitting before any compiled code reads the state."""
        if not self._is_initialised():
            return
        fitted = self._state_averages()
        if fitted != self._averages():
            raise InputError(
                f"average={self.average!r} does not match the fitted state (fitted "
                f"{'with' if fitted else 'without'} averaging): call fit to start over")

    def _check_fitted(self):
        super()._check_fitted()
        self._check_average_state()

    def _check_continuation(self):
        self._check_average_state()
        super()._check_continuation()

    # -- the model -------------------------------------------------------------------------
    def _linear_model(self):
        """The averaged (coef, intercept) once an iterate is averaged (scikit-learn's
        ``(aw + a·w)·(1/b)``, ``average_intercept``), else the rule's own model.

        ``aw + a·w`` is formed by BLAS ``daxpy``, as scikit-learn's ``reset_wscale`` forms it:
        whether it rounds once (a fused multiply-add kernel, e.g. OpenBLAS on AVX-512) or
        twice depends on the machine's BLAS, and using the same call keeps the two equal bit
        for bit on every machine (NumPy's ``u + a * v`` rounds twice: 1 ulp apart on FMA
        kernels)."""
        self._check_average_state()
        if self._averages():
            scal = self._scal
            if scal[self._avg_slot("count")] > 0:
                layout = self._layout
                v = self._vecs[0]  # the rule's weight row (raw when the rule keeps w = s·v)
                u = self._vecs[layout.vectors.AVG_SUM]
                a, b = scal[self._avg_slot("a")], scal[self._avg_slot("b")]
                return _axpy(a, v, u) * (1.0 / b), float(scal[self._avg_slot("bias")])
        return super()._linear_model()

    @property
    def average_count_(self):
        """How many iterates the average holds (0 before it starts, or without averaging);
        with K ≥ 3 classes one count per class (all equal)."""
        self._check_fitted()
        if not self._averages():
            return 0
        counts = np.atleast_2d(self._scal)[:, self._avg_slot("count")]
        return int(counts[0])

    def _check_loaded_state(self, vecs, ints, scal):
        """The averaging block of a state read from a file: counters whole and consistent,
        b ≥ 1, a ≥ 0, scales positive."""
        problem = super()._check_loaded_state(vecs, ints, scal)
        if problem or not self._averages():
            return problem
        rows, count = scal[self._avg_slot("rows")], scal[self._avg_slot("count")]
        a, b = scal[self._avg_slot("a")], scal[self._avg_slot("b")]
        if not (rows >= 0 and rows == int(rows) and 0 <= count <= rows
                and count == int(count)):
            return (f"scal: the averaging counters must be whole numbers with 0 ≤ avg_count "
                    f"≤ avg_rows, found avg_rows = {rows!r}, avg_count = {count!r}")
        if not (b >= 1.0 and a >= 0.0):
            return f"scal: expected avg_b ≥ 1 and avg_a ≥ 0, found avg_b = {b!r}, avg_a = {a!r}"
        if "avg_base_scale" in self._layout.describe()["scalars"]:
            base = scal[self._avg_slot("base_scale")]
            if not base > 0.0:
                return f"scal: expected avg_base_scale > 0, found {base!r}"
        return None
