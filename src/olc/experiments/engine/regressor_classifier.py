"""A catalogue *regressor* used as a binary classifier through the sign of its output — an
engine model (:mod:`.models`) for any experiment.

The classic case is LMS (Widrow & Hoff 1960, "Adaptive switching circuits"): least mean
squares regression on the targets ±1, predicting sign(w·x + b). Harrington et al. 2003 (§4.2,
Fig. 2) compare with it this way: "LMS ... is a regression algorithm where we take the sign
of the predictions to convert to the classification setting". With olc's ``sgd-regression``
(squared loss ½(y − ŷ)², ``schedule="constant"``, ``eta0`` = the step) the update is LMS's
w ← w + η(y − ŷ)x, b ← b + η(y − ŷ).

The regressor learns the labels as real targets (−1.0, +1.0); each step's prediction is the
sign of the regressor's prediction ŷ made *before* its update (sign(0) = +1, olc's
convention), read from the regressor's own compiled loop (``record.score``), so nothing is
re-implemented here. ``updated`` is the regressor's own flag (an LMS step changes w whenever
ŷ ≠ y, i.e. nearly always).

In a TOML spec::

    [[learners]]
    name = "sgd-regression"
    label = "LMS"
    method = "olc.experiments.engine.regressor_classifier:regressor_as_classifier"
    params = { regressor = "sgd-regression", eta0 = 0.5, schedule = "constant" }
"""
from __future__ import annotations

import time

import numpy as np

from .models import Steps


def sign(values):
    """±1 with sign(0) = +1 (olc's convention)."""
    return np.where(np.asarray(values) >= 0.0, 1, -1).astype(np.int8)


class RegressorAsClassifier:
    """An online model (``learn``/``predict``, labels ±1) over the catalogue regressor named
    ``regressor`` built with the other ``params``. Raises ValueError when the name is not a
    regressor of the catalogue."""

    def __init__(self, params, seed=None):
        from ...learners import make
        from ...learners.registry import info

        params = dict(params)
        try:
            name = params.pop("regressor")
        except KeyError:
            raise ValueError("regressor-as-classifier: params must name the 'regressor' "
                             "(e.g. 'sgd-regression')") from None
        entry = info(name)
        if entry.kind != "regressor":
            raise ValueError(f"regressor-as-classifier: {name!r} is a {entry.kind}, not a "
                             "regressor")
        self.name = entry.name
        self.regressor = make(entry.name, **params)

    def learn(self, X, y) -> Steps:
        targets = np.where(np.asarray(y) > 0, 1.0, -1.0)
        t0 = time.perf_counter()
        record = self.regressor.predict_then_learn(X, targets)
        seconds = time.perf_counter() - t0
        return Steps(pred=sign(record.score), updated=np.asarray(record.updated),
                     seconds=seconds)

    def predict(self, X):
        return sign(self.regressor.predict(X)).astype(np.float64)


def regressor_as_classifier(params, seed):
    """The engine factory (``LearnerSpec(method=regressor_as_classifier)``)."""
    return RegressorAsClassifier(params, seed)
