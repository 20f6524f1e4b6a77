"""Bad input to olc.river: one clear error naming what and where, raised before the model
changes (no column, no state, no counter left behind); and the conventions of River's
binary classifiers (labels, prediction before any example, probabilities)."""
import math
import pickle

import numpy as np
import pandas as pd
import pytest

import olc
import olc.river
from _support import assert_same_state
from olc.learners import ParameterError
from olc.learners import InputError


def _trained():
    model = olc.river.make("pa-i")
    model.learn_one({"a": 1.0, "b": -2.0}, True)
    model.learn_one({"a": -1.0, "c": 0.5}, False)
    return model


def _unchanged(model, action, match):
    before = pickle.dumps(model)
    names = list(model._columns.names)
    with pytest.raises(InputError, match=match):
        action()
    assert model._columns.names == names
    after = pickle.loads(before)
    assert_same_state(model.to_olc(), after.to_olc())


@pytest.mark.parametrize("value", ["abc", "1.5", None, [1.0], 10 ** 400, 1j])
def test_a_value_that_is_not_a_number_is_named(value):
    model = _trained()
    x = {"a": 1.0, "new": 2.0, "b": value}
    match = r"feature 'b' = .* is not a number"
    _unchanged(model, lambda: model.learn_one(x, True), match)
    _unchanged(model, lambda: model.predict_one(x), match)
    _unchanged(model, lambda: model.predict_proba_one(x), match)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, np.float32("nan")])
@pytest.mark.parametrize("cached", [False, True])
def test_a_value_that_is_not_finite_is_named(value, cached):
    model = _trained()
    if cached:  # the row's key tuple is cached: the fast path meets the NaN
        model.learn_one({"a": 1.0, "zz": 2.0}, True)
    x = {"a": 1.0, "zz": value} if cached else {"zz": 2.0, "q": value}
    _unchanged(model, lambda: model.learn_one(x, True), r"feature '(zz|q)' = .* is not finite")
    _unchanged(model, lambda: model.predict_one(x), r"is not finite")


def test_values_that_are_numbers_are_taken():
    model = _trained()
    model.learn_one({"a": True, "b": np.int64(2), "c": np.float32(0.5), "d": 3}, False)
    assert model._columns.names == ["a", "b", "c", "d"]


@pytest.mark.parametrize("label", ["cat", 2, None, -1, [True]])
def test_a_label_outside_the_two_classes(label):
    model = _trained()
    _unchanged(model, lambda: model.learn_one({"a": 1.0}, label),
               r"label .* is not one of this classifier's two classes \(False, True\); "
               r"olc.river's classifiers are binary: declare the two labels with "
               r"classes=\(a, b\)")


def test_other_labels_are_declared():
    model = olc.river.make("perceptron", classes=("spam", "ham"))
    assert model._classes == ("ham", "spam")  # sorted: "spam" is the positive class
    model.learn_one({"a": 1.0}, "ham")  # score 0 → predicted spam (+1): a mistake
    assert model.predict_one({"a": 1.0}) == "ham"
    assert set(model.predict_proba_one({"a": 1.0})) == {"ham", "spam"}
    with pytest.raises(InputError, match="label 'eggs' .* classes \\('ham', 'spam'\\)"):
        model.learn_one({"a": 1.0}, "eggs")
    with pytest.raises(InputError, match="classes must be two distinct"):
        olc.river.make("perceptron", classes=("a", "a"))
    with pytest.raises(InputError, match="is a regressor: classes= applies"):
        olc.river.make("pa-regression", classes=(0, 1))


def test_learn_many_bad_input_names_row_and_column():
    model = _trained()
    bad = pd.DataFrame({"a": [1.0, 2.0], "b": [0.5, math.nan]}, index=["r1", "r2"])
    _unchanged(model, lambda: model.learn_many(bad, pd.Series([True, False])),
               r"feature 'b' = nan at row 'r2' is not finite")
    text = pd.DataFrame({"a": [1.0, 2.0], "b": ["x", 1.0]})
    _unchanged(model, lambda: model.learn_many(text, pd.Series([True, False])),
               r"feature 'b' = 'x' \(str\) at row 0 is not a number")
    ok = pd.DataFrame({"a": [1.0, 2.0]})
    _unchanged(model, lambda: model.learn_many(ok, pd.Series([True, "dog"])),
               r"label 'dog' \(str\) is not one of")
    _unchanged(model, lambda: model.learn_many(ok, pd.Series([True])), r"X has 2 rows but y has 1")


