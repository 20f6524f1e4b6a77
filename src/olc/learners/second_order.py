"""AROW — Adaptive Regularization of Weight Vectors (Crammer, Kulesza & Dredze, NIPS 2009;
the textbook chapter §31.3.2, Fig. 31.6), full and diagonal covariance, for classification
and for regression (recursive least squares, §31.3.3): one state handling, one compiled
family (``second_order``)."""
from numbers import Real

import numpy as np
from ._framework.constraints import Interval, StrOptions

from .._compiled.layouts.regression import AROW_REGRESSION_LAYOUTS
from .._compiled.layouts.second_order import (
    AROW_LAYOUTS,
    COVARIANCES,
    FIRST_SIGMA_ROW,
    ArowDiagonalScal,
    ArowDiagonalVec,
    ArowFullVec,
)
from ._framework.regressor import OnlineLinearRegressor
from ._framework.classifier import N_JOBS_CONSTRAINT, OnlineLinearClassifier
from ._framework.validation import InputError

#: Largest full covariance allocated: (d + 2)(d + 1) float64 values (≈ d² · 8 bytes).
MAX_FULL_COVARIANCE_BYTES = 4 << 30


def _is_full_state(vecs):
    """Whether ``vecs`` holds a full covariance: the μ row and the d + 1 ≥ 2 rows of Σ,
    more than the diagonal layout's two rows (μ, diag Σ)."""
    return vecs.shape[0] > len(ArowDiagonalVec)


class AROWStateMixin:
    """State and hyper-parameters shared by the AROW classifier and regressor.

    Layouts (``_compiled/layouts/second_order.py``): full — vecs (d + 2) × (d + 1), row MU = μ
    with the bias last, then the rows of Σ over (x, 1); diagonal — rows MU = μ and SIGMA =
    diag Σ, the bias's mean and variance in scal. The prior is N(0, I) (Fig. 31.6 step 1),
    the bias coordinate included. A subclass sets ``_layouts``: ``covariance`` → its rule's
    layout (AROW's, or AROW regression's).
    """

    _parameter_constraints = {
        "r": [Interval(Real, 0, None, closed="neither")],
        "covariance": [StrOptions(set(COVARIANCES))],
        "fit_intercept": ["boolean"],
    }

    @property
    def _layout(self):
        try:
            return self._layouts[self.covariance]
        except (KeyError, TypeError):
            return self._layouts["full"]  # invalid: the constraints reject it before any use

    def _hp_values(self):
        return {"r": self.r, "fit_intercept": self.fit_intercept}

    def _full(self):
        return self.covariance == "full"

    def _state_is_full(self):
        return _is_full_state(self._class_learner(0)._vecs)

    def _check_layout(self):
        """The fitted state's layout must be the one ``covariance`` selects (switching
        between the two diagonal variants is fine: same state)."""
        if not self._is_initialised():
            return
        self._hyperparameters()
        if self._state_is_full() != self._full():
            fitted = "full" if self._state_is_full() else "diagonal"
            raise InputError(f"covariance={self.covariance!r} does not match the fitted state "
                             f"({fitted} covariance): call fit to start over with another "
                             "covariance")

    def _check_continuation(self):
        self._check_layout()
        super()._check_continuation()

    def _decision_values(self, X):
        self._check_layout()
        return super()._decision_values(X)

    def _initial_state(self, n_features):
        if self._full():
            D = n_features + 1
            rows = FIRST_SIGMA_ROW + D
            if rows * D * 8 > MAX_FULL_COVARIANCE_BYTES:
                raise InputError(
                    f"covariance='full' needs a {D}×{D} matrix for {n_features} features "
                    f"({rows * D * 8 / 2**30:.1f} GiB); use covariance='diagonal' or "
                    "'diagonal-precision' on wide data")
            vecs, _, scal = self._layout.initial_state(D, n_vectors=rows)
            vecs[FIRST_SIGMA_ROW:] = np.eye(D)
            return vecs, scal
        vecs, _, scal = self._layout.initial_state(n_features)
        vecs[ArowDiagonalVec.SIGMA] = 1.0
        scal[ArowDiagonalScal.SIGMA_B] = 1.0
        return vecs, scal

    def _linear_model(self):
        if not self._state_is_full():
            return (self._vecs[ArowDiagonalVec.MU].copy(),
                    float(self._scal[ArowDiagonalScal.BIAS]))
        d = self._vecs.shape[1] - 1
        return self._vecs[ArowFullVec.MU, :d].copy(), float(self._vecs[ArowFullVec.MU, d])

    @property
    def sigma_(self):
        """The covariance Σ over (x, 1) — the bias coordinate last: a (d+1)×(d+1) matrix
        (full) or the (d+1)-vector of its diagonal (diagonal variants)."""
        self._check_fitted()
        if not self._state_is_full():
            return np.append(self._vecs[ArowDiagonalVec.SIGMA],
                             self._scal[ArowDiagonalScal.SIGMA_B])
        return self._vecs[FIRST_SIGMA_ROW:].copy()


