"""Generalised perceptron and OBPM (Harrington et al. 2003, "Online Bayes Point Machines",
Algorithms 1 and 2).

Independent NumPy references written from the paper (per-example loops over an explicit
(N × d) member matrix, the Bernoulli draws from a re-implementation of the documented
counter-based generator), the perceptron special cases, the marginalised perceptron's margin
and Novikoff's bound as properties, and the degenerate cases.
"""
import math

import numpy as np
import pytest
import scipy.sparse as sp

import olc
from olc._compiled.layouts.bayes_point import GeneralizedPerceptronScal, ObpmScal, ObpmVec
from olc.learners import InputError, StreamStoppedError

GP, OBPM = "generalized-perceptron", "obpm"

_MASK = (1 << 64) - 1
_PHI = 0x9E3779B97F4A7C15


def _mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def ref_uniform(seed, stream, counter):
    """The documented formula of olc._compiled.kernels.random.uniform, in Python integers."""
    key = _mix64((seed + _PHI * (stream + 1)) & _MASK)
    return (_mix64((key + _PHI * (counter + 1)) & _MASK) >> 11) * 2.0 ** -53


def stream(seed, n=150, d=6, density=0.6, noise=0.05, zero_rows=2):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * (rng.random((n, d)) < density)
    u = rng.standard_normal(d)
    y = np.where(X @ u + 0.2 >= 0, 1.0, -1.0)
    flip = rng.random(n) < noise
    y[flip] *= -1
    for i in rng.choice(np.arange(1, n), size=zero_rows, replace=False):
        X[i] = 0.0
    return X, y


def separable(seed, n=200, d=5, margin=0.3):
    """Unit-norm-bounded points through the origin with margin ≥ ``margin`` w.r.t. a unit u."""
    rng = np.random.default_rng(seed)
    u = rng.standard_normal(d)
    u /= np.linalg.norm(u)
    X = rng.standard_normal((4 * n, d))
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    keep = np.abs(X @ u) >= margin
    X = X[keep][:n]
    return X, np.sign(X @ u), u


# -- references --------------------------------------------------------------------------------

class GPMember:
    """Algorithm 1 for one weight vector w̃ = (w, b) on x̃ = (x, 1) (footnote 4)."""

    def __init__(self, d, rho, eta, rho_schedule, eta_schedule, fit_intercept):
        self.w = np.zeros(d + bool(fit_intercept))
        self.k = 1
        self.p = (rho, eta, rho_schedule, eta_schedule, bool(fit_intercept))

    def step(self, x, y):
        rho, eta, rs, es, fit = self.p
        xa = np.append(x, 1.0) if fit else x
        s = float(self.w @ xa)
        nrm = np.linalg.norm(self.w)
        margin = y * s / nrm if nrm > 0 else 0.0  # 0/0 at w = 0 counts as margin 0
        rho_k = rho / math.sqrt(self.k) if rs == "inv_sqrt" else rho
        near = (0 < abs(s) <= 1e-9 * (nrm * np.linalg.norm(xa) + 1e-300)
                or (rho > 0 and nrm > 0 and abs(margin - rho_k) <= 1e-9))
        if margin <= rho_k:
            eta_k = eta / math.sqrt(self.k) if es == "inv_sqrt" else eta
            self.w = self.w + eta_k * y * xa
            self.k += 1
        return s, near

    def coef(self):
        fit = self.p[4]
        return (self.w[:-1], self.w[-1]) if fit else (self.w, 0.0)


class PerceptronMember:
    def __init__(self, d, eta=1.0, fit_intercept=True):
        self.w, self.b, self.eta, self.fit = np.zeros(d), 0.0, eta, fit_intercept

    def step(self, x, y):
        s = float(self.w @ x) + self.b
        near = 0 < abs(s) <= 1e-9 * (np.abs(self.w) @ np.abs(x) + abs(self.b) + 1e-300)
        if y * s <= 0:
            self.w = self.w + self.eta * y * x
            if self.fit:
                self.b += self.eta * y
        return s, near

    def coef(self):
        return self.w, self.b


class PA1Member:
    """PA-I (Crammer et al. 2006): τ = min(C, ℓ/‖x‖²), bias step τy not in the norm."""

    def __init__(self, d, C=1.0, fit_intercept=True):
        self.w, self.b, self.C, self.fit = np.zeros(d), 0.0, C, fit_intercept

    def step(self, x, y):
        s = float(self.w @ x) + self.b
        loss = 1.0 - y * s
        near = abs(loss) <= 1e-9
        sq = float(x @ x)
        if loss > 0 and sq > 0:
            tau = min(self.C, loss / sq)
            self.w = self.w + tau * y * x
            if self.fit:
                self.b += tau * y
        return s, near

    def coef(self):
        return self.w, self.b


