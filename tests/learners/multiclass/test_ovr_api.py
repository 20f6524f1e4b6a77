"""One-vs-rest through the public API: iris end to end (against scikit-learn's own
OneVsRestClassifier around olc's binary learner), the progressive protocol's mistakes, a
20 Newsgroups-shaped sparse stream, overflow and NaN rows, and bad input."""
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_iris
from sklearn.multiclass import OneVsRestClassifier

import olc
from olc.learners import InputError, StreamStoppedError


def _iris():
    X, y = load_iris(return_X_y=True)
    order = np.random.default_rng(0).permutation(len(y))
    return X[order], y[order]


def test_iris_fit_works_in_the_data_order():
    X, y = load_iris(return_X_y=True)
    model = olc.make("pa-i").fit(X, y)  # failed before: "Only binary classification"
    assert model.coef_.shape == (3, 4) and model.intercept_.shape == (3,)
    assert model.decision_function(X).shape == (150, 3)
    assert set(model.predict(X)) <= {0, 1, 2}


@pytest.mark.parametrize("name", ["pa-i", "perceptron", "arow"])
def test_iris_equals_scikit_learn_one_vs_rest(name):
    """scikit-learn's OneVsRestClassifier fits one olc binary learner per class on 0/1
    labels and predicts the argmax of their decision values: the same model."""
    X, y = _iris()
    ours = olc.make(name).fit(X, y)
    theirs = OneVsRestClassifier(olc.make(name)).fit(X, y)
    np.testing.assert_array_equal(ours.coef_,
                                  np.vstack([e.coef_ for e in theirs.estimators_]))
    np.testing.assert_array_equal(ours.decision_function(X), theirs.decision_function(X))
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


def test_iris_accuracy_is_reasonable():
    X, y = _iris()
    assert olc.make("pa-i").fit(X, y).score(X, y) >= 0.6  # chance: 1/3
    assert olc.make("arow").fit(X, y).score(X, y) >= 0.9


def test_progressive_counts_wrong_classes():
    X, y = _iris()
    labels = np.array(["setosa", "versicolor", "virginica"])[y]
    result = olc.progressive(olc.make("perceptron"), X, labels, passes=2, shuffle_seed=1)
    # class indices in the smallest exact dtype (progressive's record): int8 for 3 classes
    assert result.pred.dtype == np.int8 and result.y.dtype == np.int8
    np.testing.assert_array_equal(result.y, y[result.order])  # class indices
    # the mistakes are the steps whose predicted class differs from the true one, as an
    # independent replay of the same stream's predictions shows
    replay = olc.make("perceptron")
    expected = 0
    for row in result.order:
        expected += replay.predict(X[row:row + 1])[0] != labels[row] if replay._is_initialised() \
            else labels[row] != "setosa"  # an unfitted learner's first prediction: class 0
        replay.partial_fit(X[row:row + 1], labels[row:row + 1], classes=labels[:0].tolist()
                           or ["setosa", "versicolor", "virginica"])
    assert result.mistakes == expected
    assert result.error_rate_curve()[-1] == pytest.approx(expected / (2 * len(y)))


def test_binary_record_keeps_int8():
    X, y = _iris()
    keep = y > 0
    result = olc.progressive(olc.make("perceptron"), X[keep], y[keep])
    assert result.pred.dtype == np.int8 and set(np.unique(result.pred)) <= {-1, 1}


def test_twenty_newsgroups_shaped_sparse_stream():
    rng = np.random.default_rng(0)
    n, d, k = 3000, 20000, 20
    X = sp.random(n, d, density=0.003, format="csr", random_state=1, dtype=np.float64)
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    for name in ("pa-i", "perceptron", "sgd"):
        model = olc.make(name)
        record = model.predict_then_learn(X, y)
        assert model.coef_.shape == (k, d)
        assert record.pred.min() >= 0 and record.pred.max() < k
        assert model.decision_function(X[:5]).shape == (5, k)
        assert model.predict(X).shape == (n,)


