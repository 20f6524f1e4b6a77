"""Online regressors of the textbook chapter 31 and Crammer et al. 2006: Passive-Aggressive
regression (ε-insensitive PA / PA-I / PA-II; the chapter's ℓ2- and ℓ1-loss updates, §31.2.2) and
AROW regression (recursive least squares, §31.3.3).

Yardsticks, none of which imports olc's rules:
- per-example references in plain NumPy written from the equations (the chapter's ones on
  the explicitly augmented input (x, 1));
- the defining convex problems of one step, solved by cvxpy/Clarabel;
- ridge regression in closed form for AROW regression with full covariance (after T rows,
  μ = (rI + X̃ᵀX̃)⁻¹X̃ᵀy and Σ = (I + X̃ᵀX̃/r)⁻¹);
- scikit-learn's ``PassiveAggressiveRegressor`` (deprecated in 1.8) and its replacement
  ``SGDRegressor(loss="epsilon_insensitive", penalty=None, learning_rate="pa1"/"pa2",
  eta0=C)``: identical predictions, weights bit for bit in strict mode, 1e-10 otherwise.
"""
import warnings
from pathlib import Path

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import SGDRegressor

import olc
from olc._compiled.layouts.linear import LinearScal, LinearVec

try:  # deprecated in scikit-learn 1.8, removed in 1.10
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        from sklearn.linear_model import PassiveAggressiveRegressor
except ImportError:  # pragma: no cover
    PassiveAggressiveRegressor = None

W, BIAS = LinearVec.W, LinearScal.BIAS  # PA regression's state: w and the bias

CLARABEL = dict(tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12, tol_ktratio=1e-10,
                max_iter=500)


def _stream(seed, n=300, d=6, noise=0.5, sparse_frac=0.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * rng.uniform(0.5, 2.0, size=d)
    if sparse_frac:
        X *= rng.random((n, d)) >= sparse_frac
    w = rng.normal(size=d)
    y = X @ w + 0.7 + noise * rng.normal(size=n)
    return X, y


def _close(a, b, what, rtol=1e-8):
    a, b = np.asarray(a, float), np.asarray(b, float)
    scale = max(np.abs(a).max(initial=0.0), np.abs(b).max(initial=0.0), 1e-300)
    np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol * scale, err_msg=what)


# -- independent references -----------------------------------------------------------------

def ref_pa_regression(X, y, variant, C=1.0, eps=0.1, bias=True, bias_in_norm=False):
    """Crammer et al. 2006 §4, per example: ℓ = max(0, |r| − ε), τ by variant,
    w ← w + sign(r)τx (b likewise)."""
    d = X.shape[1]
    w, b = np.zeros(d), 0.0
    scores, updated = [], []
    for x, t in zip(X, y):
        s = float(x @ w) + b
        scores.append(s)
        r = t - s
        loss = max(0.0, abs(r) - eps)
        q = float(x @ x) + (1.0 if bias and bias_in_norm else 0.0)
        if loss == 0.0 or (variant != "pa-ii" and q == 0.0) or (q == 0.0 and not bias):
            updated.append(False)
            continue
        if variant == "pa":
            tau = loss / q
        elif variant == "pa-i":
            tau = min(C, loss / q)
        else:
            tau = loss / (q + 1.0 / (2.0 * C))
        w = w + np.sign(r) * tau * x
        if bias:
            b += np.sign(r) * tau
        updated.append(True)
    return w, b, np.array(scores), np.array(updated)


def ref_textbook(X, y, loss, lam, bias=True):
    """§31.2.2 on the augmented input (x, 1) (Fig. 31.3): ℓ2: θ ← θ + r/(‖x‖² + λ)x;
    ℓ1: θ ← θ + sign(r)·min(1/λ, |r|/‖x‖²)x."""
    Xa = np.hstack([X, np.ones((X.shape[0], 1))]) if bias else X
    theta = np.zeros(Xa.shape[1])
    scores = []
    for x, t in zip(Xa, y):
        s = float(theta @ x)
        scores.append(s)
        r = t - s
        q = float(x @ x)
        if loss == "l2":
            theta = theta + r / (q + lam) * x
        elif q > 0:
            theta = theta + np.sign(r) * min(1.0 / lam, abs(r) / q) * x
    if bias:
        return theta[:-1], theta[-1], np.array(scores)
    return theta, 0.0, np.array(scores)


