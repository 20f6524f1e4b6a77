"""Winnow, Weighted Majority and Randomized Weighted Majority (Kitani's lecture
notes, Algorithms 4, 1, 2).

Independent references written from the lecture notes (per-example Python loops; exact
rational arithmetic where the weights are dyadic), the mistake bounds of the notes as
properties (Winnow Eq. 42, WM Eq. 1, RWM Eq. 2 via the exact mistake probabilities),
underflow over long streams, the input domains, and — because the generic contract suite
feeds Gaussian data these learners must reject — the contract checks re-run on streams
inside their domains.
"""
import copy
import math
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone

import olc
from olc.learners import StreamStoppedError

WINNOW, WM, RWM = "winnow", "weighted-majority", "randomized-weighted-majority"
ALL = [WINNOW, WM, RWM]

# -- the counter-based generator, re-implemented from its documented formula ---------------

_MASK = (1 << 64) - 1
_PHI = 0x9E3779B97F4A7C15


def _mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def ref_uniform(seed, stream, counter):
    key = _mix64((seed + _PHI * (stream + 1)) & _MASK)
    return (_mix64((key + _PHI * (counter + 1)) & _MASK) >> 11) * 2.0 ** -53


def test_generator_is_splitmix64():
    """mix64 is SplitMix64's output function: the published sequence from seed 1234567."""
    import numba as nb

    from olc._compiled.kernels.random import mix64, uniform, uniform_array

    outs = [int(mix64(nb.uint64((1234567 + _PHI * (c + 1)) & _MASK))) for c in range(5)]
    assert outs == [6457827717110365317, 3203168211198807973, 9817491932198370423,
                    4593380528125082431, 16408922859458223821]
    for seed, stream in [(0, 0), (7, 3), (2 ** 53 - 1, 99)]:
        want = [ref_uniform(seed, stream, c) for c in range(50)]
        assert [uniform(seed, stream, c) for c in range(50)] == want
        assert [uniform(float(seed), float(stream), float(c)) for c in range(50)] == want
        assert list(uniform_array(seed, stream, np.arange(50))) == want


# -- streams inside the domains --------------------------------------------------------------

def binary_stream(seed, n=200, d=12, density=0.3, k=3):
    """x ∈ {0,1}^d, y = OR of the first k features (a monotone disjunction)."""
    rng = np.random.default_rng(seed)
    X = (rng.random((n, d)) < density).astype(float)
    y = (X[:, :k].sum(axis=1) > 0).astype(int)
    return X, y


def expert_stream(seed, n=200, d=9, m_best=10, noise=0.35):
    """Expert predictions in {−1,+1}^d: expert 0 is right except m_best rounds, the others
    are right with probability 1 − noise."""
    rng = np.random.default_rng(seed)
    y = rng.choice([-1.0, 1.0], size=n)
    X = np.where(rng.random((n, d)) < noise, -y[:, None], y[:, None])
    X[:, 0] = y
    X[rng.choice(n, size=m_best, replace=False), 0] *= -1.0
    return X, y


def domain_stream(name, seed, n=120):
    if name == WINNOW:
        return binary_stream(seed, n=n)
    X, y = expert_stream(seed, n=n, noise=0.2)
    return X, (y > 0).astype(int)


# -- independent references ------------------------------------------------------------------

def winnow_exact(X, y01, beta=Fraction(1), N=None):
    """Algorithm 4 in exact rational arithmetic: w = 1; ŷ = 1[w·x > N];
    w_i ← w_i(1+β)^{(y−ŷ)x_i}. Returns (predictions 0/1, exact w·x per round, final w)."""
    d = X.shape[1]
    N = Fraction(d) if N is None else Fraction(N)
    w = [Fraction(1)] * d
    preds, dots = [], []
    for x, y in zip(X, y01):
        s = sum((w[i] for i in range(d) if x[i] == 1), Fraction(0))
        yhat = 1 if s > N else 0
        preds.append(yhat)
        dots.append(s)
        if yhat != y:
            f = (1 + beta) if y > yhat else 1 / (1 + beta)
            w = [w[i] * f if x[i] == 1 else w[i] for i in range(d)]
    return np.array(preds), dots, w


def winnow_float(X, y01, beta, N=None):
    d = X.shape[1]
    N = float(d) if N is None else float(N)
    w = np.ones(d)
    preds, dots = [], []
    for x, y in zip(X, y01):
        s = float(w @ x)
        yhat = 1 if s > N else 0
        preds.append(yhat)
        dots.append(s)
        w = w * (1.0 + beta) ** ((y - yhat) * x)
    return np.array(preds), np.array(dots), w


