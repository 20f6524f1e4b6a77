"""The OMM paper's large-margin baselines: ROMMA, aggressive ROMMA (Li & Long 2002), ALMA₂
(Gentile 2001) and PUMMA, p = 2 (Ishibashi, Hatano & Takeda 2008).

- Independent references: a plain NumPy loop per algorithm, written from the papers'
  equations on explicitly augmented vectors (x̃ = (x, −D̄) for ROMMA, x̂ = (x, 1)/‖(x, 1)‖
  for ALMA, PUMMA's QP by enumerating the candidate solutions of its active sets), against
  which the compiled learners must give the same per-step predictions and update flags and
  final weights within 1e-8 relative — on dense and CSR input, compared up to the first round
  whose decision value is within rounding of a threshold (none on these streams, asserted).
- Closed forms against a QP solver (cvxpy/Clarabel): every ROMMA/aggressive ROMMA update
  (min ‖w‖² s.t. w·w_t ≥ ‖w_t‖², y·w·x̃ ≥ 1) and every PUMMA update (min ½‖w‖² over (w, b)
  s.t. w·p + b ≥ 1, w·n + b ≤ −1, w·w_t ≥ ‖w_t‖²) on random streams, including aggressive
  ROMMA's single-constraint case.
- PUMMA's translation invariance (Ho-Nguyen et al. 2025, App. B.5) as a property test.
- Degenerate geometry: x = 0, collinear points, infeasible constraint sets, non-separable
  streams — the documented behaviour, never NaN.
"""
import math

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import olc
from olc._compiled.layouts.margin import AlmaScal
from olc.persistence import v0_1_0
from _legacy_fixtures import expected as legacy_expected, fitted_from, legacy_file

# -- helpers -------------------------------------------------------------------------------------

_CLARABEL = dict(tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12, tol_ktratio=1e-10,
                 max_iter=500)
TIE = 1e-9  # a decision value this close (relative) to a threshold is a near-tie


def _solve(problem):
    problem.solve(solver=cp.CLARABEL, **_CLARABEL)
    assert problem.status == cp.OPTIMAL, problem.status


def _pm(y):
    return np.where(np.asarray(y) == 1, 1.0, -1.0)


def _stream(seed, n=150, d=8, density=1.0, noise=0.0, offset=0.0, margin=0.0):
    """Gaussian rows (a fraction ``density`` of entries nonzero), labels of a random
    hyperplane with bias, points within ``margin`` of it dropped, a fraction ``noise`` of
    labels flipped, then every row shifted by ``offset``·(a random unit vector) on its
    support (so sparse rows stay sparse)."""
    rng = np.random.default_rng([seed, 3002])
    X = rng.standard_normal((4 * n, d)) * (rng.random((4 * n, d)) < density)
    w = rng.standard_normal(d)
    w /= np.linalg.norm(w)
    f = X @ w + 0.2
    keep = np.abs(f) > margin
    X, f = X[keep][:n], f[keep][:n]
    y = (f > 0).astype(int)
    flip = rng.random(len(y)) < noise
    y[flip] = 1 - y[flip]
    if offset:
        u = rng.standard_normal(d)
        u *= offset / np.linalg.norm(u)
        X = np.where(X != 0, X + u, 0.0)
    X = X + 0.0  # no −0.0 entries
    y[0], y[1] = 1, 0
    return X, y


def _layouts(X):
    return [("dense", X), ("csr", sp.csr_matrix(X))]


def _first_tie(values_and_thresholds):
    """Index of the first round whose value is within TIE (relative) of its threshold."""
    for i, (v, thr, scale) in enumerate(values_and_thresholds):
        if abs(v - thr) <= TIE * max(1.0, abs(scale)):
            return i
    return None


def _assert_same_run(record, ref, ties, coef, intercept, what):
    """Same predictions and update flags as the reference (up to the first near-tie, asserted
    absent on the streams used) and final weights within 1e-8 relative."""
    assert ties is None, f"{what}: a near-tie at round {ties}; choose another stream"
    np.testing.assert_array_equal(record.pred, ref["pred"], err_msg=f"{what}: predictions")
    np.testing.assert_array_equal(record.updated, ref["updated"], err_msg=f"{what}: updates")
    w_ref = np.append(ref["coef"], ref["intercept"])
    w = np.append(coef.ravel(), intercept)
    scale = np.abs(w_ref).max()
    np.testing.assert_allclose(w, w_ref, rtol=1e-8, atol=1e-8 * scale, err_msg=what)
    np.testing.assert_allclose(record.score, ref["score"], rtol=1e-8,
                               atol=1e-8 * np.abs(ref["score"]).max(), err_msg=what)


# -- independent references (plain NumPy, from the papers) ---------------------------------------

