"""The multiclass PA / PA-I / PA-II with K prototypes (Crammer et al. 2006, §7) against
independent methods: each step against the defining problem solved by a QP solver (cvxpy),
a worked example derived by hand, and for K = 2 the binary PA on u = w₁ − w₀ (derived below).

The defining problem of one round (§7, max-loss update on a single-label stream, the
multi-prototype Φ): with r the highest-scoring wrong class of the current (W, b),
  PA:    min ½‖W′ − W‖² + ½‖b′ − b‖²        s.t. (w′_y − w′_r)·x + b′_y − b′_r ≥ 1
  PA-I:  min … + Cξ,  ξ ≥ 0                  s.t. … ≥ 1 − ξ
  PA-II: min … + Cξ²                         s.t. … ≥ 1 − ξ
(the b terms only with fit_intercept: the bias is a constant feature of Φ, the module's
[Decision]).
"""
import numpy as np
import pytest
import scipy.sparse as sp

import olc
from olc.learners._framework.multiclass import linear_models

from ._streams import STORED_ORDERS, force_stored_order

cp = pytest.importorskip("cvxpy")

VARIANTS = ["multiclass-pa", "multiclass-pa-i", "multiclass-pa-ii"]


# every test in both memory orders of the prototypes
stored_order = pytest.fixture(autouse=True, params=STORED_ORDERS, name="stored_order")(
    force_stored_order)


def _prototypes(learner):
    """(W (K, d), b (K,)): the K prototypes, for every K (coef_ is w₁ − w₀ when K = 2)."""
    return linear_models(learner)


def _qp_step(W, b, x, y, variant, C, fit_intercept):
    """The round's problem solved by cvxpy; r chosen with numpy from the current scores."""
    scores = W @ x + b
    wrong = np.where(np.arange(len(b)) == y, -np.inf, scores)
    r = int(np.argmax(wrong))  # first on ties (not met by continuous draws)
    Wn = cp.Variable(W.shape)
    bn = cp.Variable(b.shape) if fit_intercept else b
    margin = (Wn[y] - Wn[r]) @ x + (bn[y] - bn[r])
    objective = 0.5 * cp.sum_squares(Wn - W)
    if fit_intercept:
        objective = objective + 0.5 * cp.sum_squares(bn - b)
    if variant == "multiclass-pa":
        constraints = [margin >= 1]
    else:
        xi = cp.Variable()
        constraints = [margin >= 1 - xi]
        if variant == "multiclass-pa-i":
            objective, constraints = objective + C * xi, constraints + [xi >= 0]
        else:
            objective = objective + C * cp.square(xi)
    cp.Problem(cp.Minimize(objective), constraints).solve(
        solver=cp.CLARABEL, tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12)
    return Wn.value, (bn.value if fit_intercept else b)


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("k", [2, 4])
def test_each_step_solves_the_defining_problem(name, fit_intercept, k):
    rng = np.random.default_rng([VARIANTS.index(name), int(fit_intercept), k])
    d, n, C = 5, 30, 0.3
    X = rng.standard_normal((n, d)) * rng.uniform(0.2, 2.0, size=(n, 1))
    y = rng.integers(0, k, size=n)
    y[:k] = np.arange(k)
    params = {} if name == "multiclass-pa" else {"C": C}
    learner = olc.make(name, fit_intercept=fit_intercept, **params)
    learner.partial_fit(X[:1], y[:1], classes=np.arange(k))
    moved = 0
    for i in range(1, n):
        W, b = _prototypes(learner)
        W_qp, b_qp = _qp_step(W, b, X[i], int(y[i]), name, C, fit_intercept)
        record = learner.predict_then_learn(X[i:i + 1], y[i:i + 1])
        W_new, b_new = _prototypes(learner)
        scale = 1.0 + np.abs(W).max()
        np.testing.assert_allclose(W_new, W_qp, atol=1e-6 * scale, rtol=0)
        np.testing.assert_allclose(b_new, b_qp, atol=1e-6 * scale, rtol=0)
        moved += bool(record.updated[0])
    assert moved >= 3, "the stream should exercise the update"