def wm_reference(X, y, eta):
    """Algorithm 1: ŷ = sign(Σ x_n w_n) (sign(0) = +1), w_n ← w_n(1 − η·1[y ≠ x_n]); the vote
    summed left to right."""
    w = np.ones(X.shape[1])
    preds, probs = [], []
    for x, yt in zip(X, y):
        vote = np.cumsum(x * w)[-1]
        preds.append(1 if vote >= 0 else -1)
        probs.append(w[x != yt].sum() / w.sum())  # RWM's mistake probability at this round
        w = w * (1.0 - eta * (x != yt))
    return np.array(preds), np.array(probs), w


def rwm_reference(X, y, eta, seed):
    """Algorithm 2: I ~ w/Φ by inversion with u_t = ref_uniform(seed, 0, t); ŷ = x_I."""
    w = np.ones(X.shape[1])
    preds, experts = [], []
    for t, (x, yt) in enumerate(zip(X, y)):
        cum = np.cumsum(w)
        i = int(np.flatnonzero(cum > ref_uniform(seed, 0, t) * cum[-1])[0])
        experts.append(i)
        preds.append(x[i])
        w = w * (1.0 - eta * (x != yt))
    return np.array(preds), np.array(experts), w


def _layouts(X):
    return [("dense", X), ("csr", sp.csr_matrix(X))]


# -- exactness against the references --------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("layout", ["dense", "csr"])
def test_winnow_matches_exact_rational_reference(seed, layout):
    X, y = binary_stream(seed, n=300, d=16, density=[0.15, 0.3, 0.5, 0.7][seed], k=2 + seed % 3)
    preds, dots, w = winnow_exact(X, y)
    Xin = X if layout == "dense" else sp.csr_matrix(X)
    learner = olc.make(WINNOW)
    record = learner.predict_then_learn(Xin, y, classes=[0, 1])
    # β = 1: weights are powers of 2, sums of them exact, so even ties w·x = N (which the
    # exact reference meets) are resolved identically.
    np.testing.assert_array_equal(record.pred, 2 * preds - 1)
    # The decision value is w·x − N⁺ (N⁺ = next double above N = d).
    n_plus = np.nextafter(16.0, np.inf)
    np.testing.assert_allclose(record.score, [float(s) - n_plus for s in dots], rtol=1e-12,
                               atol=1e-12)
    np.testing.assert_array_equal(learner.coef_[0], [float(v) for v in w])
    np.testing.assert_allclose(learner.log_weights_, [math.log(v) for v in w], rtol=1e-13,
                               atol=1e-13)
    assert learner.intercept_[0] == -n_plus


def test_winnow_ties_predict_zero():
    """Line 5 uses a strict inequality: w·x = N predicts 0 (the negative class)."""
    X = np.array([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]])
    learner = olc.make(WINNOW)  # N = d = 3 and w = 1: w·x = 3 = N
    record = learner.predict_then_learn(X, [1, 1], classes=[0, 1])
    assert record.pred[0] == -1 and record.score[0] < 0
    assert record.updated[0]  # a mistake: promotion to w = 2
    assert record.pred[1] == 1
    assert learner.predict(np.array([[0.0, 1.0, 1.0]]))[0] == 1  # 4 > 3


@pytest.mark.parametrize("beta", [0.5, 0.1, 3.0])
@pytest.mark.parametrize("N", [None, 5.5])
def test_winnow_general_beta_and_threshold(beta, N):
    """β ≠ 1 is not dyadic: the float reference multiplies, the learner uses (1+β)^k; they
    agree up to the first round whose w·x is within rounding of N."""
    for seed in range(3):
        X, y = binary_stream(seed + 10, n=250, d=10, density=0.35)
        preds, dots, w = winnow_float(X, y, beta, N)
        threshold = 10.0 if N is None else N
        near = np.flatnonzero(np.abs(dots - threshold) <= 1e-9 * threshold)
        upto = near[0] if near.size else len(y)
        for name, Xin in _layouts(X):
            learner = olc.make(WINNOW, beta=beta, N=N)
            record = learner.predict_then_learn(Xin, y, classes=[0, 1])
            np.testing.assert_array_equal(record.pred[:upto], 2 * preds[:upto] - 1, err_msg=name)
            if upto == len(y):
                np.testing.assert_allclose(learner.coef_[0], w, rtol=1e-8)


