"""Large-margin baselines of Ho-Nguyen et al. 2025 (the OMM paper; Table 1, §6, App. B.3 and
B.5), ℓ2 norm: ROMMA and aggressive ROMMA (Li & Long 2002), ALMA₂ (Gentile 2001), PUMMA
(Ishibashi, Hatano & Takeda 2008). Compiled rules: ``olc._compiled.rules.{romma,alma,pumma}``;
state layouts: ``olc._compiled.layouts.margin``."""
import math
from numbers import Real

import numpy as np
from ._framework.constraints import Interval

from .._compiled.layouts.margin import (
    AGGRESSIVE_ROMMA_LAYOUT,
    ALMA2_LAYOUT,
    PHASE_EMPTY,
    PHASE_ONE_LABEL,
    PUMMA_LAYOUT,
    ROMMA_LAYOUT,
    AlmaScal,
    AlmaVec,
    PummaScal,
    PummaVec,
    RommaHP,
    RommaScal,
    RommaVec,
)
from ._framework.classifier import N_JOBS_CONSTRAINT, OnlineLinearClassifier

_POSITIVE = Interval(Real, 0, math.inf, closed="neither")  # finite and > 0


def _separable_only_tags(tags):
    # scikit-learn's check_classifiers_train asks for > 83% training accuracy after one pass
    # over a blob problem that is not linearly separable (a hard-margin SVM reaches 97%).
    # ROMMA, aggressive ROMMA (homogeneous by default) and PUMMA assume separable data: on
    # conflicting constraints ‖w‖ keeps growing and the last update dominates; one pass gives
    # 83.0% (ROMMA, a-ROMMA) and 69.5% (PUMMA; 82% after 3 passes, 97% after 10), which is
    # the algorithms' behaviour (they match independent references on such streams), hence
    # scikit-learn's own tag for it.
    tags.classifier_tags.poor_score = True
    return tags


class _ScaledMarginBase(OnlineLinearClassifier):
    """What the four learners share: w = S·v with S = 1 at the start, and an integer state
    that is always a 1-D int64 array (empty for ALMA), so that the family compiles once."""

    def _initial_state(self, n_features):
        vecs, _, scal = self._layout.initial_state(n_features)
        scal[self._layout.scalars.SCALE] = 1.0  # w = S·v with S = 1, v = 0
        return vecs, scal

    def _initial_ints(self, n_features):
        return np.zeros(self._layout.n_ints(n_features), dtype=np.int64)


class _ROMMABase(_ScaledMarginBase):
    _parameter_constraints = {"D_bar": [_POSITIVE, None], "n_jobs": N_JOBS_CONSTRAINT}

    def __init__(self, D_bar=None, n_jobs=None):
        self.n_jobs = n_jobs
        self.D_bar = D_bar

    def _hp_values(self):
        return {"kappa": 0.0 if self.D_bar is None else -float(self.D_bar)}

    def _linear_model(self):
        sc = self._scal[RommaScal.SCALE]
        kappa = self._hyperparameters()[RommaHP.KAPPA]
        return sc * self._vecs[RommaVec.V], float(sc * self._scal[RommaScal.RAW_BIAS] * kappa)

    def __sklearn_tags__(self):
        return _separable_only_tags(super().__sklearn_tags__())