def ref_arow_regression(X, y, r, covariance, bias=True):
    """§31.3.3 on x̃ = (x, 1): β = x̃ᵀΣx̃ + r, μ ← μ + (y − μ·x̃)Σx̃/β, Σ ← Σ − Σx̃x̃ᵀΣ/β;
    diagonal variants with Σ a vector."""
    Xa = np.hstack([X, np.ones((X.shape[0], 1))]) if bias else X
    D = Xa.shape[1]
    mu = np.zeros(D)
    S = np.eye(D) if covariance == "full" else np.ones(D)
    scores = []
    for x, t in zip(Xa, y):
        s = float(mu @ x)
        scores.append(s)
        z = S @ x if covariance == "full" else S * x
        beta = float(x @ z) + r
        mu = mu + (t - s) * z / beta
        if covariance == "full":
            S = S - np.outer(z, z) / beta
        elif covariance == "diagonal":
            S = S - z * z / beta
        else:
            S = S / (1.0 + S * x * x / r)
    return mu, S, np.array(scores)


# -- PA regression: references ----------------------------------------------------------------

PA_CASES = [("pa-regression", {"epsilon": 0.1}, "pa", dict(eps=0.1, bias_in_norm=True)),
            ("pa-regression", {"epsilon": 0.0, "fit_intercept": False}, "pa",
             dict(eps=0.0, bias=False)),
            ("pa-i-regression", {"C": 0.05, "epsilon": 0.2}, "pa-i", dict(C=0.05, eps=0.2)),
            ("pa-i-regression", {"C": 1.0}, "pa-i", dict(C=1.0)),
            ("pa-ii-regression", {"C": 0.1, "epsilon": 0.3}, "pa-ii", dict(C=0.1, eps=0.3)),
            ("pa-ii-regression", {"C": 2.0, "fit_intercept": False}, "pa-ii",
             dict(C=2.0, bias=False))]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("layout", ["dense", "csr"])
@pytest.mark.parametrize("name, params, variant, ref", PA_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(PA_CASES)])
def test_pa_regression_matches_reference(name, params, variant, ref, layout, seed):
    X, y = _stream(seed, sparse_frac=0.3)
    X[5] = 0.0  # a zero row
    w, b, scores, updated = ref_pa_regression(X, y, variant, **ref)
    learner = olc.make(name, **params)
    record = learner.predict_then_learn(sp.csr_matrix(X) if layout == "csr" else X, y)
    np.testing.assert_array_equal(record.updated, updated)
    assert 0 < updated.sum() < len(y)
    _close(record.score, scores, "per-step predictions")
    _close(learner.coef_, w, "coef_")
    _close(learner.intercept_, [b], "intercept_")


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("loss, lam", [("l2", 1.0), ("l2", 0.1), ("l1", 1.0), ("l1", 0.3)])
def test_textbook_pa_regression_matches_chapter(loss, lam, bias, seed):
    X, y = _stream(seed, n=200)
    theta, b, scores = ref_textbook(X, y, loss, lam, bias)
    for Xin in (X, sp.csr_matrix(X)):
        learner = olc.make(f"pa-{loss}-regression", lam=lam, fit_intercept=bias)
        record = learner.predict_then_learn(Xin, y)
        _close(record.score, scores, "per-step predictions")
        _close(learner.coef_, theta, "θ")
        _close(learner.intercept_, [b], "bias")


def test_textbook_updates_are_pa_ii_and_pa_i_with_zero_epsilon():
    """The chapter's ℓ2 update is PA-II with ε = 0, λ = 1/(2C); its ℓ1 update is PA-I with
    ε = 0, C = 1/λ (without a bias, where both count the same norm)."""
    X, y = _stream(4)
    a = olc.make("pa-l2-regression", lam=0.25, fit_intercept=False).fit(X, y)
    b = olc.make("pa-ii-regression", C=2.0, epsilon=0.0, fit_intercept=False).fit(X, y)
    _close(a.coef_, b.coef_, "ℓ2 vs PA-II", rtol=1e-13)
    a = olc.make("pa-l1-regression", lam=4.0, fit_intercept=False).fit(X, y)
    b = olc.make("pa-i-regression", C=0.25, epsilon=0.0, fit_intercept=False).fit(X, y)
    _close(a.coef_, b.coef_, "ℓ1 vs PA-I", rtol=1e-13)


