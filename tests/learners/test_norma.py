"""NORMA (Kivinen, Smola & Williamson 2004), linear, fixed margin ρ: exactness against an
independent per-example implementation of the paper's update, the O(1) shrink, the step-size
schedules, degenerate rows and hyper-parameter validation."""
import numpy as np
import pytest
import scipy.sparse as sp

import olc
from olc.learners import InputError


def reference_norma(X, y, eta, lam, rho, schedule, bias):
    """f_t = w·x + b; σ_t = [y·f_t < ρ]; w ← (1 − η_tλ)w + η_tσ_t·y·x; b ← b + η_tσ_t·y."""
    X = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=float)
    w = np.zeros(X.shape[1])
    b = 0.0
    scores, upd = [], []
    for t, (x, yt) in enumerate(zip(X, y), start=1):
        f = float(w @ x + b)
        scores.append(f)
        eta_t = eta if schedule == "constant" else eta / np.sqrt(t)
        sigma = 1.0 if yt * f < rho else 0.0
        w = (1.0 - eta_t * lam) * w + eta_t * sigma * yt * x
        if bias:
            b = b + eta_t * sigma * yt
        upd.append(sigma == 1.0)
    scores = np.array(scores)
    return scores, np.where(scores >= 0, 1, -1), np.array(upd), w, b


def make_stream(seed, n=400, d=10, density=1.0):
    rng = np.random.default_rng([seed, 13])
    X = rng.standard_normal((n, d)) * (rng.random((n, d)) < density)
    empty = ~X.any(axis=1)  # no zero rows here: their score b = k·η ties with ρ
    X[empty, rng.integers(0, d, size=int(empty.sum()))] = 1.0
    u = rng.standard_normal(d)
    y = np.where(X @ u + 0.5 + 0.3 * rng.standard_normal(n) >= 0, 1, -1)
    return X, y


CASES = [
    dict(eta=0.1, lam=0.01, rho=1.0, schedule="constant", fit_intercept=True),
    dict(eta=0.5, lam=0.1, rho=1.0, schedule="sqrt", fit_intercept=True),
    dict(eta=0.2, lam=0.0, rho=0.5, schedule="constant", fit_intercept=False),
    dict(eta=1.0, lam=0.5, rho=1.0, schedule="constant", fit_intercept=True),  # renormalizes
    dict(eta=0.05, lam=1.0, rho=2.0, schedule="sqrt", fit_intercept=False),
]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("case", CASES, ids=str)
def test_matches_reference(case, seed):
    density = 1.0 if seed < 2 else 0.3
    X, y = make_stream(seed, density=density)
    n = len(y)
    if case["eta"] == 1.0:  # S = 0.5^t: renormalized every ~330 rounds
        X, y = np.vstack([X] * 3), np.concatenate([y] * 3)
        n = len(y)
    ref_s, ref_p, ref_u, ref_w, ref_b = reference_norma(
        X, y, case["eta"], case["lam"], case["rho"], case["schedule"], case["fit_intercept"])
    gap = np.abs(y * ref_s - case["rho"])
    assert gap.min() > 1e-9, "stream has a near-tie at the margin test"
    for Xin in (X, sp.csr_matrix(X)):
        learner = olc.make("norma", **case)
        rec = learner.predict_then_learn(Xin, y, classes=[-1, 1])
        np.testing.assert_array_equal(rec.pred, ref_p)
        np.testing.assert_array_equal(rec.updated, ref_u)
        np.testing.assert_allclose(rec.score, ref_s, rtol=1e-8,
                                   atol=1e-8 * max(1.0, np.abs(ref_s).max()))
        scale = max(np.abs(ref_w).max(), abs(ref_b))
        np.testing.assert_allclose(learner.coef_.ravel(), ref_w, rtol=1e-8, atol=1e-8 * scale)
        assert learner.intercept_[0] == pytest.approx(ref_b, rel=1e-8, abs=1e-8 * scale)
        assert learner.n_steps_ == n and learner.n_updates_ == int(ref_u.sum())


