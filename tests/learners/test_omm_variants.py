"""OMM variants (Ho-Nguyen et al. 2025): n-OMM (Algorithm 1, naïve implementation, exact), e-OMM
/ ce-OMM for ℓp norms (§5.1) and the offline exact max-margin solver (Lemma 3.1, Eq. 3).

Yardsticks, written from the paper and independent of olc's code:
  * the hard-margin SVM with bias, min ½‖w‖² s.t. yᵢ(w·xᵢ + b) ≥ 1 (proof of Lemma 3.1),
    solved by cvxpy/Clarabel and polished by solving its KKT equations on the active set
    (plain NumPy), normalized to (w, b)/‖w‖, γ = 1/‖w‖;
  * for ℓp: the same problem with ‖w‖_q (q = p/(p−1), margins in the dual norm) and the
    nearest-point problem Eq. (3) with ‖·‖_p (cvxpy ``pnorm``);
  * per-example reference loops of Algorithm 1 (naïve with the SVM above; efficient ℓp with
    β* of Eq. (7) by plain bisection on the derivative of ‖u − βz‖_p^p).
"""
import warnings

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp

import olc
from olc._compiled.layouts.omm_variants import nomm_capacity
from olc.learners.omm import NonSeparableWarning
from olc.learners.omm_variants import max_margin

_CLARABEL = dict(tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12, tol_ktratio=1e-10,
                 max_iter=500)


def _solve(make):
    """Clarabel at tight tolerances (≈1e-10 here), at its defaults on a fresh problem where
    the tight run fails (a failed cvxpy problem object keeps failing); the SVM references
    are then polished on their active set (``_polish``). ``make()`` builds the problem and
    returns it with a function reading the solution."""
    for options in (_CLARABEL, {}):
        problem, read = make()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)  # "solution may be inaccurate"
                problem.solve(solver=cp.CLARABEL, **options)
        except cp.error.SolverError:
            continue
        if problem.status in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE):
            return read()
    raise AssertionError("the reference solver failed")


# -- references ---------------------------------------------------------------------------

def svm_l2(X, y):
    """Normalized hard-margin SVM (w, b, γ) of the points X with labels y ∈ ±1."""
    X = np.asarray(X, float)
    y = np.asarray(y, float)
    scale = max(np.abs(X).max(), 1.0)
    Xs = X / scale
    def make():
        w = cp.Variable(X.shape[1])
        b = cp.Variable()
        problem = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w)),
                             [cp.multiply(y, Xs @ w + b) >= 1])
        return problem, lambda: (w.value, float(b.value))

    w, b = _polish(Xs, y, *_solve(make))
    nw = np.linalg.norm(w)
    return w / nw, b / nw * scale, scale / nw


def _polish(X, y, w, b):
    """Solve the KKT equations of the SVM on its active set (w = Σ αᵢyᵢxᵢ, Σ αᵢyᵢ = 0,
    yᵢ(w·xᵢ + b) = 1 on the active set); keep the result if it is a KKT point."""
    n, d = X.shape
    act = np.flatnonzero(y * (X @ w + b) <= 1 + 1e-6)
    k = act.size
    A = np.zeros((d + 1 + k, d + 1 + k))
    rhs = np.zeros(d + 1 + k)
    A[:d, :d] = np.eye(d)
    A[:d, d + 1:] = -(y[act, None] * X[act]).T
    A[d, d + 1:] = y[act]
    A[d + 1:, :d] = y[act, None] * X[act]
    A[d + 1:, d] = y[act]
    rhs[d + 1:] = 1.0
    sol = np.linalg.lstsq(A, rhs, rcond=None)[0]
    w2, b2, alpha = sol[:d], sol[d], sol[d + 1:]
    ok = (np.all(alpha >= -1e-9 * max(1.0, np.abs(alpha).max()))
          and np.all(y * (X @ w2 + b2) >= 1 - 1e-9)
          and np.allclose(A @ sol, rhs, atol=1e-9))
    return (w2, b2) if ok else (w, b)


def svm_lp(X, y, p):
    """Normalized max-margin classifier for the ℓp norm: min ‖w‖_q s.t. yᵢ(w·xᵢ + b) ≥ 1;
    returns (w/‖w‖_q, b/‖w‖_q, 1/‖w‖_q)."""
    q = p / (p - 1.0)

    def make():
        w = cp.Variable(X.shape[1])
        b = cp.Variable()
        problem = cp.Problem(cp.Minimize(cp.pnorm(w, q)), [cp.multiply(y, X @ w + b) >= 1])
        return problem, lambda: (w.value, float(b.value))

    w, b = _solve(make)
    nq = np.sum(np.abs(w) ** q) ** (1 / q)
    return w / nq, b / nq, 1.0 / nq


def npp_lp(V_pos, V_neg, p):
    """Eq. (3) in ℓp: min ‖v₊ − v₋‖_p over v± ∈ conv(V±)."""
    V_pos, V_neg = np.atleast_2d(V_pos), np.atleast_2d(V_neg)
    def make():
        lam = cp.Variable(V_pos.shape[0], nonneg=True)
        mu = cp.Variable(V_neg.shape[0], nonneg=True)
        problem = cp.Problem(cp.Minimize(cp.pnorm(V_pos.T @ lam - V_neg.T @ mu, p)),
                             [cp.sum(lam) == 1, cp.sum(mu) == 1])
        return problem, lambda: (V_pos.T @ lam.value, V_neg.T @ mu.value)

    return _solve(make)


