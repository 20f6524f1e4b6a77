"""What the compiled loop reads and writes around a learner: a validated batch ready for the
loop (``PreparedStream``) and the per-row record of one online pass (``StepRecord``)."""
from dataclasses import dataclass

import numpy as np

from ..._compiled.driver.inputs import LoopInput

__all__ = ["PreparedStream", "StepRecord"]


@dataclass
class StepRecord:
    """What one online pass over a batch wrote, per row.

    pred: prediction before the update (±1, int8); score: raw decision value w·x + b;
    updated: whether the rule updated; aux: the rule's per-step extra (OMM: γ_t, else 0);
    with K ≥ 3 classes (one-vs-rest, ``multiclass``): pred is the predicted class index
    (int32), score its learner's value, updated whether any class's learner updated, aux how
    many did;
    tau: 1-based step at which the classifier first had positive margin on the check set
    (-1: not reached or not checked).

    For regressors, ``score`` is the prediction ŷ = w·x + b made before the update, and
    ``pred`` is only sign(ŷ) (sign(0) = +1), kept so that the record has one layout.
    """

    pred: np.ndarray
    score: np.ndarray
    updated: np.ndarray
    aux: np.ndarray
    tau: int = -1


@dataclass
class PreparedStream:
    """A validated batch, ready for the compiled loop: features in the loop's layout
    (``LoopInput``, shared with the caller's arrays when no conversion was needed), targets
    as the loop takes them (labels as ±1, or real-valued regression targets), and the classes
    the labels were mapped with (None for regressors). Built by ``prepare_stream``; consumed
    (in ranges, in any order, as often as wanted) by ``learn_prepared``."""

    X: LoopInput
    source: object  # the validated matrix (for error messages)
    y: np.ndarray
    classes: np.ndarray
    hp: np.ndarray = None  # the learner's packed hyper-parameters, validated once
    feature_names: np.ndarray = None  # a DataFrame's column names (None: not given)

    @property
    def n_rows(self):
        return self.X.n_rows


def _head(record, n):
    return StepRecord(record.pred[:n], record.score[:n], record.updated[:n], record.aux[:n],
                      record.tau)
