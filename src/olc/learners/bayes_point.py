"""The generalised perceptron and the Online Bayes Point Machine (Harrington, Herbrich,
Kivinen, Platt & Williamson, "Online Bayes Point Machines", PAKDD 2003, Algorithms 1 and 2)."""
import math
from numbers import Integral, Real

import numpy as np
from ._framework.constraints import Interval, StrOptions

from .._compiled.layouts.bayes_point import (
    FIRST_MEMBER_BLOCK,
    FIRST_MEMBER_ROW,
    GENERALIZED_PERCEPTRON_AVERAGED_LAYOUT,
    GENERALIZED_PERCEPTRON_LAYOUT,
    MEMBER_BIAS,
    MEMBER_BLOCK,
    OBPM_LAYOUT,
    SCHEDULES,
    SUPPORTED_BASE_LAYOUTS,
    ObpmHP,
    ObpmScal,
    ObpmVec,
    obpm_sizes,
)
from ._framework.averaging import AVERAGE_CONSTRAINT, AveragingMixin, LayoutChoice, average_start
from ._framework.classifier import N_JOBS_CONSTRAINT, OnlineLinearClassifier
from .registry import algorithms, info, make
from ._framework.validation import InputError

_SEED_LIMIT = 2**53  # seeds are stored exactly in the float64 hp array


class GeneralizedPerceptron(AveragingMixin, OnlineLinearClassifier):
    """Generalised perceptron (Harrington et al. 2003, Algorithm 1).

    Update on example z_t when its normalized margin is at most the update margin,
    y(w_k·x)/‖w_k‖ ≤ ρ_k (line 3): w_{k+1} = w_k + η_k·y·x (line 4), k ← k + 1 (line 5). k
    counts updates (it starts at 1), not rounds. The schedules named in §2:
    ``rho_schedule``/``eta_schedule`` = ``"constant"`` (ρ_k = ρ, η_k = η: ρ = 0 is the
    standard perceptron, ρ > 0 the marginalised perceptron of Duda et al.) or ``"inv_sqrt"``
    (ρ_k = ρ/√k, η_k = η/√k: with ρ = (1−δ)B and η = C this is ALMA's schedule, without
    ALMA's normalization of x and projection of w, which are ``alma``'s).

    Decisions where the paper is silent:
    - Bias: footnote 4 adds an extra attribute +1 to x, so with ``fit_intercept`` the bias
      b is one more weight: it moves by η_k·y and counts in ‖w‖ (the margin is
      y(w·x + b)/‖(w, b)‖).
    - w = 0: the ratio is 0/0; the margin counts as 0, so the test is y(w·x + b) ≤ ρ_k‖(w, b)‖
      (identical for w ≠ 0) and the first round always updates. With ρ = 0 and η = 1 the
      learner is exactly ``perceptron`` (update when y(w·x + b) ≤ 0).
    - ‖(w, b)‖² is maintained incrementally (O(nnz(x)) per update) and recomputed exactly
      every ~4d nonzeros of updates (amortized O(nnz)).

    Parameters
    ----------
    rho : float ≥ 0, update margin ρ (default 0).
    eta : float > 0, step size η (default 1).
    rho_schedule, eta_schedule : "constant" or "inv_sqrt" (default "constant").
    fit_intercept : bool (default True).
    average : bool or int ≥ 1 (default False): predict with the mean of the iterates from
        that row on (``olc.learners._framework.averaging``; the averaged perceptron of Freund &
        Schapire 1999 when ρ = 0, η = 1). The update test and ‖(w, b)‖ are the iterate's.
    n_jobs : int or None, threads for K ≥ 3 classes one-vs-rest (default None: one;
        −1 every core; ``OnlineLinearClassifier``). Results do not depend on it.
    """

    _layout = LayoutChoice(GENERALIZED_PERCEPTRON_LAYOUT,
                           GENERALIZED_PERCEPTRON_AVERAGED_LAYOUT)
    _parameter_constraints = {
        "rho": [Interval(Real, 0, None, closed="left")],
        "eta": [Interval(Real, 0, None, closed="neither")],
        "rho_schedule": [StrOptions(set(SCHEDULES))],
        "eta_schedule": [StrOptions(set(SCHEDULES))],
        "fit_intercept": ["boolean"],
        "average": AVERAGE_CONSTRAINT,
        "n_jobs": N_JOBS_CONSTRAINT,
    }

    def __init__(self, rho=0.0, eta=1.0, rho_schedule="constant", eta_schedule="constant",
                 fit_intercept=True, average=False, n_jobs=None):
        self.n_jobs = n_jobs
        self.rho = rho
        self.eta = eta
        self.rho_schedule = rho_schedule
        self.eta_schedule = eta_schedule
        self.fit_intercept = fit_intercept
        self.average = average

    def _hp_values(self):
        return {"rho": self.rho, "eta": self.eta,
                "rho_schedule": SCHEDULES[self.rho_schedule],
                "eta_schedule": SCHEDULES[self.eta_schedule],
                "fit_intercept": self.fit_intercept}


