"""Engine models (``factory(params, seed) -> OnlineModel``, see
``olc.experiments.engine.models``) for the OBPM reproduction: a catalogue classifier that

- takes its random seed from the trial (OBPM's Bernoulli draws differ between trials, as
  the paper's 10 / 30 trials need; the engine's plain registry model would give every trial
  the learner's default seed), and
- reports per step the number of updates it made (``series["updates"]``): for OBPM the
  number of *members* that updated (its record's ``aux``; Fig. 3(b)'s "total number of
  updates" sums them, as §4.1's "total number of updates of all the perceptrons"), for a
  single-vector learner 1 or 0.

The learning is the learner's own compiled loop (``predict_then_learn``).
"""
from __future__ import annotations

import time

import numpy as np

from ..engine.models import Steps

CLASSES = np.array([-1.0, 1.0])
SEED_LIMIT = 2**53   # OBPM stores its seed exactly in a float64


def member_updates(learner, record):
    """Per-step updates of ``learner``'s record: OBPM's members that updated (``aux``), or
    the 0/1 update flag of a single-vector learner."""
    if type(learner).__name__ == "OnlineBayesPointMachine":
        return np.asarray(record.aux, dtype=np.float64)
    return np.asarray(record.updated, dtype=np.float64)


class CountingLearner:
    """The catalogue classifier ``params["learner"]`` (other params: its hyper-parameters),
    seeded by the trial when it has a ``seed`` parameter that ``params`` leaves open."""

    def __init__(self, params, seed=None):
        from ...learners import make
        from ...learners.registry import info

        params = dict(params)
        name = params.pop("learner")
        if "seed" in info(name).parameters and "seed" not in params and seed is not None:
            params["seed"] = int(seed) % SEED_LIMIT
        self.learner = make(name, **params)

    def learn(self, X, y) -> Steps:
        t0 = time.perf_counter()
        record = self.learner.predict_then_learn(X, y, classes=CLASSES)
        seconds = time.perf_counter() - t0
        return Steps(pred=np.asarray(record.pred, dtype=np.int8),
                     updated=np.asarray(record.updated),
                     series={"updates": member_updates(self.learner, record)},
                     seconds=seconds)

    def predict(self, X):
        return np.asarray(self.learner.predict(X), dtype=np.float64)


def counting_learner(params, seed):
    return CountingLearner(params, seed)