# -- PA regression: one step against its convex program -------------------------------------

def _solve(problem):
    problem.solve(solver=cp.CLARABEL, **CLARABEL)
    assert problem.status == cp.OPTIMAL, problem.status


def qp_pa_regression_step(w, b, x, t, variant, C, eps, bias_free):
    """min ½‖w'−w‖² (+ ½(b'−b)² when the bias is a variable) + penalty s.t. the ε-tube;
    ``bias_free``: the bias is a variable of the problem (classic PA with a bias)."""
    d = w.shape[0]
    dw = cp.Variable(d)
    db = cp.Variable() if bias_free else 0.0
    pred = float(x @ w) + b + x @ dw + db
    obj = 0.5 * cp.sum_squares(dw) + (0.5 * cp.square(db) if bias_free else 0.0)
    if variant == "pa":
        cons = [cp.abs(t - pred) <= eps]
    else:
        xi = cp.Variable()
        cons = [cp.abs(t - pred) <= eps + xi]
        if variant == "pa-i":
            obj = obj + C * xi
            cons.append(xi >= 0)
        else:
            obj = obj + C * cp.square(xi)
    _solve(cp.Problem(cp.Minimize(obj), cons))
    return w + dw.value, b + (float(db.value) if bias_free else 0.0)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("variant", ["pa", "pa-i", "pa-ii"])
def test_pa_regression_step_solves_its_problem(variant, seed):
    """One step from a random state equals the argmin of the defining problem (with the
    bias: a variable for classic PA, held fixed for PA-I/PA-II whose bias step follows
    scikit-learn's convention — so the weight part is tested there)."""
    rng = np.random.default_rng(seed)
    d = 5
    w, x = rng.normal(size=d), rng.normal(size=d) * rng.uniform(0.2, 3.0)
    t = float(x @ w) + rng.choice([-1, 1]) * rng.uniform(0.5, 4.0)
    C, eps = rng.uniform(0.05, 2.0), rng.uniform(0.0, 0.4)
    name = {"pa": "pa-regression", "pa-i": "pa-i-regression", "pa-ii": "pa-ii-regression"}
    params = {"epsilon": eps} | ({} if variant == "pa" else {"C": C})
    for bias in (False, True):
        learner = olc.make(name[variant], **params, fit_intercept=bias)
        learner.partial_fit(np.zeros((1, d)), [0.0])  # initialise (x = 0, y = 0: no update)
        learner._vecs[W] = w
        learner._scal[BIAS] = 0.3 if bias else 0.0
        b0 = learner._scal[BIAS]
        learner.partial_fit(x[None, :], [t])
        w_qp, b_qp = qp_pa_regression_step(w, b0, x, t, variant, C, eps,
                                           bias_free=bias and variant == "pa")
        _close(learner.coef_, w_qp, f"{variant} bias={bias}", rtol=1e-7)
        if bias and variant == "pa":
            _close(learner.intercept_, [b_qp], "bias", rtol=1e-7)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("loss", ["l2", "l1"])
def test_textbook_step_solves_31_1(loss, seed):
    """Eq. (31.1) with J = ½r² or |r| on the augmented input: θ̂ = argmin J(θ) + λ/2‖θ−θ̃‖²."""
    rng = np.random.default_rng(seed)
    d = 4
    theta = rng.normal(size=d + 1)
    x = rng.normal(size=d)
    t = float(x @ theta[:d] + theta[d]) + rng.normal() * 3
    lam = rng.uniform(0.1, 3.0)
    th = cp.Variable(d + 1)
    xa = np.append(x, 1.0)
    r = t - xa @ th
    J = 0.5 * cp.square(r) if loss == "l2" else cp.abs(r)
    _solve(cp.Problem(cp.Minimize(J + lam / 2 * cp.sum_squares(th - theta))))
    learner = olc.make(f"pa-{loss}-regression", lam=lam)
    learner.partial_fit(np.zeros((1, d)), [0.0])
    learner._vecs[W] = theta[:d]
    learner._scal[BIAS] = theta[d]
    learner.partial_fit(x[None, :], [t])
    _close(np.append(learner.coef_, learner.intercept_), th.value, loss, rtol=1e-7)


# -- PA regression: degenerate rows -------------------------------------------------------------

def _warm(name, **params):
    X, y = _stream(9, n=50, d=3)
    return olc.make(name, **params).fit(X, y)


