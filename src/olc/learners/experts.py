"""Winnow, Weighted Majority and Randomized Weighted Majority (Kitani's lecture notes on
online linear classification: Algorithms 4, 1 and 2).

These learners are defined on a restricted input domain — Winnow on x ∈ {0,1}^d, WM and RWM
on expert predictions x ∈ {−1,+1}^d — and reject anything else with the row and column.
Where: while learning, the compiled rule checks each row in the pass that computes its vote
(no extra pass over the data) and declines an out-of-domain row like a NaN row, so the loop
stops before it; the rows before it are learned (streaming semantics, as for NaN) and
:class:`~olc.learners.StreamStoppedError` names the row and column. For
``decision_function``/``predict`` and τ check sets, one vectorized NumPy check runs first.
"""
import math
from numbers import Integral, Real

import numpy as np
from ._framework.constraints import Interval

from .._compiled.layouts.experts import (
    RANDOMIZED_WEIGHTED_MAJORITY_LAYOUT,
    WEIGHTED_MAJORITY_LAYOUT,
    WINNOW_LAYOUT,
    ExpertsInt,
    ExpertsIntBlock,
    ExpertsVec,
    WinnowIntBlock,
    WinnowVec,
)
from .._compiled.kernels.random import uniform_array
from ._framework.classifier import N_JOBS_CONSTRAINT, OnlineLinearClassifier
from ._framework.validation import SEED_LIMIT, InputError, StreamStoppedError, check_seed
from .._util.sparse import issparse, scipy_sparse

BINARY, SIGN = "binary", "sign"
#: How each input domain is written in error messages (also River's, ``olc.river``).
DOMAIN_TEXT = {BINARY: "{0, 1}", SIGN: "{-1, +1}"}
_POSITIVE = Interval(Real, 0, np.inf, closed="neither")
_ETA = [Interval(Real, 0, 0.5, closed="right")]  # the lecture requires η ≤ 1/2


def _outside(values, domain):
    if domain == BINARY:
        return (values != 0.0) & (values != 1.0)
    return (values != 1.0) & (values != -1.0)


def first_violation(X, domain):
    """(row, column, value) of an entry of X outside ``domain`` — NaN/inf included — in the
    first row that has one, or None: the row's first such entry, except that for ``BINARY``
    a negative entry of that row is named first (scikit-learn's "Negative values in data",
    which its ``positive_only`` tag promises). For ``SIGN`` an entry a CSR row does not store
    is a zero, hence outside. Vectorized: one pass over the stored values."""
    if not issparse(X):
        X = np.asarray(X)
        flat = np.flatnonzero(_outside(X, domain).ravel())
        if flat.size == 0:
            return None
        row, col = divmod(int(flat[0]), X.shape[1])
        col = _named_column(X[row], col, domain)
        return row, col, float(X[row, col])
    X = scipy_sparse().csr_matrix(X)
    bad = np.flatnonzero(_outside(X.data, domain))
    rows = []
    if bad.size:
        rows.append(int(np.searchsorted(X.indptr, bad[0], side="right") - 1))
    if domain == SIGN:
        short = np.flatnonzero(np.diff(X.indptr) < X.shape[1])
        if short.size:
            rows.append(int(short[0]))
    if not rows:
        return None
    row = min(rows)
    dense = X[row].toarray().ravel()
    col = _named_column(dense, int(np.flatnonzero(_outside(dense, domain))[0]), domain)
    return row, col, float(dense[col])


def _named_column(row_values, first_outside, domain):
    """The column of the row's violation to name: its first negative value for ``BINARY``
    (when it has one), else its first value outside the domain."""
    if domain == BINARY:
        negative = np.flatnonzero(row_values < 0.0)
        if negative.size:
            return int(negative[0])
    return first_outside