@pytest.mark.parametrize("eta", [0.5, 0.3, 0.05])
@pytest.mark.parametrize("seed", range(3))
def test_weighted_majority_matches_reference(eta, seed):
    X, y = expert_stream(seed, n=300, d=[8, 9, 30][seed])
    preds, _, w = wm_reference(X, y, eta)
    with olc.strict_mode():
        for name, Xin in _layouts(X):
            learner = olc.make(WM, eta=eta)
            record = learner.predict_then_learn(Xin, y)
            np.testing.assert_array_equal(record.pred, preds, err_msg=name)
            np.testing.assert_allclose(learner.coef_[0], w / w.sum(), rtol=1e-8)
            np.testing.assert_allclose(learner.expert_weights_, w / w.sum(), rtol=1e-8)
            np.testing.assert_array_equal(learner.mistakes_, (X != y[:, None]).sum(axis=0))
            np.testing.assert_allclose(learner.log_weights_, np.log(w), rtol=1e-12)
    # Default (reassociating) mode: identical predictions up to the first near-tie vote.
    votes = np.array([np.cumsum(x * wt)[-1] for x, wt in
                      zip(X, _weights_before(X, y, eta))])
    near = np.flatnonzero(np.abs(votes) <= 1e-9 * X.shape[1])
    upto = near[0] if near.size else len(y)
    record = olc.make(WM, eta=eta).predict_then_learn(X, y)
    np.testing.assert_array_equal(record.pred[:upto], preds[:upto])


def _weights_before(X, y, eta):
    w = np.ones(X.shape[1])
    out = []
    for x, yt in zip(X, y):
        out.append(w.copy())
        w = w * (1.0 - eta * (x != yt))
    return out


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("rng_seed", [0, 1, 12345])
def test_randomized_weighted_majority_matches_reference(seed, rng_seed):
    X, y = expert_stream(seed, n=300, d=[5, 9, 40][seed])
    preds, experts, w = rwm_reference(X, y, 0.5, rng_seed)
    for name, Xin in _layouts(X):
        learner = olc.make(RWM, seed=rng_seed)
        record = learner.predict_then_learn(Xin, y)
        np.testing.assert_array_equal(record.pred, preds, err_msg=name)
        np.testing.assert_array_equal(record.aux, experts, err_msg=name)
        np.testing.assert_array_equal(record.score, preds)
        np.testing.assert_allclose(learner.expert_weights_, w / w.sum(), rtol=1e-8)
        # The decision function announces the next round's draw: expert I's prediction.
        nxt = learner.next_expert_
        cum = np.cumsum(w)
        assert nxt == int(np.flatnonzero(cum > ref_uniform(rng_seed, 0, len(y)) * cum[-1])[0])
        np.testing.assert_array_equal(learner.decision_function(X[:5]), X[:5, nxt])
        np.testing.assert_array_equal(learner.coef_[0], np.eye(X.shape[1])[nxt])


def test_rwm_draws_survive_chunking_and_persistence(tmp_path):
    X, y = expert_stream(4, n=200)
    whole = olc.make(RWM, seed=9)
    r = whole.predict_then_learn(X, y)
    part = olc.make(RWM, seed=9)
    r1 = part.predict_then_learn(X[:70], y[:70])
    loaded = olc.load(olc.save(part, tmp_path / "rwm"))
    r2 = loaded.predict_then_learn(X[70:], y[70:])
    np.testing.assert_array_equal(np.concatenate([r1.aux, r2.aux]), r.aux)
    other = olc.make(RWM, seed=10).predict_then_learn(X, y)
    assert not np.array_equal(other.aux, r.aux)


# -- mistake bounds --------------------------------------------------------------------------