def ref_romma(X, y, aggressive, D_bar=None):
    """Li & Long (2002): w₁ = 0; on y·w·x̃ ≤ 0 (ROMMA) or < 1 (aggressive):
    w ← y·x̃/‖x̃‖² if y·w·x̃ ≥ ‖w‖²‖x̃‖² (only y·w·x̃ ≥ 1 active), else
    w ← c·w + d·x̃, c = (‖x̃‖²‖w‖² − y·w·x̃)/D, d = ‖w‖²(y − w·x̃)/D, D = ‖x̃‖²‖w‖² − (w·x̃)²."""
    X = np.asarray(X, dtype=float)
    if D_bar is not None:
        X = np.hstack([X, np.full((X.shape[0], 1), -D_bar)])
    w = np.zeros(X.shape[1])
    out = {"pred": [], "score": [], "updated": []}
    ties = []
    for x, label in zip(X, _pm(y)):
        s = float(w @ x)
        out["pred"].append(1 if s >= 0 else -1)
        out["score"].append(s)
        m = label * s
        if w.any():  # w = 0 gives an exact 0, not a rounding-sensitive tie
            scale = np.linalg.norm(w) * np.linalg.norm(x)
            ties.append((s, 0.0, scale))
            ties.append((m, 1.0 if aggressive else 0.0, scale))
        update = m < 1.0 if aggressive else m <= 0.0
        xx, ww = float(x @ x), float(w @ w)
        if update and xx > 0.0:
            if m >= ww * xx:
                w = label * x / xx
            else:
                den = xx * ww - s * s
                assert den > 1e-9 * xx * ww, "degenerate round in a reference stream"
                c = (xx * ww - m) / den
                d = ww * (label - s) / den
                w = c * w + d * x
        out["updated"].append(bool(update and xx > 0.0))
    out = {k: np.array(v) for k, v in out.items()}
    if D_bar is not None:
        out["coef"], out["intercept"] = w[:-1], -D_bar * w[-1]
    else:
        out["coef"], out["intercept"] = w, 0.0
    return out, _first_tie(ties)


def ref_alma(X, y, alpha=0.7, B=None, C=math.sqrt(2.0), fit_intercept=True):
    """Gentile (2001), Fig. 1, p = 2: x̂ = x̃/‖x̃‖, γ_k = B/√k; if y·w·x̂ ≤ (1 − α)γ_k:
    w ← w + (C/√k)·y·x̂, w ← w/max(1, ‖w‖), k ← k + 1."""
    B = math.sqrt(8.0) / alpha if B is None else B
    X = np.asarray(X, dtype=float)
    if fit_intercept:
        X = np.hstack([X, np.ones((X.shape[0], 1))])
    w = np.zeros(X.shape[1])
    k = 1
    out = {"pred": [], "score": [], "updated": []}
    ties = []
    for x, label in zip(X, _pm(y)):
        s = float(w @ x)
        out["pred"].append(1 if s >= 0 else -1)
        out["score"].append(s)
        nx = np.linalg.norm(x)
        upd = False
        if nx > 0:
            xh = x / nx
            gamma = B / math.sqrt(k)
            if w.any():
                ties.append((label * float(w @ xh), (1 - alpha) * gamma, 1.0))
                ties.append((s, 0.0, nx))
            if label * float(w @ xh) <= (1 - alpha) * gamma:
                w = w + C / math.sqrt(k) * label * xh
                w = w / max(1.0, np.linalg.norm(w))
                k += 1
                upd = True
        out["updated"].append(upd)
    out = {kk: np.array(v) for kk, v in out.items()}
    out["coef"], out["intercept"] = (w[:-1], w[-1]) if fit_intercept else (w, 0.0)
    out["k"] = k
    return out, _first_tie(ties)


def pumma_solution(p, n, w_prev):
    """argmin ½‖w‖² over (w, b) s.t. w·p + b ≥ 1, w·n + b ≤ −1, w·w_prev ≥ ‖w_prev‖², by
    enumeration: the optimum is the feasible point of least norm among w_prev (only the last
    constraint active), 2u/‖u‖² (u = p − n: only the pair active) and the point where both
    w·u = 2 and w·w_prev = ‖w_prev‖² (a 2×2 linear system); b is the midpoint of the interval
    [1 − w·p, −1 − w·n] it may take."""
    u = p - n
    uu = float(u @ u)
    cands = [2.0 * u / uu]
    A = float(w_prev @ w_prev)
    if A > 0:
        cands.append(w_prev.copy())
        G = np.array([[uu, float(u @ w_prev)], [float(u @ w_prev), A]])
        if abs(np.linalg.det(G)) > 1e-12 * uu * A:
            lam = np.linalg.solve(G, [2.0, A])
            cands.append(lam[0] * u + lam[1] * w_prev)
    tol = 1e-9
    feasible = [w for w in cands
                if w @ u >= 2 - tol * (1 + abs(w @ u)) and w @ w_prev >= A * (1 - tol)]
    w = min(feasible, key=lambda v: float(v @ v))
    b = 0.5 * ((1 - w @ p) + (-1 - w @ n))
    return w, float(b)


