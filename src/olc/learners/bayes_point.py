"""The generalised perceptron and the Online Bayes Point Machine (seed 003: Harrington,
Herbrich, Kivinen, Platt & Williamson, Online Bayes Point Machines, PAKDD 2003,
Algorithms 1 and 2)."""
import math

import numpy as np

from .._compiled.rules.bayes_point import (
    BASE,
    BLOCK,
    CONSTANT,
    GENERALIZED_PERCEPTRON,
    HEADER,
    INV_SQRT,
    OBPM,
    SUM_BIAS,
    SUM_SQ,
    SUPPORTED_BASE_RULES,
)
from .base import OnlineLinearClassifier, positive_float
from .experts import check_seed
from .registry import algorithms, info, make
from .validation import InputError

_SCHEDULES = {"constant": CONSTANT, "inv_sqrt": INV_SQRT}


class GeneralizedPerceptron(OnlineLinearClassifier):
    """Generalised perceptron (seed 003, Algorithm 1).

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
    """

    _rule = GENERALIZED_PERCEPTRON

    def __init__(self, rho=0.0, eta=1.0, rho_schedule="constant", eta_schedule="constant",
                 fit_intercept=True):
        self.rho = rho
        self.eta = eta
        self.rho_schedule = rho_schedule
        self.eta_schedule = eta_schedule
        self.fit_intercept = fit_intercept

    def _hyperparameters(self):
        rho = positive_float(self.rho, "rho", allow_zero=True)
        eta = positive_float(self.eta, "eta")
        schedules = []
        for name in ("rho_schedule", "eta_schedule"):
            value = getattr(self, name)
            if not isinstance(value, str) or value not in _SCHEDULES:
                raise InputError(f"{name} must be 'constant' or 'inv_sqrt', got {value!r}")
            schedules.append(float(_SCHEDULES[value]))
        return np.array([rho, eta, *schedules, float(bool(self.fit_intercept))])


def _rule_and_rows(cls):
    layout = getattr(cls, "_layout", None)
    if layout is not None:
        return layout.rule, layout.n_vectors
    return getattr(cls, "_rule", None), getattr(cls, "_n_vectors", None)  # TRANSITION


def _supported_bases():
    return [e.name for e in algorithms() if _rule_and_rows(e.cls)[0] in SUPPORTED_BASE_RULES
            and _rule_and_rows(e.cls)[1] == 1]


class OnlineBayesPointMachine(OnlineLinearClassifier):
    """Online Bayes Point Machine (seed 003, Algorithm 2).

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
    ``olc._compiled.random`` (member j is the stream, t = rounds already seen, 0-based), so
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
    """

    _rule = OBPM

    def __init__(self, N=100, tau=0.3, base="perceptron", base_params=None, seed=0):
        self.N = N
        self.tau = tau
        self.base = base
        self.base_params = base_params
        self.seed = seed

    def _n_members(self):
        n = self.N
        if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) or n < 1:
            raise InputError(f"N must be an integer ≥ 1 (the number of members), got {n!r}")
        return int(n)

    def _base_learner(self):
        if not isinstance(self.base, str):
            raise InputError(f"base must be the registry name of a learner, got {self.base!r}")
        try:
            entry = info(self.base)
        except KeyError as exc:
            raise InputError(f"base: {exc}") from None
        supported = _supported_bases()
        if entry.name not in supported:
            raise InputError(
                f"base={self.base!r} is not supported: OBPM members must keep an explicit "
                f"(w, b) with additive updates; supported base learners: {', '.join(supported)}")
        params = self.base_params
        if params is None:
            params = {}
        if not isinstance(params, dict):
            raise InputError(f"base_params must be a dict or None, got {params!r}")
        try:
            learner = make(entry.name, **params)
        except TypeError as exc:
            raise InputError(f"base_params: {exc}") from None
        try:
            hp = learner._hyperparameters()
        except InputError as exc:
            raise InputError(f"base_params for {entry.name}: {exc}") from None
        return learner, hp

    def _hyperparameters(self):
        n = self._n_members()
        try:
            tau = float(self.tau)
        except (TypeError, ValueError):
            raise InputError(f"tau must be a number in [0, 1], got {self.tau!r}") from None
        if not 0.0 <= tau <= 1.0:
            raise InputError(f"tau must be in [0, 1], got {self.tau!r}")
        seed = check_seed(self.seed)
        learner, base_hp = self._base_learner()
        return np.concatenate([[float(n), tau, seed, float(learner._rule)], base_hp])

    def learn_prepared(self, stream, start=0, stop=None, order=None, out=None, check=None):
        if self._is_initialised():
            hp = self._hyperparameters()
            if self._vecs.shape[0] - 2 != int(hp[0]):
                raise InputError(f"N={self.N!r} differs from the {self._vecs.shape[0] - 2} "
                                 "members the learner was started with; call fit to start over")
            if self._scal[BASE] != hp[3]:
                raise InputError(f"base={self.base!r} differs from the base learner the "
                                 "learner was started with; call fit to start over")
        return super().learn_prepared(stream, start, stop, order, out, check)

    def _initial_state(self, n_features):
        n = self._n_members()
        learner, _ = self._base_learner()
        scal = np.zeros(HEADER + BLOCK * n)
        scal[BASE] = learner._rule
        return np.zeros((n + 2, n_features)), scal

    def _denominator(self):
        sq = self._scal[SUM_SQ]
        r = math.sqrt(sq) if sq > 0.0 else 0.0
        return max(float(self._vecs.shape[0] - 2), r)

    def _linear_model(self):
        den = self._denominator()
        return self._vecs[0] / den, float(self._scal[SUM_BIAS] / den)

    @property
    def member_coefs_(self):
        """(N, d): each member's weight vector."""
        self._check_fitted()
        return self._vecs[1:-1].copy()

    @property
    def member_intercepts_(self):
        """(N,): each member's bias."""
        self._check_fitted()
        n = self._vecs.shape[0] - 2
        return self._scal[HEADER:HEADER + BLOCK * n:BLOCK].copy()
