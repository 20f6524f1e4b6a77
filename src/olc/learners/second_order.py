"""AROW — Adaptive Regularization of Weight Vectors (Crammer, Kulesza & Dredze, NIPS 2009;
seed 004 §31.3.2, Fig. 31.6), full and diagonal covariance. AROW regression (§31.3.3) is in
``learners.regression`` and shares the state handling defined here."""
import numpy as np

from .._compiled.rules.second_order import (
    AROW_DIAGONAL,
    AROW_DIAGONAL_PRECISION,
    AROW_FULL,
    BIAS,
    SIGMA_B,
)
from .base import OnlineLinearClassifier, positive_float
from .validation import InputError

#: covariance → index into each learner's tuple of rule ids (full, diagonal, precision)
COVARIANCES = ("full", "diagonal", "diagonal-precision")

#: Largest full covariance allocated: (d + 2)(d + 1) float64 values (≈ d² · 8 bytes).
MAX_FULL_COVARIANCE_BYTES = 4 << 30


class AROWStateMixin:
    """State and hyper-parameters shared by the AROW classifier and regressor.

    Layouts (see ``_compiled/rules/second_order``): full — vecs (d + 2) × (d + 1), row 0 = μ
    with the bias last, rows 1.. = Σ over (x, 1); diagonal — vecs[0] = μ, vecs[1] = diag Σ,
    bias mean and variance in scal. The prior is N(0, I) (Fig. 31.6 step 1), the bias
    coordinate included.
    """

    _rules = (AROW_FULL, AROW_DIAGONAL, AROW_DIAGONAL_PRECISION)

    @property
    def _rule(self):
        try:
            return self._rules[COVARIANCES.index(self.covariance)]
        except (ValueError, TypeError):
            return self._rules[0]  # invalid: _hyperparameters rejects it before any use

    def _full(self):
        return self.covariance == "full"

    def _hyperparameters(self):
        r = positive_float(self.r, "r")
        if not isinstance(self.covariance, str) or self.covariance not in COVARIANCES:
            raise InputError(f"covariance must be one of {', '.join(map(repr, COVARIANCES))}, "
                             f"got {self.covariance!r}")
        return np.array([r, float(bool(self.fit_intercept))])

    def _check_layout(self):
        """The fitted state's layout must be the one ``covariance`` selects (switching
        between the two diagonal variants is fine: same state)."""
        if not self._is_initialised():
            return
        self._hyperparameters()
        if (self._vecs.shape[0] == 2) == self._full():
            raise InputError(f"covariance={self.covariance!r} does not match the fitted state "
                             f"({'diagonal' if self._vecs.shape[0] == 2 else 'full'} "
                             "covariance): call fit to start over with another covariance")

    def learn_prepared(self, stream, start=0, stop=None, order=None, out=None, check=None):
        self._check_layout()
        return super().learn_prepared(stream, start, stop, order, out, check)

    def _decision_values(self, X):
        self._check_layout()
        return super()._decision_values(X)

    def _initial_state(self, n_features):
        scal = np.zeros(self._n_scalars)
        if self._full():
            D = n_features + 1
            if (D + 1) * D * 8 > MAX_FULL_COVARIANCE_BYTES:
                raise InputError(
                    f"covariance='full' needs a {D}×{D} matrix for {n_features} features "
                    f"({(D + 1) * D * 8 / 2**30:.1f} GiB); use covariance='diagonal' or "
                    "'diagonal-precision' on wide data")
            vecs = np.zeros((D + 1, D))
            vecs[1:] = np.eye(D)
            return vecs, scal
        vecs = np.zeros((2, n_features))
        vecs[1] = 1.0
        scal[SIGMA_B] = 1.0
        return vecs, scal

    def _linear_model(self):
        if self._vecs.shape[0] == 2:
            return self._vecs[0].copy(), float(self._scal[BIAS])
        d = self._vecs.shape[1] - 1
        return self._vecs[0, :d].copy(), float(self._vecs[0, d])

    @property
    def sigma_(self):
        """The covariance Σ over (x, 1) — the bias coordinate last: a (d+1)×(d+1) matrix
        (full) or the (d+1)-vector of its diagonal (diagonal variants)."""
        self._check_fitted()
        if self._vecs.shape[0] == 2:
            return np.append(self._vecs[1], self._scal[SIGMA_B])
        return self._vecs[1:].copy()


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
""" + _DOC

    def __init__(self, r=1.0, covariance="full", fit_intercept=True):
        self.r = r
        self.covariance = covariance
        self.fit_intercept = fit_intercept