class _DomainLearner(OnlineLinearClassifier):
    """Shared input-domain handling (see the module docstring)."""

    def __sklearn_tags__(self):
        # Inputs in {0, 1} are non-negative: scikit-learn's positive_only tells tools (and
        # its checks) that negative input is refused by design; ±1 experts take negatives.
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = self.input_domain == BINARY
        return tags

    #: "binary" ({0,1}) or "sign" ({-1,+1}): the values every feature must take.
    input_domain = None
    #: The update factor's parameter ("beta" or "eta"), fixed once learning starts (the exact
    #: weights are kept as exponents or counts of that one factor): the layout has a
    #: hyper-parameter field and a scalar slot (the value learning started with) of its name.
    _factor = None

    def _factor_fields(self):
        key = self._factor.upper()
        return self._layout.hp[key], self._layout.scalars[key]

    def _initial_state(self, n_features):
        """Weights of 1 (line 2 of each algorithm) and the factor learning starts with."""
        vecs, _, scal = self._layout.initial_state(n_features)
        vecs[:] = 1.0
        field, slot = self._factor_fields()
        scal[slot] = self._hyperparameters()[field]
        return vecs, scal

    def _learned_factor(self):
        return float(self._scal[self._factor_fields()[1]])

    def _int_block(self, block):
        """The integer block ``block`` (exponents or mistake counts) of the state."""
        start = self._layout.int_block(block, self.n_features_in_)
        return self._ints[start:start + self.n_features_in_]

    def _domain_message(self, row, col, value):
        negative = self.input_domain == BINARY and value < 0.0
        return (("Negative values in data: " if negative else "")
                + f"X[{row}, {col}] = {value!r} at row {row}, column {col} is outside "
                f"{type(self).__name__}'s input domain {DOMAIN_TEXT[self.input_domain]}"
                + (" (0 is not a prediction; a CSR row must store all d entries)"
                   if value == 0.0 and self.input_domain == SIGN else ""))

    def _check_domain(self, X):
        hit = first_violation(X, self.input_domain)
        if hit is not None and math.isfinite(hit[2]):
            raise InputError(self._domain_message(*hit))
        # A non-finite first violation is left to the base class, which reports NaN/inf.

    def _check_continuation(self):
        """The weights are stored as powers of the factor: it cannot change mid-stream."""
        field, slot = self._factor_fields()
        started = self._class_learner(0)._scal[slot]  # every class starts alike
        if self._hyperparameters()[field] != started:
            raise InputError(
                f"{self._factor}={getattr(self, self._factor)!r} differs from the value the "
                f"learner started with, {started!r}: the weights are stored as "
                "powers of that factor, so it is fixed once learning starts; call fit to "
                "start over")
        super()._check_continuation()

    def _explain_stop(self, stream, error):
        """A row outside the input domain stops the loop as a non-finite row does: name the
        domain, not NaN/inf."""
        hit = first_violation(stream.source[error.row:error.row + 1], self.input_domain)
        if hit is None or not math.isfinite(hit[2]):
            return None
        _, col, value = hit
        return StreamStoppedError(
            f"{self._domain_message(error.row, col, value)}. The {error.rows_learned} row(s) "
            "before it were learned (rows are processed in order).",
            error.row, error.rows_learned, error.record)

    def _prepare_X(self, X, reset=False):
        """Rows to score must lie in the domain too (the stream's rows are checked by the
        compiled loop as they arrive)."""
        X = super()._prepare_X(X, reset)
        self._check_domain(X)
        return X

    def prepare_check(self, check, stream):
        """The τ evaluation set must lie in the domain too (scores of other points mean
        nothing); checked once, vectorized."""
        prepared = super().prepare_check(check, stream)
        cX = prepared[0]
        if cX.dense is not None:
            self._check_domain(cX.dense)
        else:
            self._check_domain(scipy_sparse().csr_matrix((cX.data, cX.indices, cX.indptr),
                                             shape=(cX.n_rows, self.n_features_in_)))
        return prepared