def ref_pumma(X, y, delta=0.01):
    """PUMMA, p = 2 (Ho-Nguyen et al. 2025, App. B.5): constant +1, then y₁, until both labels
    are seen; the first point of each label is stored and (w, b) is their max-margin classifier;
    then on y(w·x + b) ≤ 1 − δ, x replaces the stored point of its label and (w, b) solves the
    two-point max-margin problem with the extra constraint w·w_t ≥ ‖w_t‖²."""
    X = np.asarray(X, dtype=float)
    d = X.shape[1]
    w, b = np.zeros(d), 1.0
    stored = {}
    out = {"pred": [], "score": [], "updated": []}
    ties = []
    for x, label in zip(X, _pm(y)):
        s = float(w @ x + b)
        out["pred"].append(1 if s >= 0 else -1)
        out["score"].append(s)
        upd = False
        if not stored:
            stored[label] = x.copy()
            upd = b != label
            b = label
        elif len(stored) == 1:
            if label not in stored:
                stored[label] = x.copy()
                w, b = pumma_solution(stored[1.0], stored[-1.0], np.zeros(d))
                upd = True
        else:
            scale = np.linalg.norm(w) * (np.linalg.norm(x) + 1) + abs(b)
            ties.append((s, 0.0, scale))
            ties.append((label * s, 1 - delta, scale))
            if label * s <= 1 - delta:
                stored[label] = x.copy()
                w, b = pumma_solution(stored[1.0], stored[-1.0], w)
                upd = True
        out["updated"].append(upd)
    out = {k: np.array(v) for k, v in out.items()}
    out["coef"], out["intercept"] = w, b
    return out, _first_tie(ties)


# -- agreement with the references ---------------------------------------------------------------

ROMMA_CASES = [  # (name, D_bar, stream kwargs)
    ("romma", None, dict(margin=0.1)),
    ("romma", "max", dict(margin=0.1, offset=3.0)),
    ("romma", "max", dict(noise=0.1, density=0.3, d=30)),
    ("a-romma", None, dict(margin=0.1)),
    ("a-romma", "max", dict(margin=0.05, offset=3.0)),
    ("a-romma", "max", dict(noise=0.1, density=0.3, d=30)),
]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("name,D_bar,kw", ROMMA_CASES)
def test_romma_matches_reference(name, D_bar, kw, seed):
    X, y = _stream(seed, **kw)
    if D_bar == "max":
        D_bar = float(np.linalg.norm(X, axis=1).max())
    ref, ties = ref_romma(X, y, aggressive=name == "a-romma", D_bar=D_bar)
    assert ref["updated"].sum() > 10
    for layout, Xin in _layouts(X):
        learner = olc.make(name, D_bar=D_bar)
        record = learner.predict_then_learn(Xin, y, classes=[0, 1])
        _assert_same_run(record, ref, ties, learner.coef_, learner.intercept_[0],
                         f"{name} D_bar={D_bar} {layout}")


ALMA_CASES = [
    dict(),
    dict(alpha=0.3),
    dict(alpha=1.0, fit_intercept=False),
    dict(alpha=0.9, B=1 / 0.9, C=2.0),
]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("params", ALMA_CASES, ids=str)
@pytest.mark.parametrize("kw", [dict(margin=0.1), dict(noise=0.1, density=0.3, d=30, offset=2.0)],
                         ids=["separable", "noisy-sparse"])
def test_alma_matches_reference(params, kw, seed):
    X, y = _stream(seed, **kw)
    ref, ties = ref_alma(X, y, **params)
    assert ref["updated"].sum() > 10
    for layout, Xin in _layouts(X):
        learner = olc.make("alma2", **params)
        record = learner.predict_then_learn(Xin, y, classes=[0, 1])
        _assert_same_run(record, ref, ties, learner.coef_, learner.intercept_[0],
                         f"alma2 {params} {layout}")
        # k counts corrections (Gentile's Fig. 1 increments it in the update branch only).
        assert learner._scal[AlmaScal.K] == ref["k"] == learner.n_updates_ + 1
        assert np.linalg.norm(np.append(learner.coef_, learner.intercept_)) <= 1 + 1e-12


PUMMA_CASES = [
    dict(delta=0.01, kw=dict(margin=0.1)),
    dict(delta=0.01, kw=dict(margin=0.1, offset=5.0)),
    dict(delta=0.5, kw=dict(margin=0.05, density=0.3, d=30)),
    dict(delta=1.0, kw=dict(margin=0.1)),
    dict(delta=0.01, kw=dict(noise=0.05, density=0.5, d=20)),
]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("case", PUMMA_CASES, ids=str)
def test_pumma_matches_reference(case, seed):
    X, y = _stream(seed, **case["kw"])
    ref, ties = ref_pumma(X, y, delta=case["delta"])
    assert ref["updated"].sum() > 5
    for layout, Xin in _layouts(X):
        learner = olc.make("pumma", delta=case["delta"])
        record = learner.predict_then_learn(Xin, y, classes=[0, 1])
        _assert_same_run(record, ref, ties, learner.coef_, learner.intercept_[0],
                         f"pumma {case} {layout}")