def ref_beta(u, z, p):
    """Eq. (7): argmin_{β∈[0,1]} ‖u − βz‖_p by bisection on the (monotone) derivative of
    ‖u − βz‖_p^p, g(β) = −p Σ zᵢ sgn(rᵢ)|rᵢ|^{p−1}, r = u − βz."""
    m = np.max(np.abs(u) + np.abs(z))
    if not np.any(z):
        return 0.0
    u, z = u / m, z / m

    def g(beta):
        r = u - beta * z
        return -np.sum(z * np.sign(r) * np.abs(r) ** (p - 1))

    if g(0.0) >= 0:
        return 0.0
    if g(1.0) <= 0:
        return 1.0
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if g(mid) < 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def ref_nomm(X, y, rho):
    """Algorithm 1, naïve implementation, as a plain loop. Returns (pred, updated, w, b, γ)."""
    preds, upd = [], []
    stored_X, stored_y = [], []
    w = b = gamma = None
    y1 = None
    for x, lab in zip(X, y):
        if y1 is None:  # line 2: predict +1
            preds.append(1)
            upd.append(lab < 0)
            y1 = lab
            stored_X.append(x)
            stored_y.append(lab)
            continue
        if w is None:  # lines 5–8: predict y₁ until the other label
            preds.append(y1)
            if lab != y1:
                stored_X.append(x)
                stored_y.append(lab)
                w, b, gamma = svm_l2(stored_X, stored_y)
            upd.append(lab != y1)
            continue
        s = w @ x + b
        pred = 1 if s >= 0 else -1
        preds.append(pred)
        update = lab * s < rho * gamma or pred != lab
        upd.append(update)
        if update:
            stored_X.append(x)
            stored_y.append(lab)
            w, b, gamma = svm_l2(stored_X, stored_y)
    return np.array(preds), np.array(upd), w, b, gamma


def _lp_classifier(vp, vm, p):
    u = vp - vm
    nu = np.sum(np.abs(u) ** p) ** (1 / p)
    w = np.sign(u) * (np.abs(u) / nu) ** (p - 1)  # ℓ(u) = ∇‖u‖_p
    return w, -0.5 * w @ (vp + vm), nu / 2


def ref_lp(X, y, rho, p):
    """Algorithm 1, efficient implementation, ℓp norm, as a plain loop."""
    preds, upd = [], []
    vp = vm = None
    y1 = None
    w = b = gamma = None
    for x, lab in zip(X, y):
        if y1 is None:
            preds.append(1)
            upd.append(lab < 0)
            y1 = lab
            if lab > 0:
                vp = x.copy()
            else:
                vm = x.copy()
            continue
        if w is None:
            preds.append(y1)
            upd.append(lab != y1)
            if lab != y1:
                if lab > 0:
                    vp = x.copy()
                else:
                    vm = x.copy()
                w, b, gamma = _lp_classifier(vp, vm, p)
            continue
        s = w @ x + b
        pred = 1 if s >= 0 else -1
        preds.append(pred)
        update = lab * s < rho * gamma or pred != lab
        upd.append(update)
        if update:
            u = vp - vm
            z = vp - x if lab > 0 else x - vm
            beta = ref_beta(u, z, p)
            if lab > 0:
                vp = x.copy() if beta >= 1 else (1 - beta) * vp + beta * x
            else:
                vm = x.copy() if beta >= 1 else (1 - beta) * vm + beta * x
            w, b, gamma = _lp_classifier(vp, vm, p)
    return np.array(preds), np.array(upd), w, b, gamma


# -- data ---------------------------------------------------------------------------------

def separable(seed, n, d, margin=0.3, spread=2.0, shift=0.0, sparse_frac=0.0):
    """n points, labels of a random (w*, b*) with |w*·x + b*| ≥ margin; both labels among
    the first two rows; optionally a fraction of the entries zeroed (sparse rows)."""
    rng = np.random.default_rng(seed)
    w = rng.normal(size=d)
    w /= np.linalg.norm(w)
    b = rng.uniform(0.3, 1.0) * rng.choice([-1, 1])
    X, Y = [], []
    while len(X) < n:
        x = rng.normal(size=d) * spread
        if sparse_frac:
            x[rng.random(d) < sparse_frac] = 0.0
        s = w @ x + b
        if abs(s) < margin or (len(X) == 1 and np.sign(s) == Y[0]):
            continue
        X.append(x)
        Y.append(1 if s > 0 else -1)
    return np.array(X) + shift, np.array(Y)


def _rel(a, b):
    a, b = np.atleast_1d(np.asarray(a, float)), np.atleast_1d(np.asarray(b, float))
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-300))


# -- n-OMM --------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("rho", [1.0, 0.5, 0.0])
@pytest.mark.parametrize("layout", ["dense", "csr"])
def test_nomm_matches_reference_loop(seed, rho, layout):
    # zeros in the rows (CSR paths) but in d ≥ 5: in low dimension, points on a coordinate
    # axis make exact ties a_t = γ_t (several support points on one axis-aligned margin)
    X, y = separable([seed, 1], 40, 5 + seed, margin=0.25, sparse_frac=0.2)
    pred, upd, w, b, gamma = ref_nomm(X, y, rho)
    learner = olc.make("n-omm", rho=rho)
    rec = learner.predict_then_learn(sp.csr_matrix(X) if layout == "csr" else X, y,
                                     classes=[-1, 1])
    assert np.array_equal(rec.pred, pred)
    assert np.array_equal(rec.updated, upd)
    assert learner.n_stored_ == 1 + int(upd[1:].sum())  # x₁ and every later update
    assert _rel(learner.coef_[0], w) < 1e-8
    assert abs(learner.intercept_[0] - b) < 1e-8 * max(1.0, abs(b))
    assert _rel(learner.margin_, gamma) < 1e-8


@pytest.mark.parametrize("seed", range(6))
def test_nomm_is_the_svm_of_the_stored_points_after_every_update(seed):
    """After each update, (w, b, γ) is the hard-margin SVM of the stored points (γ within
    1e-8 relative, w and b within 1e-7), and the certificates/weights are Lemma 3.1's."""
    rng = np.random.default_rng([seed, 2])
    d = int(rng.integers(2, 9))
    X, y = separable([seed, 3], 30, d, margin=0.2, shift=rng.normal(size=d) * 3)
    learner = olc.make("n-omm")
    learner.partial_fit(X[:2], y[:2], classes=[-1, 1])
    checked = 0
    for t in range(2, len(y)):
        rec = learner.predict_then_learn(X[t:t + 1], y[t:t + 1])
        if not rec.updated[0]:
            continue
        SX, Sy = learner.stored_points_
        w, b, gamma = svm_l2(SX, Sy)
        assert abs(learner.margin_ - gamma) <= 1e-8 * gamma
        np.testing.assert_allclose(learner.coef_[0], w, atol=1e-7)
        assert abs(learner.intercept_[0] - b) <= 1e-7 * max(1.0, abs(b))
        _assert_certificates(learner, SX, Sy)
        checked += 1
    assert checked >= 3