@pytest.mark.parametrize("d, k, density, passes", [
    (16, 1, 0.2, 3), (32, 2, 0.1, 2), (64, 3, 0.05, 2), (64, 1, 0.02, 3), (128, 4, 0.03, 2),
    (100, 2, 0.5, 1), (256, 5, 0.01, 2),
])
def test_winnow_mistake_bound(d, k, density, passes):
    """Eq. 42: on a stream labelled by a k-literal monotone disjunction, β = 1 and N = d,
    Winnow makes m = m⁺ + m⁻ < 2 + 3k(log₂N + 1) mistakes — over any number of passes."""
    bound = 2 + 3 * k * (math.log2(d) + 1)
    for seed in range(4):
        rng = np.random.default_rng(seed)
        relevant = rng.choice(d, size=k, replace=False)
        X = (rng.random((400, d)) < density).astype(float)
        # Rows that switch on exactly one relevant literal keep positives hard to learn.
        single = rng.random(400) < 0.3
        X[single] = 0.0
        X[single, rng.choice(relevant, size=int(single.sum()))] = 1.0
        X[single] = np.maximum(X[single], rng.random((int(single.sum()), d)) < density)
        y = (X[:, relevant].sum(axis=1) > 0).astype(int)
        learner = olc.make(WINNOW)
        mistakes = 0
        for _ in range(passes):
            record = learner.predict_then_learn(sp.csr_matrix(X), y, classes=[0, 1])
            mistakes += int(np.count_nonzero(record.pred != 2 * y - 1))
        assert mistakes < bound, (mistakes, bound)
        assert mistakes > 0


def _adversarial_game(learner, rounds, d, budget, seed, randomized):
    """Expert 0 is the designated good expert with ``budget`` mistakes; the other experts
    predict at random. The adversary labels every round against the learner: against its
    prediction (WM) or against the weighted majority (RWM, maximizing the probability of a
    mistake), spending one of expert 0's mistakes whenever the learner sides with it.
    Returns (learner mistakes or expected mistakes, each expert's mistakes)."""
    rng = np.random.default_rng(seed)
    total = 0.0
    expert_mistakes = np.zeros(d, dtype=int)
    for t in range(rounds):
        x = rng.choice([-1.0, 1.0], size=(1, d))
        if t == 0:
            learner.partial_fit(x, [1.0], classes=[-1.0, 1.0])
            expert_mistakes += (x[0] != 1.0)
            continue
        if randomized:
            p = learner.expert_weights_
            side = 1.0 if p @ x[0] >= 0 else -1.0  # the weighted majority
        else:
            side = float(learner.predict(x)[0])
        if side != x[0, 0] or budget > 0:
            label = -side
            budget -= side == x[0, 0]
        else:
            label = side
        if randomized:
            total += learner.expert_weights_[x[0] != label].sum()  # P(mistake) this round
        else:
            total += float(side != label)
        expert_mistakes += (x[0] != label)
        learner.partial_fit(x, [label])
    return total, expert_mistakes


@pytest.mark.parametrize("eta", [0.5, 0.25, 0.1])
@pytest.mark.parametrize("d, budget", [(8, 0), (16, 5), (64, 20)])
def test_weighted_majority_mistake_bound(eta, d, budget):
    """Eq. 1: M − m_n ≤ (1 + 2η)m_n + 2 log N/η for every expert n, i.e.
    M ≤ 2(1 + η)m_n + 2 ln N/η (natural log, the stronger reading), on adversarial
    games and on random streams."""
    learner = olc.make(WM, eta=eta)
    M, m = _adversarial_game(learner, 300, d, budget, seed=d + budget, randomized=False)
    assert M <= 2 * (1 + eta) * m.min() + 2 * math.log(d) / eta
    assert M >= budget  # every mistake the adversary buys for expert 0 is one for WM
    for seed in range(3):
        X, y = expert_stream(seed, n=400, d=d, m_best=budget + 3)
        record = olc.make(WM, eta=eta).predict_then_learn(X, y)
        M = int(np.count_nonzero(record.pred != y))
        m = (X != y[:, None]).sum(axis=0)
        assert M <= 2 * (1 + eta) * m.min() + 2 * math.log(d) / eta


@pytest.mark.parametrize("eta", [0.5, 0.25, 0.1])
@pytest.mark.parametrize("d, budget", [(8, 0), (16, 5), (64, 20)])
def test_randomized_weighted_majority_expected_mistake_bound(eta, d, budget):
    """Eq. 2: E[M] − m_n ≤ η m_n + log N/η. The weights do not depend on the draws, so
    E[M] = Σ_t Σ_{n: x_n ≠ y_t} w_n/Φ exactly; checked on adversarial games."""
    learner = olc.make(RWM, eta=eta)
    EM, m = _adversarial_game(learner, 300, d, budget, seed=d * budget + 1, randomized=True)
    assert EM <= (1 + eta) * m.min() + math.log(d) / eta
    assert EM > 0.5 * budget


