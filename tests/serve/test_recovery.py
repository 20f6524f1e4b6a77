"""Recovery on start: the newest loadable snapshot plus the log after it (or the whole log)
gives the model that never stopped, bit for bit; damaged snapshots are skipped with a
warning; a damaged database is refused with one clear line."""
import logging

import numpy as np
import pytest

import olc
from olc.serve import StoreError, create_app
from olc.serve.learner_files import learner_bytes, learner_from_bytes

from .conftest import blobs, create, served


def _state(learner):
    return [np.asarray(a).tobytes() for a in (learner._vecs, learner._ints, learner._scal)] + [
        learner.n_steps_, learner.n_updates_]


def _fill(client, X, y, sizes=(7, 13, 1, 29, 5)):
    """Learn X in batches of the given sizes (cycled); predict and feed back some rows."""
    position, k = 0, 0
    while position < len(X):
        size = sizes[k % len(sizes)]
        k += 1
        chunk = slice(position, min(position + size, len(X)))
        position = chunk.stop
        if k % 3 == 0:
            p = client.post("/models/m/predict", json={"rows": X[chunk].tolist()}).json()
            events = [{"event_id": q["event_id"], "label": label}
                      for q, label in zip(p["predictions"], y[chunk].tolist())]
            assert client.post("/models/m/feedback", json={"events": events}).status_code == 200
        else:
            r = client.post("/models/m/learn", json={"rows": X[chunk].tolist(),
                                                     "labels": y[chunk].tolist()})
            assert r.status_code == 200, r.text


@pytest.fixture
def stopped(store):
    """A store whose model 'm' (pa-i) learned 300 rows with snapshots every 40 events; the
    state it had when the server stopped."""
    X, y = blobs(300, 5, seed=2)
    with served(store, snapshot_every=40) as client:
        create(client, "m", "pa-i", {"C": 0.3}, classes=["no", "yes"])
        _fill(client, X[:250], y[:250])
        p = client.post("/models/m/predict", json={"rows": X[250:].tolist()}).json()
        summary = client.get("/models/m").json()
        state = _state(learner_from_bytes(client.get("/models/m/snapshot").content))
    return store, summary, state, p, (X, y)


def _restarted(store, **options):
    return served(store, **options)


def test_restart_gives_the_model_that_never_stopped(stopped):
    store, summary, state, pending, (X, y) = stopped
    assert summary["last_snapshot_event"] is not None
    assert summary["last_snapshot_event"] < summary["events_logged"]  # a log tail to replay
    with _restarted(store) as client:
        again = client.get("/models/m").json()
        assert _state(learner_from_bytes(client.get("/models/m/snapshot").content)) == state
        for key in ("rows_seen", "mistakes", "updates", "events_logged", "classes",
                    "n_features", "error_last_n"):
            assert again[key] == summary[key], key
        # the pending predictions survived: their late labels are learned now
        events = [{"event_id": q["event_id"], "label": label}
                  for q, label in zip(pending["predictions"], y[250:].tolist())]
        r = client.post("/models/m/feedback", json={"events": events})
        assert r.status_code == 200 and r.json()["applied"] == 50
        assert client.get("/models/m").json()["rows_seen"] == 300


def _corrupt(path, how):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] if how == "truncated" else b"\x00garbage" * 40)


@pytest.mark.parametrize("how", ["truncated", "garbage"])
def test_a_damaged_snapshot_is_skipped_with_a_warning(stopped, how, caplog):
    store, summary, state, _, _ = stopped
    folder = store / "snapshots" / "m"
    newest = sorted(folder.glob("*.olc"), key=lambda p: int(p.stem))[-1]
    _corrupt(newest, how)
    with caplog.at_level(logging.WARNING, logger="olc.serve"):
        with _restarted(store) as client:
            got = _state(learner_from_bytes(client.get("/models/m/snapshot").content))
            older = client.get("/models/m").json()["last_snapshot_event"]
    assert got == state
    assert older < int(newest.stem)
    assert any(newest.name in r.getMessage() and "skipped" in r.getMessage()
               for r in caplog.records)


def test_every_snapshot_damaged_means_a_full_replay(stopped, caplog):
    store, _, state, _, _ = stopped
    files = list((store / "snapshots" / "m").glob("*.olc"))
    assert files
    for path in files:
        _corrupt(path, "garbage")
    with caplog.at_level(logging.WARNING, logger="olc.serve"):
        with _restarted(store) as client:
            got = _state(learner_from_bytes(client.get("/models/m/snapshot").content))
            assert client.get("/models/m").json()["last_snapshot_event"] is None
    assert got == state
    assert sum("skipped" in r.getMessage() for r in caplog.records) == len(files)