class Winnow(_DomainLearner):
    """Winnow (Kitani's lecture notes, Algorithm 4; Littlestone 1988).

    Inputs x ∈ {0,1}^d (anything else is rejected with its row and column), weights start
    at 1 (line 2), prediction ŷ = 1[w·x > N] (line 5), and after each round
    w_i ← w_i(1+β)^{(y−ŷ)x_i} (line 7): on a false negative the weights of the active
    features are multiplied by 1+β, on a false positive divided by it. Labels: ``classes_[0]``
    is the paper's 0, ``classes_[1]`` its 1.

    Decisions where the notes are silent or loose:
    - Threshold: the notes use N both for the dimension and the threshold; ``N=None`` (the
      default) takes N = d, the number of features, as in the mistake-bound analysis.
    - Decision value: ``w·x − N⁺`` where N⁺ is the next double above N, so that the package's
      sign(0) = +1 rule reproduces the paper's strict test w·x > N exactly (a tie w·x = N
      predicts 0), and ``intercept_ = −N⁺``.
    - β: the analysis (Eqs. 27–42, "weights are decreased by a factor of 2") is for β = 1,
      the default; the bound m < 2 + 3k(log₂N + 1) (Eq. 42) for a k-literal monotone
      disjunction holds for that value.
    - Exact weights: each weight is kept as its exponent k_i (w_i = (1+β)^{k_i}) and the
      float weight is recomputed from it at every update, so no weight overflows (a
      promotion needs w·x ≤ N, so w_i ≤ N(1+β)) and a weight demoted so far that it
      underflows (irrelevant to every prediction) comes back exactly if later promoted.
      ``coef_`` shows the float weights; ``log_weights_`` the exact ln w_i.
    - ``updated`` is True when a weight changed: on a mistake with at least one active
      feature (a mistake on x = 0 changes nothing).
    - β is fixed once learning starts (the weights are stored as powers of 1+β); changing
      it afterwards is an error until ``fit`` starts over. N may change.

    Parameters
    ----------
    beta : float > 0, the update factor is 1+β (default 1: doubling/halving, as analysed).
    N : float > 0 or None, the threshold (default None: the number of features d).
    n_jobs : int or None, threads for K ≥ 3 classes one-vs-rest (default None: one;
        −1 every core; ``OnlineLinearClassifier``). Results do not depend on it.
    """

    _layout = WINNOW_LAYOUT
    _parameter_constraints = {"beta": [_POSITIVE], "N": [_POSITIVE, None],
                              "n_jobs": N_JOBS_CONSTRAINT}
    _factor = "beta"
    input_domain = BINARY

    def __init__(self, beta=1.0, N=None, n_jobs=None):
        self.n_jobs = n_jobs
        self.beta = beta
        self.N = N

    def _hp_values(self):
        return {"beta": self.beta, "threshold": 0.0 if self.N is None else self.N}

    def _threshold(self):
        return float(self.n_features_in_) if self.N is None else float(self.N)

    def _linear_model(self):
        return (self._vecs[WinnowVec.W].copy(),
                -float(np.nextafter(self._threshold(), np.inf)))

    @property
    def log_weights_(self):
        """ln w_i = k_i·ln(1+β), exact (no underflow)."""
        self._check_fitted()
        return self._int_block(WinnowIntBlock.EXPONENTS) * math.log1p(self._learned_factor())


class _WeightedMajorityBase(_DomainLearner):
    input_domain = SIGN
    _factor = "eta"

    def _check_loaded_state(self, vecs, ints, scal):
        """Counts are counts (≥ 0, the reference at most the least), weights ≥ 0, some > 0."""
        m = ints[self._layout.int_block(ExpertsIntBlock.MISTAKES, vecs.shape[1]):]
        ref, step = int(ints[ExpertsInt.REF]), int(ints[ExpertsInt.STEP])
        if m.size and m.min() < 0:
            return f"ints mistakes: expected counts ≥ 0, found {int(m.min())}"
        if step < 0 or not 0 <= ref <= (m.min() if m.size else 0):
            return (f"ints 'ref', 'step': expected 0 ≤ ref ≤ the least mistake count and "
                    f"step ≥ 0, found ref = {ref}, step = {step}")
        v = vecs[ExpertsVec.V]
        if v.size and not ((v >= 0.0).all() and v.max() > 0.0):
            j = int(np.flatnonzero(v < 0.0)[0]) if (v < 0.0).any() else 0
            return (f"vecs row 'v': expected weights ≥ 0 (a bad expert's may underflow to 0), "
                    f"not all 0, found {float(v[j])!r} at {j}")
        return None

    @property
    def mistakes_(self):
        """m_n: the number of rounds each expert was wrong (the paper's w_n = (1−η)^{m_n})."""
        self._check_fitted()
        return self._int_block(ExpertsIntBlock.MISTAKES).copy()

    @property
    def log_weights_(self):
        """ln w_n = m_n·ln(1−η), exact."""
        self._check_fitted()
        return self._int_block(ExpertsIntBlock.MISTAKES) * math.log1p(-self._learned_factor())

    @property
    def expert_weights_(self):
        """The normalized weights w/Φ, computed from the exact counts."""
        self._check_fitted()
        m = self._int_block(ExpertsIntBlock.MISTAKES)
        w = np.exp((m - m.min()) * math.log1p(-self._learned_factor()))
        return w / w.sum()