def obpm_reference(X, y, N, tau, seed, make_member):
    """Algorithm 2: N members; b_{j,t} = [u(seed, j, t) < τ]; w̃ = mean/max(1, ‖mean‖) with
    the bias as an extra coordinate. Returns (predictions, scores, first near-tie or None,
    members)."""
    members = [make_member() for _ in range(N)]
    preds, scores, first_near = [], [], None
    for t, (x, yt) in enumerate(zip(X, y)):
        W = np.array([m.coef()[0] for m in members])
        B = np.array([m.coef()[1] for m in members])
        mean_w, mean_b = W.mean(axis=0), B.mean()
        den = max(1.0, math.sqrt(mean_w @ mean_w + mean_b ** 2))
        s = (float(mean_w @ x) + mean_b) / den
        scores.append(s)
        preds.append(1.0 if s >= 0 else -1.0)
        if first_near is None and 0 < abs(s) <= 1e-9 * (np.abs(mean_w) @ np.abs(x) + abs(mean_b)):
            first_near = t
        for j in range(N):
            if ref_uniform(seed, j, t) < tau:
                _, near = members[j].step(x, yt)
                if near and first_near is None:
                    first_near = t
    return np.array(preds), np.array(scores), first_near, members


def _layouts():
    return [pytest.param(np.asarray, id="dense"), pytest.param(sp.csr_matrix, id="csr")]


# -- generalised perceptron ------------------------------------------------------------------

GP_SETTINGS = [
    dict(rho=0.0, eta=1.0, rho_schedule="constant", eta_schedule="constant", fit_intercept=True),
    dict(rho=0.1, eta=1.0, rho_schedule="constant", eta_schedule="constant", fit_intercept=True),
    dict(rho=0.5, eta=0.5, rho_schedule="inv_sqrt", eta_schedule="inv_sqrt",
         fit_intercept=False),
    dict(rho=1.0, eta=2.0, rho_schedule="inv_sqrt", eta_schedule="constant", fit_intercept=True),
    dict(rho=0.2, eta=1.0, rho_schedule="constant", eta_schedule="inv_sqrt", fit_intercept=False),
]


@pytest.mark.parametrize("conv", _layouts())
@pytest.mark.parametrize("params", GP_SETTINGS, ids=lambda p: "-".join(map(str, p.values())))
def test_generalized_perceptron_matches_reference(params, conv):
    compared_final = 0
    for seed in range(4):
        X, y = stream(seed)
        ref = GPMember(X.shape[1], **params)
        preds, nears = [], []
        for x, yt in zip(X, y):
            s, near = ref.step(x, yt)
            preds.append(1.0 if s >= 0 else -1.0)
            nears.append(near)
        upto = nears.index(True) if True in nears else len(y)
        with olc.strict_mode():
            learner = olc.make(GP, **params)
            record = learner.predict_then_learn(conv(X), y)
        np.testing.assert_array_equal(record.pred[:upto], preds[:upto])
        if upto == len(y):
            w, b = ref.coef()
            np.testing.assert_allclose(learner.coef_[0], w, rtol=1e-8, atol=1e-12)
            np.testing.assert_allclose(learner.intercept_[0], b, rtol=1e-8, atol=1e-12)
            assert learner._scal[GeneralizedPerceptronScal.UPDATES] == ref.k - 1
            compared_final += 1
    assert compared_final >= 3


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("conv", _layouts())
def test_generalized_perceptron_rho0_is_the_perceptron(fit_intercept, conv):
    X, y = stream(7)
    with olc.strict_mode():
        a = olc.make(GP, fit_intercept=fit_intercept)
        b = olc.make("perceptron", fit_intercept=fit_intercept)
        ra = a.predict_then_learn(conv(X), y)
        rb = b.predict_then_learn(conv(X), y)
    for field in ("pred", "score", "updated"):
        np.testing.assert_array_equal(getattr(ra, field), getattr(rb, field))
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)


@pytest.mark.parametrize("rho", [0.05, 0.1, 0.2])
def test_marginalised_perceptron_reaches_margin_rho(rho):
    """§2: with ρ_k = ρ, run until a pass makes no update, every training point has
    normalized margin > ρ (for normalized instances and ρ below the data's margin)."""
    X, y, _ = separable(1, margin=0.3)
    learner = olc.make(GP, rho=rho, fit_intercept=False)
    for _ in range(2000):
        if not learner.predict_then_learn(X, y, classes=[-1.0, 1.0]).updated.any():
            break
    else:  # pragma: no cover
        pytest.fail("no convergence")
    w = learner.coef_[0]
    assert (y * (X @ w) / np.linalg.norm(w)).min() > rho


