"""One served model: its learner, its writer, its counters.

Learn and feedback requests become jobs on the model's bounded ``asyncio.Queue``; one worker
task per model takes the jobs waiting (group commit), applies them to the learner in order
(in a thread: the compiled loops do not block the event loop), writes their log rows,
idempotency entries and consumed pending predictions in one SQLite transaction, and only then
answers them. So learns are applied in log order by one writer, and an answer means
committed.

Predictions run under the model's lock, which the writer holds while it applies a batch:
a prediction sees the model before or after a batch, never in between (no torn weights).
If applying or committing fails midway (an overflow stops a batch after some rows, the disk
fails), the learner is rebuilt from the store — the store is the truth.
"""
import asyncio
import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field

import numpy as np

from .learner_files import learner_bytes, recover, snapshot_events, write_snapshot
from .parsing import RequestError
from .store import Batch

__all__ = ["Entry", "Job", "ModelHost"]

log = logging.getLogger("olc.serve")
MAX_JOBS_PER_COMMIT = 64


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


@dataclass
class Job:
    """A learn or feedback request for the writer: rows X with labels, or pending ids."""

    kind: str  # "learn" | "feedback"
    X: object = None
    labels: list = None
    pids: list = None
    key: str = None  # the idempotency key (store key), or None
    future: object = None
    result: object = field(default=None)


def label_values(learner, pred):
    """The record's predictions (±1, or class indices) as the model's labels."""
    classes = learner.classes_
    index = pred.astype(np.intp) if len(classes) > 2 else (pred > 0).astype(np.intp)
    return classes[index].tolist()