def test_chunked_sparse_streams_with_wide_rows_match_reference():
    """Many features, few nonzeros per row: the coordinate lists of w and of PUMMA's stored
    points (resets clear only what was written) give the reference's weights."""
    rng = np.random.default_rng(11)
    n, d = 300, 500
    X = np.zeros((n, d))
    for i in range(n):
        cols = rng.choice(d, size=4, replace=False)
        X[i, cols] = rng.standard_normal(4)
    X[:, 0] = 1.0  # a shared feature so that the rows interact
    w = rng.standard_normal(d)
    y = (X @ w > 0).astype(int)
    y[0], y[1] = 1, 0
    for name, ref_fn, params in [
            ("a-romma", lambda: ref_romma(X, y, True, 2.0), dict(D_bar=2.0)),
            ("romma", lambda: ref_romma(X, y, False, None), {}),
            ("alma2", lambda: ref_alma(X, y), {}),
            ("pumma", lambda: ref_pumma(X, y, 0.01), {})]:
        ref, ties = ref_fn()
        learner = olc.make(name, **params)
        parts = [learner.predict_then_learn(sp.csr_matrix(X[a:a + 37]), y[a:a + 37],
                                            classes=[0, 1]) for a in range(0, n, 37)]
        record = type(parts[0])(*(np.concatenate([getattr(p, f) for p in parts])
                                  for f in ("pred", "score", "updated", "aux")))
        _assert_same_run(record, ref, ties, learner.coef_, learner.intercept_[0], name)


# -- closed forms against a QP solver ------------------------------------------------------------

def romma_qp(w_t, x, label):
    """min ‖w‖² s.t. w·w_t ≥ ‖w_t‖², y·w·x ≥ 1."""
    w = cp.Variable(x.shape[0])
    cons = [label * (x @ w) >= 1]
    if np.any(w_t):
        cons.append(w_t @ w >= float(w_t @ w_t))
    _solve(cp.Problem(cp.Minimize(cp.sum_squares(w)), cons))
    return w.value


def _augmented(learner, D_bar):
    coef, b = learner.coef_.ravel(), learner.intercept_[0]
    return coef.copy() if D_bar is None else np.append(coef, -b / D_bar)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("name", ["romma", "a-romma"])
@pytest.mark.parametrize("D_bar", [None, 3.0])
def test_romma_updates_solve_the_qp(name, D_bar, seed):
    X, y = _stream(seed + 10, n=60, d=4, noise=0.05)
    learner = olc.make(name, D_bar=D_bar)
    checked = 0
    for i in range(X.shape[0]):
        w_t = _augmented(learner, D_bar) if i else np.zeros(X.shape[1] + (D_bar is not None))
        record = learner.predict_then_learn(X[i:i + 1], y[i:i + 1], classes=[0, 1])
        if not record.updated[0] or checked >= 12:
            continue
        x = X[i] if D_bar is None else np.append(X[i], -D_bar)
        w_qp = romma_qp(w_t, x, float(_pm(y[i])))
        np.testing.assert_allclose(_augmented(learner, D_bar), w_qp, rtol=1e-7,
                                   atol=1e-7 * np.abs(w_qp).max())
        checked += 1
    assert checked >= 8


def test_aggressive_romma_single_constraint_case():
    """y·w·x ≥ ‖w‖²‖x‖²: the answer is y·x/‖x‖² (the QP's), not Li & Long's c·w + d·x, which
    here has c ≤ 0 and a larger norm."""
    rng = np.random.default_rng(5)
    hits = 0
    for _ in range(20):
        x1 = rng.standard_normal(3) * 10.0            # a long first example: ‖w₂‖ = 1/‖x₁‖
        x2 = x1 / 20.0 + rng.standard_normal(3) * 0.3  # short, roughly the same direction
        learner = olc.make("a-romma")
        learner.predict_then_learn(x1[None], [1], classes=[0, 1])
        w = learner.coef_.ravel().copy()
        m, ww, xx = float(w @ x2), float(w @ w), float(x2 @ x2)
        if not (ww * xx <= m < 1.0):
            continue
        hits += 1
        record = learner.predict_then_learn(x2[None], [1])
        assert record.updated[0]
        np.testing.assert_allclose(learner.coef_.ravel(), x2 / xx, rtol=1e-12)
        np.testing.assert_allclose(learner.coef_.ravel(), romma_qp(w, x2, 1.0), rtol=1e-7)
        # The two-constraint formula is the wrong answer here.
        den = xx * ww - m * m
        c, d = (xx * ww - m) / den, ww * (1.0 - m) / den
        naive = c * w + d * x2
        assert c <= 0.0 and naive @ naive > (x2 @ x2) / xx ** 2 * (1 + 1e-9)
    assert hits >= 5


