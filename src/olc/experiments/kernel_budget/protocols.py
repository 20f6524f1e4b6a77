"""The budget table's protocol: one online pass over the (permuted) training file, then the
frozen model on the test file (:class:`PassThenTest`), and the table's metrics.

The run's ``y``/``pred`` are the test file's labels and the final model's predictions (so the
engine's ``error_rate`` is the test error); ``extra`` holds the pass's online mistakes, the
support vectors after the pass and the prediction time. A batch reference (``model.batch``)
is fitted once instead; it has no online mistakes.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..engine.metrics import Metric
from ..engine.models import build_model
from ..engine.protocols import RunOutput, _no_tuning
from ..engine.transforms import binary_labels


#: Catalogue learners without a pool of stored rows (FOGD's model is its random features).
NO_POOL = ("fogd",)


def support_vectors(model):
    """The stored rows of the model after the pass (None when it has no such count)."""
    count = getattr(model, "support_vectors", None)
    if count is not None or getattr(model, "batch", False):
        return count
    if getattr(model, "name", None) in NO_POOL:
        return None
    learner = getattr(model, "learner", None)
    n = getattr(learner, "n_support_", None)
    return None if n is None else int(np.sum(n))


@dataclass(frozen=True)
class PassThenTest:
    kind = "pass-then-test"

    def key(self):
        return {"kind": self.kind, "passes": 1, "test": "frozen model after the pass"}

    def check(self, config):
        _no_tuning(config, self.kind)

    def run(self, config, stream, stream_seed, learner_seed):
        n_train = stream.info.get("n_train")
        if not n_train or n_train >= stream.n:
            raise ValueError(f"{self.kind}: the stream has no train/test split (apply "
                             "PermuteTrain first)")
        y = binary_labels(stream.y)
        model = build_model(config, config.params, learner_seed)
        steps = model.learn(stream.X[:n_train], y[:n_train])
        batch = getattr(model, "batch", False)
        mistakes = None if batch else int(np.count_nonzero(steps.pred != y[:n_train]))
        t0 = time.perf_counter()
        pred = np.where(model.predict(stream.X[n_train:]) > 0, 1, -1).astype(np.int8)
        predict_seconds = time.perf_counter() - t0
        extra = {"online_mistakes": mistakes, "train_rows": int(n_train),
                 "fitted_rows": getattr(model, "fitted_rows", int(n_train)),
                 "test_rows": int(stream.n - n_train),
                 "support_vectors": support_vectors(model),
                 "predict_seconds": predict_seconds}
        if batch:
            extra["converged"] = model.converged
        return RunOutput(y=y[n_train:].astype(np.int8), pred=pred, seconds=steps.seconds,
                         extra=extra)


def _online_mistake_rate(out):
    m = out.extra.get("online_mistakes")
    return None if m is None else m / out.extra["train_rows"]


def _test_accuracy(out):
    return float(np.count_nonzero(out.pred == out.y)) / max(len(out.y), 1)


def _support_vectors(out):
    return out.extra.get("support_vectors")


def _total_seconds(out):
    return float(out.seconds) + float(out.extra.get("predict_seconds", 0.0))


def _rate_metric(name, fn, label):
    """A proportion: its interval stays in [0, 1] where the engine knows rates."""
    extra = {"rate": True} if "rate" in getattr(Metric, "__dataclass_fields__", {}) else {}
    return Metric(name, fn, label=label, **extra)


ONLINE_MISTAKE_RATE = _rate_metric("online_mistake_rate", _online_mistake_rate,
                                   "online mistake rate")
TEST_ACCURACY = _rate_metric("test_accuracy", _test_accuracy, "test accuracy")
SUPPORT_VECTORS = Metric("support_vectors", _support_vectors, label="support vectors")
TOTAL_SECONDS = Metric("total_seconds", _total_seconds, label="seconds (pass + test)")
TABLE_METRICS = (ONLINE_MISTAKE_RATE, TEST_ACCURACY, SUPPORT_VECTORS, "seconds",
                 TOTAL_SECONDS)
