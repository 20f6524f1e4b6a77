"""The write-ahead log is checkpointed by the store's own thread, never inside a commit."""
import sqlite3

import pytest

from olc.serve.store import Store

MB = 2 ** 20


@pytest.fixture
def slow_store(tmp_path, monkeypatch):
    """A store whose checkpoint thread waits an hour: only the test checkpoints."""
    monkeypatch.setattr(Store, "checkpoint_seconds", 3600.0)
    store = Store(tmp_path / "store")
    with store.transaction() as db:
        db.execute("CREATE TABLE filler (b BLOB)")
    yield store
    store.close()


def write(store, megabytes):
    with store.transaction() as db:
        db.execute("INSERT INTO filler VALUES (?)", (bytes(megabytes * MB),))


def log_size(store):
    wal = store.path.with_name(store.path.name + "-wal")
    return wal.stat().st_size if wal.exists() else 0


def test_a_commit_never_checkpoints(slow_store):
    # SQLite's automatic checkpoint would restart the log past 1,000 pages (~4 MB)
    for _ in range(12):
        write(slow_store, 1)
    assert log_size(slow_store) >= 12 * MB
    assert slow_store.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0


def test_the_checkpoints_let_the_log_start_over(slow_store):
    for _ in range(12):
        write(slow_store, 1)
        busy, frames, copied = slow_store.checkpointer.checkpoint()
        assert busy == 0 and frames == copied > 0
    assert log_size(slow_store) < 3 * MB  # one commit's frames, not twelve


def test_the_thread_checkpoints_and_the_data_survive(tmp_path, monkeypatch):
    monkeypatch.setattr(Store, "checkpoint_seconds", 0.01)
    store = Store(tmp_path / "store")
    with store.transaction() as db:
        db.execute("CREATE TABLE filler (b BLOB)")
    write(store, 2)
    passes = store.checkpointer.passes
    store.checkpointer.stopping.wait(0.2)
    assert store.checkpointer.passes > passes
    store.close()
    db = sqlite3.connect(tmp_path / "store" / "store.sqlite3")
    assert db.execute("SELECT length(b) FROM filler").fetchone()[0] == 2 * MB
    db.close()