def test_a_snapshot_that_does_not_match_its_name_is_skipped(stopped, caplog):
    store, _, state, _, _ = stopped
    folder = store / "snapshots" / "m"
    events = sorted(int(p.stem) for p in folder.glob("*.olc"))
    # an older model file under the newest name: it has learned fewer rows than it claims
    (folder / f"{events[-1]}.olc").write_bytes((folder / f"{events[0]}.olc").read_bytes())
    with caplog.at_level(logging.WARNING, logger="olc.serve"):
        with _restarted(store) as client:
            got = _state(learner_from_bytes(client.get("/models/m/snapshot").content))
    assert got == state
    assert any("learned" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_damaged_database_is_refused_with_one_clear_line(stopped, damage):
    store = stopped[0]
    db = store / "store.sqlite3"
    for leftover in store.glob("store.sqlite3-*"):
        leftover.unlink()
    data = db.read_bytes()
    db.write_bytes(b"this is not a database" * 100 if damage == "garbage"
                   else data[:100] + b"\xff" * (len(data) - 100))
    with pytest.raises(StoreError, match=r"store\.sqlite3 is damaged and cannot be opened"):
        create_app(store)


def test_an_uploaded_model_recovers_from_its_upload_and_the_log(store):
    X, y = blobs(120, 4, seed=9)
    base = olc.make("arow", r=0.5)
    base.partial_fit(X[:30], y[:30])
    with served(store, snapshot_every=10**6) as client:
        r = client.put("/models/m/snapshot", content=learner_bytes(base))
        assert r.status_code == 201, r.text
        assert r.json()["rows_seen"] == 30 and r.json()["classes"] == ["no", "yes"]
        _fill(client, X[30:], y[30:])
        state = _state(learner_from_bytes(client.get("/models/m/snapshot").content))
    with _restarted(store) as client:
        assert _state(learner_from_bytes(client.get("/models/m/snapshot").content)) == state
    offline = learner_from_bytes(learner_bytes(base))
    offline.partial_fit(X[30:], y[30:])
    assert _state(offline) == state


def test_a_batch_stopped_by_overflow_leaves_the_model_as_it_was(store):
    X, y = blobs(50, 3, seed=4)
    with served(store) as client:
        create(client, "m", "perceptron", classes=["no", "yes"])
        assert client.post("/models/m/learn", json={"rows": X[:40].tolist(),
                                                    "labels": y[:40].tolist()}).status_code == 200
        before = _state(learner_from_bytes(client.get("/models/m/snapshot").content))
        # the second huge row overflows the score after the first one was learned: the loop
        # stops with rows 0-1 learned; the service rebuilds the model from its store
        rows = [X[40].tolist(), [1e308] * 3, [1e308] * 3, X[41].tolist()]
        r = client.post("/models/m/learn", json={"rows": rows, "labels": ["no"] * 4})
        assert r.status_code == 422 and r.json()["field"] == "rows[2]", r.text
        assert "overflow" in r.json()["error"]
        after = _state(learner_from_bytes(client.get("/models/m/snapshot").content))
        assert after == before
        assert client.post("/models/m/learn", json={"rows": X[40:].tolist(),
                                                     "labels": y[40:].tolist()}).status_code == 200
        final = _state(learner_from_bytes(client.get("/models/m/snapshot").content))
    offline = olc.make("perceptron")
    offline.partial_fit(X[:40], y[:40], classes=["no", "yes"])
    offline.partial_fit(X[40:], y[40:])
    assert _state(offline) == final


def test_a_failed_commit_answers_503_and_leaves_the_model_as_the_log_says(store, monkeypatch):
    import sqlite3

    X, y = blobs(60, 3, seed=13)
    with served(store) as client:
        create(client, "m", "pa-i", classes=["no", "yes"])
        client.post("/models/m/learn", json={"rows": X[:30].tolist(), "labels": y[:30].tolist()})
        before = _state(learner_from_bytes(client.get("/models/m/snapshot").content))
        service = client.app.state.service
        original = service.store.append_batch

        def failing(*args, **kwargs):
            raise sqlite3.OperationalError("disk I/O error")

        monkeypatch.setattr(service.store, "append_batch", failing)
        r = client.post("/models/m/learn", json={"rows": X[30:].tolist(),
                                                 "labels": y[30:].tolist()})
        assert r.status_code == 503 and r.headers["retry-after"] == "1", r.text
        assert "disk I/O error" in r.json()["error"]
        assert _state(learner_from_bytes(client.get("/models/m/snapshot").content)) == before
        assert client.get("/models/m").json()["events_logged"] == 30
        monkeypatch.setattr(service.store, "append_batch", original)
        r = client.post("/models/m/learn", json={"rows": X[30:].tolist(),
                                                 "labels": y[30:].tolist()})
        assert r.status_code == 200 and r.json()["first_event"] == 30
        final = _state(learner_from_bytes(client.get("/models/m/snapshot").content))
    offline = olc.make("pa-i")
    offline.partial_fit(X[:30], y[:30], classes=["no", "yes"])
    offline.partial_fit(X[30:], y[30:])
    assert _state(offline) == final