def pumma_qp(p, n, w_t):
    """min ½‖w‖² over (w, b) s.t. w·p + b ≥ 1, w·n + b ≤ −1, w·w_t ≥ ‖w_t‖²."""
    w, b = cp.Variable(p.shape[0]), cp.Variable()
    cons = [p @ w + b >= 1, n @ w + b <= -1]
    if np.any(w_t):
        cons.append(w_t @ w >= float(w_t @ w_t))
    _solve(cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w)), cons))
    return w.value, float(b.value)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("delta,offset", [(0.01, 0.0), (0.3, 4.0), (0.01, 2.0)])
def test_pumma_updates_solve_the_qp(delta, offset, seed):
    X, y = _stream(seed + 20, n=80, d=4, margin=0.05, offset=offset)
    learner = olc.make("pumma", delta=delta)
    checked = 0
    for i in range(X.shape[0]):
        w_t = learner.coef_.ravel().copy() if i else np.zeros(X.shape[1])
        record = learner.predict_then_learn(X[i:i + 1], y[i:i + 1], classes=[0, 1])
        p, n = learner.support_points_
        if not record.updated[0] or not (p.any() and n.any()) or checked >= 12:
            continue
        w_qp, b_qp = pumma_qp(p, n, w_t)
        scale = np.abs(w_qp).max()
        np.testing.assert_allclose(learner.coef_.ravel(), w_qp, rtol=1e-7, atol=1e-7 * scale)
        assert learner.intercept_[0] == pytest.approx(
            b_qp, rel=1e-7, abs=1e-7 * scale * (np.abs(p).max() + np.abs(n).max()))
        # The stored points lie on the margin hyperplanes.
        assert learner.decision_function(np.vstack([p, n])) == pytest.approx([1, -1], rel=1e-9)
        checked += 1
    assert checked >= 6


def test_pumma_two_point_and_two_constraint_cases_against_the_qp():
    """Pairs approaching the boundary: some updates have only w·u ≥ 2 active (the two-point
    solution, w·w_{t+1} > ‖w_t‖²), others both constraints; each is the QP's answer."""
    rng = np.random.default_rng(4)
    k = np.arange(12)
    X = np.empty((24, 2))
    X[0::2] = np.c_[3.0 * 0.6 ** k, rng.uniform(-2, 2, 12)]
    X[1::2] = np.c_[-2.5 * 0.6 ** k, rng.uniform(-2, 2, 12)]
    X += np.array([1.0, -2.0])
    y = np.tile([1, 0], 12)
    learner = olc.make("pumma")
    kinds = []
    for i in range(len(y)):
        w_t = learner.coef_.ravel().copy() if i else np.zeros(2)
        record = learner.predict_then_learn(X[i:i + 1], y[i:i + 1], classes=[0, 1])
        if not (record.updated[0] and w_t.any()):
            continue
        p, n = learner.support_points_
        w_qp, b_qp = pumma_qp(p, n, w_t)
        w = learner.coef_.ravel()
        np.testing.assert_allclose(w, w_qp, rtol=1e-7, atol=1e-7 * np.abs(w_qp).max())
        assert learner.intercept_[0] == pytest.approx(b_qp, rel=1e-7)
        kinds.append("both" if abs(w @ w_t - w_t @ w_t) <= 1e-9 * (w_t @ w_t) else "pair")
    assert kinds.count("pair") >= 3 and kinds.count("both") >= 3, kinds


# -- PUMMA's translation invariance (Ho-Nguyen et al. 2025, App. B.5) ------------------------

@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), shift=st.floats(-20, 20), delta=st.sampled_from([0.01, 0.2]))
def test_pumma_translation_invariance(seed, shift, delta):
    X, y = _stream(seed, n=120, d=5, margin=0.1)
    rng = np.random.default_rng(seed)
    u = rng.standard_normal(5)
    u *= shift / np.linalg.norm(u)
    a, b = olc.make("pumma", delta=delta), olc.make("pumma", delta=delta)
    ra = a.predict_then_learn(X, y, classes=[0, 1])
    rb = b.predict_then_learn(X + u, y, classes=[0, 1])
    ref, ties = ref_pumma(X, y, delta)
    if ties is not None:  # compare up to the first near-tie only
        ra, rb = [type(r)(*(getattr(r, f)[:ties] for f in ("pred", "score", "updated", "aux")))
                  for r in (ra, rb)]
    np.testing.assert_array_equal(ra.pred, rb.pred)
    np.testing.assert_array_equal(ra.updated, rb.updated)
    R = np.linalg.norm(X, axis=1).max() + abs(shift)
    err = 1e-9 * R ** 2
    np.testing.assert_allclose(rb.score, ra.score, rtol=0, atol=err * np.abs(ra.score).max())
    if ties is None:
        w_a, w_b = a.coef_.ravel(), b.coef_.ravel()
        np.testing.assert_allclose(w_b, w_a, rtol=0, atol=err * np.abs(w_a).max())
        assert b.intercept_[0] == pytest.approx(a.intercept_[0] - w_a @ u,
                                                abs=err * np.abs(w_a).max() * R)


