"""State growth (olc/river/growth.py): learning with columns that appear as the stream goes
(capacity doubled, new columns padded with their initial value) gives bit for bit what
learning with every column declared up front gives — for every learner whose rule allows it;
the others refuse a new feature clearly."""
import numpy as np
import pytest

import olc
from _support import (EXTRA, FIXED, GROWING, MULTICLASS, assert_same_bits, assert_same_state,
                      dict_stream, learn, learner, wrap)
from olc.learners import InputError
from olc.river import growth


@pytest.mark.parametrize("strict", [False, True], ids=["fast", "strict"])
@pytest.mark.parametrize("name", GROWING + list(EXTRA))
def test_growing_columns_equal_declared_columns(name, strict):
    stream, order = dict_stream(name, seed=2)
    with olc.strict_mode(strict):
        grown = wrap(name)
        scores_grown = learn(grown, stream)
        declared = wrap(name, features=order)
        scores_declared = learn(declared, stream)
    # The growing model really grew: capacity doubled past the 40 features (8, 16, 32, 64).
    assert len(order) == 40 and grown._width == 64 and declared._width == 40
    assert grown._columns.names == order
    assert_same_bits(scores_grown, scores_declared, f"{name}: decision values")
    assert_same_state(grown.to_olc(), declared.to_olc(), name)


@pytest.mark.parametrize("name", GROWING + list(EXTRA))
def test_initial_state_is_the_same_in_every_column(name):
    """The premise of padding: a learner's initial state at width w is its initial state at
    width 1 repeated column by column (AROW's full covariance: the identity, its bias
    coordinate last), and growing an initial state gives the initial state."""
    model = learner(name)
    small = growth.initial_state(model, 3)
    big = growth.initial_state(model, 11)
    assert_same_bits(growth.resize(model, small, 3, 11)[0], big[0], f"{name}: vecs")
    assert_same_bits(growth.resize(model, small, 3, 11)[1], big[1], f"{name}: ints")
    assert_same_bits(growth.resize(model, big, 11, 3)[0], small[0], f"{name}: vecs cut")
    if model._rule not in (olc.AROW()._rule, olc.make("arow-regression")._rule):
        one = growth.initial_state(model, 1)[0]
        assert_same_bits(big[0], np.repeat(one, 11, axis=1), f"{name}: columns")


def test_full_covariance_moves_the_bias_coordinate():
    """AROW's full layout keeps the bias as the last coordinate: growing from width 2 to 4
    moves μ_b, Σ_b· and Σ·b to index 4 and leaves the new coordinates at the prior N(0, 1),
    uncorrelated — values written by hand."""
    model = olc.AROW()
    vecs = np.array([[1.0, 2.0, 3.0],      # μ = (1, 2), μ_b = 3
                     [4.0, 5.0, 6.0],      # Σ rows (coordinates 0, 1, bias)
                     [5.0, 7.0, 8.0],
                     [6.0, 8.0, 9.0]])
    grown, _, _ = growth.resize(model, (vecs, np.zeros(0, np.int64), np.zeros(0)), 2, 4)
    expected = np.array([[1.0, 2.0, 0.0, 0.0, 3.0],
                         [4.0, 5.0, 0.0, 0.0, 6.0],
                         [5.0, 7.0, 0.0, 0.0, 8.0],
                         [0.0, 0.0, 1.0, 0.0, 0.0],
                         [0.0, 0.0, 0.0, 1.0, 0.0],
                         [6.0, 8.0, 0.0, 0.0, 9.0]])
    assert_same_bits(grown, expected, "grown")


@pytest.mark.parametrize("name", FIXED)
def test_fixed_width_learner_refuses_a_new_feature(name):
    stream, order = dict_stream(name, seed=4)
    model = wrap(name)
    model.learn_one(*stream[0])
    before = model.to_olc()
    x, y = stream[1]
    x, new = {**x, "brand-new": x[next(iter(x))]}, "brand-new"  # in the learner's domain
    with pytest.raises(InputError, match=rf"feature '{new}' is new, but .* cannot grow exactly "
                                         r"\(.+\); declare every feature up front"):
        model.learn_one(x, y)
    assert model._columns.names == list(stream[0][0])  # nothing added
    assert_same_state(model.to_olc(), before, name)
    # Declared up front, the same stream is learned.
    declared = wrap(name, features=order)
    learn(declared, stream)
    assert declared.n_steps_ == len(stream)


def test_refusal_reasons_cover_exactly_the_fixed_learners():
    # (the multiclass layouts refuse too, but olc.river does not wrap them at all)
    assert sorted(FIXED) == sorted(e.name for e in olc.algorithms()
                                   if growth.refusal(olc.make(e.name)) is not None
                                   and e.name not in MULTICLASS)
    kernel = {e.name for e in olc.algorithms()  # pools (and FOGD's Ω) stored by feature
              if e.family in ("kernel", "kernel_extra", "feature_map")}
    assert {"romma", "a-romma", "pumma", "generalized-perceptron", "obpm", "n-omm",
            "e-omm-lp", "ce-omm-lp", "winnow", "weighted-majority",
            "randomized-weighted-majority"} | kernel == set(FIXED)


def test_capacity_grows_on_prediction_only_as_room():
    """A prediction with unknown features may widen the capacity (for the exact row) but adds
    no column, so learning afterwards numbers the features as if it had not happened."""
    model = olc.river.make("pa-i")
    model.learn_one({"a": 1.0}, True)
    width = model._width
    model.predict_one({f"k{i}": 1.0 for i in range(20)})
    assert model._columns.names == ["a"] and model._width >= 21 > width
    model.learn_one({"b": 2.0, "a": 1.0}, False)
    assert model._columns.names == ["a", "b"]
