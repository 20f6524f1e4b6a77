"""The store's retention (``Store`` inherits it): expired pending predictions and idempotency
keys deleted by each model's writer in its transactions, and the counts ``/metrics`` shows.
The rules are in ``store``'s docstring."""
import sqlite3

__all__ = ["Retention", "SWEEP_LIMIT"]


#: Rows of each table one sweep deletes at most (the writer's transactions stay short).
SWEEP_LIMIT = 10_000


class Retention:
    """Needs the store's ``clock``, ``pending_ttl``, ``idempotency_ttl``, ``remove_pending``,
    ``path``, ``reader`` and ``reader_lock``."""

    def sweep(self, db, name, limit=SWEEP_LIMIT):
        """Delete ``name``'s expired pending predictions (leaving their ids in ``expired``
        for another ``pending_ttl``) and idempotency keys, at most ``limit`` rows a table.
        (pending, keys) deleted; the caller's transaction ``db``."""
        now, removed = self.clock(), [0, 0]
        if self.pending_ttl:
            # Ids are handed out in time order, so the oldest rows are the first ids: the
            # window of the `limit` smallest ids (the primary key; no index on the time,
            # which every prediction would pay for) holds the expired ones.
            cutoff = now - self.pending_ttl
            pids = [pid for pid, created in db.execute(
                "SELECT pid, created FROM pending WHERE model = ? ORDER BY pid LIMIT ?",
                (name, limit)) if created < cutoff]
            db.executemany("INSERT OR REPLACE INTO expired VALUES (?, ?, ?)",
                           [(name, pid, now) for pid in pids])
            self.remove_pending(db, name, pids)
            old = [(name, pid) for pid, at in db.execute(
                "SELECT pid, at FROM expired WHERE model = ? ORDER BY pid LIMIT ?",
                (name, limit)) if at < cutoff]
            db.executemany("DELETE FROM expired WHERE model = ? AND pid = ?", old)
            removed[0] = len(pids)
        if self.idempotency_ttl:
            removed[1] = db.execute(
                "DELETE FROM idempotency WHERE rowid IN (SELECT rowid FROM idempotency WHERE "
                "key >= ? AND key < ? AND created < ? LIMIT ?)",
                (name + "\x00", name + "\x01", now - self.idempotency_ttl, limit)).rowcount
        return tuple(removed)

    def retained(self):
        """{model: [pending predictions, idempotency keys]} stored now: counted on a
        read-only connection of its own (a WAL reader), so the scan never holds up a commit."""
        counts = {}
        with self.reader_lock:
            if self.reader is None:
                self.reader = sqlite3.connect(self.path.resolve().as_uri() + "?mode=ro",
                                              uri=True, check_same_thread=False)
            for model, n in self.reader.execute("SELECT model, COUNT(*) FROM pending "
                                                "GROUP BY model"):
                counts.setdefault(model, [0, 0])[0] = n
            for model, n in self.reader.execute(
                    "SELECT substr(key, 1, instr(key, char(0)) - 1), COUNT(*) FROM idempotency "
                    "GROUP BY 1"):
                counts.setdefault(model, [0, 0])[1] = n
        return counts