def test_worked_example_by_hand():
    """Crammer et al. §7 on four rows, K = 3, d = 2, no bias, by hand:
    row 1 x = (1, 2), y = 0: all scores 0, predict 0 (first on ties), r = 1 (first wrong),
      ℓ = 1, q = 2‖x‖² = 10, τ = 0.1: w₀ = (0.1, 0.2), w₁ = (−0.1, −0.2);
    row 2 x = (0, 1), y = 2: s = (0.2, −0.2, 0), predict 0, r = 0, ℓ = 1.2, q = 2,
      τ = 0.6: w₂ = (0, 0.6), w₀ = (0.1, −0.4);
    row 3 x = (1, 0), y = 1: s = (0.1, −0.1, 0), predict 0, r = 0, ℓ = 1.2, τ = 0.6:
      w₁ = (0.5, −0.2), w₀ = (−0.5, −0.4);
    row 4 x = (1, 2), y = 0: s = (−1.3, 0.1, 1.2), predict 2, r = 2, ℓ = 3.5, τ = 0.35:
      w₀ = (−0.15, 0.3), w₂ = (−0.35, −0.1).
    PA-I with C = 0.5 caps rows 2 and 3 at τ = 0.5: w₂ = (0, 0.5), w₀ = (0.1, −0.3), then
    w₁ = (0.4, −0.2), w₀ = (−0.4, −0.3); row 4: s = (−1, 0, 1), ℓ = 3, τ = 0.3:
    w₀ = (−0.1, 0.3), w₂ = (−0.3, −0.1)."""
    X = np.array([[1.0, 2.0], [0.0, 1.0], [1.0, 0.0], [1.0, 2.0]])
    y = np.array(["a", "c", "b", "a"])
    pa = olc.make("multiclass-pa", fit_intercept=False)
    record = pa.predict_then_learn(X, y, classes=["a", "b", "c"])
    assert record.pred.tolist() == [0, 0, 0, 2]
    np.testing.assert_allclose(record.score, [0.0, 0.2, 0.1, 1.2], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(record.aux, [0.1, 0.6, 0.6, 0.35], rtol=1e-12)
    assert record.updated.all()
    np.testing.assert_allclose(pa.coef_, [[-0.15, 0.3], [0.5, -0.2], [-0.35, -0.1]],
                               rtol=1e-12, atol=1e-15)
    assert pa.predict([[1.0, 2.0]]).tolist() == ["a"]  # s = (0.45, 0.1, −0.55)

    pa1 = olc.make("multiclass-pa-i", C=0.5, fit_intercept=False)
    record = pa1.predict_then_learn(X, y, classes=["a", "b", "c"])
    np.testing.assert_allclose(record.aux, [0.1, 0.5, 0.5, 0.3], rtol=1e-12)
    np.testing.assert_allclose(pa1.coef_, [[-0.1, 0.3], [0.4, -0.2], [-0.3, -0.1]],
                               rtol=1e-12, atol=1e-15)


def test_zero_row_moves_only_the_biases_or_nothing():
    """x = 0: with a bias, q = 2(0 + 1) and at W = 0, y = 1: r = 0, ℓ = 1, τ = ½ (PA), so
    b₁ = ½, b₀ = −½; PA-II (C = 1): τ = 1/(2 + ½) = 0.4. Without a bias no W′ changes the
    margin: nothing moves, for every variant (the problem's solution is W′ = W)."""
    zero = np.zeros((1, 3))
    for name, tau in [("multiclass-pa", 0.5), ("multiclass-pa-i", 0.5),
                      ("multiclass-pa-ii", 0.4)]:
        learner = olc.make(name)
        record = learner.predict_then_learn(zero, [1], classes=[0, 1, 2])
        assert record.updated[0] and record.aux[0] == pytest.approx(tau, rel=1e-15)
        np.testing.assert_allclose(_prototypes(learner)[1], [-tau, tau, 0.0], rtol=1e-15)
        assert not _prototypes(learner)[0].any()
        learner = olc.make(name, fit_intercept=False)
        for rows in (zero, sp.csr_matrix(zero)):
            record = learner.predict_then_learn(rows, [1], classes=[0, 1, 2])
            assert not record.updated[0] and record.aux[0] == 0.0
        assert not _prototypes(learner)[0].any() and not _prototypes(learner)[1].any()


# -- K = 2: the binary PA on u = w₁ − w₀ -----------------------------------------------------
# From W = 0 every step adds τx to one prototype and −τx to the other, so w₀ = −w₁ and
# u = w₁ − w₀ = 2w₁. The multiclass margin s_y − s_r is y±·(u·x + b₁ − b₀) (y± = +1 for
# classes_[1]), i.e. the binary hinge loss on u, and u moves by 2τ·y±·x with
#   PA:    2·ℓ/(2q) = ℓ/q                        (binary PA, the same),
#   PA-I:  2·min(C, ℓ/(2q)) = min(2C, ℓ/q)        (binary PA-I with C′ = 2C),
#   PA-II: 2ℓ/(2q + 1/(2C)) = ℓ/(q + 1/(2·2C))    (binary PA-II with C′ = 2C),
# q = ‖x‖² (+1 with a bias: olc's binary PA counts it too; its PA-I/PA-II do not, so those
# are compared without one). Every factor 2 is exact in binary floating point, so in strict
# arithmetic u equals the binary weights bit for bit; predictions differ only at exact ties
# (the binary sign(0) = +1 picks classes_[1], argmax the first class).
K2_CASES = [("multiclass-pa", "pa", {}, {}, True), ("multiclass-pa", "pa", {}, {}, False),
            ("multiclass-pa-i", "pa-i", {"C": 0.3}, {"C": 0.6}, False),
            ("multiclass-pa-ii", "pa-ii", {"C": 0.3}, {"C": 0.6}, False)]


@pytest.mark.parametrize("name, binary, params, binary_params, fit_intercept", K2_CASES)
@pytest.mark.parametrize("sparse", [False, True])
def test_two_classes_is_the_binary_pa_on_the_difference(name, binary, params, binary_params,
                                                        fit_intercept, sparse):
    rng = np.random.default_rng(7)
    X = rng.standard_normal((80, 6)) * (rng.random((80, 6)) < 0.7)
    y = np.where(X @ rng.standard_normal(6) + 0.2 * rng.standard_normal(80) > 0, "yes", "no")
    X = sp.csr_matrix(X) if sparse else X
    with olc.strict_mode():
        mc = olc.make(name, fit_intercept=fit_intercept, **params)
        rm = mc.predict_then_learn(X, y)
        bi = olc.make(binary, fit_intercept=fit_intercept, **binary_params)
        rb = bi.predict_then_learn(X, y)
        W, b = _prototypes(mc)
        assert np.array_equal(W[0], -W[1]) and np.array_equal(b[0], -b[1])
        assert np.array_equal(mc.coef_, bi.coef_) and np.array_equal(mc.intercept_,
                                                                     bi.intercept_)
        assert np.array_equal(rm.updated, rb.updated) and 0 < rm.updated.sum() < len(y)
        assert np.array_equal(mc.decision_function(X), bi.decision_function(X))
        # The records: class index 1 ⟺ binary +1, except at exact ties (first row, W = 0).
        tie = rb.score == 0.0
        assert tie[0] and rm.pred[0] == 0 and rb.pred[0] == 1
        assert np.array_equal(rm.pred[~tie], (rb.pred[~tie] > 0).astype(np.int32))