class WeightedMajority(_WeightedMajorityBase):
    """Weighted Majority (Kitani's lecture notes, Algorithm 1; Littlestone & Warmuth 1994).

    Each feature is an expert's prediction x_n ∈ {−1,+1} (anything else is rejected with its
    row and column; a CSR row must store all d entries). Weights start at 1 (line 2); the
    prediction is ŷ = sign(Σ_n x_n w_n) (line 6), sign(0) = +1; then every expert with
    x_n ≠ y is penalized, w_n ← w_n(1−η) (line 8), whatever ŷ was.

    Decision value: the normalized vote Σ_n x_n w_n / Σ_n w_n ∈ [−1, 1]; ``coef_`` = w/Σw,
    ``intercept_`` = 0. Weights are kept as per-expert mistake counts m_n (w_n = (1−η)^{m_n}
    exactly) plus relative float weights renormalized from the counts when their sum gets
    tiny, so they never all underflow and predictions are those of the exact weights (up to
    the rounding of the vote). ``updated`` is True when some expert was wrong. η is fixed
    once learning starts (the weights are stored as powers of 1−η); ``fit`` starts over.

    The bound (Eq. 1): M ≤ 2(1+η)m_n + 2 ln N/η for every expert n (log is natural in the
    standard derivation, which the tests check).

    Parameters
    ----------
    eta : float in (0, 1/2], the penalty rate η (default 1/2; the notes require η ≤ 1/2).
    n_jobs : int or None, threads for K ≥ 3 classes one-vs-rest (default None: one;
        −1 every core; ``OnlineLinearClassifier``). Results do not depend on it.
    """

    _layout = WEIGHTED_MAJORITY_LAYOUT
    _parameter_constraints = {"eta": _ETA, "n_jobs": N_JOBS_CONSTRAINT}

    def __init__(self, eta=0.5, n_jobs=None):
        self.n_jobs = n_jobs
        self.eta = eta

    def _hp_values(self):
        return {"eta": self.eta}

    def _linear_model(self):
        v = self._vecs[ExpertsVec.V]
        return v / v.sum(), 0.0


class RandomizedWeightedMajority(_WeightedMajorityBase):
    """Randomized Weighted Majority (Kitani's lecture notes, Algorithm 2; Littlestone &
    Warmuth 1994).

    Inputs as for Weighted Majority (x ∈ {−1,+1}^d, expert predictions). Each round an
    expert I is drawn with probability w_I/Φ (line 6) and its prediction x_I is the
    learner's (line 7); then w_n ← w_n(1−η) for every expert with x_n ≠ y (line 9) — the
    weights, unlike the prediction, do not depend on the draw.

    Randomness: the draw of round t (t = rounds already seen, 0-based) is
    u_t = ``olc._compiled.kernels.random.uniform(seed, 0, t)`` (counter-based SplitMix64, formula in
    that module), and I = min{n : Σ_{m≤n} w_m > u_t·Φ} (inversion in column order). It is a
    function of (seed, t) only, so chunked learning, save/load and a fresh learner with the
    same seed make the same draws.

    Decision value: x_I for the expert I that the next round's draw selects, so
    ``decision_function``/``predict`` say what the learner will predict next (``coef_`` is
    the indicator of expert I, ``intercept_`` = 0). ``record.aux`` holds I for each round.
    The probability of a mistake at round t is Σ_{n: x_n ≠ y} w_n/Φ (the tests sum it to
    check the bound of Eq. 2, E[M] ≤ (1+η)m_n + ln N/η, deterministically).

    Parameters
    ----------
    eta : float in (0, 1/2], the penalty rate η (default 1/2).
    seed : int in [0, 2**53), the seed of the draws (default 0).
    n_jobs : int or None, threads for K ≥ 3 classes one-vs-rest (default None: one;
        −1 every core; ``OnlineLinearClassifier``). Results do not depend on it.
    """

    _layout = RANDOMIZED_WEIGHTED_MAJORITY_LAYOUT
    _parameter_constraints = {"eta": _ETA,
                              "seed": [Interval(Integral, 0, SEED_LIMIT, closed="left")],
                              "n_jobs": N_JOBS_CONSTRAINT}

    def __init__(self, eta=0.5, seed=0, n_jobs=None):
        self.n_jobs = n_jobs
        self.eta = eta
        self.seed = seed

    def _check_params(self):
        check_seed(self.seed)  # an integer, and not a bool (the constraint admits both)

    def _hp_values(self):
        return {"eta": self.eta, "seed": self.seed}

    @property
    def next_expert_(self):
        """The expert I the next round will follow (0-based column)."""
        self._check_fitted()
        v = self._vecs[ExpertsVec.V]
        cum = np.cumsum(v)  # sequential, as in the compiled rule
        u = uniform_array(int(self.seed), 0, [int(self._ints[ExpertsInt.STEP])])[0]
        hit = np.flatnonzero(cum > u * cum[-1])
        if hit.size:
            return int(hit[0])
        return int(np.flatnonzero(v > 0.0)[-1])

    def _linear_model(self):
        coef = np.zeros(self.n_features_in_)
        coef[self.next_expert_] = 1.0
        return coef, 0.0


__all__ = ["RandomizedWeightedMajority", "WeightedMajority", "Winnow"]