def test_novikoff_bound_for_rho0():
    """ρ = 0, η = 1 (the perceptron): at most R²/γ² mistakes over any number of passes."""
    for seed in range(3):
        X, y, u = separable(seed, margin=0.2)
        gamma = (y * (X @ u)).min()
        R = np.linalg.norm(X, axis=1).max()
        learner = olc.make(GP, fit_intercept=False)
        mistakes = sum(int(np.count_nonzero(
            learner.predict_then_learn(X, y, classes=[-1.0, 1.0]).pred != y)) for _ in range(20))
        assert mistakes <= R ** 2 / gamma ** 2


def test_generalized_perceptron_norm_is_tracked_in_sparse_high_dimension():
    """‖(w, b)‖² is maintained in O(nnz) per update; it stays within 1e-12 of the exact
    value (periodic exact recomputation bounds the drift)."""
    rng = np.random.default_rng(3)
    n, d = 3000, 20000
    rows = np.repeat(np.arange(n), 4)
    X = sp.csr_matrix((rng.standard_normal(4 * n), (rows, rng.integers(0, d, 4 * n))),
                      shape=(n, d))
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    learner = olc.make(GP, rho=0.3)
    learner.fit(X, y)
    exact = learner.coef_[0] @ learner.coef_[0] + learner.intercept_[0] ** 2
    assert learner._scal[GeneralizedPerceptronScal.SQ] == pytest.approx(exact, rel=1e-12)
    assert learner.n_updates_ > 1000


def test_generalized_perceptron_zero_rows():
    """x = 0: the score is b; if the update test holds only the bias moves (by η_k·y), and
    without a bias nothing moves but k still counts the update (line 5)."""
    X, y = stream(2)
    learner = olc.make(GP, rho=0.5).fit(X, y)
    coef, b = learner.coef_.copy(), learner.intercept_[0]
    label = -1.0 if b > 0 else 1.0
    record = learner.predict_then_learn(np.zeros((1, X.shape[1])), [label])
    assert record.score[0] == b and record.updated[0]
    np.testing.assert_array_equal(learner.coef_, coef)
    assert learner.intercept_[0] == b + label
    nb = olc.make(GP, fit_intercept=False).fit(X, y)
    k = nb._scal[GeneralizedPerceptronScal.UPDATES]
    record = nb.predict_then_learn(sp.csr_matrix((1, X.shape[1])), [1.0])
    assert record.updated[0] and nb._scal[GeneralizedPerceptronScal.UPDATES] == k + 1
    assert np.isfinite(nb._scal).all()


@pytest.mark.parametrize("params, key", [
    (dict(rho=-0.1), "rho"), (dict(rho=math.nan), "rho"), (dict(eta=0.0), "eta"),
    (dict(eta=math.inf), "eta"), (dict(rho_schedule="sqrt"), "rho_schedule"),
    (dict(eta_schedule=None), "eta_schedule"),
])
def test_generalized_perceptron_invalid_hyperparameters(params, key):
    X, y = stream(0, n=10)
    with pytest.raises(ValueError, match=key):
        olc.make(GP, **params).fit(X, y)


# -- OBPM ---------------------------------------------------------------------------------------

BASES = [
    pytest.param("perceptron", {}, lambda d: PerceptronMember(d), id="perceptron"),
    pytest.param("perceptron", {"eta": 0.5, "fit_intercept": False},
                 lambda d: PerceptronMember(d, 0.5, False), id="perceptron-nobias"),
    pytest.param("pa-i", {"C": 0.5}, lambda d: PA1Member(d, 0.5), id="pa-i"),
    pytest.param(GP, {"rho": 0.2, "eta_schedule": "inv_sqrt"},
                 lambda d: GPMember(d, 0.2, 1.0, "constant", "inv_sqrt", True), id="gp"),
]