def test_randomized_weighted_majority_realized_mistakes_match_expectation():
    """Over many seeds the realized mistakes average to Σ_t P_t (within 5 standard errors)."""
    X, y = expert_stream(5, n=300, d=12, m_best=30, noise=0.45)
    _, probs, _ = wm_reference(X, y, 0.25)
    expected = probs.sum()
    realized = np.array([
        np.count_nonzero(olc.make(RWM, eta=0.25, seed=s).predict_then_learn(X, y).pred != y)
        for s in range(300)])
    se = math.sqrt((probs * (1 - probs)).sum() / len(realized))
    assert abs(realized.mean() - expected) <= 5 * se
    assert realized.std() > 0


# -- long streams: underflow and renormalization ---------------------------------------------

def test_winnow_weight_underflows_and_comes_back_exactly():
    """Feature 0 is halved 1100 times (2⁻¹¹⁰⁰ underflows float64), then doubled until it
    matters again; the exact rational reference and the learner agree on every round (a
    plain float implementation would keep w₀ = 0 and err forever on the last rows)."""
    cycle = [([0.0, 0.0, 1.0], 1), ([1.0, 0.0, 1.0], 0)]  # promote w₂, then demote w₀ and w₂
    rows = [([0.0, 0.0, 1.0], 1)] + cycle * 1100 + [([1.0, 0.0, 0.0], 1)] * 1110
    X = np.array([r for r, _ in rows])
    y = np.array([lab for _, lab in rows])
    preds, _, w = winnow_exact(X, y)
    learner = olc.make(WINNOW)
    record = learner.predict_then_learn(sp.csr_matrix(X), y, classes=[0, 1])
    np.testing.assert_array_equal(record.pred, 2 * preds - 1)
    assert record.pred[-1] == 1  # w₀ climbed back above N
    np.testing.assert_array_equal(learner.coef_[0], [float(v) for v in w])
    assert learner.log_weights_[0] == pytest.approx(math.log(w[0]), rel=1e-12)


def _wm_exact(X, y):
    """WM with η = 1/2 in exact rationals (weights 2^{−m})."""
    w = [Fraction(1)] * X.shape[1]
    preds = []
    for x, yt in zip(X, y):
        vote = sum((wi if xi > 0 else -wi for wi, xi in zip(w, x)), Fraction(0))
        preds.append(1 if vote >= 0 else -1)
        w = [wi / 2 if xi != yt else wi for wi, xi in zip(w, x)]
    return np.array(preds), w


@pytest.mark.parametrize("name", [WM, RWM])
def test_weights_never_underflow_and_leader_can_change(name):
    """Expert A errs 1200 times while B is perfect (A's weight 2⁻¹²⁰⁰ underflows float64);
    then B errs 1500 times while A is perfect, so A leads again. The predictions follow the
    exact weights; Σw stays positive; the counts are exact."""
    y = np.tile([1.0, -1.0, -1.0, 1.0], 1000)
    a = y.copy()
    b = y.copy()
    a[:1200] *= -1
    b[1200:2700] *= -1
    c = np.where(np.arange(len(y)) % 3 == 0, 1.0, -1.0)  # a noisy third expert
    X = np.column_stack([a, b, c])
    learner = olc.make(name, eta=0.5)
    record = learner.predict_then_learn(X, y)
    assert np.isfinite(learner._vecs).all() and learner._vecs.sum() > 0  # one row: the weights
    np.testing.assert_array_equal(learner.mistakes_, (X != y[:, None]).sum(axis=0))
    if name == WM:
        preds, w = _wm_exact(X, y)
        np.testing.assert_array_equal(record.pred, preds)
        total = sum(w)
        np.testing.assert_allclose(learner.expert_weights_, [float(v / total) for v in w],
                                   rtol=1e-12, atol=1e-300)
    assert record.pred[-1] == y[-1]
    assert learner.expert_weights_[0] == pytest.approx(1.0)


# -- input domains ---------------------------------------------------------------------------

@pytest.mark.parametrize("name, bad", [(WINNOW, 0.5), (WINNOW, 2.0), (WINNOW, -1.0),
                                       (WM, 0.0), (WM, 0.5), (RWM, -2.0), (RWM, 0.0)])
