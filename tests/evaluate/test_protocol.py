"""The online protocol and its metrics, checked against brute force (row-by-row learning
and direct evaluation of the definitions)."""
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone

import olc
from olc.evaluate import cumulative_error_rate, final_margin, m_phi, mistakes


def separable(n=300, d=5, seed=0, margin=0.2, bias=0.7):
    rng = np.random.default_rng(seed)
    w = rng.normal(size=d)
    w /= np.linalg.norm(w)
    X = rng.normal(size=(4 * n, d))
    s = X @ w + bias
    keep = np.abs(s) >= margin
    X, s = X[keep][:n], s[keep][:n]
    return X, np.where(s > 0, 1.0, -1.0)


def test_cumulative_error_rate_by_hand():
    pred = np.array([1, -1, 1, 1])
    y = np.array([1, 1, 1, -1])
    assert mistakes(pred, y) == 2
    np.testing.assert_allclose(cumulative_error_rate(pred, y), [0, 1 / 2, 1 / 3, 2 / 4])


def test_final_margin_by_hand():
    X = np.array([[2.0, 0.0], [-1.0, 0.0], [0.5, 3.0]])
    y = np.array([1.0, -1.0, 1.0])
    # w = (2, 0), b = -0: margins y(w·x)/‖w‖ = 2, 1, 0.5 → 0.5.
    assert final_margin((np.array([2.0, 0.0]), 0.0), X, y) == pytest.approx(0.5)
    assert final_margin((np.array([0.0, 0.0]), 1.0), X, y) is None
    assert final_margin((np.array([-1.0, 0.0]), 0.0), X, y) is None


@pytest.mark.parametrize("name", ["perceptron", "pa-i", "e-omm", "ce-omm"])
def test_single_pass_equals_row_by_row(name):
    X, y = separable(seed=1)
    result = olc.progressive(olc.make(name), X, y)
    learner = olc.make(name)
    preds = [learner.predict_then_learn(X[i:i + 1], y[i:i + 1], classes=[-1.0, 1.0]).pred[0]
             for i in range(len(y))]
    np.testing.assert_array_equal(result.pred, preds)
    assert result.mistakes == int(np.sum(np.array(preds) != y))


@pytest.mark.parametrize("layout", ["dense", "csr"])
def test_passes_with_permutations(layout):
    X, y = separable(n=120, seed=2)
    Xin = sp.csr_matrix(X) if layout == "csr" else X
    result = olc.progressive(olc.make("perceptron"), Xin, y, passes=3, shuffle_seed=7)
    assert result.n_steps == 3 * len(y)
    orders = result.order.reshape(3, -1)
    for order in orders:
        assert sorted(order) == list(range(len(y)))
    assert not np.array_equal(orders[0], orders[1])
    # The same stream fed by hand gives the same record.
    learner = olc.make("perceptron")
    rec = learner.predict_then_learn(Xin[result.order], y[result.order])
    np.testing.assert_array_equal(rec.pred, result.pred)
    np.testing.assert_array_equal(rec.score, result.score)
    np.testing.assert_array_equal(result.y, y[result.order].astype(np.int8))


def test_chunking_does_not_change_results():
    X, y = separable(n=500, seed=3)
    a = olc.progressive(olc.make("e-omm"), X, y, chunk_rows=37)
    b = olc.progressive(olc.make("e-omm"), X, y)
    np.testing.assert_array_equal(a.score, b.score)
    assert a.tau == b.tau


@pytest.mark.parametrize("name", ["perceptron", "pa", "e-omm", "ce-omm"])
@pytest.mark.parametrize("layout", ["dense", "csr"])
def test_tau_matches_brute_force(name, layout):
    """τ: first step whose updated classifier has positive margin on the whole data,
    found by re-evaluating the classifier after every step."""
    X, y = separable(n=200, seed=4, margin=0.3)
    Xin = sp.csr_matrix(X) if layout == "csr" else X
    result = olc.progressive(olc.make(name), Xin, y, passes=2, shuffle_seed=0, tau_on="data")
    learner = olc.make(name)
    expected = None
    for t, i in enumerate(result.order, start=1):
        learner.partial_fit(X[i:i + 1], y[i:i + 1], classes=[-1.0, 1.0])
        if np.all(y * learner.decision_function(X) > 0):
            expected = t
            break
    assert result.tau == expected


def test_m_phi_definition():
    X, y = separable(n=400, seed=5)
    result = olc.progressive(olc.make("e-omm"), X, y)
    gammas = result.aux
    active = gammas > 0
    # The first max-margin classifier exists from the step after both labels were seen.
    first_two = np.flatnonzero(y != y[0])[0]
    assert not active[: first_two + 1].any() and active[first_two + 1:].all()
    for phi in (0.0, 0.5, 0.9):
        expected = sum(1 for t in range(len(y))
                       if gammas[t] > 0 and y[t] * result.score[t] <= phi * gammas[t])
        assert m_phi(result, phi) == expected
    # m(0) counts the mistakes after initialization (total ≤ m(0) + 2: Ho-Nguyen et al.
    # 2025, §4).
    assert result.mistakes <= m_phi(result, 0.0) + 2
    with pytest.raises(ValueError, match="γ_t"):
        m_phi(olc.progressive(olc.make("perceptron"), X, y), 0.5)


def test_progressive_trains_in_place_and_reports_times():
    X, y = separable(n=100, seed=6)
    learner = olc.make("pa-i", C=0.5)
    untouched = clone(learner)
    result = olc.progressive(learner, X, y)
    assert learner.n_steps_ == 100 and not hasattr(untouched, "classes_")
    assert result.seconds >= 0 and result.compile_seconds >= 0
    assert result.summary()["mistakes"] == result.mistakes


def test_progressive_rejects_bad_arguments():
    X, y = separable(n=10)
    with pytest.raises(ValueError, match="passes"):
        olc.progressive(olc.make("perceptron"), X, y, passes=0)
    with pytest.raises(ValueError, match="rows"):
        olc.progressive(olc.make("perceptron"), X, y[:5])


def test_first_pass_in_data_order_then_permutations():
    """shuffle_first_pass=False: pass 1 in the data's order, later passes permuted with the
    generator's first draws; the k-pass run begins with the one-pass run."""
    X, y = separable(n=150, seed=5)
    result = olc.progressive(olc.make("e-omm"), X, y, passes=3, shuffle_seed=11,
                             shuffle_first_pass=False)
    orders = result.order.reshape(3, -1)
    np.testing.assert_array_equal(orders[0], np.arange(len(y)))
    rng = np.random.default_rng(11)
    np.testing.assert_array_equal(orders[1], rng.permutation(len(y)))
    np.testing.assert_array_equal(orders[2], rng.permutation(len(y)))
    one = olc.progressive(olc.make("e-omm"), X, y)
    np.testing.assert_array_equal(result.pred[:len(y)], one.pred)
    np.testing.assert_array_equal(result.score[:len(y)], one.score)