@pytest.mark.parametrize("name, params", [("pa-i-regression", {}), ("pa-l1-regression",
                                                                    {"fit_intercept": False}),
                                          ("pa-regression", {"fit_intercept": False})])
def test_zero_row_is_skipped_where_tau_is_undefined(name, params):
    learner = _warm(name, **params)
    coef, b = learner.coef_.copy(), learner.intercept_.copy()
    record = learner.predict_then_learn(np.zeros((1, 3)), [b[0] + 10.0])
    assert not record.updated[0]
    np.testing.assert_array_equal(learner.coef_, coef)
    np.testing.assert_array_equal(learner.intercept_, b)


def test_zero_row_moves_only_the_bias():
    """PA-II: τ = ℓ/(0 + 1/(2C)) = 2Cℓ; classic PA with a bias: τ = ℓ/(0 + 1) — the new
    prediction at the origin is on the edge of the ε-tube."""
    for name, params in [("pa-ii-regression", {"C": 0.5, "epsilon": 0.1}),
                         ("pa-regression", {"epsilon": 0.1}),
                         ("pa-l2-regression", {"lam": 1.0})]:
        learner = _warm(name, **params)
        coef, b = learner.coef_.copy(), learner.intercept_[0]
        t = b + 5.0
        record = learner.predict_then_learn(np.zeros((1, 3)), [t])
        assert record.updated[0]
        np.testing.assert_array_equal(learner.coef_, coef)
        if name == "pa-ii-regression":
            assert learner.intercept_[0] == pytest.approx(b + 2 * 0.5 * (5.0 - 0.1))
        elif name == "pa-regression":
            assert learner.intercept_[0] == pytest.approx(t - 0.1)
        else:  # θ ← θ + r/(0 + 1 + λ)·(0, 1)
            assert learner.intercept_[0] == pytest.approx(b + 5.0 / 2.0)


def test_inside_the_tube_nothing_moves():
    learner = _warm("pa-i-regression", epsilon=0.5)
    coef, b = learner.coef_.copy(), learner.intercept_.copy()
    x = np.array([[0.3, -1.0, 2.0]])
    s = learner.predict(x)[0]
    record = learner.predict_then_learn(x, [s + 0.49])
    assert not record.updated[0]
    np.testing.assert_array_equal(learner.coef_, coef)
    np.testing.assert_array_equal(learner.intercept_, b)


# -- PA regression: scikit-learn parity ---------------------------------------------------------

SPLITS = [0, 1, 57, 58, 200, 299, 300]
SK_CASES = [("pa-i-regression", 0.05, 0.1), ("pa-i-regression", 1.0, 0.0),
            ("pa-ii-regression", 0.05, 0.2), ("pa-ii-regression", 1.0, 0.1),
            ("pa-regression", 1e300, 0.1)]


def _sk_models(name, C, eps):
    lr = {"pa-regression": "pa1", "pa-i-regression": "pa1", "pa-ii-regression": "pa2"}[name]
    bias = name != "pa-regression"
    models = [SGDRegressor(loss="epsilon_insensitive", penalty=None, learning_rate=lr,
                           eta0=C, epsilon=eps, shuffle=False, fit_intercept=bias)]
    if PassiveAggressiveRegressor is not None:
        loss = "epsilon_insensitive" if lr == "pa1" else "squared_epsilon_insensitive"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            models.append(PassiveAggressiveRegressor(C=C, epsilon=eps, loss=loss, shuffle=False,
                                                     fit_intercept=bias))
    return models


def _olc_model(name, C, eps):
    if name == "pa-regression":
        return olc.make(name, epsilon=eps, fit_intercept=False)
    return olc.make(name, C=C, epsilon=eps)


def _train(model, X, y, splits):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        for a, b in zip(splits[:-1], splits[1:]):
            model.partial_fit(X[a:b], y[a:b])
    return model


