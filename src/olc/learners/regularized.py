"""Regularized large-margin online learners of Shen & Dietterich (§3): the
objective-regularized PA (problem 3.1, Lemma 3.1), the L2-norm-constrained PA (problem 3.9,
Lemma 3.2) and the L1-norm-constrained PA (problem 3.10), each with the optional small-weight
removal of §3.3 (threshold σ, Eq. 3.17)."""
from numbers import Real

from ._framework.constraints import Interval, StrOptions

from .._compiled.layouts.regularized import (
    L1_CONSTRAINED_PA_LAYOUT,
    L2_CONSTRAINED_PA_LAYOUT,
    OBJECTIVE_PA_LAYOUT,
    UPDATE_ALWAYS,
    UPDATE_HINGE,
    UPDATE_MISTAKE,
)
from .._compiled.layouts.regularized import ShenDietterichScal as SDScal
from .._compiled.layouts.regularized import ShenDietterichVec as SDVec
from ._framework.classifier import N_JOBS_CONSTRAINT, OnlineLinearClassifier

_UPDATES = {"mistake": UPDATE_MISTAKE, "hinge": UPDATE_HINGE, "always": UPDATE_ALWAYS}

_COMMON = """
    Common parameters
    -----------------
    update : {"mistake", "hinge", "always"}, when the problem is solved (default "mistake").
        The paper updates "when the classifier makes an error" (§2): "mistake" is
        y(w·x + b) ≤ 0 (so a zero score counts, as for the perceptron); "hinge" is a positive
        hinge loss, y(w·x + b) < 1 (the classical PA condition); "always" solves the problem
        on every round.
    sigma : float ≥ 0, small-weight removal threshold σ (§3.3; default 0: off). After each
        update the features are sorted by |w_j| ascending (ties: lower index first) and the
        first k are set to 0, k the largest with Σ of the removed w_j² < σ (the paper leaves k
        under-determined; its Eq. 3.17 should subtract v_t from w''_t, and Eq. 5.23 misses the
        square). The bias is not a feature and is never removed. Cost per update: O(nnz(w))
        plus sorting the candidates w_j² < σ.
    fit_intercept : bool (default False). The paper's classifier is w·x, without a bias. With
        True the bias is the weight b of an appended constant feature 1 — the problems are
        then solved over w̃ = (w, b) with x̃ = (x, 1) exactly as written, so the bias counts in
        ‖x̃‖², is shrunk/constrained with w (‖w̃‖ ≤ β, ‖w̃‖₁ ≤ β) and x = 0 is no longer
        degenerate.
    n_jobs : int or None, threads for K ≥ 3 classes one-vs-rest (default None: one;
        −1 every core; ``OnlineLinearClassifier``). Results do not depend on it.

    Implementation: w = S·v (scale × vector), so shrinking costs O(1); a list of the nonzero
    coordinates makes every whole-vector operation O(nnz(w)), never O(d). Degenerate rounds
    (x = 0 without a bias, infeasible constraint sets) are skipped: no update, ``updated`` is
    False, the model stays finite.
"""


_COMMON_CONSTRAINTS = {
    "update": [StrOptions(set(_UPDATES))],
    "sigma": [Interval(Real, 0, None, closed="left")],
    "fit_intercept": ["boolean"],
}


class _ShenDietterichPA(OnlineLinearClassifier):
    _strength = None  # the name of the problem's parameter: "alpha" or "beta"

    def _hp_values(self):
        return {self._strength: getattr(self, self._strength),
                "update": _UPDATES[self.update], "fit_intercept": self.fit_intercept,
                "sigma": self.sigma}

    def _initial_state(self, n_features):
        vecs, _, scal = self._layout.initial_state(n_features)
        scal[SDScal.SCALE] = 1.0
        return vecs, scal

    def _linear_model(self):
        s = self._scal[SDScal.SCALE]
        return s * self._vecs[SDVec.V], float(s * self._scal[SDScal.BIAS_RAW])


class _BallConstrainedPA(_ShenDietterichPA):
    """The norm-constrained learners (problems 3.9 and 3.10): one radius β of the ball."""

    _strength = "beta"
    _parameter_constraints = {"beta": [Interval(Real, 0, None, closed="neither")],
                              **_COMMON_CONSTRAINTS, "n_jobs": N_JOBS_CONSTRAINT}

    def __init__(self, beta=10.0, update="mistake", sigma=0.0, fit_intercept=False,
                 n_jobs=None):
        self.n_jobs = n_jobs
        self.beta = beta
        self.update = update
        self.sigma = sigma
        self.fit_intercept = fit_intercept


