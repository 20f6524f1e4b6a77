"""One served model: its learner, counters, predictions and summary; its writer is
:class:`~olc.serve.writer.Writer`.

Predictions run under the model's lock, which the writer holds while it applies a batch:
a prediction sees the model before or after a batch, never in between (no torn weights).
"""
import threading
import time
from dataclasses import dataclass

import numpy as np

from .learner_files import is_regression, learner_bytes, recover, snapshot_events
from .outcomes import outcomes_for
from .parsing import RequestError
from .scoring import Scorer
from .store import PID_BLOCK
from .writer import Job, Writer

__all__ = ["Entry", "Job", "ModelHost"]


@dataclass
class Entry:
    """A model's row of the store's ``models`` table."""

    name: str
    learner: str
    params: dict
    n_features: object
    classes: object
    created: float
    base: object = None
    base_event: int = 0
    last_snapshot_event: object = None


class ModelHost(Writer):
    def __init__(self, entry, store, metrics, config):
        self.entry = entry
        self.store = store
        self.metrics = metrics
        self.config = config
        self.lock = threading.Lock()
        self.scorer = Scorer()
        self.queue = None
        self.worker = None
        self.busy = False  # the writer is applying or snapshotting
        self.closed = False  # deleted: every later write is refused
        learner, snapshot_event, batches = recover(entry, store)
        self.learner = learner
        self.entry.last_snapshot_event = snapshot_event
        self.compacted_to = store.compacted_to(entry.name)
        self.regression = is_regression(entry)
        self.outcomes = outcomes_for(self.regression,
                                     store.correctness(entry.name, self.regression),
                                     config.error_window)
        self.next_event = entry.base_event + len(self.outcomes)
        self.next_pid = store.reserve_pending_ids(entry.name)
        self.pid_block_end = self.next_pid + PID_BLOCK
        self.vocabulary = store.vocabulary(entry.name)
        self.snapshot_time = time.monotonic()
        self.last_sweep, self.sweep_again = -float("inf"), False
        self.since_snapshot = self.next_event - (snapshot_event or entry.base_event)

    # -- what the routes read --------------------------------------------------------------
    @property
    def width(self):
        if self.entry.n_features is not None:
            return self.entry.n_features
        return getattr(self.learner, "n_features_in_", None)

    def classes(self):
        if hasattr(self.learner, "classes_"):
            return self.learner.classes_.tolist()
        return self.entry.classes

    def summary(self):
        learner = self.learner
        return {
            "name": self.entry.name, "learner": self.entry.learner,
            "kind": "regressor" if self.regression else "classifier",
            "params": self.entry.params, "n_features": self.width, "classes": self.classes(),
            "rows_seen": int(getattr(learner, "n_steps_", 0)),
            **self.outcomes.summary(), "updates": int(getattr(learner, "n_updates_", 0)),
            "events_logged": len(self.outcomes), "last_snapshot_event":
                self.entry.last_snapshot_event, "log_compacted_to": self.compacted_to,
            "created": self.entry.created,
            "durable": self.store.durable, "queue_depth": self.queue_depth(),
        }

    def queue_depth(self):
        return 0 if self.queue is None else self.queue.qsize()

    def curve(self, points):
        return self.outcomes.curve(points)

    def snapshot_bytes(self):
        with self.lock:
            return learner_bytes(self.learner)

    # -- predictions (the route: ``predicting.Predictions``) --------------------------------
    def score(self, X):
        """(event ids, predictions, scores) of rows X under the model's lock: the model
        before or after a batch, never in between. The ids are handed out here."""
        with self.lock:
            return self.score_locked(X)

    def score_locked(self, X):
        """``score`` for a caller that holds the lock."""
        learner = self.learner
        if self.regression:
            # the Scorer falls back to decision_function, which regressors do not have
            if not learner._is_initialised():
                raise RequestError(409, f"model {self.entry.name!r} has learned nothing "
                                   "yet: it cannot predict", None)
            scores = learner.predict(X)
            predictions = scores.tolist()
        elif not hasattr(learner, "classes_"):
            raise RequestError(409, f"model {self.entry.name!r} has learned nothing yet: "
                               "it has no classes to predict", None)
        else:
            predictions, scores = _classified(learner, self.scorer.scores(learner, X))
        if self.next_pid + X.shape[0] > self.pid_block_end:
            self.next_pid = self.store.reserve_pending_ids(self.entry.name)
            self.pid_block_end = self.next_pid + PID_BLOCK
        pids = list(range(self.next_pid, self.next_pid + X.shape[0]))
        self.next_pid += X.shape[0]
        return pids, predictions, scores

    def keep_pending(self, db, pids, X, predictions, scores, key, body):
        """Write scored rows as pending predictions (and the answer under its idempotency
        key) in the store's open transaction ``db``; a deleted model refuses."""
        if self.closed:  # deleted meanwhile (checked under the store's lock)
            raise self.gone()
        self.store.add_pending(db, self.entry.name, pids, X, predictions, scores)
        if key is not None:
            self.store.store_response(db, key, 200, body)

    def close(self):
        """Deleted: refuse every later write; stop the writer once it is idle."""
        self.closed = True
        self.stop_worker()

    def snapshots(self):
        return snapshot_events(self.store.snapshot_folder(self.entry.name))


def _classified(learner, scores):
    """(predicted labels, the winning scores) of a classifier's decision values."""
    if scores.ndim == 2:
        index = np.argmax(scores, axis=1)
        return learner.classes_[index].tolist(), scores[np.arange(len(index)), index]
    return learner.classes_[(scores >= 0.0).astype(np.intp)].tolist(), scores