def test_sklearn_deprecation_names_the_replacement_we_test():
    if PassiveAggressiveRegressor is None:  # pragma: no cover
        pytest.skip("PassiveAggressiveRegressor removed from scikit-learn")
    with pytest.warns(FutureWarning) as record:
        PassiveAggressiveRegressor()
    message = str(record[0].message)
    assert "SGDRegressor" in message and "epsilon_insensitive" in message
    assert "pa1" in message


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("splits", [[0, 300], SPLITS], ids=["one-call", "several-calls"])
@pytest.mark.parametrize("name, C, eps", SK_CASES, ids=[f"{n}-{c:g}-{e:g}" for n, c, e in SK_CASES])
def test_sklearn_parity(name, C, eps, splits, seed):
    X, y = _stream(seed)
    for sk in _sk_models(name, C, eps):
        _train(sk, X, y, splits)
        with olc.strict_mode():
            ours = _train(_olc_model(name, C, eps), X, y, splits)
            assert np.array_equal(ours.coef_, sk.coef_), type(sk).__name__
            assert np.array_equal(ours.intercept_, sk.intercept_), type(sk).__name__
            # Same model, same predictions: evaluated scikit-learn's way (X @ coef_ +
            # intercept_, a BLAS product) they are identical; olc's own predict sums
            # left to right, which differs from BLAS by rounding only.
            assert np.array_equal(X @ ours.coef_ + ours.intercept_, sk.predict(X))
            _close(ours.predict(X), sk.predict(X), "predict", rtol=1e-13)
        assert ours.n_updates_ > 50
        with olc.strict_mode(False):
            fast = _train(_olc_model(name, C, eps), X, y, splits)
        scale = np.abs(sk.coef_).max()
        np.testing.assert_allclose(fast.coef_, sk.coef_, rtol=1e-10, atol=1e-10 * scale)
        np.testing.assert_allclose(fast.intercept_, sk.intercept_, rtol=1e-10,
                                   atol=1e-10 * scale)
        np.testing.assert_allclose(fast.predict(X), sk.predict(X), rtol=1e-10,
                                   atol=1e-10 * np.abs(y).max())


# -- AROW regression ----------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("r", [1.0, 0.1])
@pytest.mark.parametrize("bias", [True, False])
def test_arow_regression_full_is_ridge_regression(seed, r, bias):
    """Recursive least squares from N(0, I): μ_T = (rI + X̃ᵀX̃)⁻¹X̃ᵀy and
    Σ_T = (I + X̃ᵀX̃/r)⁻¹ = r(rI + X̃ᵀX̃)⁻¹ — the precision grows by x̃x̃ᵀ/r per row (the
    chapter's Σ̂⁻¹ = Σ̃⁻¹ + xxᵀ/λ, with the sign corrected)."""
    X, y = _stream(seed, n=120, sparse_frac=0.2)
    Xa = np.hstack([X, np.ones((len(y), 1))]) if bias else X
    A = r * np.eye(Xa.shape[1]) + Xa.T @ Xa
    mu = np.linalg.solve(A, Xa.T @ y)
    for Xin in (X, sp.csr_matrix(X)):
        learner = olc.make("arow-regression", r=r, fit_intercept=bias).fit(Xin, y)
        got = np.append(learner.coef_, learner.intercept_) if bias else learner.coef_
        _close(got, mu, "μ vs ridge")
        S = learner.sigma_ if bias else learner.sigma_[:-1, :-1]
        _close(S, r * np.linalg.inv(A), "Σ vs (I + XᵀX/r)⁻¹")
        np.testing.assert_array_equal(learner.sigma_, learner.sigma_.T)  # exactly symmetric
        # Every online prediction is the ridge fit of the rows before it.
        record = olc.make("arow-regression", r=r, fit_intercept=bias).predict_then_learn(Xin, y)
        for t in (1, 10, 60):
            m = np.linalg.solve(r * np.eye(Xa.shape[1]) + Xa[:t].T @ Xa[:t], Xa[:t].T @ y[:t])
            assert record.score[t] == pytest.approx(float(Xa[t] @ m), rel=1e-8, abs=1e-10)


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("covariance", ["full", "diagonal", "diagonal-precision"])
@pytest.mark.parametrize("bias", [True, False])
def test_arow_regression_matches_reference(covariance, bias, seed):
    X, y = _stream(seed, n=200, sparse_frac=0.4)
    mu, S, scores = ref_arow_regression(X, y, 0.5, covariance, bias)
    for Xin in (X, sp.csr_matrix(X)):
        learner = olc.make("arow-regression", r=0.5, covariance=covariance,
                           fit_intercept=bias)
        record = learner.predict_then_learn(Xin, y)
        _close(record.score, scores, "per-step predictions")
        got = np.append(learner.coef_, learner.intercept_) if bias else learner.coef_
        _close(got, mu, "μ")
        sig = learner.sigma_
        if not bias:
            sig = sig[:-1, :-1] if covariance == "full" else sig[:-1]
        _close(sig, S, "Σ")