class ObjectiveRegularizedPA(_ShenDietterichPA):
    __doc__ = """Objective-regularized Passive-Aggressive (Shen & Dietterich, §3.1).

    On an update, solves problem (3.1): w_{t+1} = argmin ½‖w − w_t‖² + (α/2)‖w‖² s.t.
    y_t(w·x_t) ≥ 1, whose solution is w_{t+1} = (w_t + τ_t·y_t·x_t)/(1 + α).

    Lemma 3.1 states τ_t = (ℓ_t + α)/‖x_t‖²; that is the exact solution only when the margin
    constraint is active. For any w_t the exact multiplier is
    τ_t = max(0, 1 + α − y_t·w_t·x_t)/‖x_t‖², which equals the lemma's whenever
    y_t·w_t·x_t ≤ 1 (in particular on every mistake); we use the exact one, which matters for
    ``update="always"`` (a correct example with margin ≥ 1 + α only shrinks w).
    x = 0 without a bias: the constraint 0 ≥ 1 is infeasible; the round is skipped.

    Parameters
    ----------
    alpha : float ≥ 0, shrinkage α (default 0.001; the paper tunes it). α = 0 is classic PA.
        Theorem 3.1's mistake bound needs g = (1 − α²)/R² − αD²/(2 + α) > 0 (fixed target),
        i.e. α small against 1/(R·D)²; with a larger α the learner keeps forgetting and need
        not converge on separable data.
""" + _COMMON

    _layout = OBJECTIVE_PA_LAYOUT
    _strength = "alpha"
    _parameter_constraints = {"alpha": [Interval(Real, 0, None, closed="left")],
                              **_COMMON_CONSTRAINTS, "n_jobs": N_JOBS_CONSTRAINT}

    def __init__(self, alpha=0.001, update="mistake", sigma=0.0, fit_intercept=False,
                 n_jobs=None):
        self.n_jobs = n_jobs
        self.alpha = alpha
        self.update = update
        self.sigma = sigma
        self.fit_intercept = fit_intercept


class L2ConstrainedPA(_BallConstrainedPA):
    __doc__ = """L2-norm-constrained Passive-Aggressive (Shen & Dietterich, §3.2).

    On an update, solves problem (3.9): w_{t+1} = argmin ½‖w − w_t‖² s.t. y_t(w·x_t) ≥ 1 and
    ‖w‖ ≤ β, by Lemma 3.2: w_{t+1} = (w_t + τ_t·y_t·x_t)/Z_t with
    Z_t = max{1, √((‖w_t‖²‖x_t‖² − (w_t·x_t)²)/(β²‖x_t‖² − 1))}, τ_t = (ℓ_t + Z_t − 1)/‖x_t‖².
    The lemma is exact whenever y_t·w_t·x_t < 1 and ‖w_t‖ ≤ β (always so here: w starts at 0
    and every update lands in the ball); a round with margin ≥ 1 and ‖w_t‖ ≤ β leaves w as
    is. If β is lowered between calls so that ‖w_t‖ > β, the problem is still solved exactly
    (the ball projection w_t·β/‖w_t‖ when it keeps margin ≥ 1, else both constraints active).

    Degenerate geometry, which the lemma does not cover:
    - β²‖x‖² < 1 (including x = 0 without a bias): the half-space {y·w·x ≥ 1} misses the ball,
      problem (3.9) is infeasible: the round is skipped (no update).
    - β²‖x‖² = 1: the feasible set is the single point y·x/‖x‖², which becomes w (the limit
      of Lemma 3.2 as Z → ∞).
    With ``fit_intercept`` and β ≥ 1 no round is infeasible (‖x̃‖² ≥ 1).

    The learner is rotation invariant (Lemma 3.3; without σ).

    Parameters
    ----------
    beta : float > 0, the radius β of the L2 ball (default 10; the paper tunes it).
""" + _COMMON

    _layout = L2_CONSTRAINED_PA_LAYOUT


class L1ConstrainedPA(_BallConstrainedPA):
    __doc__ = """L1-norm-constrained Passive-Aggressive (Shen & Dietterich, §3.2).

    On an update, solves problem (3.10) exactly: w_{t+1} = argmin ½‖w − w_t‖² s.t.
    y_t(w·x_t) ≥ 1 and ‖w‖₁ ≤ β. The paper calls a QP solver per example; here:
    - if the PA step w_t + τ·y·x (τ = max(0, 1 − y·w_t·x)/‖x‖²) stays in the L1 ball, it is the
      answer: O(nnz(x)), with ‖w‖₁ maintained incrementally (the common case while ‖w‖₁ < β);
    - otherwise, by duality, w_{t+1} = P(w_t + τ*·y·x), P the Euclidean projection onto the
      L1 ball (a soft threshold, Duchi et al. 2008) and τ* the root of the nondecreasing,
      piecewise-affine margin h(τ) = y·x·P(w_t + τ·y·x) = 1, found exactly by a safeguarded
      Newton search over its affine pieces (about four evaluations of h per update, each
      finding the projection threshold by Michelot's fixed point, with a sort as the
      O(n log n) fallback). This branch costs O(nnz(w) + nnz(x)) per evaluation — inherent,
      since the projection's threshold depends on every nonzero weight; a list of the
      nonzero coordinates keeps it from ever touching the zero ones (not O(d)).

    Degenerate geometry: the largest margin in the ball is β‖x‖_∞, so β‖x‖_∞ < 1 (including
    x = 0 without a bias) makes (3.10) infeasible: the round is skipped (no update). At
    β‖x‖_∞ = 1 (e.g. 0/1 features with β = 1) the problem is feasible and solved exactly
    (the solution lies on the face of the ball spanned by the largest |x_j|).

    Parameters
    ----------
    beta : float > 0, the radius β of the L1 ball (default 10; the paper tunes it).
""" + _COMMON

    _layout = L1_CONSTRAINED_PA_LAYOUT

    @property
    def l1_norm_(self):
        """‖w̃‖₁ as maintained by the rule (including |b| with ``fit_intercept``)."""
        self._check_fitted()
        return float(self._scal[SDScal.NORM])