@pytest.mark.parametrize("conv", _layouts())
@pytest.mark.parametrize("base, base_params, member", BASES)
@pytest.mark.parametrize("N, tau, seed", [(7, 0.3, 0), (20, 0.5, 11), (3, 0.9, 2 ** 40)])
def test_obpm_matches_reference(base, base_params, member, N, tau, seed, conv):
    X, y = stream(seed % 5, n=120)
    d = X.shape[1]
    preds, scores, near, members = obpm_reference(X, y, N, tau, seed, lambda: member(d))
    upto = len(y) if near is None else near
    with olc.strict_mode():
        learner = olc.make(OBPM, N=N, tau=tau, seed=seed, base=base, base_params=base_params)
        record = learner.predict_then_learn(conv(X), y)
    np.testing.assert_array_equal(record.pred[:upto], preds[:upto])
    np.testing.assert_allclose(record.score[:upto], scores[:upto], rtol=1e-9, atol=1e-12)
    if near is None:
        W = np.array([m.coef()[0] for m in members])
        B = np.array([m.coef()[1] for m in members])
        np.testing.assert_allclose(learner.member_coefs_, W, rtol=1e-8, atol=1e-12)
        np.testing.assert_allclose(learner.member_intercepts_, B, rtol=1e-8, atol=1e-12)
        mean_w, mean_b = W.mean(axis=0), B.mean()
        den = max(1.0, math.sqrt(mean_w @ mean_w + mean_b ** 2))
        np.testing.assert_allclose(learner.coef_[0], mean_w / den, rtol=1e-8, atol=1e-12)
        np.testing.assert_allclose(learner.intercept_[0], mean_b / den, rtol=1e-8, atol=1e-12)
    else:
        assert near > 20  # the streams are designed to stay clear of ties for a while


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_obpm_tau1_is_n_identical_perceptrons(fit_intercept):
    """τ = 1: every member sees every example, so all N members are the same perceptron and
    the average is that perceptron, normalized by max(1, ‖(w, b)‖)."""
    X, y = stream(3, n=200)
    with olc.strict_mode():
        ob = olc.make(OBPM, N=25, tau=1.0, base_params={"fit_intercept": fit_intercept})
        r_ob = ob.predict_then_learn(X, y)
        pc = olc.make("perceptron", fit_intercept=fit_intercept)
        r_pc = pc.predict_then_learn(X, y)
    np.testing.assert_array_equal(r_ob.pred, r_pc.pred)
    np.testing.assert_array_equal(r_ob.updated, r_pc.updated)
    np.testing.assert_array_equal(r_ob.aux, 25.0 * r_pc.updated)
    for j in range(25):
        np.testing.assert_array_equal(ob.member_coefs_[j], pc.coef_[0])
    w, b = pc.coef_[0], pc.intercept_[0]
    den = max(1.0, math.sqrt(w @ w + b * b))
    np.testing.assert_allclose(ob.coef_[0], w / den, rtol=1e-12)
    np.testing.assert_allclose(ob.intercept_[0], b / den, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(ob.decision_function(X), pc.decision_function(X) / den,
                               rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("base, base_params", [("pa-ii", {"C": 0.3}), (GP, {"rho": 0.3}),
                                               ("pa", {})])
def test_obpm_single_member_tau1_is_its_base_learner(base, base_params):
    X, y = stream(4)
    with olc.strict_mode():
        ob = olc.make(OBPM, N=1, tau=1.0, base=base, base_params=base_params)
        r_ob = ob.predict_then_learn(X, y)
        single = olc.make(base, **base_params)
        r_single = single.predict_then_learn(X, y)
    np.testing.assert_array_equal(r_ob.pred, r_single.pred)
    np.testing.assert_array_equal(r_ob.updated, r_single.updated)
    np.testing.assert_array_equal(ob.member_coefs_[0], single.coef_[0])
    np.testing.assert_array_equal(ob.member_intercepts_[0], single.intercept_[0])


def test_obpm_tau0_never_learns():
    X, y = stream(5)
    ob = olc.make(OBPM, N=5, tau=0.0)
    record = ob.predict_then_learn(X, y)
    assert not record.updated.any() and (record.score == 0).all() and (record.pred == 1).all()
    assert not ob.member_coefs_.any()


def test_obpm_sum_and_norm_are_tracked_incrementally():
    """The member sum (vecs[SUM]) and its squared norm follow the members in O(nnz) per
    update; after a long sparse stream they equal the recomputed values."""
    rng = np.random.default_rng(5)
    n, d = 1500, 5000
    rows = np.repeat(np.arange(n), 3)
    X = sp.csr_matrix((rng.standard_normal(3 * n), (rows, rng.integers(0, d, 3 * n))),
                      shape=(n, d))
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    ob = olc.make(OBPM, N=10, tau=0.5, base="pa-i").fit(X, y)
    W, B = ob.member_coefs_, ob.member_intercepts_
    np.testing.assert_allclose(ob._vecs[ObpmVec.SUM], W.sum(axis=0), rtol=1e-12, atol=1e-12)
    assert ob._scal[ObpmScal.SUM_BIAS] == pytest.approx(B.sum(), rel=1e-12)
    exact = W.sum(axis=0) @ W.sum(axis=0) + B.sum() ** 2
    assert ob._scal[ObpmScal.SUM_SQ] == pytest.approx(exact, rel=1e-10)


def test_obpm_draws_are_the_documented_bernoulli_draws():
    """With a base that updates at every round it sees (PA-I on a stream that never reaches
    margin 1), aux = #{j : u(seed, j, t) < τ} exactly."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((100, 3)) * 1e-3
    y = np.where(rng.random(100) < 0.5, 1.0, -1.0)
    record = olc.make(OBPM, N=30, tau=0.25, seed=77, base="pa-i",
                      base_params={"C": 1e-6}).predict_then_learn(X, y)
    want = [sum(ref_uniform(77, j, t) < 0.25 for j in range(30)) for t in range(100)]
    np.testing.assert_array_equal(record.aux, want)


def test_obpm_overflow_is_declined_and_state_stays_finite():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1e10, 0.0], [1.0, 1.0]])
    y = np.array([1.0, -1.0, -1.0, 1.0])
    ob = olc.make(OBPM, N=3, tau=1.0, base_params={"eta": 1e150})
    with pytest.raises(StreamStoppedError, match="overflow occurred at row 2") as info:
        ob.partial_fit(X, y, classes=[-1.0, 1.0])
    assert info.value.rows_learned == 2
    assert np.isfinite(ob._vecs).all() and np.isfinite(ob._scal).all()
    np.testing.assert_allclose(ob._vecs[ObpmVec.SUM], ob.member_coefs_.sum(axis=0))


def test_obpm_zero_rows_move_only_biases():
    X, y = stream(6)
    ob = olc.make(OBPM, N=8, tau=1.0).fit(X, y)
    coef, b = ob.member_coefs_.copy(), ob.intercept_[0]
    for Z in (np.zeros((1, X.shape[1])), sp.csr_matrix((1, X.shape[1]))):
        record = ob.predict_then_learn(Z, [-1.0 if b > 0 else 1.0])
        assert record.score[0] == pytest.approx(b, rel=1e-15)
        b = ob.intercept_[0]
    np.testing.assert_array_equal(ob.member_coefs_, coef)


def test_supported_bases_and_errors():
    X, y = stream(0, n=20)
    with pytest.raises(InputError) as info:
        olc.make(OBPM, base="e-omm").fit(X, y)
    msg = str(info.value)
    for name in ("perceptron", "pa", "pa-i", "pa-ii", GP):
        assert name in msg
    with pytest.raises(ValueError, match="no-such"):
        olc.make(OBPM, base="no-such").fit(X, y)
    with pytest.raises(ValueError, match="bogus"):
        olc.make(OBPM, base_params={"bogus": 1}).fit(X, y)
    with pytest.raises(ValueError, match="eta"):
        olc.make(OBPM, base_params={"eta": -1.0}).fit(X, y)
    with pytest.raises(ValueError, match="base_params"):
        olc.make(OBPM, base_params=[("eta", 1.0)]).fit(X, y)


@pytest.mark.parametrize("params, key", [
    (dict(N=0), "N"), (dict(N=2.5), "N"), (dict(N=True), "N"), (dict(tau=1.5), "tau"),
    (dict(tau=-0.1), "tau"), (dict(tau=math.nan), "tau"), (dict(seed=-3), "seed"),
    (dict(seed="x"), "seed"),
])
def test_obpm_invalid_hyperparameters(params, key):
    X, y = stream(0, n=10)
    with pytest.raises(ValueError, match=key):
        olc.make(OBPM, **params).fit(X, y)


def test_obpm_shape_parameters_are_fixed_once_learning_starts():
    X, y = stream(1, n=30)
    ob = olc.make(OBPM, N=4).fit(X, y)
    ob.set_params(N=5)
    with pytest.raises(ValueError, match="N=5"):
        ob.partial_fit(X, y)
    ob.set_params(N=4, base="pa-i")
    with pytest.raises(ValueError, match="base"):
        ob.partial_fit(X, y)
    ob.set_params(N=5).fit(X, y)  # fit starts over
    assert ob.member_coefs_.shape == (5, X.shape[1])


def test_catalogue_lists_sources():
    entries = {e.name: e for e in olc.algorithms()}
    assert "Harrington et al. 2003, Algorithm 1" in entries[GP].citation
    assert "Harrington et al. 2003, Algorithm 2" in entries[OBPM].citation
    assert entries[OBPM].parameters == {"N": 100, "tau": 0.3, "base": "perceptron",
                                        "base_params": None, "seed": 0, "n_jobs": None}
