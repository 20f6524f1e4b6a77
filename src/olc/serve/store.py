"""The durable store of ``olc serve``: one SQLite database (the standard library's, WAL mode)
and a folder of snapshots.

Tables (one writer: every call takes the store's lock, so one connection serves every thread):

- ``models``: name, learner, params (JSON), n_features, classes (JSON or NULL), created, the
  base model (``olc.save`` bytes of an uploaded model, NULL for a created one), its first
  event number, and the event of the last snapshot.
- ``log``: the append-only event log, one row per learned batch: (model, first_event,
  n_rows, kind, the features (dense float64 bytes, or CSR arrays), the labels (JSON), what
  was served (JSON), per row whether it was right (bool bytes; for a regressor the residual
  y − ŷ as float64 bytes)). Event numbers count learned rows: event e is the
  model's e-th learned row, so a model that learned events [0, E) has ``n_steps_ == E``.
- ``pending``: predictions waiting for their label (the features served, the prediction).
- ``vocabulary``: the column of each named feature, per model.
- ``idempotency``: the stored response of every request sent with an ``Idempotency-Key``.
- ``compaction``: per compacted model, its anchor: the event of the snapshot (verified to
  load, kept until the next compaction) below which the log's rows hold no features.
- ``expired``: the ids of pending predictions removed by the retention (``pending_ttl``), so
  that a late feedback for one is told it expired (410), not that it never existed; kept for
  another ``pending_ttl``.

Retention (``sweep``, run by each model's writer in its own transactions): pending
predictions older than ``pending_ttl`` seconds and idempotency keys older than
``idempotency_ttl`` (0: kept forever) are deleted, at most ``SWEEP_LIMIT`` rows a table a
sweep; before they are swept they already count as gone (``pending`` reports their age,
``stored_response`` ignores an expired key).

A learn/feedback batch, its idempotency entry and the removal of the pending predictions it
consumed are written in one transaction; a response is sent only after it commits.
"""
import json
import math
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .checkpoints import LOG_SIZE_LIMIT, Checkpointer
from .retention import Retention

__all__ = ["Batch", "Store", "StoreError", "decode_rows", "encode_rows"]

# Prediction ids of one block: a block is reserved per start of a model's host, so ids are
# never handed out twice, whatever was lost (2^32 predictions a start; then the next block).
PID_BLOCK = 1 << 32

#: The layout of a logged batch whose features compaction dropped.
COMPACTED = "compacted"

SCHEMA = """
CREATE TABLE IF NOT EXISTS models (
    name TEXT PRIMARY KEY, learner TEXT NOT NULL, params TEXT NOT NULL, n_features INTEGER,
    classes TEXT, created REAL NOT NULL, base BLOB, base_event INTEGER NOT NULL DEFAULT 0,
    last_snapshot_event INTEGER, pid_block INTEGER);
CREATE TABLE IF NOT EXISTS log (
    model TEXT NOT NULL, first_event INTEGER NOT NULL, n_rows INTEGER NOT NULL,
    kind TEXT NOT NULL, layout TEXT NOT NULL, n_cols INTEGER NOT NULL, data BLOB NOT NULL,
    indices BLOB, indptr BLOB, labels TEXT NOT NULL, served TEXT NOT NULL,
    correct BLOB NOT NULL, PRIMARY KEY (model, first_event));
CREATE TABLE IF NOT EXISTS pending (
    model TEXT NOT NULL, pid INTEGER NOT NULL, layout TEXT NOT NULL, n_cols INTEGER NOT NULL,
    data BLOB NOT NULL, indices BLOB, prediction TEXT NOT NULL, score REAL NOT NULL,
    created REAL NOT NULL, PRIMARY KEY (model, pid));
CREATE TABLE IF NOT EXISTS vocabulary (
    model TEXT NOT NULL, feature TEXT NOT NULL, col INTEGER NOT NULL,
    PRIMARY KEY (model, feature));
CREATE TABLE IF NOT EXISTS idempotency (
    key TEXT PRIMARY KEY, status INTEGER NOT NULL, body TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS expired (
    model TEXT NOT NULL, pid INTEGER NOT NULL, at REAL NOT NULL,
    PRIMARY KEY (model, pid)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS compaction (model TEXT PRIMARY KEY, event INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS idempotency_created ON idempotency (created);
"""