def _assert_certificates(learner, SX, Sy):
    lam = learner.certificate_weights_
    assert np.all(lam >= 0)
    np.testing.assert_allclose([lam[Sy > 0].sum(), lam[Sy < 0].sum()], [1, 1], rtol=1e-14)
    v_pos, v_neg = learner.certificates_
    scale = np.abs(SX).max()
    np.testing.assert_allclose(v_pos, lam[Sy > 0] @ SX[Sy > 0], atol=1e-12 * scale)
    np.testing.assert_allclose(v_neg, lam[Sy < 0] @ SX[Sy < 0], atol=1e-12 * scale)
    w, b, gamma = learner.coef_[0], learner.intercept_[0], learner.margin_
    u = v_pos - v_neg
    np.testing.assert_allclose(w, u / np.linalg.norm(u), atol=1e-10)
    assert abs(gamma - np.linalg.norm(u) / 2) <= 1e-10 * gamma
    margins = Sy * (SX @ w + b)
    assert margins.min() >= gamma * (1 - 1e-9) - 1e-12 * scale
    support = lam > 0
    np.testing.assert_allclose(margins[support], gamma, rtol=1e-8, atol=1e-11 * scale)


@pytest.mark.parametrize("n,d", [(6, 2), (40, 3), (150, 10), (400, 30), (300, 60)])
def test_max_margin_matches_cvxpy(n, d):
    for seed in range(2):
        X, y = separable([n, d, seed], n, d, margin=0.1, shift=1.5)
        sol = max_margin(X, y)
        w, b, gamma = svm_l2(X, y)
        assert sol.separable
        assert abs(sol.margin - gamma) <= 1e-8 * gamma
        np.testing.assert_allclose(sol.coef, w, atol=1e-7)
        assert abs(sol.intercept - b) <= 1e-7 * max(1.0, abs(b))
        lam = sol.weights
        assert np.all(lam >= 0) and np.array_equal(np.flatnonzero(lam), sol.support)
        np.testing.assert_allclose([lam[y > 0].sum(), lam[y < 0].sum()], [1, 1], rtol=1e-14)
        np.testing.assert_allclose(sol.v_pos, lam[y > 0] @ X[y > 0], atol=1e-11)
        np.testing.assert_allclose(sol.v_neg, lam[y < 0] @ X[y < 0], atol=1e-11)
        u = sol.v_pos - sol.v_neg
        assert abs(np.linalg.norm(u) / 2 - sol.margin) <= 1e-10 * sol.margin
        assert sol.max_violation <= 1e-9 * sol.margin
        assert abs(sol.intercept + 0.5 * sol.coef @ (sol.v_pos + sol.v_neg)) <= 1e-9


def test_max_margin_labels_batches_and_sparse_input():
    X, y = separable(5, 200, 6, margin=0.1)
    ref = max_margin(X, y)
    for batch in (1, 7, 1000):
        sol = max_margin(sp.csr_matrix(X), np.where(y > 0, "yes", "no"), batch=batch)
        assert list(sol.classes) == ["no", "yes"]
        assert abs(sol.margin - ref.margin) <= 1e-12 * ref.margin
        np.testing.assert_allclose(sol.coef, ref.coef, atol=1e-10)


def test_max_margin_non_separable_and_bad_input():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    y = np.array([1, 1, -1, 1])
    X = np.vstack([X, [[0.5, 0.5]]])
    y = np.append(y, -1)  # the centre of the positive triangle's hull: not separable
    with pytest.warns(NonSeparableWarning):
        sol = max_margin(X, y)
    assert not sol.separable and sol.margin == 0.0 and not np.any(sol.coef)
    assert np.isfinite(sol.weights).all()
    with pytest.raises(ValueError):
        max_margin(np.array([[np.nan, 1.0], [0.0, 1.0]]), [1, -1])
    with pytest.raises(ValueError):
        max_margin(np.ones((3, 2)), [1, 1, 1])
    with pytest.raises(ValueError):
        max_margin(np.ones((3, 2)), [1, -1])


def test_nomm_repeated_passes_reach_the_offline_max_margin():
    """Each update stores a violating point, so passes over a finite separable set end (no
    update in a whole pass) with the max-margin classifier of the entire set."""
    X, y = separable(11, 300, 5, margin=0.05)
    learner = olc.make("n-omm")
    stored = []
    for _ in range(20):
        learner.predict_then_learn(X, y, classes=[-1, 1])
        stored.append(learner.n_stored_)
        if len(stored) > 1 and stored[-1] == stored[-2]:
            break
    # (support points come again with a_t = γ_t up to rounding: the update test may fire,
    # but a point already stored is not stored again — V ∪ {x} = V)
    assert stored[-1] == stored[-2] and len(stored) >= 2
    sol = max_margin(X, y)
    assert abs(learner.margin_ - sol.margin) <= 1e-9 * sol.margin
    np.testing.assert_allclose(learner.coef_[0], sol.coef, atol=1e-8)


@pytest.mark.parametrize("name,params", [("n-omm", {}), ("n-omm", {"rho": 0.0}),
                                         ("e-omm-lp", {"p": 3.0}), ("ce-omm-lp", {"p": 1.5})])