def test_romma_and_alma_are_not_translation_invariant():
    """The contrast of Ho-Nguyen et al. 2025, §6: a shift changes ROMMA's and ALMA's runs."""
    X, y = _stream(3, n=200, d=5, margin=0.1)
    for name in ("romma", "a-romma", "alma2"):
        a = olc.make(name).predict_then_learn(X, y, classes=[0, 1])
        b = olc.make(name).predict_then_learn(X + 5.0, y, classes=[0, 1])
        assert not np.array_equal(a.updated, b.updated)


# -- degenerate geometry -------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["romma", "a-romma"])
def test_romma_zero_row_without_bias_is_skipped(name):
    learner = olc.make(name)
    record = learner.predict_then_learn(np.zeros((3, 2)), [1, 0, 1], classes=[0, 1])
    assert not record.updated.any() and (record.score == 0).all() and (record.pred == 1).all()
    assert not learner.coef_.any() and learner.intercept_[0] == 0.0
    # After learning, a zero row still cannot be given margin 1: skipped, model unchanged.
    learner.predict_then_learn(np.array([[1.0, 2.0]]), [0])
    coef = learner.coef_.copy()
    record = learner.predict_then_learn(np.zeros((1, 2)), [1])
    assert not record.updated[0] and np.array_equal(learner.coef_, coef)


@pytest.mark.parametrize("name", ["romma", "a-romma"])
def test_romma_zero_row_with_bias_coordinate_moves_the_bias(name):
    """x̃ = (0, −D̄) ≠ 0: the update is the ordinary one, only the bias coordinate moves."""
    learner = olc.make(name, D_bar=2.0)
    record = learner.predict_then_learn(np.zeros((1, 3)), [0], classes=[0, 1])
    assert record.updated[0]
    assert not learner.coef_.any()
    # w̃ = y·x̃/‖x̃‖² = −(0, −2)/4: bias weight 0.5, intercept −D̄·0.5 = −1 (margin 1 at 0).
    assert learner.intercept_[0] == pytest.approx(-1.0, rel=1e-15)


@pytest.mark.parametrize("name", ["romma", "a-romma"])
@pytest.mark.parametrize("D_bar", [None, 2.0])
def test_romma_contradictory_duplicate_is_infeasible_and_skipped(name, D_bar):
    """The same point with the other label: y·x̃ is anti-parallel to w (w = x̃/‖x̃‖²), so
    w·w_t ≥ ‖w_t‖² and y·w·x̃ ≥ 1 are infeasible together; the round is skipped."""
    x = np.array([[1.0, -2.0, 0.5]])
    learner = olc.make(name, D_bar=D_bar)
    learner.predict_then_learn(x, [1], classes=[0, 1])
    coef, b = learner.coef_.copy(), learner.intercept_.copy()
    for scale in (1.0, 3.0, 0.25):
        record = learner.predict_then_learn(scale * x if D_bar is None else x, [0])
        assert not record.updated[0]
        assert np.array_equal(learner.coef_, coef) and np.array_equal(learner.intercept_, b)


def test_aggressive_romma_parallel_point_uses_single_constraint():
    """x₂ = c·x₁ with the same label and c < 1: margin c < 1, y·w·x₂ = c ≥ ‖w‖²‖x₂‖² = c²,
    so w₃ = x₂/‖x₂‖² (margin exactly 1 on x₂)."""
    x1 = np.array([3.0, 4.0])
    learner = olc.make("a-romma")
    learner.predict_then_learn(np.vstack([x1, 0.5 * x1]), [1, 1], classes=[0, 1])
    np.testing.assert_allclose(learner.coef_.ravel(), 0.5 * x1 / (0.25 * 25), rtol=1e-14)
    assert learner.decision_function((0.5 * x1)[None])[0] == pytest.approx(1.0, rel=1e-14)


def test_alma_zero_row_without_bias_is_skipped_and_k_unchanged():
    learner = olc.make("alma2", fit_intercept=False)
    record = learner.predict_then_learn(np.zeros((2, 3)), [1, 0], classes=[0, 1])
    assert not record.updated.any() and (record.score == 0).all()
    assert learner._scal[AlmaScal.K] == 1.0
    # With the bias, x̃ = (0, 1) is a unit vector: an ordinary update of the bias weight.
    learner = olc.make("alma2")
    record = learner.predict_then_learn(np.zeros((1, 3)), [0], classes=[0, 1])
    assert record.updated[0] and not learner.coef_.any()
    assert learner.intercept_[0] == pytest.approx(-1.0)  # −√2 projected onto the unit ball


