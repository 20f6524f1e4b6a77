"""The batch protocol of Harrington et al. 2003, §4.3 (Table 2) as an engine protocol.

:class:`EpochsThenTest`: the stream is a training sequence followed by a test set (the
stream's ``info["n_train"]``, set by :class:`~olc.experiments.obpm.data.PermuteTrain`, which
also permutes the training sequence per trial). The model learns the training sequence
online (predict, then update) ``epochs`` times; after each epoch its current weights — "the
last weights as the hypothesis" (§4) — predict the test set without learning. Table 2
reports the test error after epochs 1, 2, 3.

[Decision] Every epoch goes over the *same* permuted sequence: a trial is one permutation of
the training sequence ("30 trials of permutations of the training sequence"), and the
epochs repeat it. The learners keep their state across epochs (OBPM's Bernoulli draws go on
with the round counter, ALMA's k keeps counting its corrections).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine.models import build_model
from ..engine.protocols import RunOutput, _no_tuning, _positive_int
from ..engine.transforms import binary_labels


@dataclass(frozen=True)
class EpochsThenTest:
    epochs: int = 3
    kind = "epochs-then-test"

    def __post_init__(self):
        _positive_int(self.epochs, f"{self.kind}: epochs")

    def key(self):
        return {"kind": self.kind, "epochs": self.epochs,
                "test": "frozen last weights after each epoch"}

    def check(self, config):
        _no_tuning(config, self.kind)

    def run(self, config, stream, stream_seed, learner_seed):
        n_train = stream.info.get("n_train")
        if not n_train or n_train >= stream.n:
            raise ValueError(f"{self.kind}: the stream has no train/test split (apply "
                             "PermuteTrain first)")
        y = binary_labels(stream.y)
        X_train, y_train = stream.X[:n_train], y[:n_train]
        X_test, y_test = stream.X[n_train:], y[n_train:].astype(np.int8)
        model = build_model(config, config.params, learner_seed)
        errors, mistakes, updates, seconds = [], [], [], 0.0
        pred = None
        for _ in range(self.epochs):
            steps = model.learn(X_train, y_train)
            seconds += steps.seconds
            mistakes.append(int(np.count_nonzero(steps.pred != y_train)))
            counted = steps.series.get("updates")
            updates.append(None if counted is None else float(np.sum(counted)))
            pred = np.where(model.predict(X_test) > 0, 1, -1).astype(np.int8)
            errors.append(float(np.count_nonzero(pred != y_test)) / len(y_test))
        return RunOutput(y=y_test, pred=pred, seconds=seconds,
                         extra={"test_error_by_epoch": errors,
                                "online_mistakes_by_epoch": mistakes,
                                "updates_by_epoch": updates, "train_rows": int(n_train),
                                "test_rows": int(len(y_test))})


def _epoch_error(out, epoch):
    errors = out.extra.get("test_error_by_epoch", [])
    return errors[epoch - 1] if len(errors) >= epoch else None


def epoch_1_test_error(out):
    return _epoch_error(out, 1)


def epoch_2_test_error(out):
    return _epoch_error(out, 2)


def epoch_3_test_error(out):
    return _epoch_error(out, 3)


EPOCH_ERRORS = (epoch_1_test_error, epoch_2_test_error, epoch_3_test_error)