def test_arow_regression_zero_row():
    """x̃ = 0 (no bias): nothing can move, not an update; with a bias only the bias
    coordinate learns (x̃ = (0, 1))."""
    X, y = _stream(3, n=30, d=3)
    for covariance in ("full", "diagonal", "diagonal-precision"):
        learner = olc.make("arow-regression", covariance=covariance,
                           fit_intercept=False).fit(X, y)
        before = learner.sigma_.copy(), learner.coef_.copy()
        record = learner.predict_then_learn(np.zeros((1, 3)), [4.0])
        assert not record.updated[0]
        np.testing.assert_array_equal(learner.sigma_, before[0])
        np.testing.assert_array_equal(learner.coef_, before[1])
        learner = olc.make("arow-regression", covariance=covariance).fit(X, y)
        coef = learner.coef_.copy()
        record = learner.predict_then_learn(np.zeros((1, 3)), [4.0])
        assert record.updated[0]
        if covariance != "full":  # diagonal: the weights are untouched
            np.testing.assert_array_equal(learner.coef_, coef)


def test_arow_regression_diagonal_updates_touch_only_nonzeros():
    """O(nnz): a sparse row changes μ and Σ only at its nonzero coordinates (and the bias)."""
    rng = np.random.default_rng(0)
    d = 1000
    for covariance in ("diagonal", "diagonal-precision"):
        learner = olc.make("arow-regression", covariance=covariance)
        learner.partial_fit(sp.random(20, d, density=0.01, random_state=1, format="csr"),
                            rng.normal(size=20))
        mu, sig = learner.coef_.copy(), learner.sigma_.copy()
        row = sp.csr_matrix(([1.5, -2.0], ([0, 0], [7, 400])), shape=(1, d))
        learner.partial_fit(row, [3.0])
        changed = np.flatnonzero((learner.coef_ != mu) | (learner.sigma_[:-1] != sig[:-1]))
        assert set(changed) == {7, 400}


# -- command line and progressive validation ------------------------------------------------------

def test_cli_runs_and_compares_regressors(tmp_path):
    """`olc run`/`olc compare` take y as real targets for a regressor: squared/absolute
    errors instead of mistakes, no τ or margin; the catalogue lists each learner's kind."""
    import json

    from typer.testing import CliRunner

    from olc.cli import app
    from olc.data.sources import load_source

    runner = CliRunner()
    data = "synthetic:n=500,d=5"
    res = runner.invoke(app, ["run", "arow-regression", "--data", data, "--json",
                              "--save-model", str(tmp_path / "m.npz")], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert summary["kind"] == "regressor"
    assert summary["mistakes"] is None and summary["tau"] is None
    assert summary["final_margin"] is None and summary["error_rate"] is None
    X, y, _ = load_source(data)
    result = olc.progressive(olc.make("arow-regression"), X, y)
    assert summary["squared_error"] == pytest.approx(result.squared_error, rel=1e-12)
    assert summary["mean_squared_error"] == pytest.approx(result.squared_error / 500)
    assert olc.load(tmp_path / "m.npz").n_steps_ == 500
    res = runner.invoke(app, ["run", "sgd-regression", "--data", data], catch_exceptions=False)
    assert res.exit_code == 0 and "mean_squared_error" in res.stdout

    res = runner.invoke(app, ["compare", "pa-i", "pa-i-regression", "sgd-regression",
                              "--data", data, "--out", str(tmp_path)], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    report = json.loads((tmp_path / "results.json").read_text())
    kinds = {r["algorithm"]: r["kind"] for r in report["results"]}
    assert kinds == {"pa-i": "classifier", "pa-i-regression": "regressor",
                     "sgd-regression": "regressor"}
    assert report["results"][0]["mistakes"] >= 0
    assert report["results"][1]["mean_squared_error"] > 0
    assert Path(report["files"]["figure"]).name == "cumulative_error.png"
    assert Path(report["files"]["figure_regression"]).exists()

    listed = json.loads(runner.invoke(app, ["algorithms", "--json"]).stdout)
    assert {e["name"]: e["kind"] for e in listed}["arow-regression"] == "regressor"