def test_pumma_coinciding_pair_waits_for_another_point():
    """First positive and first negative coincide: no max-margin classifier exists; the
    learner keeps predicting y₁ until a distinct negative point arrives."""
    X = np.array([[1.0, 1.0], [1.0, 1.0], [1.0, 1.0], [-1.0, 0.0], [2.0, 2.0]])
    learner = olc.make("pumma")
    record = learner.predict_then_learn(X, [1, 0, 0, 0, 1], classes=[0, 1])
    np.testing.assert_array_equal(record.pred, [1, 1, 1, 1, 1])
    np.testing.assert_array_equal(record.updated, [False, False, False, True, False])
    p, n = learner.support_points_
    np.testing.assert_array_equal(p, [1.0, 1.0])
    np.testing.assert_array_equal(n, [-1.0, 0.0])
    w_qp, b_qp = pumma_qp(p, n, np.zeros(2))
    np.testing.assert_allclose(learner.coef_.ravel(), w_qp, rtol=1e-8)
    assert learner.intercept_[0] == pytest.approx(b_qp, rel=1e-8)


def test_pumma_infeasible_rounds_are_skipped():
    """p = (1, 0), n = (−1, 0): w = (1, 0), b = 0. (a) A negative example at p: u = 0,
    infeasible. (b) A positive example at (−3, 0): u = (−2, 0) is anti-parallel to w_t, so
    w·u ≥ 2 and w·w_t ≥ ‖w_t‖² conflict. Both rounds are skipped: the classifier and the
    stored points are unchanged (only cached norms may be refreshed)."""
    learner = olc.make("pumma")
    learner.predict_then_learn(np.array([[1.0, 0.0], [-1.0, 0.0]]), [1, 0], classes=[0, 1])
    np.testing.assert_allclose(learner.coef_.ravel(), [1.0, 0.0])
    assert learner.intercept_[0] == 0.0
    before = learner.coef_.copy(), learner.intercept_.copy(), learner.support_points_
    record = learner.predict_then_learn(np.array([[1.0, 0.0], [-3.0, 0.0]]), [0, 1])
    assert not record.updated.any()
    after = learner.coef_, learner.intercept_, learner.support_points_
    for a, b in zip(before[:2] + before[2], after[:2] + after[2]):
        assert np.array_equal(a, b)


def test_pumma_collinear_points():
    """All points on one line (1-D geometry in R³): u is always parallel to w_t, the
    problems stay feasible and the answers are the QP's."""
    direction = np.array([1.0, 2.0, -2.0]) / 3.0
    t = np.array([3.0, -3.0, 1.5, -1.0, 0.5, 4.0, -0.8, 0.2])
    X = np.outer(t, direction) + np.array([5.0, 0.0, 1.0])
    y = (t > 0).astype(int)
    learner = olc.make("pumma")
    w_prev = np.zeros(3)
    for i in range(len(t)):
        record = learner.predict_then_learn(X[i:i + 1], y[i:i + 1], classes=[0, 1])
        p, n = learner.support_points_
        if record.updated[0] and p.any() and n.any():
            w_qp, b_qp = pumma_qp(p, n, w_prev)
            np.testing.assert_allclose(learner.coef_.ravel(), w_qp, rtol=1e-7, atol=1e-9)
            assert learner.intercept_[0] == pytest.approx(b_qp, rel=1e-7)
        w_prev = learner.coef_.ravel().copy()
    # The final classifier separates the line at the largest gap between the closest pair.
    assert (learner.predict(X) == y).all()


def test_pumma_origin_is_an_ordinary_point():
    learner = olc.make("pumma")
    learner.predict_then_learn(np.array([[0.0, 0.0], [2.0, 0.0]]), [1, 0], classes=[0, 1])
    np.testing.assert_allclose(learner.coef_.ravel(), [-1.0, 0.0])
    assert learner.intercept_[0] == pytest.approx(1.0)


@pytest.mark.parametrize("name,params", [("romma", {}), ("romma", {"D_bar": 5.0}),
                                         ("a-romma", {}), ("a-romma", {"D_bar": 5.0}),
                                         ("alma2", {}), ("pumma", {}), ("pumma", {"delta": 0.0})])
def test_non_separable_streams_stay_finite(name, params):
    """Random labels, duplicates with both labels, the origin: finite model, no error."""
    rng = np.random.default_rng(8)
    X = rng.standard_normal((400, 6)) * (rng.random((400, 6)) < 0.6)
    X[50:60] = X[40:50]
    X[100] = 0.0
    y = rng.integers(0, 2, 400)
    for Xin in (X, sp.csr_matrix(X)):
        learner = olc.make(name, **params)
        record = learner.predict_then_learn(Xin, y, classes=[0, 1])
        assert np.isfinite(record.score).all()
        assert np.isfinite(learner._vecs).all() and np.isfinite(learner._scal).all()
        assert np.isfinite(learner.decision_function(Xin)).all()
        assert record.updated.sum() > 20


# -- parameters, reproduction settings, cost -----------------------------------------------------

def test_omm_paper_settings_are_the_defaults_or_one_parameter():
    alma = olc.make("alma2")
    assert alma.get_params() == dict(alpha=0.7, B=None, C=math.sqrt(2), fit_intercept=True,
                                     n_jobs=None)
    np.testing.assert_allclose(alma._hyperparameters(),
                               [0.7, math.sqrt(8) / 0.7, math.sqrt(2), 1.0], rtol=1e-15)
    assert olc.make("pumma").delta == 0.01
    assert olc.make("romma", D_bar=220.0).D_bar == 220.0