def test_translation_invariance(name, params):
    """Remark 3.4: on (xₜ + s, yₜ) the classifiers are (wₜ, bₜ − wₜ·s): identical predictions
    and updates, same w and γ."""
    for seed in range(3):
        X, y = separable([seed, 7], 60, 4, margin=0.3)
        shift = np.random.default_rng(seed).normal(size=4) * 50
        a, b = olc.make(name, **params), olc.make(name, **params)
        ra = a.predict_then_learn(X, y, classes=[-1, 1])
        rb = b.predict_then_learn(X + shift, y, classes=[-1, 1])
        assert np.array_equal(ra.pred, rb.pred) and np.array_equal(ra.updated, rb.updated)
        np.testing.assert_allclose(ra.aux, rb.aux, rtol=1e-9)
        np.testing.assert_allclose(b.coef_, a.coef_, atol=1e-9)
        np.testing.assert_allclose(b.intercept_, a.intercept_ - a.coef_[0] @ shift, atol=1e-8)


@pytest.mark.parametrize("c", [2.01, 2.5, 4.0, 10.0, 50.0, 1000.0])
def test_example_5_1_at_most_two_mistakes(c):
    r = 2.0 / c
    P = np.array([[c, 1.0], [c, -1.0], [c + r, -1.0]])
    L = np.array([1, -1, -1])
    seqs = [np.random.default_rng([seed, int(c * 100)]).integers(0, 3, size=200)
            for seed in range(10)]
    seqs.append(np.tile([0, 2], 100))  # the perceptron killer
    for idx in seqs:
        for rho in (1.0, 0.0):
            learner = olc.make("n-omm", rho=rho)
            rec = learner.predict_then_learn(P[idx], L[idx], classes=[-1, 1])
            assert np.count_nonzero(rec.pred != L[idx]) <= 2
            assert learner.n_stored_ <= 3  # a point already stored is not stored again


def test_nomm_buffer_grows_and_resumes_exactly():
    """More updates than the initial buffer: the loop stops, the buffer doubles, the row is
    re-run; the result equals the reference and survives save/load mid-stream."""
    X, y = separable(21, 400, 10, margin=0.01)
    whole = olc.make("n-omm")
    rec = whole.predict_then_learn(X, y, classes=[-1, 1])
    assert whole.n_stored_ > 32  # the buffer of 16 doubled twice
    pred, upd, w, b, gamma = ref_nomm(X[:80], y[:80], 1.0)
    assert sum(upd) > 16
    assert np.array_equal(rec.pred[:80], pred) and np.array_equal(rec.updated[:80], upd)
    pieces = olc.make("n-omm")
    parts = [pieces.predict_then_learn(X[a:a + 13], y[a:a + 13], classes=[-1, 1])
             for a in range(0, 400, 13)]
    assert np.array_equal(np.concatenate([p.score for p in parts]), rec.score)
    assert np.array_equal(pieces._vecs, whole._vecs) and np.array_equal(pieces._scal,
                                                                         whole._scal)


def test_nomm_growth_out_of_memory_stops_the_stream_with_a_clear_error(monkeypatch):
    """When the buffer cannot double (high d: dense rows of d + 2 floats), the call stops with
    a StreamStoppedError naming the row and the memory needed; the rows before it stay
    learned, exactly as in a run that had the memory."""
    from olc._compiled.layouts import omm_variants as layouts

    X, y = separable(21, 400, 10, margin=0.01)
    whole = olc.make("n-omm")
    rec = whole.predict_then_learn(X, y, classes=[-1, 1])

    def no_memory(vecs, scal):
        raise MemoryError("simulated")

    monkeypatch.setattr(layouts, "grow_nomm", no_memory)
    learner = olc.make("n-omm")
    with pytest.raises(olc.learners.StreamStoppedError) as info:
        learner.predict_then_learn(X, y, classes=[-1, 1])
    err = info.value
    assert "d + 2 = 12 floats" in str(err) and "from 16 to 32 stored points" in str(err)
    assert f"row {err.row}" in str(err) and "GiB" in str(err)
    assert learner.n_stored_ == 16 and learner.n_steps_ == err.rows_learned
    assert np.array_equal(err.record.pred, rec.pred[:err.rows_learned])
    assert err.record.updated.sum() == 16 and rec.updated[err.rows_learned]
    # The state is exactly that after the last learned row (no request to grow left behind).
    ref = olc.make("n-omm")
    ref.predict_then_learn(X[:err.rows_learned], y[:err.rows_learned], classes=[-1, 1])
    _assert_same_state(learner, ref)


# -- degenerate geometry ------------------------------------------------------------------

def _run_quiet(learner, X, y):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with np.errstate(all="raise"):
            rec = learner.predict_then_learn(X, y, classes=[-1, 1])
    return rec, [w for w in caught if issubclass(w.category, NonSeparableWarning)]


def _assert_same_state(learner, ref):
    for attr in ("_vecs", "_ints", "_scal", "n_steps_", "n_updates_"):
        got, want = np.asarray(getattr(learner, attr)), np.asarray(getattr(ref, attr))
        assert got.dtype == want.dtype and got.shape == want.shape, attr
        assert got.tobytes() == want.tobytes(), attr


def _assert_finite(learner, rec):
    for arr in (rec.score, rec.aux, learner.coef_, learner.intercept_, learner._vecs,
                learner._scal):
        assert np.isfinite(arr).all()


ALL = [("n-omm", {}), ("e-omm-lp", {"p": 3.0}), ("e-omm-lp", {"p": 1.2}),
       ("ce-omm-lp", {"p": 7.0})]


@pytest.mark.parametrize("name,params", ALL)
def test_duplicate_and_collinear_points(name, params):
    rng = np.random.default_rng(3)
    # collinear: every point on the line t·(1, 2, −1) + (0, 1, 0), labels by the sign of t
    t = rng.choice([-3.0, -2.0, -1.5, -1.0, 1.0, 2.0, 2.5], size=80)
    X = t[:, None] * np.array([1.0, 2.0, -1.0]) + np.array([0.0, 1.0, 0.0])
    y = np.where(t > 0, 1, -1)
    learner = olc.make(name, **params)
    rec, warned = _run_quiet(learner, X, y)
    _assert_finite(learner, rec)
    assert not warned and learner.margin_ > 0
    assert np.array_equal(np.sign(learner.decision_function(X)), y)
    if name == "n-omm":
        sol = max_margin(X, y)  # the separation of t = −1 and t = 1: γ = ‖(1, 2, −1)‖
        assert abs(sol.margin - np.sqrt(6)) <= 1e-12 * np.sqrt(6)
        assert abs(learner.margin_ - sol.margin) <= 1e-12 * sol.margin
        assert learner.n_stored_ <= 7