@pytest.mark.parametrize("layout", ["dense", "csr"])
def test_out_of_domain_value_is_located_and_rows_before_are_learned(name, bad, layout):
    X, y = domain_stream(name, 0, n=30)
    X = X.copy()
    X[17, 4] = bad
    conv = np.asarray if layout == "dense" else sp.csr_matrix
    learner = olc.make(name)
    with pytest.raises(StreamStoppedError) as info:
        learner.partial_fit(conv(X), y, classes=[0, 1])
    msg = str(info.value)
    assert "row 17" in msg and "column 4" in msg and "domain" in msg, msg
    assert info.value.rows_learned == 17 and len(info.value.record.score) == 17
    ref = olc.make(name).partial_fit(conv(X[:17]), y[:17], classes=[0, 1])
    np.testing.assert_array_equal(ref._vecs, learner._vecs)
    assert learner.n_steps_ == 17
    # Prediction rejects it too, before computing anything.
    with pytest.raises(ValueError, match=r"row 2\b.*column 4"):
        learner.decision_function(conv(X[15:20]))


@pytest.mark.parametrize("layout", ["dense", "csr"])
def test_winnow_names_a_negative_value_first_as_scikit_learn_does(layout):
    """{0, 1} inputs are non-negative: Winnow declares scikit-learn's positive_only tag and,
    in the row where the stream stops, names a negative value before any other value
    outside {0, 1}, in scikit-learn's words ("Negative values in data")."""
    X, y = domain_stream(WINNOW, 3, n=30)
    X = X.copy()
    X[9, 1], X[9, 5] = 0.5, -0.25          # column 1 comes first, column 5 is the negative
    conv = np.asarray if layout == "dense" else sp.csr_matrix
    with pytest.raises(StreamStoppedError,
                       match=r"^Negative values in data: X\[9, 5\] = -0\.25 at row 9, column 5"):
        olc.make(WINNOW).fit(conv(X), y)
    X[9, 5] = 0.75                          # no negative: the first value outside is named
    with pytest.raises(StreamStoppedError, match=r"^X\[9, 1\] = 0\.5 at row 9, column 1"):
        olc.make(WINNOW).fit(conv(X), y)


def test_the_input_domains_are_declared_in_scikit_learns_tags():
    from sklearn.utils import get_tags
    from sklearn.utils.estimator_checks import check_positive_only_tag_during_fit

    assert get_tags(olc.make(WINNOW)).input_tags.positive_only
    assert not get_tags(olc.make(WM)).input_tags.positive_only   # ±1 experts: negatives
    assert not get_tags(olc.make(RWM)).input_tags.positive_only
    check_positive_only_tag_during_fit("winnow", olc.make(WINNOW))


def test_csr_expert_row_must_store_every_column():
    X, y = expert_stream(1, n=10, d=5)
    C = sp.csr_matrix(X).tolil()
    C[6, 3] = 0.0  # now implicit
    C = sp.csr_matrix(C)
    C.eliminate_zeros()
    with pytest.raises(StreamStoppedError, match=r"row 6, column 3.*CSR row must store all d"):
        olc.make(WM).fit(C, y)


@pytest.mark.parametrize("name", ALL)
def test_nan_is_still_reported_as_nan(name):
    X, y = domain_stream(name, 1, n=20)
    X = X.copy()
    X[5, 2] = np.nan
    with pytest.raises(StreamStoppedError, match=r"NaN at row 5, column 2"):
        olc.make(name).fit(X, y)


@pytest.mark.parametrize("name", ALL)
def test_check_set_must_be_in_domain(name):
    X, y = domain_stream(name, 2, n=20)
    bad = X.copy()
    bad[3, 1] = 0.25
    with pytest.raises(ValueError, match=r"row 3, column 1"):
        olc.make(name).predict_then_learn(X, y, classes=[0, 1], check=(bad, y))
    record = olc.make(name).predict_then_learn(X, y, classes=[0, 1], check=(X, y))
    assert record.tau == -1 or record.tau >= 1


# -- hyper-parameters ------------------------------------------------------------------------

@pytest.mark.parametrize("name, params, key", [
    (WINNOW, dict(beta=0), "beta"), (WINNOW, dict(beta=-1), "beta"),
    (WINNOW, dict(beta=math.nan), "beta"), (WINNOW, dict(N=0), "N"),
    (WINNOW, dict(N=-3.0), "N"), (WINNOW, dict(N=math.inf), "N"),
    (WM, dict(eta=0.6), "eta"), (WM, dict(eta=0.0), "eta"), (WM, dict(eta="x"), "eta"),
    (RWM, dict(eta=1.0), "eta"), (RWM, dict(seed=-1), "seed"), (RWM, dict(seed=1.5), "seed"),
    (RWM, dict(seed=2 ** 53), "seed"), (RWM, dict(seed=True), "seed"),
])
def test_invalid_hyperparameters(name, params, key):
    X, y = domain_stream(name, 0, n=10)
    with pytest.raises(ValueError, match=key):
        olc.make(name, **params).fit(X, y)