class StoreError(RuntimeError):
    """The store cannot be opened or read (a damaged database file, a newer schema)."""


@dataclass
class Batch:
    """One logged batch: rows [first_event, first_event + n_rows) of a model's history."""

    first_event: int
    kind: str
    X: object  # float64 ndarray (n, d) or scipy CSR matrix
    labels: list
    served: list
    correct: np.ndarray  # bool per row: the served prediction was right


def encode_rows(X):
    """(layout, n_cols, data, indices, indptr) bytes of a dense array or a CSR matrix."""
    if isinstance(X, np.ndarray):
        return "dense", X.shape[1], np.ascontiguousarray(X, np.float64).tobytes(), None, None
    return ("csr", X.shape[1], np.asarray(X.data, np.float64).tobytes(),
            np.asarray(X.indices, np.int64).tobytes(), np.asarray(X.indptr, np.int64).tobytes())


def decode_rows(layout, n_rows, n_cols, data, indices, indptr):
    values = np.frombuffer(data, np.float64)
    if layout == "dense":
        return values.reshape(n_rows, n_cols).copy()
    from scipy.sparse import csr_matrix

    return csr_matrix((values.copy(), np.frombuffer(indices, np.int64).astype(np.int32),
                       np.frombuffer(indptr, np.int64).copy()), shape=(n_rows, n_cols))