@pytest.mark.parametrize("name,params", ALL)
def test_point_seen_with_both_labels(name, params):
    """n-OMM stores the second copy (it is a mistake or inside the margin): the stored
    points are not separable, the classifier collapses to w = 0, b = 0 (predicts +1) for
    good, with one warning. The efficient variants collapse only if their certificates
    coincide (they summarize the past, as e-OMM); either way nothing is NaN."""
    X, y = separable(4, 30, 3)
    X = np.vstack([X, X[5], X[5:]])
    y = np.concatenate([y, [-y[5]], y[5:]])
    learner = olc.make(name, **params)
    rec, warned = _run_quiet(learner, X, y)
    _assert_finite(learner, rec)
    if name != "n-omm":
        assert len(warned) == (learner.margin_ == 0.0)
        return
    assert len(warned) == 1
    assert learner.margin_ == 0.0 and not learner.coef_.any() and learner.intercept_[0] == 0
    assert np.all(learner.predict(X) == 1)
    after = rec.pred[31:]
    assert np.all(after == 1) and np.array_equal(rec.updated[31:], y[31:] < 0)


@pytest.mark.parametrize("name,params", ALL)
def test_first_two_points_equal_with_both_labels(name, params):
    X = np.array([[1.0, 2.0], [1.0, 2.0], [3.0, 1.0], [0.0, 0.0]])
    y = np.array([1, -1, 1, -1])
    learner = olc.make(name, **params)
    rec, warned = _run_quiet(learner, X, y)
    _assert_finite(learner, rec)
    assert len(warned) == 1 and learner.margin_ == 0.0
    assert list(rec.pred) == [1, 1, 1, 1]


def test_nomm_non_separable_cloud_collapses_without_nan():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(200, 4))
    y = np.where(rng.random(200) < 0.5, 1, -1)
    learner = olc.make("n-omm")
    rec, warned = _run_quiet(learner, X, y)
    _assert_finite(learner, rec)
    assert len(warned) == 1 and learner.margin_ == 0.0


SCALE_FREE = ALL + [("e-omm", {}), ("ce-omm", {}), ("n-omm", {"store": "all"})]


@pytest.mark.parametrize("name,params", SCALE_FREE)
def test_subnormal_input_is_learned_without_nan(name, params):
    """X × 1e-320 is finite (subnormal, ~11 significant bits): olc 0.1.0's n-OMM stopped on
    it with an overflow and left NaN in coef_. Every row is learned and the state is finite;
    n-OMM, whose stored problem is built from differences x − x₁ (exact for subnormals) in
    units fixed by the data, runs exactly as on the quantized data scaled up by 2^1000.
    (The efficient rules multiply x by the state in a dot product: subnormal products
    round, so they learn the data only to its ~11 bits.)"""
    X, y = separable(6, 60, 3)
    tiny = X * 1e-320
    learner = olc.make(name, **params)
    rec, _ = _run_quiet(learner, tiny, y)  # no StreamStoppedError
    _assert_finite(learner, rec)
    assert rec.updated.sum() > 2 and learner.margin_ > 0
    assert np.isfinite(learner.decision_function(tiny)).all()
    if name == "n-omm":
        up = olc.make(name, **params)
        rec_up, _ = _run_quiet(up, tiny * 2.0 ** 1000, y)
        assert np.array_equal(rec.pred, rec_up.pred)
        assert np.array_equal(rec.updated, rec_up.updated)
        assert np.array_equal(learner.coef_, up.coef_)


@pytest.mark.parametrize("name,params", SCALE_FREE)
def test_state_after_a_stopped_stream_is_the_state_after_its_last_learned_row(name, params):
    """Rows whose magnitudes differ by up to 2^2000 (and inf/NaN rows): a row the rule
    cannot take stops the stream; the learner's state is then exactly the state of a learner
    given only the rows before it, never NaN."""
    stopped = 0
    for seed in range(12):
        rng = np.random.default_rng([seed, 77])
        X, y = separable([seed, 77], 40, 3)
        X = X * 2.0 ** rng.integers(-1000, 1000, size=(40, 1))
        if seed % 3 == 0:
            X[rng.integers(5, 40), rng.integers(3)] = [np.nan, np.inf][seed % 2]
        learner = olc.make(name, **params)
        try:
            _run_quiet(learner, X, y)
        except olc.learners.StreamStoppedError as err:
            stopped += 1
            if err.rows_learned == 0:
                assert not learner._is_initialised()
                continue
            ref = olc.make(name, **params)
            _run_quiet(ref, X[:err.rows_learned], y[:err.rows_learned])
            _assert_same_state(learner, ref)
        for arr in (learner._vecs, learner._scal, learner.coef_, learner.intercept_):
            assert np.isfinite(arr).all()
    assert stopped >= 4


@pytest.mark.parametrize("name,params", ALL)
def test_zero_rows_and_extreme_scales(name, params):
    rng = np.random.default_rng(9)
    for scale in (1e-150, 1e-20, 1.0, 1e20, 1e100):
        X, y = separable([int(np.log10(scale)) + 200, 1], 40, 3)
        X[::7] = 0.0
        keep = np.abs(X[:, 0]) > 0  # keep labels consistent with a separable set
        X, y = X[keep] * scale, y[keep]
        X = np.vstack([np.zeros((1, 3)), X])
        y = np.append(rng.choice([-1, 1]), y)
        learner = olc.make(name, **params)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NonSeparableWarning)
            rec = learner.predict_then_learn(X, y, classes=[-1, 1])
        _assert_finite(learner, rec)
        assert np.isfinite(learner.decision_function(X)).all()