@pytest.mark.parametrize("name, key, value", [(WINNOW, "beta", 0.5), (WM, "eta", 0.1),
                                              (RWM, "eta", 0.1)])
def test_update_factor_is_fixed_once_learning_starts(name, key, value):
    X, y = domain_stream(name, 5, n=40)
    learner = olc.make(name).fit(X[:20], y[:20])
    before = learner._vecs.copy()
    learner.set_params(**{key: value})
    with pytest.raises(ValueError, match=key):
        learner.partial_fit(X[20:], y[20:])
    np.testing.assert_array_equal(learner._vecs, before)
    learner.fit(X, y)  # starts over with the new factor
    np.testing.assert_array_equal(learner.coef_, olc.make(name, **{key: value}).fit(X, y).coef_)


# -- the learner contract on in-domain streams -----------------------------------------------

@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("seed", [0, 1])
def test_dense_and_csr_bit_identical_in_strict_mode(name, seed):
    X, y = domain_stream(name, seed)
    with olc.strict_mode():
        a, b = olc.make(name), olc.make(name)
        ra = a.predict_then_learn(X, y, classes=[0, 1])
        rb = b.predict_then_learn(sp.csr_matrix(X), y, classes=[0, 1])
        for field in ("pred", "score", "updated", "aux"):
            np.testing.assert_array_equal(getattr(ra, field), getattr(rb, field))
        np.testing.assert_array_equal(a.coef_, b.coef_)
        np.testing.assert_array_equal(a.decision_function(X), b.decision_function(
            sp.csr_matrix(X)))
    assert ra.updated.any() and not ra.updated.all()
    # Default mode: discrete outputs identical, scores within rounding.
    c = olc.make(name)
    rc = c.predict_then_learn(X, y, classes=[0, 1])
    np.testing.assert_array_equal(rc.pred, ra.pred)
    np.testing.assert_allclose(rc.score, ra.score, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("layout", ["dense", "csr"])
def test_chunked_equals_one_call_and_persistence(name, layout, tmp_path):
    X, y = domain_stream(name, 3)
    conv = np.asarray if layout == "dense" else sp.csr_matrix
    whole = olc.make(name)
    r = whole.predict_then_learn(conv(X), y, classes=[0, 1])
    parts = olc.make(name)
    recs = []
    for a, b in [(0, 1), (1, 2), (2, 37), (37, 80), (80, len(y))]:
        recs.append(parts.predict_then_learn(conv(X[a:b]), y[a:b], classes=[0, 1]))
        if a == 37:
            parts = olc.load(olc.save(parts, tmp_path / "mid"))
    for field in ("pred", "score", "updated", "aux"):
        np.testing.assert_array_equal(np.concatenate([getattr(p, field) for p in recs]),
                                      getattr(r, field))
    np.testing.assert_array_equal(whole._vecs, parts._vecs)
    np.testing.assert_array_equal(whole._scal, parts._scal)
    assert whole.n_steps_ == parts.n_steps_ and whole.n_updates_ == parts.n_updates_
    np.testing.assert_array_equal(olc.make(name).fit(conv(X), y).coef_, whole.coef_)


@pytest.mark.parametrize("name", ALL)
def test_record_is_prediction_before_update_and_linear_model(name):
    X, y = domain_stream(name, 4, n=40)
    whole = olc.make(name)
    record = whole.predict_then_learn(X, y, classes=[0, 1])
    np.testing.assert_array_equal(record.pred, np.where(record.score >= 0, 1, -1))
    stepper = olc.make(name).partial_fit(X[:1], y[:1], classes=[0, 1])
    for i in range(1, len(y)):
        np.testing.assert_array_equal(stepper.decision_function(X[i:i + 1]), record.score[i:i + 1])
        stepper.partial_fit(X[i:i + 1], y[i:i + 1])
    scores = whole.decision_function(X)
    np.testing.assert_allclose(X @ whole.coef_[0] + whole.intercept_[0], scores, rtol=1e-12,
                               atol=1e-12)
    np.testing.assert_array_equal(whole.predict(X), whole.classes_[(scores >= 0).astype(int)])
    twin = clone(whole)
    assert twin.get_params() == whole.get_params()
    np.testing.assert_array_equal(twin.fit(X, y).coef_, whole.coef_)
    copy.deepcopy(whole).partial_fit(X, y)


@pytest.mark.parametrize("name", ALL)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_in_domain_data_gives_finite_model(name, data):
    """Contract 5 on in-domain streams: any values of the domain, any labels, any β/η."""
    d = data.draw(st.integers(1, 6))
    n = data.draw(st.integers(1, 60))
    values = [0.0, 1.0] if name == WINNOW else [-1.0, 1.0]
    X = np.array(data.draw(st.lists(st.sampled_from(values), min_size=n * d,
                                    max_size=n * d))).reshape(n, d)
    y = np.array(data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    params = ({"beta": data.draw(st.sampled_from([1e-6, 0.5, 1.0, 1e3]))} if name == WINNOW
              else {"eta": data.draw(st.sampled_from([1e-6, 0.1, 0.5]))})
    for Xin in (X, sp.csr_matrix(X)):
        learner = olc.make(name, **params)
        record = learner.predict_then_learn(Xin, y, classes=[0, 1])
        assert np.isfinite(record.score).all() and np.isfinite(learner._vecs).all()
        assert np.isfinite(learner.coef_).all() and np.isfinite(learner.intercept_).all()
        assert np.isfinite(learner.decision_function(Xin)).all()


def test_winnow_promotion_that_would_overflow_is_declined():
    """Weights double per promotion while w·x ≤ N = 1.5e308: the promotion past 2¹⁰²³ (the float
    range ends below 2¹⁰²⁴) is declined and reported as an overflow; the state stays finite."""
    learner = olc.make(WINNOW, N=1.5e308)
    X = np.array([[1.0, 0.0]] * 1100)
    with pytest.raises(StreamStoppedError, match="overflow"):
        learner.partial_fit(X, [1] * 1100, classes=[0, 1])
    assert np.isfinite(learner._vecs).all() and learner.n_steps_ > 100


def test_winnow_zero_rows_are_in_domain():
    """x = 0 is a valid Winnow input: w·x = 0 ≤ N predicts 0; a mistake on it changes no
    weight (nothing is active), so updated is False."""
    learner = olc.make(WINNOW).fit(*binary_stream(0, n=50))
    before = learner.coef_.copy()
    for Z in (np.zeros((1, 12)), sp.csr_matrix((1, 12))):
        record = learner.predict_then_learn(Z, [1])
        assert record.pred[0] == -1 and not record.updated[0]
        assert record.score[0] == learner.intercept_[0]
    np.testing.assert_array_equal(learner.coef_, before)


def test_catalogue_lists_sources():
    entries = {e.name: e for e in olc.algorithms()}
    for name in (WINNOW, WM, RWM):  # the original paper, and the lecture notes' algorithms
        assert "Littlestone" in entries[name].citation
        assert "kitani-notes" in entries[name].references
    assert "Kitani, Algorithm 4" in entries[WINNOW].citation


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("cause", ["domain", "nan", "overflow"])
def test_state_after_a_stopped_stream_is_the_state_after_its_last_learned_row(name, cause):
    """Whatever stops the stream (a value outside the domain, NaN, Winnow's declined
    promotion), the learner holds exactly the state of a learner given only the rows before
    the stop: weights, exponents or counts, counters and the recorded factor."""
    if cause == "overflow":
        if name != WINNOW:
            pytest.skip("only Winnow's promotion can overflow (the experts' weights shrink)")
        X, y, params = np.array([[1.0, 0.0]] * 1100), np.ones(1100, int), {"N": 1.5e308}
    else:
        X, y = domain_stream(name, 6, n=40)
        X, params = X.copy(), {}
        X[23, 2] = 0.5 if cause == "domain" else np.nan
    learner = olc.make(name, **params)
    with pytest.raises(StreamStoppedError) as info:
        learner.partial_fit(X, y, classes=[0, 1])
    rows = info.value.rows_learned
    assert rows > 20
    ref = olc.make(name, **params).partial_fit(X[:rows], y[:rows], classes=[0, 1])
    for attr in ("_vecs", "_ints", "_scal", "n_steps_", "n_updates_"):
        got, want = np.asarray(getattr(learner, attr)), np.asarray(getattr(ref, attr))
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), attr