class ModelHost:
    def __init__(self, entry, store, metrics, config):
        self.entry = entry
        self.store = store
        self.metrics = metrics
        self.config = config
        self.lock = threading.Lock()
        self.keyed = threading.Lock()  # keyed predictions, one at a time
        self.queue = None
        self.worker = None
        self.closed = False
        learner, snapshot_event, batches = recover(entry, store)
        self.learner = learner
        self.entry.last_snapshot_event = snapshot_event
        self.correct = store.correctness(entry.name)
        self.mistakes = int((~self.correct).sum())
        self.recent = deque(self.correct[-config.error_window:].tolist(),
                            maxlen=config.error_window)
        self.next_event = entry.base_event + len(self.correct)
        self.next_pid = store.next_pending_id(entry.name)
        self.vocabulary = store.vocabulary(entry.name)
        self.snapshot_time = time.monotonic()
        self.since_snapshot = self.next_event - (snapshot_event or entry.base_event)
        self.dirty = False

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
        window = len(self.recent)
        learner = self.learner
        return {
            "name": self.entry.name, "learner": self.entry.learner, "params": self.entry.params,
            "n_features": self.width, "classes": self.classes(),
            "rows_seen": int(getattr(learner, "n_steps_", 0)),
            "mistakes": self.mistakes, "updates": int(getattr(learner, "n_updates_", 0)),
            "error_last_n": {"n": window,
                             "error": (window - sum(self.recent)) / window if window else None},
            "events_logged": len(self.correct), "last_snapshot_event":
                self.entry.last_snapshot_event, "created": self.entry.created,
            "durable": self.store.durable, "queue_depth": self.queue_depth(),
        }

    def queue_depth(self):
        return 0 if self.queue is None else self.queue.qsize()

    def curve(self, points):
        n = len(self.correct)
        if n == 0:
            return {"rows": [], "error": []}
        rows = np.unique(np.linspace(1, n, num=min(points, n)).round().astype(np.int64))
        mistakes = np.cumsum(~self.correct)[rows - 1]
        return {"rows": rows.tolist(), "error": (mistakes / rows).tolist()}

    def snapshot_bytes(self):
        with self.lock:
            return learner_bytes(self.learner)

    # -- predictions -----------------------------------------------------------------------
    def predict(self, X, key):
        """Predict rows X (in a thread), keep them as pending under new event ids. With an
        idempotency key: (the stored answer, True) when the key was seen, else (answer,
        False) — keyed predictions of a model are serialized so that racing copies of one
        request keep its rows once."""
        if key is None:
            return self._predict(X, None), False
        with self.keyed:
            stored = self.store.stored_response(key)
            if stored is not None:
                return stored[1], True
            return self._predict(X, key), False

    def _predict(self, X, key):
        with self.lock:
            learner = self.learner
            if not hasattr(learner, "classes_"):
                raise RequestError(409, f"model {self.entry.name!r} has learned nothing yet: "
                                   "it has no classes to predict", None)
            scores = learner.decision_function(X)
            if scores.ndim == 2:
                index = np.argmax(scores, axis=1)
                predictions = learner.classes_[index].tolist()
                scores = scores[np.arange(len(index)), index]
            else:
                predictions = learner.classes_[(scores >= 0.0).astype(np.intp)].tolist()
            pids = list(range(self.next_pid, self.next_pid + X.shape[0]))
            self.next_pid += X.shape[0]
        body = {"predictions": [{"event_id": f"p{pid}", "prediction": p, "score": float(s)}
                                for pid, p, s in zip(pids, predictions, scores)]}
        # Pending predictions are not acknowledged events: their commit does not wait for
        # the disk (it is synced with the next learn/feedback commit; see Store.transaction).
        with self.store.transaction(durable=False) as db:
            self.store.add_pending(db, self.entry.name, pids, X, predictions, scores)
            if key is not None:
                self.store.store_response(db, key, 200, body)
        return body

    # -- the writer ------------------------------------------------------------------------
    def ensure_worker(self):
        loop = asyncio.get_running_loop()
        if self.worker is None or self.worker.get_loop() is not loop or self.worker.done():
            self.queue = asyncio.Queue(maxsize=self.config.queue_size)
            self.worker = loop.create_task(self._work())

    async def submit(self, job):
        """Queue ``job`` (503 + Retry-After when the queue is full); its answer when done."""
        self.ensure_worker()
        job.future = asyncio.get_running_loop().create_future()
        try:
            self.queue.put_nowait(job)
        except asyncio.QueueFull:
            raise RequestError(503, f"model {self.entry.name!r} is busy: its queue holds "
                               f"{self.config.queue_size} requests", None,
                               {"Retry-After": "1"}) from None
        return await job.future

    async def _work(self):
        while not self.closed:
            try:
                job = await asyncio.wait_for(self.queue.get(),
                                             timeout=self.config.snapshot_seconds)
            except asyncio.TimeoutError:
                if self.dirty:
                    await asyncio.to_thread(self.maybe_snapshot, True)
                continue
            jobs = [job]
            while len(jobs) < MAX_JOBS_PER_COMMIT and not self.queue.empty():
                jobs.append(self.queue.get_nowait())
            try:
                await asyncio.to_thread(self.apply, jobs)
            except Exception as exc:  # the store failed: answer, never hang the callers
                log.exception("olc serve: model %r: writing failed", self.entry.name)
                for j in jobs:
                    if j.result is None:
                        j.result = RequestError(503, f"the store failed: {exc}", None,
                                                {"Retry-After": "1"})
            for j in jobs:
                if not j.future.done():
                    if isinstance(j.result, Exception):
                        j.future.set_exception(j.result)
                    else:
                        j.future.set_result(j.result)

    def apply(self, jobs):
        """Apply ``jobs`` in order and commit them (in the writer's thread)."""
        done, keys = [], set()
        self._taken = set()  # pending ids consumed by this group's uncommitted jobs
        with self.lock:
            for job in jobs:
                if job.key is not None and (job.key in keys or
                                            self.store.stored_response(job.key) is not None):
                    job.result = "replay"  # answered from the store below
                    continue
                try:
                    batch = self._learn(job)
                except RequestError as error:
                    job.result = error
                    continue
                except _Dirty as dirty:
                    job.result = dirty.error
                    self._commit(done)
                    done = []
                    self._reload()
                    continue
                done.append((job, batch))
                if job.key is not None:
                    keys.add(job.key)
            try:
                self._commit(done)
            except Exception:
                self._reload()
                raise
        for job in jobs:
            if job.result == "replay":
                job.result = self.store.stored_response(job.key)
        self.maybe_snapshot(False)

    def _learn(self, job):
        """Learn one job's rows; the log batch and the answer (no commit yet)."""
        from ..learners._framework.validation import InputError, StreamStoppedError

        learner, name = self.learner, self.entry.name
        served = None
        if job.kind == "feedback":
            found = self.store.pending(name, job.pids)
            for i, pid in enumerate(job.pids):
                if pid not in found or pid in self._taken:
                    raise RequestError(404, f"events[{i}].event_id 'p{pid}' is not a pending "
                                       f"prediction of model {name!r}",
                                       f"events[{i}].event_id")
            rows = [found[pid][0] for pid in job.pids]
            served = [found[pid][1] for pid in job.pids]
            job.X = _stack(rows)
        steps = int(getattr(learner, "n_steps_", 0))
        try:
            record = learner.predict_then_learn(job.X, np.asarray(job.labels),
                                                classes=self.entry.classes)
        except StreamStoppedError as error:
            message = RequestError(422, f"rows[{error.row}]: {error} (the service applied none "
                                   "of this request's rows)", f"rows[{error.row}]")
            if int(getattr(learner, "n_steps_", 0)) != steps:
                raise _Dirty(message) from None
            raise message from None
        except InputError as error:
            field = "labels" if "label" in str(error) or "class" in str(error) else "rows"
            raise RequestError(422, str(error), field) from None
        before = label_values(learner, record.pred)
        if served is None:
            served = before
        correct = np.array([s == y for s, y in zip(served, job.labels)], np.bool_)
        first = self.next_event
        batch = Batch(first, job.kind, job.X, list(job.labels), served, correct)
        self.next_event += len(job.labels)
        if job.kind == "learn":
            job.result = {"predictions": before, "scores": record.score.tolist(),
                          "event_ids": [f"e{first + i}" for i in range(len(before))],
                          "first_event": first}
        else:
            job.result = {"applied": len(job.pids), "results": [
                {"event_id": f"p{pid}", "prediction": s, "correct": bool(c)}
                for pid, s, c in zip(job.pids, served, correct)]}
            self._taken.update(job.pids)
        return batch

    def _commit(self, done):
        if not done:
            return
        with self.store.transaction() as db:
            for job, batch in done:
                self.store.append_batch(db, self.entry.name, batch)
                if job.kind == "feedback":
                    self.store.remove_pending(db, self.entry.name, job.pids)
                if job.key is not None:
                    self.store.store_response(db, job.key, 200, job.result)
        for job, batch in done:
            self.correct = np.concatenate([self.correct, batch.correct])
            wrong = int((~batch.correct).sum())
            self.mistakes += wrong
            self.recent.extend(batch.correct.tolist())
            self.since_snapshot += len(batch.labels)
            self.metrics.learned(self.entry.name, job.kind, len(batch.labels), wrong)
        self.dirty = True

    def _reload(self):
        """Rebuild the learner from the store (after a failure left it ahead of the log)."""
        log.warning("olc serve: model %r rebuilt from its snapshot and log", self.entry.name)
        learner, snapshot_event, _ = recover(self.entry, self.store)
        self.learner = learner
        self.next_event = self.entry.base_event + self.store.events_logged(self.entry.name)

    def maybe_snapshot(self, force):
        """Snapshot when N events or T seconds have passed since the last one."""
        config = self.config
        due = self.since_snapshot >= config.snapshot_every or (
            self.since_snapshot > 0 and time.monotonic() - self.snapshot_time
            >= config.snapshot_seconds)
        if not (due or (force and self.since_snapshot > 0)):
            return None
        with self.lock:
            data = learner_bytes(self.learner)
            event = self.next_event
        folder = self.store.snapshot_folder(self.entry.name)
        write_snapshot(folder, event, data)
        self.store.set_snapshot_event(self.entry.name, event)
        self.entry.last_snapshot_event = event
        self.since_snapshot = 0
        self.snapshot_time = time.monotonic()
        self.dirty = False
        return event

    def close(self):
        self.closed = True
        if self.worker is not None and not self.worker.done():
            self.worker.cancel()

    def snapshots(self):
        return snapshot_events(self.store.snapshot_folder(self.entry.name))


class _Dirty(Exception):
    """A job failed after the learner had learned some of its rows: rebuild it."""

    def __init__(self, error):
        self.error = error


def _stack(rows):
    if all(isinstance(r, np.ndarray) for r in rows):
        return np.vstack(rows)
    from scipy.sparse import csr_matrix, vstack

    return vstack([csr_matrix(r) for r in rows], format="csr")