# -- ℓp e-OMM -----------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("rho", [1.0, 0.5, 0.0])
@pytest.mark.parametrize("layout", ["dense", "csr"])
def test_lp_p2_is_e_omm(seed, rho, layout):
    X, y = separable([seed, 5], 120, 5, margin=0.2, sparse_frac=0.3)
    Xin = sp.csr_matrix(X) if layout == "csr" else X
    lp = olc.make("e-omm-lp", p=2.0, rho=rho)
    l2 = olc.make("e-omm", rho=rho)
    r1 = lp.predict_then_learn(Xin, y, classes=[-1, 1])
    r2 = l2.predict_then_learn(Xin, y, classes=[-1, 1])
    assert np.array_equal(r1.pred, r2.pred) and np.array_equal(r1.updated, r2.updated)
    np.testing.assert_allclose(r1.score, r2.score, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(lp.coef_, l2.coef_, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(lp.intercept_, l2.intercept_, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(lp.margin_, l2.margin_, rtol=1e-12)
    for a, b in zip(lp.certificates_, l2.certificates_):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("p", [1.3, 1.5, 3.0, 6.0])
@pytest.mark.parametrize("rho", [1.0, 0.0])
@pytest.mark.parametrize("layout", ["dense", "csr"])
def test_lp_matches_reference_loop(p, rho, layout):
    for seed in range(2):
        X, y = separable([seed, 9, int(p * 10)], 80, 4, margin=0.3, sparse_frac=0.25)
        pred, upd, w, b, gamma = ref_lp(X, y, rho, p)
        learner = olc.make("e-omm-lp", p=p, rho=rho)
        rec = learner.predict_then_learn(sp.csr_matrix(X) if layout == "csr" else X, y,
                                         classes=[-1, 1])
        assert np.array_equal(rec.pred, pred) and np.array_equal(rec.updated, upd)
        assert _rel(learner.coef_[0], w) < 1e-8
        assert abs(learner.intercept_[0] - b) < 1e-8 * max(1.0, abs(b))
        assert _rel(learner.margin_, gamma) < 1e-8
        # ‖w‖_q = 1 and the certificates sit on the margin (Lemma 3.1)
        q = p / (p - 1)
        assert abs(np.sum(np.abs(learner.coef_[0]) ** q) ** (1 / q) - 1) < 1e-12
        v_pos, v_neg = learner.certificates_
        np.testing.assert_allclose(learner.decision_function(np.vstack([v_pos, v_neg])),
                                   [gamma, -gamma], rtol=1e-9)


@pytest.mark.parametrize("p", [1.25, 1.5, 3.0, 4.0])
def test_lp_three_point_step_vs_cvxpy(p):
    """One update = the max-margin problem on {v₊, v₋, x} in ℓp: the new certificates are
    the nearest points of Eq. (3) and (w, b, γ) the normalized ℓq-SVM."""
    checked = 0
    for seed in range(6):
        rng = np.random.default_rng([seed, int(p * 100)])
        d = int(rng.integers(2, 6))
        X, y = separable([seed, 13], 12, d, margin=0.3)
        learner = olc.make("e-omm-lp", p=p)
        learner.partial_fit(X, y, classes=[-1, 1])
        v_pos, v_neg = (v.copy() for v in learner.certificates_)
        w, b = learner.coef_[0], learner.intercept_[0]
        mid = 0.5 * (v_pos + v_neg)
        x = mid + rng.normal(size=d) * 2.0
        lab = -1 if w @ x + b >= 0 else 1  # a mistake: always an update
        learner.partial_fit(x[None, :], [lab])
        if lab > 0:
            p_ref, q_ref = npp_lp(np.vstack([v_pos, x]), v_neg, p)
        else:
            p_ref, q_ref = npp_lp(v_pos, np.vstack([v_neg, x]), p)
        new_pos, new_neg = learner.certificates_
        scale = max(np.abs(np.vstack([v_pos, v_neg, x])).max(), 1.0)
        np.testing.assert_allclose(new_pos, p_ref, atol=1e-6 * scale)
        np.testing.assert_allclose(new_neg, q_ref, atol=1e-6 * scale)
        w_ref, b_ref, g_ref = svm_lp(np.vstack([v_pos, v_neg, x]), np.array([1, -1, lab]), p)
        assert abs(learner.margin_ - g_ref) <= 1e-6 * g_ref
        np.testing.assert_allclose(learner.coef_[0], w_ref, atol=1e-5)
        assert abs(learner.intercept_[0] - b_ref) <= 1e-5 * max(1.0, abs(b_ref))
        checked += 1
    assert checked == 6


def _beta_extended(u, z, p):
    """Eq. (7)'s β* by bisection in extended precision (x87 long double, 64-bit mantissa)
    on the derivative of ‖u − βz‖_p^p: the referee for a double-precision search."""
    ld = np.longdouble
    m = np.max(np.abs(u) + np.abs(z))
    u, z, p = u.astype(ld) / ld(m), z.astype(ld) / ld(m), ld(p)

    def h(beta):
        r = u - beta * z
        return np.sum(z * np.sign(r) * np.abs(r) ** (p - 1))

    if not np.any(z) or h(ld(0)) <= 0:
        return 0.0
    if h(ld(1)) >= 0:
        return 1.0
    lo, hi = ld(0), ld(1)
    for _ in range(80):
        mid = (lo + hi) / 2
        if h(mid) > 0:
            lo = mid
        else:
            hi = mid
    return float((lo + hi) / 2)


def test_lp_beta_full_precision():
    """β* from the compiled search equals the extended-precision root to within what double
    precision can resolve: a few ulps, plus the rounding noise of the derivative divided by
    its slope (the root's condition; near-flat derivatives for large p)."""
    from olc._compiled.rules.omm_lp import lp_beta

    rng = np.random.default_rng(17)
    kinds = set()
    eps = np.finfo(float).eps
    for trial in range(400):
        d = int(rng.integers(1, 12))
        p = float(rng.choice([1.05, 1.3, 1.5, 2.0, 2.5, 4.0, 10.0, 40.0]))
        u = rng.normal(size=d) * 10.0 ** rng.integers(-5, 5)
        z = rng.normal(size=d) * 10.0 ** rng.integers(-5, 5)
        if trial % 5 == 0:
            z[: d // 2] = 0.0
        if trial % 3 == 0 and d > 1:
            z[0] = u[0] / rng.uniform(0.05, 0.95)  # r₀ = 0 inside (0, 1): a kink for p < 2
        if trial % 7 == 0 and p <= 4:
            z = u * rng.uniform(0.2, 3.0)  # collinear: the optimum makes r = 0 exactly
        beta = lp_beta(u, z, p, d)
        ref = _beta_extended(u, z, p)
        m = np.max(np.abs(u) + np.abs(z))
        t, zeta = (u - ref * z) / m, z / m
        scale_h = np.sum(np.abs(zeta) * np.abs(t) ** (p - 1))
        with np.errstate(divide="ignore"):
            slope = (p - 1) * np.sum(zeta ** 2 * np.abs(t) ** (p - 2))
        noise = scale_h / slope if scale_h > 0 else 0.0  # 0/0: every rᵢ = 0 at the root
        tol = 8 * eps * ref + 8 * eps * np.sqrt(d) * noise
        assert abs(beta - ref) <= tol, (trial, p, beta, ref, tol)
        kinds.add("0" if beta == 0 else "1" if beta == 1 else "interior")
    assert kinds == {"0", "1", "interior"}


def test_hyperparameters_are_validated_and_read_each_call():
    X, y = separable(1, 30, 3)
    for bad in (1.0, 0.5, np.inf, np.nan, "x", None):
        with pytest.raises(ValueError, match="'p' parameter of EfficientOMMLp must"):
            olc.make("e-omm-lp", p=bad).fit(X, y)
    for name in ("n-omm", "e-omm-lp"):
        for bad in (-0.1, 1.5, "x"):
            with pytest.raises(ValueError, match="rho"):
                olc.make(name, rho=bad).fit(X, y)
    a = olc.make("ce-omm-lp").partial_fit(X[:15], y[:15], classes=[-1, 1])
    b = olc.make("ce-omm-lp", p=4.0)
    b.set_params(p=2)
    b.partial_fit(X[:15], y[:15], classes=[-1, 1])
    b.set_params(p=4.0)
    a.set_params(p=4.0)
    ra, rb = a.predict_then_learn(X[15:], y[15:]), b.predict_then_learn(X[15:], y[15:])
    assert np.array_equal(ra.score, rb.score)
    ref = olc.make("ce-omm-lp", p=2).partial_fit(X[:15], y[:15], classes=[-1, 1])
    assert not np.array_equal(ref.predict_then_learn(X[15:], y[15:]).score, ra.score) or \
        not ra.updated.any()


def test_registry_entries():
    names = {e.name: e for e in olc.algorithms()}
    assert names["n-omm"].parameters == {"rho": 1.0, "store": "updates", "n_jobs": None}
    assert names["e-omm-lp"].parameters == {"p": 2, "rho": 1.0, "n_jobs": None}
    assert names["ce-omm-lp"].parameters == {"p": 2, "n_jobs": None}
    assert olc.learners.name_of(olc.make("e-omm-lp", p=3.0, rho=0.0)) == "ce-omm-lp"


# -- n-OMM, store="all" (§3 text, line 125; §6) ------------------------------------------

def ref_nomm_all(X, y, rho):
    """The §3 reading of the naïve implementation as a plain loop: at each row predict with
    the current classifier, add the point to the stored *set*, and re-solve the SVM of the
    stored set when the update test fired (a_t < ρ·γ_t, a mistake, or the second label's
    arrival). Returns (pred, updated, w, b, γ, number of distinct stored points, a_t − ρ·γ_t
    per row: ties, e.g. a repeated support point, decide the test by rounding)."""
    preds, upd, slack = [], [], []
    stored = {}  # (label, row bytes) -> row: V₊ ∪ V₋ as a set
    w = b = gamma = None
    y1 = None
    for x, lab in zip(X, y):
        key = (int(lab), np.asarray(x, float).tobytes())
        if y1 is None:
            pred, fired = 1, lab < 0
            y1 = lab
            slack.append(np.inf)
        elif w is None:
            pred, fired = y1, lab != y1
            slack.append(np.inf)
        else:
            s = w @ x + b
            pred = 1 if s >= 0 else -1
            fired = lab * s < rho * gamma or pred != lab
            slack.append(lab * s - rho * gamma)
        preds.append(pred)
        upd.append(fired)
        stored.setdefault(key, (np.asarray(x, float), lab))
        labels = {k[0] for k in stored}
        if fired and len(labels) == 2:
            SX = np.array([v[0] for v in stored.values()])
            Sy = np.array([v[1] for v in stored.values()])
            w, b, gamma = svm_l2(SX, Sy)
    return (np.array(preds), np.array(upd), w, b, gamma, len(stored), np.array(slack))


def _first_rows_one_label(X, y, k):
    """The stream reordered so that its first k rows all have the first row's label."""
    same = np.flatnonzero(y == y[0])[:k]
    rest = np.setdiff1d(np.arange(len(y)), same)
    order = np.concatenate([same, rest])
    return X[order], y[order]


def _check_is_max_margin(learner, X, y):
    mm = olc.max_margin(X, y)
    assert mm.separable
    assert _rel(learner.coef_[0], mm.coef) <= 1e-8
    assert abs(learner.intercept_[0] - mm.intercept) <= 1e-8 * max(1.0, abs(mm.intercept))
    assert _rel(learner.margin_, mm.margin) <= 1e-8


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("layout", ["dense", "csr"])
@pytest.mark.parametrize("first_same", [0, 12])
def test_nomm_store_all_one_pass_is_the_offline_max_margin(seed, layout, first_same):
    """§6: with every point stored and ρ = 1, the last classifier of one pass is the offline
    max-margin classifier of the whole stream — also when the first rows share a label
    (they are stored before the second label arrives)."""
    from olc.data.synthetic import separable as synth

    rng = np.random.default_rng([seed, 9])
    d = int(rng.integers(2, 12))
    X, y = synth(300, d, margin=0.02, offset=rng.normal(size=d) * 3, seed=seed)
    if first_same:
        X, y = _first_rows_one_label(X, y, first_same)
    learner = olc.make("n-omm", store="all")
    rec = learner.predict_then_learn(sp.csr_matrix(X) if layout == "csr" else X, y,
                                     classes=[-1, 1])
    _check_is_max_margin(learner, X, y)
    assert learner.n_stored_ == len(y)
    assert rec.updated.sum() < len(y)  # points with a_t ≥ γ_t are stored without a solve


def test_nomm_store_all_matches_cvxpy_and_fixes_the_updates_gap():
    """Against cvxpy directly (not olc.max_margin); and a stream where store="updates" ends
    off the max margin of all points (a skipped point later inside the margin) while
    store="all" does not."""
    found_gap = False
    for seed in range(8):
        X, y = separable([seed, 31], 60, 4, margin=0.05, shift=2.0)
        w, b, gamma = svm_l2(X, y)
        a = olc.make("n-omm", store="all").fit(X, y)
        assert abs(a.margin_ - gamma) <= 1e-8 * gamma
        np.testing.assert_allclose(a.coef_[0], w, atol=1e-7)
        assert abs(a.intercept_[0] - b) <= 1e-7 * max(1.0, abs(b))
        u = olc.make("n-omm").fit(X, y)
        found_gap |= u.margin_ > gamma * (1 + 1e-6)  # stored set's margin above the true one
    assert found_gap


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("rho", [1.0, 0.5, 0.0])
@pytest.mark.parametrize("layout", ["dense", "csr"])
def test_nomm_store_all_matches_reference_loop(seed, rho, layout):
    X, y = separable([seed, 5], 40, 5 + seed, margin=0.25, sparse_frac=0.2)
    X, y = _first_rows_one_label(X, y, 4)
    X = np.vstack([X, X[:6]])  # repeated points: stored once
    y = np.concatenate([y, y[:6]])
    pred, upd, w, b, gamma, n_distinct, slack = ref_nomm_all(X, y, rho)
    learner = olc.make("n-omm", rho=rho, store="all")
    rec = learner.predict_then_learn(sp.csr_matrix(X) if layout == "csr" else X, y,
                                     classes=[-1, 1])
    assert np.array_equal(rec.pred, pred)
    clear = np.abs(slack) > 1e-7  # a repeated support point has a_t = γ_t (ρ = 1)
    assert np.array_equal(rec.updated[clear], upd[clear]) and clear[:40].all()
    assert learner.n_stored_ == n_distinct == 40
    assert _rel(learner.coef_[0], w) < 1e-8
    assert abs(learner.intercept_[0] - b) < 1e-8 * max(1.0, abs(b))
    assert _rel(learner.margin_, gamma) < 1e-8


def test_nomm_store_all_buffer_grows_on_non_update_rows(tmp_path):
    """The buffer (16) fills on rows that are not updates — before the second label too —
    and doubles; chunked calls, CSR input and save/load mid-stream give the same state."""
    X, y = separable(23, 300, 6, margin=0.05)
    X, y = _first_rows_one_label(X, y, 40)  # 40 > 16 first-label rows: growth in phase 1
    whole = olc.make("n-omm", store="all")
    with olc.strict_mode():  # CSR and dense scores bit-identical (state is in any mode)
        rec = whole.predict_then_learn(X, y, classes=[-1, 1])
    assert rec.pred[0] == 1 and np.all(rec.pred[1:40] == y[0])  # lines 2 and 6
    assert whole.n_stored_ == 300 and nomm_capacity(whole._scal) == 512  # 16 → 512
    assert rec.updated[40:].sum() < 300 - 40 - 16  # most stored rows were not updates
    _check_is_max_margin(whole, X, y)
    csr = olc.make("n-omm", store="all")
    with olc.strict_mode():
        rc = csr.predict_then_learn(sp.csr_matrix(X), y, classes=[-1, 1])
    assert np.array_equal(rc.score, rec.score)
    assert np.array_equal(csr._vecs, whole._vecs) and np.array_equal(csr._scal, whole._scal)
    pieces = olc.make("n-omm", store="all")
    scores = []
    for a in range(0, 300, 13):
        if a == 130:
            path = olc.save(pieces, tmp_path / "mid")
            pieces = olc.load(path)
            assert pieces.store == "all"
        with olc.strict_mode():
            scores.append(pieces.predict_then_learn(X[a:a + 13], y[a:a + 13],
                                                    classes=[-1, 1]).score)
    assert np.array_equal(np.concatenate(scores), rec.score)
    assert np.array_equal(pieces._vecs, whole._vecs) and np.array_equal(pieces._scal,
                                                                         whole._scal)


def test_nomm_store_all_non_finite_row_leaves_the_state_untouched():
    X, y = separable(3, 50, 4, margin=0.2)
    X, y = _first_rows_one_label(X, y, 3)
    for at in (2, 30):  # before the second label, and after
        learner = olc.make("n-omm", store="all")
        learner.predict_then_learn(X[:at], y[:at], classes=[-1, 1])
        bad = X[at:at + 5].copy()
        bad[1, 2] = np.nan
        with pytest.raises(olc.learners.StreamStoppedError) as info:
            learner.predict_then_learn(bad, y[at:at + 5])
        assert info.value.rows_learned == 1
        ref = olc.make("n-omm", store="all")
        ref.predict_then_learn(X[:at + 1], y[:at + 1], classes=[-1, 1])
        assert np.array_equal(learner._vecs, ref._vecs)
        assert np.array_equal(learner._scal, ref._scal)


@pytest.mark.parametrize("bad", ["All", "every", None, 1, ""])
def test_nomm_store_is_validated(bad):
    X, y = separable(1, 30, 3)
    with pytest.raises(ValueError, match="'store' parameter of NaiveOMM must be a str among"):
        olc.make("n-omm", store=bad).fit(X, y)
    assert olc.make("n-omm").store == "updates"