def test_regressor_targets():
    model = olc.river.make("pa-regression")
    for target, match in [("3.0", r"target '3.0' \(str\) is not a number"),
                          (math.nan, r"target nan is not finite"),
                          (math.inf, r"target inf is not finite")]:
        with pytest.raises(InputError, match=match):
            model.learn_one({"a": 1.0}, target)
    assert model.n_steps_ == 0 and model._columns.names == []
    model.learn_one({"a": 1.0}, np.float32(2.0))
    model.learn_one({"a": 1.0}, 3)
    assert model.n_steps_ == 2


def test_the_wrong_kind_of_learner():
    with pytest.raises(InputError, match="PassiveAggressiveRegression is a regressor: wrap it "
                                         "in olc.river.Regressor"):
        olc.river.Classifier(olc.make("pa-regression"))
    with pytest.raises(InputError, match="learner must be an olc learner"):
        olc.river.Regressor("pa")
    with pytest.raises(ParameterError):
        olc.river.make("pa-i", C=-1.0)


def test_the_experts_domain():
    winnow = olc.river.make("winnow", features=["a", "b"])
    with pytest.raises(InputError, match=r"feature 'b' = 0.5 is outside Winnow's input domain "
                                         r"\{0, 1\}"):
        winnow.learn_one({"a": 1.0, "b": 0.5}, True)
    wm = olc.river.make("weighted-majority", features=["a", "b"])
    with pytest.raises(InputError, match=r"expert 'b' gave no prediction"):
        wm.learn_one({"a": 1.0}, True)
    with pytest.raises(InputError, match=r"feature 'a' = 0.0 is outside WeightedMajority's"):
        wm.predict_one({"a": 0.0, "b": 1.0})
    assert wm.n_steps_ == winnow.n_steps_ == 0


def test_prediction_before_any_example():
    """River's binary linear classifiers (PAClassifier, Perceptron, ALMAClassifier) predict
    from their initial state before any example, with probabilities σ(0) = ½; so do these,
    with olc's sign(0) = +1: the positive class — the prediction partial_fit records on a
    first row. e-OMM predicts +1 before any example (Ho-Nguyen et al. 2025, Alg. 1 line 2);
    Winnow predicts 1 only when w·x > N (Kitani, Alg. 4): with its initial weights 1 and
    N = d = 2, x = (1, 0) gives 1 ≤ 2, the negative class."""
    assert olc.river.make("winnow").predict_one({"a": 1.0, "b": 0.0}) is False
    for name in ("pa-i", "perceptron", "e-omm", "alma2", "arow", "romma"):
        model = olc.river.make(name)
        x = {"a": 1.0, "b": 0.0}
        assert model.predict_one(x) is True, name
        if name != "e-omm":
            assert model.predict_proba_one(x) == {False: 0.5, True: 0.5}, name
    # A regressor predicts its initial w·x + b: 0.
    assert olc.river.make("arow-regression").predict_one({"a": 3.0}) == 0.0


def test_probabilities_are_the_logistic_of_the_margin():
    model = _trained()
    x = {"a": 0.3, "b": 1.0}
    s = model.decision_one(x)
    p = model.predict_proba_one(x)
    assert p[True] == pytest.approx(1.0 / (1.0 + math.exp(-s)), rel=1e-15)
    assert p[False] + p[True] == pytest.approx(1.0)
    assert model.predict_one(x) is (s >= 0)
    # No overflow far from the boundary.
    assert olc.river.make("pa-i").predict_proba_one({"a": 0.0}) == {False: 0.5, True: 0.5}


def test_declared_features_and_non_dict_input():
    with pytest.raises(InputError, match="features names 'a' twice"):
        olc.river.make("pa-i", features=["a", "b", "a"])
    with pytest.raises(InputError, match="features must be a list of feature names"):
        olc.river.make("pa-i", features=3)
    model = olc.river.make("pa-i", features=("a", "b"))
    assert model._columns.names == ["a", "b"] and model._width == 2
    with pytest.raises(InputError, match="x must be a dict of feature values, got list"):
        model.learn_one([1.0, 2.0], True)