_DOC = """
    On a round whose margin m = y(μ·x + b) is below 1 (NIPS 2009 Fig. 1; Fig. 31.6 step 2),
    with β = x̃ᵀΣx̃ + r and x̃ = (x, 1) (the textbook's augmented input; x̃ = x without a
    bias):  μ ← μ + y(1 − m)·Σx̃/β,  Σ ← Σ − Σx̃x̃ᵀΣ/β.  The prior is μ = 0, Σ = I, bias
    coordinate included. Prediction: sign(μ·x + b), sign(0) = +1. r is the chapter's λ.

    The chapter's intermediate equation Σ̂⁻¹ = Σ̃⁻¹ − x̃x̃ᵀ/λ has a sign error: its own
    Woodbury step and the algorithm correspond to Σ̂⁻¹ = Σ̃⁻¹ + x̃x̃ᵀ/λ (the precision grows
    with every update), which is what is implemented and tested.

    Covariance:
    - ``"full"``: Σ is (d+1)×(d+1); an update costs O(nnz(x)·d + d²) — forced by the math
      (Σx̃ and the rank-one update of a dense Σ). Memory (d+2)(d+1) float64: for wide sparse
      data use a diagonal variant.
    - ``"diagonal"`` — *diagonal of the full update*: Σ is kept diagonal and each Σᵢᵢ gets
      the full update's diagonal, Σᵢᵢ ← Σᵢᵢ − Σᵢᵢ²xᵢ²/β (β computed with the diagonal Σ).
      O(nnz(x)).
    - ``"diagonal-precision"`` — *diagonal precision*: the precision update
      Σ⁻¹ ← Σ⁻¹ + x̃x̃ᵀ/r restricted to its diagonal, Σᵢᵢ ← Σᵢᵢ/(1 + Σᵢᵢxᵢ²/r). O(nnz(x)).
    In both diagonal variants the mean step uses the diagonal Σ: μᵢ ← μᵢ + c·Σᵢᵢxᵢ.

    Decisions: the update test is m < 1 (the paper's and the chapter's; also at m < 1 for a
    correct prediction). Rounding guards that never change exact results: x̃ᵀΣx̃ is clamped at
    0, and "diagonal" clamps Σᵢᵢ at 0 if rounding makes it negative. When x̃ᵀΣx̃ = 0 (x = 0
    without a bias) nothing can move and the round is not an update. ``covariance`` cannot
    change between "full" and a diagonal variant after fitting (different state): ``fit``
    starts over.

    Parameters
    ----------
    r : float > 0, regularization r of AROW (the chapter's λ; default 1, the value of the
        chapter's code): larger r, smaller steps.
    covariance : {"full", "diagonal", "diagonal-precision"} (default "full").
    fit_intercept : bool, learn a bias as the augmented coordinate (default True).

    Attributes: ``sigma_`` (Σ over (x, 1), the bias coordinate last).
"""


class AROW(AROWStateMixin, OnlineLinearClassifier):
    __doc__ = """AROW classification (Adaptive Regularization of Weight Vectors).
""" + _DOC + """
    ``n_jobs`` : int or None, threads for K ≥ 3 classes one-vs-rest (default None: one; −1
    every core; ``OnlineLinearClassifier``). Results do not depend on it.
"""

    _parameter_constraints = {**AROWStateMixin._parameter_constraints,
                              "n_jobs": N_JOBS_CONSTRAINT}

    _layouts = AROW_LAYOUTS

    def __init__(self, r=1.0, covariance="full", fit_intercept=True, n_jobs=None):
        self.n_jobs = n_jobs
        self.r = r
        self.covariance = covariance
        self.fit_intercept = fit_intercept


class AROWRegression(AROWStateMixin, OnlineLinearRegressor):
    """AROW regression / recursive least squares (the textbook chapter §31.3.3): on every
    round, with x̃ = (x, 1) (x̃ = x without a bias) and β = x̃ᵀΣx̃ + r,

        μ ← μ + (y − μ·x̃)·Σx̃/β,     Σ ← Σ − Σx̃x̃ᵀΣ/β,

    from the prior μ = 0, Σ = I. With the full covariance, after rows 1..T, μ is the ridge
    regression solution argmin Σₜ(yₜ − μ·x̃ₜ)² + r‖μ‖² (bias included) and
    Σ = (I + Σₜ x̃ₜx̃ₜᵀ/r)⁻¹ — the chapter's Σ̂⁻¹ = Σ̃⁻¹ + xxᵀ/λ (its printed minus sign is
    a typo, see ``AROW``); tested as such. r is the chapter's λ.

    ``covariance``: ``"full"`` (O(nnz·d + d²) per row, forced by the math), or the two
    O(nnz) diagonal variants of ``AROW`` (``"diagonal"``: Σᵢᵢ ← Σᵢᵢ − Σᵢᵢ²xᵢ²/β;
    ``"diagonal-precision"``: Σᵢᵢ ← Σᵢᵢ/(1 + Σᵢᵢxᵢ²/r)) — extensions, the chapter states only
    the full rule. Every row with x̃ᵀΣx̃ > 0 is an update (Σ shrinks whatever the residual).

    Parameters
    ----------
    r : float > 0 (default 1).
    covariance : {"full", "diagonal", "diagonal-precision"} (default "full").
    fit_intercept : bool (default True).

    Attributes: ``sigma_`` (Σ over (x, 1), the bias coordinate last).
    """

    _layouts = AROW_REGRESSION_LAYOUTS  # covariance → layout

    def __init__(self, r=1.0, covariance="full", fit_intercept=True):
        self.r = r
        self.covariance = covariance
        self.fit_intercept = fit_intercept