@pytest.mark.parametrize("name,params,bad", [
    ("romma", {"D_bar": 0.0}, "D_bar"), ("romma", {"D_bar": -1.0}, "D_bar"),
    ("a-romma", {"D_bar": "x"}, "D_bar"), ("alma2", {"alpha": 0.0}, "alpha"),
    ("alma2", {"alpha": 1.5}, "alpha"), ("alma2", {"B": -1.0}, "B"), ("alma2", {"C": 0.0}, "C"),
    ("pumma", {"delta": -0.1}, "delta"), ("pumma", {"delta": 1.1}, "delta"),
    ("pumma", {"delta": float("nan")}, "delta"), ("romma", {"D_bar": math.inf}, "D_bar"),
    ("alma2", {"C": math.inf}, "C"), ("alma2", {"fit_intercept": 1}, "fit_intercept")])
def test_bad_hyperparameters_are_rejected(name, params, bad):
    X, y = _stream(0, n=10)
    with pytest.raises(ValueError, match=bad):
        olc.make(name, **params).fit(X, y)


# -- integer state: the tracked supports -------------------------------------------------------

def _supports(learner):
    """{vector name: (vector, listed coordinates, position block)} of the tracked vectors."""
    layout, d = learner._layout, learner._vecs.shape[1]
    out = {}
    for slot in layout.int_slots:
        name = slot.name[:-len("_COUNT")]
        first = layout.int_block(layout.int_blocks[name + "_LIST"], d)
        pos = layout.int_block(layout.int_blocks[name + "_POS"], d)
        listed = learner._ints[first:first + learner._ints[slot]]
        out[name] = (learner._vecs[layout.vectors[name]], listed, learner._ints[pos:pos + d])
    return out


@pytest.mark.parametrize("name", ["romma", "a-romma", "pumma"])
def test_tracked_supports_are_sets_that_cover_the_nonzeros(name):
    """Each tracked vector's support (in the integer state) lists distinct coordinates, its
    position block points back into the list, and every nonzero coordinate is listed."""
    X, y = _stream(5, n=300, d=40, density=0.1, noise=0.05)
    for Xin in (X, sp.csr_matrix(X)):
        learner = olc.make(name)
        for a in range(0, 300, 60):
            learner.partial_fit(Xin[a:a + 60], y[a:a + 60], classes=[0, 1])
            for vec, (v, listed, pos) in _supports(learner).items():
                assert len(set(listed.tolist())) == len(listed), vec
                assert set(np.flatnonzero(v)) <= set(listed.tolist()), vec
                expected_pos = np.zeros_like(pos)
                expected_pos[listed] = np.arange(1, len(listed) + 1)
                np.testing.assert_array_equal(pos, expected_pos, err_msg=vec)


# -- files saved by olc 0.1.0 --------------------------------------------------------------------

@pytest.mark.usefixtures("default_arithmetic")
@pytest.mark.parametrize("name", ["romma", "a-romma", "alma2", "pumma"])
def test_olc_0_1_0_state_upgrades_to_the_named_layout(name):
    """A 0.1.0 file (coordinate lists as float rows, 16 scalar slots) upgraded through
    ``olc.persistence.v0_1_0.upgrade`` gives the decision values that model gave, exactly,
    and is the state this version reaches on the same stream (so learning can go on from it)."""
    meta, old_vecs, old_scal, classes = legacy_file(name)
    expected = legacy_expected(name)
    learner = olc.make(name, **meta["params"])
    vecs, ints, scal = v0_1_0.upgrade(learner, old_vecs, old_scal)
    d, layout = meta["n_features_in"], learner._layout
    assert vecs.shape == (layout.n_vectors, d) and vecs.dtype == np.float64
    assert ints.shape == (layout.n_ints(d),) and ints.dtype == np.int64
    assert scal.shape == (layout.n_scalars,) and scal.dtype == np.float64
    learner = fitted_from(meta, (vecs, ints, scal), classes)
    values = learner.decision_function(np.array(expected["probe"]))
    np.testing.assert_array_equal(values, expected["values"])
    # The stream the fixture was trained on (tests/persistence/fixtures/make_v0_1_0.py).
    rng = np.random.default_rng(7)
    X = rng.normal(size=(40, 6))
    y = np.where(X[:, 0] - 0.5 * X[:, 1] + 0.1 > 0, 1, -1)
    fresh = olc.make(name, **meta["params"])
    fresh.partial_fit(X[:25], y[:25], classes=np.array([-1, 1]))
    fresh.partial_fit(X[25:], y[25:])
    assert fresh.n_updates_ == meta["n_updates"]
    np.testing.assert_array_equal(fresh._vecs, vecs)
    np.testing.assert_array_equal(fresh._ints, ints)
    np.testing.assert_array_equal(fresh._scal, scal)
    record = learner.predict_then_learn(X, y)
    np.testing.assert_array_equal(record.score, fresh.predict_then_learn(X, y).score)
