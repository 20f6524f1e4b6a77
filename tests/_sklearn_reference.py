"""scikit-learn's Passive-Aggressive estimators as the drop-in tests' reference, on every
scikit-learn version: its ``PassiveAggressiveClassifier``/``Regressor`` where they exist
(deprecated in 1.8, removed in 1.10), otherwise their named successors,
``SGDClassifier(loss="hinge", penalty=None, learning_rate="pa1"/"pa2", eta0=C)`` and
``SGDRegressor(loss="epsilon_insensitive", penalty=None, learning_rate="pa1"/"pa2",
eta0=C)`` (PA-I for the PA classes' first loss, PA-II for the squared one, exactly as the PA
classes call scikit-learn's SGD code). ``OLC_TEST_SKLEARN_SUCCESSOR=1`` uses the successors
even where the PA classes exist (what a scikit-learn ≥ 1.10 run does);
``tests/sklearn/test_dropin_equivalence.py`` checks that both give identical models where
both exist."""
import os
import warnings

from sklearn import linear_model as sk

_PA_FIRST = {"classifier": "hinge", "regressor": "epsilon_insensitive"}
_PA_SECOND = {"classifier": "squared_hinge", "regressor": "squared_epsilon_insensitive"}


def _use_successor(kind):
    name = "PassiveAggressiveClassifier" if kind == "classifier" else \
        "PassiveAggressiveRegressor"
    return os.environ.get("OLC_TEST_SKLEARN_SUCCESSOR") == "1" or not hasattr(sk, name)


def successor_params(params, kind):
    """The SGD successor's parameters for PA parameters ``params``."""
    p = dict(params)
    loss = p.pop("loss", _PA_FIRST[kind])
    if loss not in (_PA_FIRST[kind], _PA_SECOND[kind]):
        raise ValueError(f"no SGD successor for loss={loss!r}")
    eta0 = p.pop("C", 1.0)
    return {**p, "loss": _PA_FIRST[kind], "penalty": None,
            "learning_rate": "pa1" if loss == _PA_FIRST[kind] else "pa2", "eta0": eta0}


def successor(kind, **params):
    cls = sk.SGDClassifier if kind == "classifier" else sk.SGDRegressor
    return cls(**successor_params(params, kind))


def passive_aggressive(kind, **params):
    if _use_successor(kind):
        return successor(kind, **params)
    cls = sk.PassiveAggressiveClassifier if kind == "classifier" else \
        sk.PassiveAggressiveRegressor
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return cls(**params)


def passive_aggressive_classifier(**params):
    return passive_aggressive("classifier", **params)


def passive_aggressive_regressor(**params):
    return passive_aggressive("regressor", **params)