class Store(Retention):
    """The SQLite database of a store folder (``store.sqlite3``) and its ``snapshots/``."""

    checkpoint_seconds = 0.5  # between the write-ahead log's checkpoints (``checkpoints``)

    def __init__(self, folder, durable=True, pending_ttl=0.0, idempotency_ttl=0.0,
                 clock=time.time):
        self.pending_ttl = pending_ttl
        self.idempotency_ttl = idempotency_ttl
        self.clock = clock  # the wall clock (seconds) of every stored time
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder / "store.sqlite3"
        self.durable = durable
        self.lock = threading.Lock()
        self.reader, self.reader_lock = None, threading.Lock()  # Store.retained's
        try:
            self.db = sqlite3.connect(self.path, check_same_thread=False,
                                      isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
            check = self.db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise sqlite3.DatabaseError(check)
            self.db.executescript(SCHEMA)
            self.db.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints.Checkpointer's
            self.db.execute(f"PRAGMA journal_size_limit={LOG_SIZE_LIMIT}")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"the store {self.path} is damaged and cannot be opened "
                             f"({exc}); restore it from a backup or start with an empty "
                             "--store folder") from None
        self.checkpointer = Checkpointer(self.path, durable, self.checkpoint_seconds)

    def close(self):
        self.checkpointer.stop()
        with self.lock:
            self.db.close()
        with self.reader_lock:
            if self.reader is not None:
                self.reader.close()

    def snapshot_folder(self, name):
        return self.folder / "snapshots" / name

    # -- transactions ----------------------------------------------------------------------
    def transaction(self, durable=None):
        """``with store.transaction() as db:`` — one committed transaction, under the lock.
        ``durable=False``: this commit does not wait for the disk (``synchronous=NORMAL``):
        it survives a crash of the process at once, a power cut once a later durable commit
        (which syncs the whole write-ahead log) is done."""
        return _Transaction(self, self.durable if durable is None else durable and
                            self.durable)

    # -- models ----------------------------------------------------------------------------
    def models(self):
        with self.lock:
            return self.db.execute(
                "SELECT name, learner, params, n_features, classes, created, base, base_event, "
                "last_snapshot_event FROM models ORDER BY name").fetchall()

    def add_model(self, name, learner, params, n_features, classes, base=None, base_event=0):
        with self.transaction() as db:
            db.execute("INSERT INTO models VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)",
                       (name, learner, json.dumps(params), n_features,
                        None if classes is None else json.dumps(classes), self.clock(), base,
                        base_event))

    def delete_model(self, name):
        with self.transaction() as db:
            for table in ("models", "log", "pending", "vocabulary", "expired", "compaction"):
                column = "name" if table == "models" else "model"
                db.execute(f"DELETE FROM {table} WHERE {column} = ?", (name,))
            db.execute("DELETE FROM idempotency WHERE key LIKE ? ESCAPE '\\'",
                       (_like_prefix(name),))

    def set_snapshot_event(self, name, event):
        with self.transaction() as db:
            db.execute("UPDATE models SET last_snapshot_event = ? WHERE name = ?", (event, name))

    # -- the log ---------------------------------------------------------------------------
    def append_batch(self, db, name, batch):
        layout, n_cols, data, indices, indptr = encode_rows(batch.X)
        db.execute("INSERT INTO log VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (name, batch.first_event, len(batch.labels), batch.kind, layout, n_cols,
                    data, indices, indptr, json.dumps(batch.labels), json.dumps(batch.served),
                    np.ascontiguousarray(batch.correct).tobytes()))

    def batches(self, name, after=0):
        """The logged batches of ``name`` whose first event is ≥ ``after``, in log order."""
        with self.lock:
            rows = self.db.execute(
                "SELECT first_event, n_rows, kind, layout, n_cols, data, indices, indptr, "
                "labels, served, correct FROM log WHERE model = ? AND first_event >= ? "
                "ORDER BY first_event", (name, after)).fetchall()
        for first, n, kind, layout, n_cols, data, indices, indptr, labels, served, ok in rows:
            yield Batch(first, kind, None if layout == COMPACTED else
                        decode_rows(layout, n, n_cols, data, indices, indptr),
                        json.loads(labels), json.loads(served),
                        # a regressor's residuals take 8 bytes a row, correctness 1
                        np.frombuffer(ok, np.float64 if len(ok) == 8 * n else np.bool_))

    # -- compaction ------------------------------------------------------------------------
    def compacted_to(self, name):
        """The anchor event of ``name``'s compaction (rows below it have no features), or
        None."""
        with self.lock:
            row = self.db.execute("SELECT event FROM compaction WHERE model = ?",
                                  (name,)).fetchone()
        return None if row is None else int(row[0])

    def compact(self, name, event):
        """Drop the features of ``name``'s logged batches that end at or before ``event``
        (labels, served predictions and outcomes stay) and make ``event`` the anchor, in one
        transaction. The number of batches compacted now."""
        with self.transaction() as db:
            n = db.execute("UPDATE log SET layout = ?, data = x'', indices = NULL, "
                           "indptr = NULL WHERE model = ? AND first_event + n_rows <= ? AND "
                           "layout != ?", (COMPACTED, name, event, COMPACTED)).rowcount
            db.execute("INSERT OR REPLACE INTO compaction VALUES (?, ?)", (name, event))
        return n

    def correctness(self, name, regression=False):
        """Every logged row's outcome in event order: whether the served prediction was
        right (bool), or for a regressor its residual y − ŷ (float64)."""
        dtype = np.float64 if regression else np.bool_
        with self.lock:
            rows = self.db.execute("SELECT first_event, correct FROM log WHERE model = ? "
                                   "ORDER BY first_event", (name,)).fetchall()
        parts = [np.frombuffer(ok, dtype) for _, ok in rows]
        return np.concatenate(parts) if parts else np.zeros(0, dtype)

    def events_logged(self, name):
        with self.lock:
            row = self.db.execute("SELECT COALESCE(SUM(n_rows), 0) FROM log WHERE model = ?",
                                  (name,)).fetchone()
        return int(row[0])

    # -- pending predictions ---------------------------------------------------------------
    def reserve_pending_ids(self, name):
        """The first id of a fresh block of PID_BLOCK prediction ids for ``name``, beyond
        every id handed out before, committed to the disk before any id of it is served.

        Ids answered by feedback leave ``pending``, and a pending row committed without a
        disk sync can be lost with a power cut after its id was served: neither the pending
        table nor a counter kept with it can say which ids were used. A block reserved
        durably per start (and whenever one is used up) can."""
        with self.transaction(durable=True) as db:
            block, = db.execute("SELECT pid_block FROM models WHERE name = ?",
                                (name,)).fetchone()
            largest, = db.execute("SELECT MAX(pid) FROM pending WHERE model = ?",
                                  (name,)).fetchone()
            start = 0 if block is None else block + PID_BLOCK
            if largest is not None:
                start = max(start, (largest // PID_BLOCK + 1) * PID_BLOCK)
            db.execute("UPDATE models SET pid_block = ? WHERE name = ?", (start, name))
        return start

    def add_pending(self, db, name, pids, X, predictions, scores):
        now = self.clock()
        rows = []
        for i, pid in enumerate(pids):
            layout, n_cols, data, indices, _ = encode_rows(X[i:i + 1])
            rows.append((name, pid, layout, n_cols, data, indices,
                         json.dumps(predictions[i]), float(scores[i]), now))
        db.executemany("INSERT INTO pending VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)

    def pending(self, name, pids):
        """{pid: (X row (1 × d), prediction, expired)} for the pending ids of ``name`` among
        pids; ``expired``: older than ``pending_ttl`` (not swept yet)."""
        found = {}
        cutoff = self.clock() - self.pending_ttl if self.pending_ttl else None
        with self.lock:
            for pid in pids:
                row = self.db.execute("SELECT layout, n_cols, data, indices, prediction, "
                                      "created FROM pending WHERE model = ? AND pid = ?",
                                      (name, pid)).fetchone()
                if row is not None:
                    layout, n_cols, data, indices, prediction, created = row
                    indptr = None if layout == "dense" else np.array(
                        [0, len(data) // 8], np.int64).tobytes()
                    found[pid] = (decode_rows(layout, 1, n_cols, data, indices, indptr),
                                  json.loads(prediction),
                                  cutoff is not None and created < cutoff)
        return found

    def expired(self, name, pids):
        """The ids among ``pids`` that the retention removed from ``pending``."""
        with self.lock:
            return {pid for pid in pids if self.db.execute(
                "SELECT 1 FROM expired WHERE model = ? AND pid = ?", (name, pid)).fetchone()}

    def remove_pending(self, db, name, pids):
        db.executemany("DELETE FROM pending WHERE model = ? AND pid = ?",
                       [(name, pid) for pid in pids])

    # -- vocabulary ------------------------------------------------------------------------
    def vocabulary(self, name):
        with self.lock:
            rows = self.db.execute("SELECT feature, col FROM vocabulary WHERE model = ?",
                                   (name,)).fetchall()
        return dict(rows)

    def add_vocabulary(self, name, entries):
        with self.transaction() as db:
            db.executemany("INSERT INTO vocabulary VALUES (?, ?, ?)",
                           [(name, feature, col) for feature, col in entries])

    # -- idempotency -----------------------------------------------------------------------
    def stored_response(self, key):
        """(status, body) stored under ``key``, or None (also when it is older than
        ``idempotency_ttl``: an expired key is a new one)."""
        cutoff = self.clock() - self.idempotency_ttl if self.idempotency_ttl else -math.inf
        with self.lock:
            row = self.db.execute("SELECT status, body FROM idempotency WHERE key = ? AND "
                                  "created >= ?", (key, cutoff)).fetchone()
        return None if row is None else (row[0], json.loads(row[1]))

    def store_response(self, db, key, status, body):
        # REPLACE: an expired key not swept yet is reused as a new one
        db.execute("INSERT OR REPLACE INTO idempotency VALUES (?, ?, ?, ?)",
                   (key, status, json.dumps(body), self.clock()))


def _like_prefix(name):
    escaped = name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return escaped + "\x00%"


class _Transaction:
    def __init__(self, store, durable):
        self.store = store
        self.relaxed = store.durable and not durable

    def __enter__(self):
        self.store.lock.acquire()
        try:
            if self.relaxed:
                self.store.db.execute("PRAGMA synchronous=NORMAL")
            self.store.db.execute("BEGIN IMMEDIATE")
        except BaseException:
            self.store.lock.release()
            raise
        return self.store.db

    def __exit__(self, kind, value, traceback):
        try:
            self.store.db.execute("COMMIT" if kind is None else "ROLLBACK")
        finally:
            try:
                if self.relaxed:
                    self.store.db.execute("PRAGMA synchronous=FULL")
            finally:
                self.store.lock.release()
        return False