def test_shrink_is_constant_time():
    """A round with σ_t = 0 changes only the scale: the stored vector is untouched."""
    learner = olc.make("norma", eta=0.5, lam=0.1, rho=1.0)
    learner.predict_then_learn(np.array([[1.0, -2.0, 0.5]]), [1], classes=[-1, 1])
    v = learner._vecs.copy()
    coef = learner.coef_.copy()
    rec = learner.predict_then_learn(np.array([[10.0, -20.0, 5.0]]), [1])  # margin ≫ ρ
    assert not rec.updated[0]
    np.testing.assert_array_equal(learner._vecs, v)
    np.testing.assert_allclose(learner.coef_, coef * (1 - 0.5 * 0.1), rtol=1e-15)


def test_sqrt_schedule_counts_rounds_across_batches_and_save_load(tmp_path):
    X, y = make_stream(4, n=120)
    whole = olc.make("norma", schedule="sqrt", eta=0.7, lam=0.05)
    r_whole = whole.predict_then_learn(X, y, classes=[-1, 1])
    part = olc.make("norma", schedule="sqrt", eta=0.7, lam=0.05)
    r1 = part.predict_then_learn(X[:50], y[:50], classes=[-1, 1])
    path = olc.save(part, tmp_path / "norma")
    loaded = olc.load(path)
    r2 = loaded.predict_then_learn(X[50:], y[50:])
    np.testing.assert_array_equal(np.concatenate([r1.score, r2.score]), r_whole.score)
    np.testing.assert_array_equal(loaded.coef_, whole.coef_)
    np.testing.assert_array_equal(loaded.intercept_, whole.intercept_)


def test_first_steps_by_hand():
    """t = 1: f = 0 < ρ: w = η·y·x, b = η·y; t = 2 (η/√2): shrink, then add."""
    learner = olc.make("norma", eta=0.5, lam=0.2, rho=1.0, schedule="sqrt")
    X = np.array([[1.0, 2.0], [0.0, 1.0]])
    rec = learner.predict_then_learn(X, [1, -1], classes=[-1, 1])
    w1, b1 = 0.5 * np.array([1.0, 2.0]), 0.5
    assert rec.score[1] == pytest.approx(w1 @ X[1] + b1)  # 1.5: margin −1.5 < ρ
    eta2 = 0.5 / np.sqrt(2.0)
    w2 = (1 - eta2 * 0.2) * w1 - eta2 * X[1]
    np.testing.assert_allclose(learner.coef_.ravel(), w2, rtol=1e-15)
    assert learner.intercept_[0] == pytest.approx(b1 - eta2, rel=1e-15)


def test_zero_rows_move_only_the_bias():
    learner = olc.make("norma", eta=0.5, lam=0.1)
    learner.predict_then_learn(np.array([[1.0, 1.0]]), [1], classes=[-1, 1])
    coef, b = learner.coef_.copy(), learner.intercept_[0]
    rec = learner.predict_then_learn(np.zeros((1, 2)), [-1])
    assert rec.score[0] == b and rec.updated[0]  # −b < ρ
    np.testing.assert_allclose(learner.coef_, coef * 0.95, rtol=1e-15)
    assert learner.intercept_[0] == b - 0.5
    # Without a bias, a zero row only shrinks w.
    learner = olc.make("norma", eta=0.5, lam=0.1, fit_intercept=False)
    learner.predict_then_learn(sp.csr_matrix((3, 2)), [1, -1, 1], classes=[-1, 1])
    assert not learner.coef_.any() and learner.intercept_[0] == 0.0


def test_rho_zero_stays_at_zero():
    """σ_t = [y·f < ρ] is strict: with ρ = 0 the zero start never moves (documented)."""
    X, y = make_stream(6, n=50)
    learner = olc.make("norma", rho=0.0).fit(X, y)
    assert learner.n_updates_ == 0 and not learner.coef_.any()


@pytest.mark.parametrize("params, match", [
    (dict(eta=0.0), "eta"), (dict(eta=-1.0), "eta"), (dict(lam=-0.1), "lam"),
    (dict(rho=-1.0), "rho"), (dict(eta=2.0, lam=0.5), "eta \\* lam"),
    (dict(schedule="1/t"), "schedule"), (dict(eta=float("inf")), "eta"),
])
def test_hyperparameter_validation(params, match):
    with pytest.raises(InputError, match=match):
        olc.make("norma", **params).fit([[1.0], [2.0]], [0, 1])