def test_overflow_at_a_later_class_says_which_learned_the_row():
    """Perceptron without a bias, η = 1e308 (the perceptron stores its update unchecked; the
    next score that is not finite stops the stream). Row 0, x = (1, 1), class 0: w₀ = (η, η),
    w₁ = w₂ = (−η, −η). Row 1, x = (0.9, −1), class 2: class 1 scores +0.1η (wrong), its
    update makes w₁ = (−1.9η, 0) = (−inf, 0). Row 2, x = (0, 1), class 1: class 0 scores
    w₀·x finite and learns the row; class 1 scores −inf·0 = NaN: the stream stops there."""
    X = np.array([[1.0, 1.0], [0.9, -1.0], [0.0, 1.0]])
    y = np.array([0, 2, 1])
    params = dict(eta=1e308, fit_intercept=False)
    model = olc.make("perceptron", **params)
    with pytest.raises(StreamStoppedError, match=r"row 2 in the learner of class 1.*The 2 "
                                                  r"row\(s\) before it were learned by every "
                                                  r"class's learner; the learners of classes "
                                                  r"\[0\] learned row 2, those of \[1, 2\] "
                                                  r"did not") as info:
        model.partial_fit(X, y, classes=[0, 1, 2])
    assert info.value.rows_learned == 2 and info.value.row == 2 and model.n_steps_ == 2
    # class 0's learner saw rows 0..2, the others rows 0..1: as binary learners would
    for c, rows in ((0, 3), (1, 2), (2, 2)):
        ref = olc.make("perceptron", **params).partial_fit(
            X[:rows], np.where(y[:rows] == c, 1, -1), classes=[-1, 1])
        np.testing.assert_array_equal(model.coef_[c], ref.coef_[0])


def test_nan_row_is_learned_by_no_class():
    X = np.array([[1.0, 0.0], [np.nan, 1.0], [0.0, 1.0]])
    model = olc.make("pa")
    with pytest.raises(StreamStoppedError, match="NaN at row 1, column 0") as info:
        model.partial_fit(X, [0, 1, 2], classes=[0, 1, 2])
    assert info.value.rows_learned == 1
    reference = olc.make("pa").partial_fit(X[:1], [0], classes=[0, 1, 2])
    np.testing.assert_array_equal(model.coef_, reference.coef_)


def test_bad_input():
    X = np.random.default_rng(0).standard_normal((6, 3))
    with pytest.raises(InputError, match=r"y\[2\] = 7 is not one of the learner's classes"):
        olc.make("pa").partial_fit(X, [0, 1, 7, 2, 0, 1], classes=[0, 1, 2])
    model = olc.make("pa").fit(X, [0, 1, 2, 2, 0, 1])
    with pytest.raises(InputError, match=r"y\[1\] = 5 is not one of the learner's classes"):
        model.partial_fit(X[:2], [0, 5])
    with pytest.raises(InputError, match=r"only 1 class \[3\]; at least 2 classes"):
        olc.make("pa").fit(X, [3] * 6)
    with pytest.raises(InputError, match=r"classes=\[0, 1, 2, 3\] differs"):
        model.partial_fit(X, [0, 1, 2, 2, 0, 1], classes=[0, 1, 2, 3])
    with pytest.raises(InputError, match="NaiveOMM cannot learn 3 classes one-vs-rest"):
        olc.make("n-omm").fit(X, [0, 1, 2, 2, 0, 1])
    with pytest.raises(InputError, match="τ .* binary classifiers only"):
        olc.progressive(olc.make("pa"), X, [0, 1, 2, 2, 0, 1], tau_on="data")
    assert not olc.make("pa")._is_initialised()


def test_classes_given_first_may_include_unseen_ones():
    X = np.random.default_rng(0).standard_normal((4, 3))
    model = olc.make("pa").partial_fit(X, [0, 1, 0, 1], classes=[0, 1, 2])
    assert model.coef_.shape == (3, 3)
    assert np.all(model.coef_[2] <= np.inf)  # class 2 learned "rest" on every row
    ref = olc.make("pa").partial_fit(X, [-1, -1, -1, -1], classes=[-1, 1])
    np.testing.assert_array_equal(model.coef_[2], ref.coef_[0])


def test_olc_run_on_a_multiclass_svmlight_file(tmp_path):
    """The CLI's run: mistakes and error rate over K classes; τ and γ̄ (binary notions) are
    not reported."""
    import json

    from sklearn.datasets import dump_svmlight_file
    from typer.testing import CliRunner

    from olc.cli import app

    X, y = _iris()
    dump_svmlight_file(X, y, str(tmp_path / "iris.svm"), zero_based=False)
    res = CliRunner().invoke(app, ["run", "pa-i", "--data", str(tmp_path / "iris.svm"),
                                   "--json"])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    replay = olc.progressive(olc.make("pa-i"), X, y)
    assert summary["mistakes"] == replay.mistakes
    assert summary["tau"] is None and summary["final_margin"] is None