_ROMMA_COMMON = """
    Bias (Ho-Nguyen et al. 2025, App. B.3, after Li & Long): ``D_bar=D̄`` appends the constant
    coordinate −D̄ to every instance, x̃ = (x, −D̄), where D̄ = maxₜ‖xₜ‖ must be given (the
    coordinate is virtual: X is never copied; it only enters dot products, norms and updates).
    ``intercept_`` is then −D̄·w_{d+1} and ``coef_`` the first d weights, so that
    ``decision_function`` = coef_·x + intercept_ = w̃·x̃. ``D_bar=None`` (default): no bias
    coordinate, the homogeneous algorithm of the paper (intercept 0). The sign of the appended
    coordinate does not matter (it flips the sign of its weight only). Reproducing Ho-Nguyen et
    al. 2020, §6, on the Adult data: ``olc.make("{name}", D_bar=D̄)`` with D̄ = max‖xₜ‖₂ of the
    (transformed) data set.

    Cost. The state is w = S·v with ‖w̃‖ cached and updated incrementally (the norm rather
    than its square, which would overflow first), so the update w ← c·w + d·x̃ costs
    O(nnz(x)) (O(1) for c·w). Resetting w to y·x̃/‖x̃‖² clears only the coordinates written
    since the previous reset (amortized O(nnz(x))): the written coordinates are kept as a
    set in the integer state. More work happens only (a) when ‖v‖ leaves [1e-100, 1e100]
    and v is rescaled (over those coordinates), and (b) when the two constraints are nearly
    parallel and the tracked error bound of the cached ‖w‖ is not far below 1 − cos² of
    their angle: ‖w‖ is then recomputed exactly (O(d)), because the decision "feasible or not" and
    the step size depend on that difference of nearly equal numbers.

    Degenerate geometry (documented, tested, never NaN):
    - x̃ = 0 (x = 0 without a bias coordinate): y·w·x̃ ≥ 1 is infeasible, the round is
      skipped (no update; score 0, prediction +1).
    - y·x̃ (anti-)parallel to w: when y·x̃ points against w (sin² of the angle ≤ 1e-12, i.e.
      within ~1e-6 rad; decided with an exactly recomputed ‖w‖ when near the limit) the
      two constraints are infeasible together — e.g. a point seen again with the other
      label; the stream is then not separable — and the round is skipped. When y·x̃ points
      along w (aggressive ROMMA only), the two constraints coincide and the single-constraint
      solution y·x̃/‖x̃‖² is used.
    - Non-separable streams: ‖w‖ never decreases (w·w_t ≥ ‖w_t‖²); it grows on every update
      whose constraints conflict, and rounds whose problem is infeasible are skipped as above.
      An update whose exact result is not representable in float64 is declined (the stream
      stops with an overflow error naming the row).

    Parameters
    ----------
    D_bar : float > 0 or None, the D̄ of the appended coordinate −D̄ (default None: none).
    n_jobs : int or None, threads for K ≥ 3 classes one-vs-rest (default None: one;
        −1 every core; ``OnlineLinearClassifier``). Results do not depend on it.
"""


class ROMMA(_ROMMABase):
    __doc__ = """ROMMA, the Relaxed Online Maximum Margin Algorithm (Li & Long 2002).

    w₁ = 0. On a round with y·w_t·x̃ ≤ 0 (a mistake, a zero score included, as in the
    paper's update test and the perceptron's), w_{t+1} = argmin ‖w‖² subject to
    w·w_t ≥ ‖w_t‖² (the relaxation of all previous constraints) and y·w·x̃ ≥ 1, i.e.
    w_{t+1} = c·w_t + d·x̃ with

        c = (‖x̃‖²‖w_t‖² − y·w_t·x̃) / (‖x̃‖²‖w_t‖² − (w_t·x̃)²),
        d = ‖w_t‖²(y − w_t·x̃) / (‖x̃‖²‖w_t‖² − (w_t·x̃)²),

    and w₂ = y·x̃/‖x̃‖² on the first update (w₁ = 0: only the margin constraint). The compiled
    rule evaluates the same closed form in a scale-free way (ratios to ‖w_t‖·‖x̃‖), so that
    intermediate products of huge and tiny norms do not overflow.
""" + _ROMMA_COMMON.replace("{name}", "romma")

    _layout = ROMMA_LAYOUT


class AggressiveROMMA(_ROMMABase):
    __doc__ = """Aggressive ROMMA (Li & Long 2002): ROMMA's projection on every round with
    y·w_t·x̃ < 1 (a margin below 1), not only on mistakes.

    The single-constraint case. When y·w_t·x̃ ≥ ‖w_t‖²‖x̃‖² (possible here because the
    margin may be positive), the point y·x̃/‖x̃‖² — the smallest w with y·w·x̃ ≥ 1 — already
    satisfies w·w_t ≥ ‖w_t‖², so it is the answer: w_{t+1} = y·x̃/‖x̃‖². Only otherwise are
    both constraints active and w_{t+1} = c·w_t + d·x̃ (c, d as in ROMMA; c > 0 exactly in
    that case). Using c, d in the single-constraint case (as some public implementations do)
    gives c ≤ 0 — a point on both hyperplanes that is not the minimum-norm point.
""" + _ROMMA_COMMON.replace("{name}", "a-romma")

    _layout = AGGRESSIVE_ROMMA_LAYOUT


