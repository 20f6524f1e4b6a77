"""``Perceptron(penalty="l2" | "l1" | "elasticnet")``: scikit-learn's penalised perceptron,
which is ``SGDClassifier(loss="perceptron", learning_rate="constant", eta0, penalty, alpha,
l1_ratio)`` — ``_plain_sgd`` in ``sklearn/linear_model/_sgd_fast.pyx.tp`` — on olc's SGD rule
(``_compiled/rules/sgd.py``) with the perceptron loss and the scikit-learn extension
(``layouts.sgd.SklearnSGDHP``, ``rules/sgd_penalty.py``).

Per row, in scikit-learn's order (p = w·x + b before the update, ρ the effective
``l1_ratio``: 0 for "l2", 1 for "l1"):
    w ← max(0, 1 − (1 − ρ)·η₀·α)·w                       (O(1): w = s·v)
    w ← w + η₀·y·c·x,  b ← b + η₀·y·c·decay   when y·p ≤ 0  (c = class × sample weight;
                                                           decay 0.01 on CSR input)
    then, with ρ > 0, the cumulative L1 penalty of Tsuruoka, Tsujii & Ananiadou (2009, ACL,
    §3, its APPLYPENALTY procedure) on the row's coordinates (``rules/sgd_penalty.py``).
The epoch objective of ``tol`` adds scikit-learn's per-row penalty α((1 − ρ)/2·‖w‖² + ρ‖w‖₁)
(its norms, as its ``WeightVector`` keeps them) to the perceptron loss (``_epochs``).

scikit-learn runs all the epochs of one ``fit`` / ``partial_fit`` in one ``_plain_sgd`` call,
which starts with the weight scale 1, the cumulative penalty at 0 (u, q) and the norms of
the starting weights, and ends by folding the scale into the weights: ``begin_call`` and
``end_call`` do the same around our epochs (each epoch is one call of the compiled loop).
"""
import numpy as np
from scipy.linalg.blas import dasum

from .._compiled.layouts.averaging import AveragingScal
from .._compiled.layouts.sgd import (SGD_L2_PENALIZED_AVERAGED_LAYOUT, SGD_L2_PENALIZED_LAYOUT,
                                     SGD_PENALIZED_AVERAGED_LAYOUT, SGD_PENALIZED_LAYOUT,
                                     SGDPenaltyScal, SGDScal, SGDVec)
from ..learners._framework.averaging import LayoutChoice, _axpy
from ..learners.sgd import SGD

#: ``l1_ratio`` as ``_plain_sgd`` uses it: "l2" is ρ = 0, "l1" ρ = 1 whatever l1_ratio says.
EFFECTIVE_L1_RATIO = {"l2": lambda r: 0.0, "l1": lambda r: 1.0, "elasticnet": float}


class PenalizedPerceptron(SGD):
    """olc's SGD learner with the perceptron loss, a constant step and the state tail of the
    scikit-learn penalties (the cumulative L1 penalty, scikit-learn's norms): the model of one
    binary problem of ``olc.sklearn.Perceptron(penalty=...)`` with ρ > 0. Its ``hp`` is
    always extended (``extension``); not a public learner."""

    _layout = LayoutChoice(SGD_PENALIZED_LAYOUT, SGD_PENALIZED_AVERAGED_LAYOUT)
    _l1_row = True  # the state ends with the row q

    def _state_averages(self):
        return self._averages()  # private: the state is made by this class, never loaded

    def __init__(self, eta0=1.0, lam=0.0, fit_intercept=True, average=False):
        super().__init__(eta0=eta0, schedule="constant", loss="perceptron", lam=lam,
                         fit_intercept=fit_intercept, average=average)

    def _tail(self, name):
        return self._scal.shape[0] - len(SGDPenaltyScal) + SGDPenaltyScal[name.upper()]

    def _initial_state(self, n_features):
        state = super()._initial_state(n_features)
        self._q_is_zero = True  # a new state: its q is zeros already
        return state

    def begin_call(self):
        """The state ``_plain_sgd`` starts from: scale 1 (folded by ``end_call``), u = 0,
        q = 0, and the norms of the starting weights (its ``WeightVector.__cinit__``, with
        its BLAS calls: ddot and dasum)."""
        self.end_call()
        v = self._vecs[SGDVec.V]
        if self._l1_row and not getattr(self, "_q_is_zero", False):
            self._vecs[-1] = 0.0  # (a new state's q: writing its zeros would only fault
            # its pages in, 0.5 ms for d = 130,000)
        self._q_is_zero = False
        self._scal[self._tail("l1_u")] = 0.0
        self._scal[self._tail("sq_norm")] = float(np.dot(v, v))
        self._scal[self._tail("l1_norm")] = float(dasum(v))  # np.abs: a 1 MB temporary

    def end_call(self):
        """scikit-learn's closing ``reset_wscale``: the lazy average restarted on the
        current v (as ``averaging.average_rebase``), then v ← s·v, s ← 1."""
        scal, vecs = self._scal, self._vecs
        if self._averages():
            first = self._avg_slot("rows")
            a, b = scal[first + AveragingScal.A], scal[first + AveragingScal.B]
            row = self._layout.vectors["AVG_SUM"]
            # aw + a·w by BLAS daxpy, then × 1/b: scikit-learn's calls (see _linear_model)
            vecs[row] = _axpy(a, vecs[SGDVec.V], vecs[row]) * (1.0 / b)
            scal[first + AveragingScal.A], scal[first + AveragingScal.B] = 0.0, 1.0
            scal[self._avg_slot("base_scale")] = 1.0
        vecs[SGDVec.V] *= scal[SGDScal.SCALE]
        scal[SGDScal.SCALE] = 1.0

    def model_into(self, coef_row):
        """The model (not averaged) written into ``coef_row`` (a row of the drop-in's
        ``coef_``: no 1 MB temporary for d = 130,000, as ``_linear_model`` makes); returns
        the intercept."""
        np.multiply(self._vecs[SGDVec.V], self._scal[SGDScal.SCALE], out=coef_row)
        return float(self._scal[SGDScal.BIAS])


class L2PenalizedPerceptron(PenalizedPerceptron):
    """``PenalizedPerceptron`` for ρ = 0 (``penalty="l2"``, or an elastic net of
    ``l1_ratio=0``): no row q."""

    _layout = LayoutChoice(SGD_L2_PENALIZED_LAYOUT, SGD_L2_PENALIZED_AVERAGED_LAYOUT)
    _l1_row = False


def learner(estimator):
    """(class, parameters) of one binary problem of ``estimator`` (a drop-in Perceptron with
    a penalty)."""
    cls = PenalizedPerceptron if extension(estimator)[0] > 0.0 else L2PenalizedPerceptron
    return cls, dict(eta0=estimator.eta0, lam=estimator.alpha,
                                     fit_intercept=estimator.fit_intercept)


def extension(estimator):
    """The SGD rule's extension fields after ``SklearnHP``'s: the effective l1_ratio."""
    return [EFFECTIVE_L1_RATIO[estimator.penalty](estimator.l1_ratio)]