def _supported_bases():
    return [e.name for e in algorithms()
            if any(getattr(e.cls, "_layout", None) is layout
                   for layout in SUPPORTED_BASE_LAYOUTS)]


class OnlineBayesPointMachine(OnlineLinearClassifier):
    """Online Bayes Point Machine (Harrington et al. 2003, Algorithm 2).

    N copies of a base learner (the perceptron, as in the paper, by default) run in
    parallel; at round t member j learns (x_t, y_t) only if b_{j,t} = 1, b_{j,t} ~
    Bernoulli(τ) independent (lines 6–11). The classifier is the average of the members'
    weights, normalized: w̃ = w̃'/max(1, ‖w̃'‖), w̃' = Σ_j w_j/N (lines 13, 15); the online
    prediction for x_t is sign(w̃_{t−1}·x_t), made before the round's updates.

    All N members live in one state array (N × d) and are updated in one compiled pass; the
    member sum is kept up to date with each member's change in O(nnz(x)), and its squared
    norm incrementally (recomputed exactly every ~4d nonzeros of updates), so predicting
    costs O(nnz(x)) and a round O(τ·N·nnz(x)) on average, as in the paper (§3).

    Randomness: b_{j,t} = [uniform(seed, j, t) < τ] with the counter-based generator of
    ``olc._compiled.kernels.random`` (member j is the stream, t = rounds already seen, 0-based), so
    the draws depend only on (seed, j, t): chunking and save/load do not change them.
    ``record.aux`` holds the number of members that updated at each round.

    Base learners: any catalogue learner whose state is (w, b) with additive updates on the
    support of x — ``perceptron``, ``pa``, ``pa-i``, ``pa-ii``, ``generalized-perceptron``
    (``base`` is its name, ``base_params`` its hyper-parameters; the step-size rule 𝒮 of
    line 12 is the base learner's own, e.g. the generalised perceptron's η_k schedule,
    per member). Others are rejected with the list of supported ones.

    Decisions where the paper is silent:
    - Bias: footnote 4 treats the bias as an extra attribute +1, so the members' biases are
      averaged like the other weights and count in ‖w̃'‖ of line 15.
    - Defaults: the paper leaves N and τ to tuning; N = 100 (its Table 1, Figs. 2–3) and
      τ = 0.3 (Fig. 3; middle of the 0.1–0.4 range §4.3 recommends).
    - Overflow: a member update that would make ‖Σ_j (w_j, b_j)‖² overflow is declined and
      stops the stream as an overflow; members updated earlier in that round keep their
      update.
    - N and base are fixed once learning starts (they shape the state); ``fit`` starts over.

    Parameters
    ----------
    N : int ≥ 1, number of members (default 100).
    tau : float in [0, 1], probability that a member sees an example (default 0.3).
    base : str, registry name of the member learner (default "perceptron").
    base_params : dict or None, hyper-parameters of the member learner (default None).
    seed : int in [0, 2**53), seed of the Bernoulli draws (default 0).
    n_jobs : int or None, threads for K ≥ 3 classes one-vs-rest (default None: one;
        −1 every core; ``OnlineLinearClassifier``). Results do not depend on it.
    """

    _layout = OBPM_LAYOUT
    _parameter_constraints = {
        "N": [Interval(Integral, 1, None, closed="left")],
        "tau": [Interval(Real, 0, 1, closed="both")],
        "base": [str],
        "base_params": [dict, None],
        "seed": [Interval(Integral, 0, _SEED_LIMIT, closed="left")],
        "n_jobs": N_JOBS_CONSTRAINT,
    }

    def __init__(self, N=100, tau=0.3, base="perceptron", base_params=None, seed=0, n_jobs=None):
        self.n_jobs = n_jobs
        self.N = N
        self.tau = tau
        self.base = base
        self.base_params = base_params
        self.seed = seed

    def _check_params(self):
        for name in ("N", "seed"):  # an Integral interval takes True for 1
            value = getattr(self, name)
            if isinstance(value, (bool, np.bool_)):
                raise InputError(f"{name} must be an integer, got {value!r}")
        # base/base_params are checked by _hp_values, which builds the base learner anyway.

    def _base_learner(self):
        """(the base learner built from ``base``/``base_params``, its packed hp)."""
        try:
            entry = info(self.base)
        except KeyError as exc:
            raise InputError(f"base: {exc}") from None
        supported = _supported_bases()
        if entry.name not in supported:
            raise InputError(
                f"base={self.base!r} is not supported: OBPM members must keep an explicit "
                f"(w, b) with additive updates; supported base learners: {', '.join(supported)}")
        try:
            learner = make(entry.name, **(self.base_params or {}))
        except TypeError as exc:
            raise InputError(f"base_params: {exc}") from None
        if average_start(getattr(learner, "average", False)):
            raise InputError(f"base_params: average={learner.average!r} is not supported for "
                             "OBPM members (OBPM averages its members itself); leave it out")
        try:
            hp = learner._hyperparameters()
        except InputError as exc:
            raise InputError(f"base_params for {entry.name}: {exc}") from None
        return learner, hp

    def _hp_values(self):
        learner, base_hp = self._base_learner()
        return {"n": self.N, "tau": self.tau, "seed": self.seed,
                "base_rule": learner._layout.rule, "tail": base_hp}

    def _check_continuation(self):
        """The members and their base rule are fixed once learning starts."""
        hp = self._hyperparameters()
        if self._n_fitted_members() != self.N:
            raise InputError(f"N={self.N!r} differs from the {self._n_fitted_members()} "
                             "members the learner was started with; call fit to start over")
        if self._class_learner(0)._scal[ObpmScal.BASE_RULE] != hp[ObpmHP.BASE_RULE]:
            raise InputError(f"base={self.base!r} differs from the base learner the "
                             "learner was started with; call fit to start over")
        super()._check_continuation()

    def _n_fitted_members(self):
        return self._class_learner(0)._vecs.shape[0] - FIRST_MEMBER_ROW

    def _initial_state(self, n_features):
        learner, _ = self._base_learner()
        rows, n_scalars = obpm_sizes(self.N)
        vecs, _, scal = self._layout.initial_state(n_features, rows, n_scalars)
        scal[ObpmScal.BASE_RULE] = learner._layout.rule
        return vecs, scal

    def _denominator(self):
        sq = self._scal[ObpmScal.SUM_SQ]
        r = math.sqrt(sq) if sq > 0.0 else 0.0
        return max(float(self._n_fitted_members()), r)

    def _linear_model(self):
        den = self._denominator()
        return self._vecs[ObpmVec.SUM] / den, float(self._scal[ObpmScal.SUM_BIAS] / den)

    @property
    def member_coefs_(self):
        """(N, d): each member's weight vector."""
        self._check_fitted()
        return self._vecs[FIRST_MEMBER_ROW:].copy()

    @property
    def member_intercepts_(self):
        """(N,): each member's bias."""
        self._check_fitted()
        return self._scal[FIRST_MEMBER_BLOCK + MEMBER_BIAS::MEMBER_BLOCK].copy()