class ALMA2(_ScaledMarginBase):
    """ALMA₂(α; B, C), the Approximate Large Margin Algorithm for p = 2 (Gentile, "A New
    Approximate Maximal Margin Classification Algorithm", JMLR 2, 2001, Fig. 1).

    Exactly Gentile's algorithm: w₁ = 0, k = 1; for each example the normalized instance
    x̂ = x̃/‖x̃‖₂ is formed, γ_k = B/√k, and if y·w_k·x̂ ≤ (1 − α)·γ_k then

        w' = w_k + η_k·y·x̂,  η_k = C/√k,   w_{k+1} = w'/max(1, ‖w'‖₂),   k ← k + 1.

    k is indexed by corrections, not by examples: in Fig. 1 the counter is incremented only
    inside the update branch ("k ← k + 1"), so k − 1 is the number of updates made so far.
    Two things public versions skip are done here: the instance is normalized (the update
    test and the step use x̂, not x), and the *whole* w' (bias weight included) is projected
    onto the unit ball. The projection is O(1): w = S·v with ‖w‖² maintained incrementally
    (‖w'‖² = ‖w_k‖² + 2η_k·y·w_k·x̂ + η_k²), so a projection only changes S.

    Bias (Ho-Nguyen et al. 2025, App. B.3): with ``fit_intercept=True`` a constant 1 is
    appended *before* normalizing, x̃ = (x, 1) (virtually: X is never copied), and
    ``intercept_`` is the weight of that coordinate. ``fit_intercept=False`` is Gentile's
    homogeneous algorithm.

    Recorded score and ``decision_function``: w·x̃ = coef_·x + intercept_, the model's raw
    decision value; it has the sign of Gentile's w·x̂ (prediction sign(w·x̂), sign(0) = +1).

    Defaults: B = √8/α and C = √2 are the choice of Gentile's Theorem 3 as used by Ho-Nguyen et
    al. 2020 (Table 1: "ALMA(1 − φ; √8/(1 − φ), √2)"), under which ALMA₂ reaches a (1 − α) fraction
    of the normalized-data margin. Gentile gives no default α; the default α = 0.7 is Ho-Nguyen
    et al.'s (App. B.3: φ = 0.3, α = 1 − φ). So ``olc.make("alma2")`` is exactly their
    setting, α = 1 − φ = 0.7, B = √8/(1 − φ), C = √2, bias by an appended 1.

    Degenerate input: x̃ = 0 (x = 0 with ``fit_intercept=False``) has no normalization; the
    round is skipped (score 0, prediction +1, no update, k unchanged).

    Parameters
    ----------
    alpha : float in (0, 1] (default 0.7), the approximation parameter α.
    B : float > 0 or None (default None: √8/α).
    C : float > 0 (default √2).
    fit_intercept : bool (default True), append the constant 1.
    n_jobs : int or None, threads for K ≥ 3 classes one-vs-rest (default None: one;
        −1 every core; ``OnlineLinearClassifier``). Results do not depend on it.
    """

    _layout = ALMA2_LAYOUT
    _parameter_constraints = {
        "alpha": [Interval(Real, 0, 1, closed="right")],
        "B": [_POSITIVE, None],
        "C": [_POSITIVE],
        "fit_intercept": ["boolean"],
        "n_jobs": N_JOBS_CONSTRAINT,
    }

    def __init__(self, alpha=0.7, B=None, C=math.sqrt(2.0), fit_intercept=True, n_jobs=None):
        self.n_jobs = n_jobs
        self.alpha = alpha
        self.B = B
        self.C = C
        self.fit_intercept = fit_intercept

    def _hp_values(self):
        alpha = float(self.alpha)
        return {"alpha": alpha, "b": math.sqrt(8.0) / alpha if self.B is None else self.B,
                "c": self.C, "fit_intercept": self.fit_intercept}

    def _initial_state(self, n_features):
        vecs, scal = super()._initial_state(n_features)
        scal[AlmaScal.K] = 1.0  # k = 1
        return vecs, scal

    def _linear_model(self):
        sc = self._scal[AlmaScal.SCALE]
        b = sc * self._scal[AlmaScal.RAW_BIAS] if self.fit_intercept else 0.0
        return sc * self._vecs[AlmaVec.V], float(b)


