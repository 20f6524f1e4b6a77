"""The writer of one served model: learn and feedback requests become jobs on the model's
bounded ``asyncio.Queue``; one worker task per model takes the jobs waiting (group commit),
applies them to the learner in order (in a thread: the compiled loops do not block the event
loop), writes their log rows, idempotency entries and consumed pending predictions in one
SQLite transaction, and only then answers them. So learns are applied in log order by one
writer, and an answer means committed.

The writer holds the model's lock while it applies and commits, so predictions (which take
the same lock) see the model before or after a batch, never in between. If applying or
committing fails midway (an overflow stops a batch after some rows; the disk fails), the
learner is rebuilt from the store: the store is the truth.
"""
import asyncio
import logging
import time
from dataclasses import dataclass, field

import numpy as np

from .learner_files import learn_batch, learner_bytes, recover, write_snapshot
from .parsing import RequestError
from .retention import SWEEP_LIMIT
from .store import Batch

__all__ = ["Job", "Writer"]

log = logging.getLogger("olc.serve")
MAX_JOBS_PER_COMMIT = 64
SWEEP_SECONDS = 10.0  # a busy writer sweeps expired rows at most this often


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


class Writer:
    """The writer half of :class:`~olc.serve.host.ModelHost` (which sets ``entry``, ``store``,
    ``metrics``, ``config``, ``lock``, ``learner`` and the counters)."""

    def gone(self):
        return RequestError(404, f"no model named {self.entry.name!r} (deleted)", "name")

    def ensure_worker(self):
        loop = asyncio.get_running_loop()
        if self.worker is None or self.worker.get_loop() is not loop or self.worker.done():
            self.queue = asyncio.Queue(maxsize=self.config.queue_size)
            self.worker = loop.create_task(self._work())

    async def submit(self, job):
        """Queue ``job`` (503 + Retry-After when the queue is full); its answer when done."""
        if self.closed:
            raise self.gone()
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
                if not self.closed:
                    self.busy = True
                    try:
                        await asyncio.to_thread(self.idle_work)
                    finally:
                        self.busy = False
                continue
            jobs = [job]
            while len(jobs) < MAX_JOBS_PER_COMMIT and not self.queue.empty():
                jobs.append(self.queue.get_nowait())
            self.busy = True
            try:
                await asyncio.to_thread(self.apply, jobs)
            except Exception as exc:  # the store failed: answer, never hang the callers
                log.exception("olc serve: model %r: writing failed", self.entry.name)
                for j in jobs:
                    if j.result is None:
                        j.result = RequestError(503, f"the store failed: {exc}", None,
                                                {"Retry-After": "1"})
            finally:
                self.busy = False
            for j in jobs:
                if not j.future.done():
                    if isinstance(j.result, Exception):
                        j.future.set_exception(j.result)
                    else:
                        j.future.set_result(j.result)

    def apply(self, jobs):
        """Apply ``jobs`` in order and commit them (in the writer's thread)."""
        done, keys = [], {}  # keys: the job of each key learned in this group
        self._taken = set()  # pending ids consumed by this group's uncommitted jobs
        with self.lock:
            if self.closed:
                for job in jobs:
                    job.result = self.gone()
                return
            for job in jobs:
                if job.key is not None:
                    if job.key in keys:  # a copy of a job of this group: its answer, below
                        job.result = _Copy(keys[job.key])
                        continue
                    # read now: the sweep of this group's commit may remove an old key
                    stored = self.store.stored_response(job.key)
                    if stored is not None:
                        job.result = stored
                        continue
                try:
                    batch = self._learn(job)
                except RequestError as error:
                    job.result = error
                    continue
                except _Dirty as dirty:
                    job.result = dirty.error
                    self._commit_or_fail(done)
                    done = []
                    self._reload()
                    continue
                done.append((job, batch))
                if job.key is not None:
                    keys[job.key] = job
            self._commit_or_fail(done)
        for job in jobs:
            if isinstance(job.result, _Copy):  # the first copy's answer (or its failure)
                first = job.result.job.result
                job.result = first if isinstance(first, Exception) else (200, first)
        self.maybe_snapshot(False)

    def _learn(self, job):
        """Learn one job's rows; the log batch and the answer (no commit yet)."""
        from ..learners._framework.validation import InputError, StreamStoppedError

        learner, name = self.learner, self.entry.name
        served = None
        if job.kind == "feedback":
            found = self.store.pending(name, job.pids)
            swept = self.store.expired(name, [pid for pid in job.pids if pid not in found])
            for i, pid in enumerate(job.pids):
                if pid in swept or pid in found and found[pid][2]:
                    raise RequestError(410, f"events[{i}].event_id 'p{pid}' has expired: its "
                                       f"prediction waited longer than the pending TTL "
                                       f"({self.store.pending_ttl:g} s) for its label",
                                       f"events[{i}].event_id")
                if pid not in found or pid in self._taken:
                    raise RequestError(404, f"events[{i}].event_id 'p{pid}' is not a pending "
                                       f"prediction of model {name!r}",
                                       f"events[{i}].event_id")
            served = [found[pid][1] for pid in job.pids]
            job.X = _stack([found[pid][0] for pid in job.pids])
        steps = int(getattr(learner, "n_steps_", 0))
        try:
            record = learn_batch(learner, job.X, job.labels, self.entry.classes)
        except StreamStoppedError as error:
            message = RequestError(422, f"rows[{error.row}]: {error} (the service applied none "
                                   "of this request's rows)", f"rows[{error.row}]")
            if int(getattr(learner, "n_steps_", 0)) != steps:
                raise _Dirty(message) from None
            raise message from None
        except InputError as error:
            field_ = "labels" if any(word in str(error) for word in ("label", "class", "target")) \
                else "rows"
            raise RequestError(422, str(error), field_) from None
        before = record.score.tolist() if self.regression else label_values(learner,
                                                                                record.pred)
        if served is None:
            served = before
        correct = self.outcomes.of(served, job.labels)
        first = self.next_event
        batch = Batch(first, job.kind, job.X, list(job.labels), served, correct)
        self.next_event += len(job.labels)
        if job.kind == "learn":
            job.result = {"predictions": before, "scores": record.score.tolist(),
                          "event_ids": [f"e{first + i}" for i in range(len(before))],
                          "first_event": first}
        else:
            verdict = "residual" if self.regression else "correct"  # y − ŷ, or right
            job.result = {"applied": len(job.pids), "results": [
                {"event_id": f"p{pid}", "prediction": s, verdict: c}
                for pid, s, c in zip(job.pids, served, correct.tolist())]}
            self._taken.update(job.pids)
        return batch

    def _commit_or_fail(self, done):
        """Commit ``done``; if that fails, its jobs answer 503 and the learner is rebuilt."""
        try:
            self._commit(done)
        except Exception as exc:
            log.exception("olc serve: model %r: commit failed", self.entry.name)
            for job, _ in done:
                job.result = RequestError(503, f"the store failed: {exc}", None,
                                          {"Retry-After": "1"})
            self._reload()

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
            # after this group's feedback took its pending rows: the sweep cannot take them
            self._sweep(db, force=False)
        for job, batch in done:
            self.outcomes.add(batch.correct)
            self.since_snapshot += len(batch.labels)
            self.metrics.learned(self.entry.name, job.kind, len(batch.labels), batch.correct)

    def _sweep(self, db, force):
        """The retention's sweep, in the writer's transaction ``db``: when due (every
        SWEEP_SECONDS, at once while the last sweep hit its row limit) or ``force``d."""
        store = self.store
        if not (store.pending_ttl or store.idempotency_ttl):
            return
        now = store.clock()
        if not (force or self.sweep_again or now - self.last_sweep >= SWEEP_SECONDS):
            return
        removed = store.sweep(db, self.entry.name, SWEEP_LIMIT)
        self.last_sweep = now
        self.sweep_again = max(removed) >= SWEEP_LIMIT

    def idle_work(self):
        """What an idle writer does every ``snapshot_seconds``: the retention's sweep and a
        snapshot of events learned since the last one."""
        for what, work in (("retention sweep", self.sweep_now),
                           ("snapshot", lambda: self.maybe_snapshot(True))):
            try:
                work()
            except Exception:
                log.exception("olc serve: model %r: %s failed", self.entry.name, what)

    def sweep_now(self):
        """A sweep in its own transaction (the idle writer's), under the model's lock."""
        with self.lock:
            if self.closed:
                return
            with self.store.transaction() as db:
                self._sweep(db, force=True)

    def _reload(self):
        """Rebuild the learner from the store (after a failure left it ahead of the log)."""
        log.warning("olc serve: model %r rebuilt from its snapshot and log", self.entry.name)
        self.learner = recover(self.entry, self.store)[0]
        self.next_event = self.entry.base_event + self.store.events_logged(self.entry.name)

    def maybe_snapshot(self, force):
        """Snapshot when N events or T seconds have passed since the last one (``force``:
        whenever there are new events). Under the lock: a deleted model writes none."""
        config = self.config
        due = self.since_snapshot >= config.snapshot_every or (
            self.since_snapshot > 0 and time.monotonic() - self.snapshot_time
            >= config.snapshot_seconds)
        if not (due or (force and self.since_snapshot > 0)):
            return None
        with self.lock:
            if self.closed:
                return None
            event = self.next_event
            write_snapshot(self.store.snapshot_folder(self.entry.name), event,
                           learner_bytes(self.learner), anchor=self.compacted_to)
            self.store.set_snapshot_event(self.entry.name, event)
            self.entry.last_snapshot_event = event
            self.since_snapshot = 0
            self.snapshot_time = time.monotonic()
        return event

    async def drain(self, timeout=30.0):
        """Let the writer finish the jobs it has accepted (server shutdown), then stop it."""
        deadline = time.monotonic() + timeout
        while self.queue is not None and (not self.queue.empty() or self.busy) and \
                time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        self.closed = True
        self.stop_worker()

    def stop_worker(self):
        """Stop the worker (a busy one finishes and answers its jobs first: it stops at its
        next turn, as ``closed`` is set) and refuse the jobs still queued."""
        if self.worker is not None and not self.worker.done() and not self.busy:
            self.worker.cancel()
        while self.queue is not None and not self.queue.empty():
            job = self.queue.get_nowait()
            if not job.future.done():
                job.future.set_exception(self.gone())


@dataclass
class _Copy:
    """A job whose idempotency key an earlier job of the same group carries."""

    job: Job


class _Dirty(Exception):
    """A job failed after the learner had learned some of its rows: rebuild it."""

    def __init__(self, error):
        self.error = error


def _stack(rows):
    if all(isinstance(r, np.ndarray) for r in rows):
        return np.vstack(rows)
    from scipy.sparse import csr_matrix, vstack

    return vstack([csr_matrix(r) for r in rows], format="csr")
