"""Contract 6: bad input is rejected with a clear error that says where the problem is.

Errors found before the online loop starts (labels, shapes, feature count, hyper-parameters)
leave the learner exactly as it was. A NaN/inf value is found by the loop when it reaches the
row: the rows before it are learned (streaming semantics), the error names the row and column,
and carries the record of the learned rows.
"""
import copy
import math
import re

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import NotFittedError

import olc
from olc.learners.registry import UnknownAlgorithmError

from ._support import (ALGORITHMS, ENTRIES, KERNEL_MODELS, assert_same_model, assert_same_state,
                       each_algorithm)

N, D = 8, 6


def _data(seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((N, D))
    y = np.array([0, 1, 1, 0, 1, 0, 0, 1])
    return X, y


def _layouts():
    return [pytest.param(np.asarray, id="dense"), pytest.param(sp.csr_matrix, id="csr")]


def _has_location(message, row, col=None):
    ok = re.search(rf"\brow {row}\b", message) is not None
    if col is not None:
        ok = ok and re.search(rf"\bcolumn {col}\b", message) is not None
    return ok


# -- non-finite features --------------------------------------------------------------------

BAD_CELLS = [
    pytest.param([(3, 2)], (3, 2), id="one-cell"),
    pytest.param([(0, 0)], (0, 0), id="first-cell"),
    pytest.param([(7, 5)], (7, 5), id="last-cell"),
    pytest.param([(4, 4), (4, 1), (6, 0)], (4, 1), id="first-in-row-order"),
]


@each_algorithm
@pytest.mark.parametrize("conv", _layouts())
@pytest.mark.parametrize("bad_value", [np.nan, np.inf, -np.inf], ids=["nan", "inf", "-inf"])
@pytest.mark.parametrize("cells, where", BAD_CELLS)
def test_non_finite_feature_is_located(name, conv, bad_value, cells, where):
    X, y = _data()
    for r, c in cells:
        X[r, c] = bad_value
    row, col = where
    for call in ("fit", "partial_fit", "predict_then_learn"):
        learner = olc.make(name)
        with pytest.raises(ValueError) as info:
            if call == "fit":
                learner.fit(conv(X), y)
            else:
                getattr(learner, call)(conv(X), y, classes=[0, 1])
        msg = str(info.value)
        assert _has_location(msg, row, col), f"{call}: message lacks row {row}/column {col}: {msg}"
        # The rows before the bad one were learned, exactly as if the batch had ended there.
        if row > 0:
            ref = olc.make(name).partial_fit(conv(X[:row]), y[:row], classes=[0, 1])
            assert_same_model(ref, learner, f"{call}: state after the stop")
            assert learner.n_steps_ == row
            if hasattr(info.value, "record"):
                assert len(info.value.record.score) == row


@each_algorithm
@pytest.mark.parametrize("conv", _layouts())
@pytest.mark.parametrize("bad_value", [np.nan, np.inf], ids=["nan", "inf"])
def test_non_finite_feature_in_later_batch_and_prediction(name, conv, bad_value):
    X, y = _data()
    learner = olc.make(name).fit(conv(X), y)
    Xb = X.copy()
    Xb[5, 3] = bad_value
    for call in (learner.decision_function, learner.predict):
        before = copy.deepcopy(learner)
        with pytest.raises(ValueError) as info:
            call(conv(Xb))
        assert _has_location(str(info.value), 5, 3), str(info.value)
        assert_same_state(before, learner, "prediction must not change the model")
    with pytest.raises(ValueError) as info:
        learner.partial_fit(conv(Xb), y)
    assert _has_location(str(info.value), 5, 3), str(info.value)
    assert learner.n_steps_ == N + 5


@each_algorithm
def test_nan_label_is_located(name):
    X, y = _data()
    yf = y.astype(float)
    yf[2] = np.nan
    for fit in (lambda l: l.fit(X, yf), lambda l: l.partial_fit(X, yf, classes=[0.0, 1.0])):
        learner = olc.make(name)
        with pytest.raises(ValueError, match=r"\b2\b"):
            fit(learner)
        with pytest.raises(NotFittedError):
            learner.predict(X)


# -- labels ---------------------------------------------------------------------------------

@each_algorithm
def test_more_than_two_classes(name):
    """K ≥ 3 classes run one-vs-rest (tests/learners/multiclass); n-OMM, whose state grows, refuses
    in scikit-learn's words; a label outside ``classes=`` is named by position."""
    X, _ = _data()
    y3 = np.array([0, 1, 2, 0, 1, 2, 0, 1])
    if olc.make(name)._ovr_refusal:
        for call in (lambda: olc.make(name).fit(X, y3),
                     lambda: olc.make(name).partial_fit(X, y3),
                     lambda: olc.make(name).partial_fit(X, np.array([0, 1] * 4),
                                                        classes=[0, 1, 2])):
            with pytest.raises(ValueError, match="Only binary classification is supported"):
                call()
        return
    assert list(olc.make(name).fit(X, y3).classes_) == [0, 1, 2]
    fitted = olc.make(name).partial_fit(X, np.array([0, 1] * 4), classes=[0, 1, 2])
    if name in KERNEL_MODELS:
        assert fitted.n_support_.shape == (3,)
    else:
        assert fitted.coef_.shape == (3, X.shape[1])
    with pytest.raises(ValueError, match=r"y\[2\] = 2 is not one of the learner's classes"):
        olc.make(name).partial_fit(X, y3, classes=[0, 1, 3])


@each_algorithm
def test_one_class_on_first_call(name):
    X, _ = _data()
    ones = np.ones(N, dtype=int)
    learner = olc.make(name)
    with pytest.raises(ValueError, match="classes=") as info:
        learner.partial_fit(X, ones)
    assert "1" in str(info.value)
    with pytest.raises(NotFittedError):
        learner.predict(X)
    with pytest.raises(ValueError, match=r"\b1\b.*(label|class)|one class"):
        olc.make(name).fit(X, ones)
    # With classes= a single-label first batch is fine, and later batches complete the stream.
    learner.partial_fit(X, ones, classes=[0, 1])
    learner.partial_fit(X, np.zeros(N, dtype=int))
    assert list(learner.classes_) == [0, 1]


@each_algorithm
def test_unknown_label_on_later_call_names_row_and_changes_nothing(name):
    X, y = _data()
    learner = olc.make(name).fit(X, y)
    before = copy.deepcopy(learner)
    bad = y.copy()
    bad[3] = 7
    with pytest.raises(ValueError, match=r"y\[3\]|row 3") as info:
        learner.partial_fit(X, bad)
    assert "7" in str(info.value)
    assert_same_state(before, learner)
    with pytest.raises(ValueError, match="classes"):
        learner.partial_fit(X, y, classes=["a", "b"])
    assert_same_state(before, learner)


def _first_float_parameter(name):
    return next((k for k, v in ENTRIES[name].parameters.items() if isinstance(v, float)), None)


def _first_call_failures():
    for name in ALGORITHMS:
        yield pytest.param(name, "unknown-label", id=f"unknown-label-{name}")
        if _first_float_parameter(name) is not None:
            yield pytest.param(name, "invalid-hyperparameter", id=f"invalid-hyperparameter-{name}")


@pytest.mark.parametrize("name, cause", list(_first_call_failures()))
def test_failed_first_call_leaves_learner_unfitted(name, cause):
    """A first batch rejected before any row is learned must leave the learner unfitted, not
    half-initialised (one that has classes_ and zero state, and so silently predicts
    classes_[1] everywhere instead of raising NotFittedError)."""
    X, y = _data()
    learner = olc.make(name)
    if cause == "unknown-label":
        bad = y.copy()
        bad[3] = 7
        with pytest.raises(ValueError, match=r"y\[3\]|row 3"):
            learner.partial_fit(X, bad, classes=[0, 1])
    else:
        key = _first_float_parameter(name)
        learner.set_params(**{key: math.nan})
        with pytest.raises(ValueError, match=key):
            learner.partial_fit(X, y)
        learner.set_params(**{key: ENTRIES[name].parameters[key]})
    with pytest.raises(NotFittedError):
        learner.predict(X)
    assert not hasattr(learner, "classes_")
    assert not hasattr(learner, "n_steps_")


# -- shapes ---------------------------------------------------------------------------------

@each_algorithm
@pytest.mark.parametrize("conv", _layouts())
def test_feature_count_change_is_rejected(name, conv):
    X, y = _data()
    learner = olc.make(name).fit(conv(X), y)
    before = copy.deepcopy(learner)
    narrow = conv(X[:, :D - 2])
    for call in (lambda: learner.partial_fit(narrow, y), lambda: learner.decision_function(narrow),
                 lambda: learner.predict(narrow)):
        with pytest.raises(ValueError, match=rf"\b{D - 2}\b features.*\b{D}\b"):
            call()
    assert_same_state(before, learner)
    # fit starts over, so a new width is fine there.
    olc.make(name).fit(conv(X), y).fit(narrow, y)


@each_algorithm
@pytest.mark.parametrize("conv", _layouts())
def test_empty_batch_is_rejected(name, conv):
    X, y = _data()
    empty = conv(np.zeros((0, D)))
    with pytest.raises(ValueError, match=r"\b0 (sample|row)"):
        olc.make(name).partial_fit(empty, np.zeros(0, dtype=int), classes=[0, 1])
    with pytest.raises(ValueError, match=r"\b0 (sample|row)"):
        olc.make(name).fit(empty, np.zeros(0, dtype=int))
    learner = olc.make(name).fit(conv(X), y)
    before = copy.deepcopy(learner)
    with pytest.raises(ValueError, match=r"\b0 (sample|row)"):
        learner.partial_fit(empty, np.zeros(0, dtype=int))
    assert_same_state(before, learner)


@each_algorithm
def test_label_count_mismatch(name):
    X, y = _data()
    for fit in (lambda l: l.fit(X, y[:-1]), lambda l: l.partial_fit(X, y[:-1], classes=[0, 1])):
        with pytest.raises(ValueError, match=rf"\b{N}\b.*\b{N - 1}\b"):
            fit(olc.make(name))
    learner = olc.make(name).fit(X, y)
    before = copy.deepcopy(learner)
    with pytest.raises(ValueError, match=rf"\b{N}\b.*\b{N + 1}\b"):
        learner.partial_fit(X, np.append(y, 1))
    assert_same_state(before, learner)


# -- the registry -----------------------------------------------------------------------------

def test_unknown_algorithm_lists_known_names():
    with pytest.raises(UnknownAlgorithmError) as info:
        olc.make("no-such-learner")
    assert isinstance(info.value, LookupError)
    msg = str(info.value)
    assert "no-such-learner" in msg
    for name in ALGORITHMS:
        assert name in msg, f"known name {name} missing from: {msg}"


@each_algorithm
def test_unknown_parameter_is_named(name):
    with pytest.raises(TypeError) as info:
        olc.make(name, no_such_parameter=1)
    msg = str(info.value)
    assert "no_such_parameter" in msg
    for param in ENTRIES[name].parameters:
        assert param in msg, f"valid parameter {param} not listed: {msg}"


@each_algorithm
def test_preset_parameters_are_fixed(name):
    """A named variant's preset (e.g. ce-OMM's ρ = 0) is not a parameter of that name."""
    for key, _ in ENTRIES[name].preset:
        with pytest.raises(TypeError, match=key):
            olc.make(name, **{key: 0.5})


# -- hyper-parameter values -----------------------------------------------------------------

INVALID = {
    "perceptron": [dict(eta=0), dict(eta=-1.0), dict(eta=math.inf), dict(update="sometimes")],
    "pa-i": [dict(C=-1), dict(C=0), dict(C=math.inf), dict(C="large")],
    "pa-ii": [dict(C=-1), dict(C=0.0), dict(C=math.inf)],
    "e-omm": [dict(rho=2), dict(rho=-0.1), dict(rho=1.0000001), dict(rho="one")],
}


def _invalid_cases():
    cases = []
    for name in ALGORITHMS:
        for params in INVALID.get(name, []):
            cases.append(pytest.param(name, params, id=f"{name}-{params}"))
        # Generic: NaN is never a valid value of a numeric hyper-parameter.
        for key, default in ENTRIES[name].parameters.items():
            if isinstance(default, float):
                cases.append(pytest.param(name, {key: math.nan}, id=f"{name}-{key}=nan"))
    return cases


@pytest.mark.parametrize("name, params", _invalid_cases())
def test_invalid_hyperparameters_rejected_at_fit(name, params):
    X, y = _data()
    (key, _), = params.items()
    learner = olc.make(name, **params)  # __init__ only stores (scikit-learn convention)
    assert learner.get_params()[key] is params[key]
    for call in (lambda l: l.fit(X, y), lambda l: l.partial_fit(X, y, classes=[0, 1]),
                 lambda l: l.predict_then_learn(sp.csr_matrix(X), y, classes=[0, 1])):
        with pytest.raises(ValueError, match=key):
            call(olc.make(name, **params))
    fresh = olc.make(name, **params)
    with pytest.raises(ValueError, match=key):
        fresh.fit(X, y)
    with pytest.raises(NotFittedError):
        fresh.predict(X)
    # set_params on a fitted learner: the next call rejects it and the model is unchanged.
    fitted = olc.make(name).fit(X, y)
    fitted.set_params(**params)
    before = copy.deepcopy(fitted)
    with pytest.raises(ValueError, match=key):
        fitted.partial_fit(X, y)
    assert_same_state(before, fitted)