class PUMMA(_ScaledMarginBase):
    """PUMMA for p = 2 with bias (Ishibashi, Hatano & Takeda, "Online Learning of Approximate
    Maximum p-Norm Margin Classifiers with Biases", COLT 2008), as described in Ho-Nguyen et
    al. 2020, App. B.5.

    Initialization: one positive and one negative point. Until the first example the classifier
    is the constant +1 (w = 0, b = 1), then the constant y₁ (b = y₁) until the first example of
    the other label (as Algorithm 1 of Ho-Nguyen et al. 2025, which their App. B.5 says PUMMA
    shares); the first point of each label is stored and (w, b) becomes the max-margin
    classifier of the pair, w = 2(p − n)/‖p − n‖², b = −w·(p + n)/2.

    Update (on rounds with y(w_t·x + b_t) ≤ 1 − δ): x replaces the stored point of its label
    and (w_{t+1}, b_{t+1}) = argmin ½‖w‖² s.t. w·p + b ≥ 1, w·n + b ≤ −1, w·w_t ≥ ‖w_t‖² — a QP
    in (w, b) with three constraints, solved in closed form by its active set (see
    ``olc._compiled.rules.pumma.pumma_step``), no solver per example. Cost per update: O(nnz(x)
    + nnz(p) + nnz(n)) — the stored points keep their coordinate sets (supports) in the integer
    state, w = S·v with ‖w‖, w·p, w·n cached — plus an amortized O(nnz) reset when w is
    replaced by the two-point solution. More only to rescale v (over its support) when ‖v‖ =
    ‖w‖/S leaves [1e-100, 1e100], and to recompute the cached values exactly (O(d)) when the
    two constraints are nearly parallel and their error bound is not far below 1 − cos² of the
    angle (as ROMMA).

    The update condition. The COLT 2008 text could not be consulted here; the test is the one
    implied by Ho-Nguyen et al. 2025 (App. B.3: δ ∈ [0, 1], "for δ ∈ (0, 1) PUMMA recovers a (1
    − δ) fraction of the maximum margin, and setting δ near 0 increases aggressiveness") and
    the normalization of PUMMA's constraints (stored points at functional margin ±1): update
    when the functional margin y(w·x + b) is at most 1 − δ, i.e. the geometric margin of x is
    at most (1 − δ) times the current one, 1/‖w_t‖. δ = 1 updates on mistakes (y(w·x + b) ≤ 0)
    only; δ = 0 whenever the margin is below the current one. [Assumption: ≤, not <.]

    Translation invariance (Ho-Nguyen et al. 2025, App. B.5): shifting every x by u leaves w_t, the
    predictions and the updates unchanged and turns b_t into b_t − w_t·u (tested).

    Degenerate geometry (documented, tested, never NaN):
    - x coincides with the stored point of the other label (‖p − n‖² ≤ 1e-12·(‖p‖² + ‖n‖²)):
      the max-margin problem is infeasible; the round is skipped (nothing stored, no update).
      During initialization the learner keeps predicting y₁ and waits for another point.
    - p − n anti-parallel to w_t (sin² ≤ 1e-12): infeasible together with w·w_t ≥ ‖w_t‖²;
      skipped. (p − n parallel to w_t is feasible; the two-point solution is used.)
    - Collinear points in general are an ordinary case; the origin is an ordinary point.
    - Non-separable streams: infeasible rounds are skipped as above; ‖w‖ never decreases.

    Default δ = 0.01 is Ho-Nguyen et al.'s (2020, App. B.3; the paper's guarantees need
    δ > 0). So ``olc.make("pumma")`` is their setting.

    Parameters
    ----------
    delta : float in [0, 1] (default 0.01).
    n_jobs : int or None, threads for K ≥ 3 classes one-vs-rest (default None: one;
        −1 every core; ``OnlineLinearClassifier``). Results do not depend on it.
    """

    _layout = PUMMA_LAYOUT
    _parameter_constraints = {"delta": [Interval(Real, 0, 1, closed="both")],
                              "n_jobs": N_JOBS_CONSTRAINT}

    def __init__(self, delta=0.01, n_jobs=None):
        self.n_jobs = n_jobs
        self.delta = delta

    def _hp_values(self):
        return {"delta": self.delta}

    def _initial_state(self, n_features):
        vecs, scal = super()._initial_state(n_features)
        scal[PummaScal.BIAS] = 1.0  # the constant classifier +1 before any example
        return vecs, scal

    def _linear_model(self):
        return (self._scal[PummaScal.SCALE] * self._vecs[PummaVec.V],
                float(self._scal[PummaScal.BIAS]))

    def __sklearn_tags__(self):
        return _separable_only_tags(super().__sklearn_tags__())

    @property
    def support_points_(self):
        """(p, n): the stored positive and negative points (zeros for a label not stored)."""
        self._check_fitted()
        phase = self._scal[PummaScal.PHASE]
        d = self._vecs.shape[1]
        p, n = self._vecs[PummaVec.P].copy(), self._vecs[PummaVec.N].copy()
        if phase == PHASE_EMPTY:
            return np.zeros(d), np.zeros(d)
        if phase == PHASE_ONE_LABEL:
            return (p, np.zeros(d)) if self._scal[PummaScal.Y1] > 0 else (np.zeros(d), n)
        return p, n
