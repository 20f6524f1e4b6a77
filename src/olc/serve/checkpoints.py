"""The write-ahead log's checkpoints, off the commit path.

SQLite's automatic checkpoint runs inside the commit that crosses its threshold: that
commit (and every request waiting on it) pays for copying the log into the database and,
with ``synchronous=FULL``, for syncing it — measured, the whole p99 of a loaded predict
(16.3 ms with it, 7.8 ms without). So the store's connection turns it off and this thread
runs PASSIVE checkpoints on a connection of its own: they never take the writers' lock, so
commits go on meanwhile (the sqlite3 module releases the GIL while SQLite works). Once a
checkpoint has copied the whole log, the next commit starts it over from the beginning;
``journal_size_limit`` then truncates the file. Durability is unchanged: a commit is durable
when its log frames are synced, which the committing connection still does itself.
"""
import sqlite3
import threading

__all__ = ["Checkpointer", "LOG_SIZE_LIMIT"]

LOG_SIZE_LIMIT = 64 * 2 ** 20  # bytes the log file keeps after a restart of the log


class Checkpointer:
    """A daemon thread checkpointing the store's write-ahead log every ``interval``
    seconds; :meth:`stop` runs a last one and closes its connection."""

    def __init__(self, path, durable, interval=0.5):
        self.interval = interval
        self.stopping = threading.Event()
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        self.db.execute("PRAGMA busy_timeout=0")
        self.passes = 0  # checkpoints run (tests read it)
        self.thread = threading.Thread(target=self._run, name="olc-wal-checkpoints",
                                       daemon=True)
        self.thread.start()

    def checkpoint(self):
        """One PASSIVE checkpoint: (busy, log frames, frames copied), as SQLite answers."""
        try:
            return tuple(self.db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone())
        except sqlite3.OperationalError:  # busy or closing: the next pass will do it
            return None
        finally:
            self.passes += 1

    def _run(self):
        while not self.stopping.wait(self.interval):
            self.checkpoint()

    def stop(self):
        if self.stopping.is_set():
            return
        self.stopping.set()
        self.thread.join()
        self.checkpoint()
        self.db.close()
