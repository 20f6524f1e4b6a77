"""Contract 10: scikit-learn parameter protocol — get_params/set_params/clone — and ``fit``
starts over (fitting twice equals fitting once on the second data)."""
import copy
import inspect
import pickle

import numpy as np
import pytest
from sklearn.base import clone, is_classifier
from sklearn.exceptions import NotFittedError

import olc

from ._support import (ENTRIES, assert_same_model, assert_same_records, assert_same_state,
                       each_algorithm, stream)


@each_algorithm
def test_catalogue_entry_is_consistent(name):
    entry = ENTRIES[name]
    learner = olc.make(name)
    assert isinstance(learner, entry.cls)
    assert is_classifier(learner)
    params = learner.get_params()
    # Every advertised parameter is a constructor parameter with the advertised default,
    # and presets carry their fixed value.
    assert set(entry.parameters) <= set(params)
    for key, default in entry.parameters.items():
        assert params[key] == default
    for key, value in entry.preset:
        assert params[key] == value
    # __init__ only stores: no fitted attributes on a fresh learner.
    assert not [k for k in vars(learner) if k.endswith("_") or k.startswith("_")]
    assert set(vars(learner)) == set(inspect.signature(entry.cls.__init__).parameters) - {"self"}
    assert olc.learners.name_of(learner) == name


@each_algorithm
def test_get_set_params_roundtrip(name):
    learner = olc.make(name)
    params = learner.get_params()
    assert learner.set_params(**params) is learner
    assert learner.get_params() == params
    with pytest.raises(ValueError):
        learner.set_params(no_such_parameter=1)


@each_algorithm
def test_clone_of_fitted_learner_is_unfitted_with_same_params(name):
    X, y = stream(51)
    learner = olc.make(name).fit(X, y)
    twin = clone(learner)
    assert type(twin) is type(learner)
    assert twin.get_params() == learner.get_params()
    with pytest.raises(NotFittedError):
        twin.predict(X)
    assert_same_model(twin.fit(X, y), learner)


@each_algorithm
def test_deepcopy_and_pickle_preserve_state(name):
    X, y = stream(52)
    learner = olc.make(name).partial_fit(X[:30], y[:30], classes=[0, 1])
    for twin in (copy.deepcopy(learner), pickle.loads(pickle.dumps(learner))):
        assert_same_state(learner, twin)
        assert_same_records(copy.deepcopy(learner).predict_then_learn(X[30:], y[30:]),
                            twin.predict_then_learn(X[30:], y[30:]))


@each_algorithm
def test_fit_twice_equals_fit_once(name):
    X1, y1 = stream(53, n=40, d=7)
    X2, y2 = stream(54, n=50, d=4)
    fresh = olc.make(name).fit(X2, y2)

    twice = olc.make(name).fit(X1, y1).fit(X2, y2)
    assert_same_state(fresh, twice)

    # fit after partial_fit, with other labels and another width, starts over as well.
    mixed = olc.make(name)
    mixed.partial_fit(X1, np.where(y1 == 1, "b", "a"), classes=["a", "b"])
    mixed.fit(X2, y2)
    assert_same_state(fresh, mixed)
    assert list(mixed.classes_) == [0, 1] and mixed.n_features_in_ == 4
    assert mixed.n_steps_ == len(y2)


@each_algorithm
def test_fit_does_not_modify_its_input(name):
    X, y = stream(55)
    X0, y0 = X.copy(), y.copy()
    olc.make(name).fit(X, y)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


@each_algorithm
def test_set_params_between_batches_takes_effect(name):
    """Hyper-parameters are read on every call (set_params is not silently ignored)."""
    entry = ENTRIES[name]
    X, y = stream(56)
    learner = olc.make(name).partial_fit(X[:30], y[:30], classes=[0, 1])
    for key, default in entry.parameters.items():
        if isinstance(default, float):
            before = copy.deepcopy(learner)
            learner.set_params(**{key: default / 2})
            # A learner built with the new value, given the same learned state.
            ref = olc.make(name, **{key: default / 2})
            hyper = set(ref.get_params())
            for attr, value in vars(before).items():
                if attr not in hyper:
                    setattr(ref, attr, copy.deepcopy(value))
            assert_same_records(ref.predict_then_learn(X[30:], y[30:]),
                                learner.predict_then_learn(X[30:], y[30:]))
            return
