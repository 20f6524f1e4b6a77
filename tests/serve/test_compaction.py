"""Log compaction: the features of logged events inside the oldest snapshot verified to load
are dropped; recovery stays exact (the model equals that snapshot plus a replay of the log
after it, and the model that never stopped), even when every newer snapshot is damaged
later; a damaged snapshot never anchors a compaction."""
import logging

import numpy as np
import pytest

from olc.serve import StoreError, create_app
from olc.serve.learner_files import learner_from_bytes
from olc.serve.store import Store

from .conftest import blobs, create, served


def _state(learner):
    return [np.asarray(a).tobytes() for a in (learner._vecs, learner._ints, learner._scal)] + [
        learner.n_steps_, learner.n_updates_]


def _learn(client, X, y, size=10):
    for start in range(0, len(X), size):
        r = client.post("/models/m/learn", json={"rows": X[start:start + size].tolist(),
                                                 "labels": y[start:start + size].tolist()})
        assert r.status_code == 200, r.text


def _log(store):
    db = Store(store)
    try:
        return [(b.first_event, b.X is not None) for b in db.batches("m")], db.compacted_to("m")
    finally:
        db.close()


def _folder(store):
    return store / "snapshots" / "m"


def test_compaction_keeps_recovery_exact(store, caplog):
    X, y = blobs(400, 4, seed=8)
    with served(store, snapshot_every=50) as client:
        create(client, "m", "pa-i", {"C": 0.4}, classes=["no", "yes"])
        _learn(client, X[:300], y[:300])
        assert sorted(int(p.stem) for p in _folder(store).glob("*.olc")) == [200, 250, 300]
        before = client.get("/models/m").json()
        curve = client.get("/models/m/curve?points=1000").json()
        r = client.post("/models/m/compact")
        assert r.status_code == 200, r.text
        assert r.json() == {"compacted_to": 200, "batches_compacted": 20,
                            "snapshots": [200, 250, 300]}
        after = client.get("/models/m").json()
        assert after["log_compacted_to"] == 200
        for key in ("rows_seen", "mistakes", "error_last_n", "events_logged", "updates"):
            assert after[key] == before[key]  # the outcomes stay
        assert client.get("/models/m/curve?points=1000").json() == curve
        _learn(client, X[300:400], y[300:400])  # newer snapshots; the anchor is kept
        assert sorted(int(p.stem) for p in _folder(store).glob("*.olc")) == [200, 300, 350, 400]
        served_state = _state(learner_from_bytes(client.get("/models/m/snapshot").content))
    batches, anchor = _log(store)
    assert anchor == 200
    assert [first for first, has in batches if not has] == list(range(0, 200, 10))
    assert all(has for first, has in batches if first >= 200)
    # the anchor plus the log after it is the served model (replayed here, by hand)
    offline = learner_from_bytes((_folder(store) / "200.olc").read_bytes())
    db = Store(store)
    for batch in db.batches("m", after=200):
        offline.partial_fit(batch.X, np.asarray(batch.labels), classes=np.array(["no", "yes"]))
    db.close()
    assert _state(offline) == served_state
    # every newer snapshot damaged: the restart falls back to the anchor + the log
    for event in (300, 350, 400):
        (_folder(store) / f"{event}.olc").write_bytes(b"damaged")
    with caplog.at_level(logging.WARNING, logger="olc.serve"), served(store) as client:
        assert _state(learner_from_bytes(client.get("/models/m/snapshot").content)) == \
            served_state
        assert client.get("/models/m").json()["last_snapshot_event"] == 200
    assert sum("skipped" in m for m in caplog.messages) == 3


def test_a_damaged_snapshot_never_anchors_and_no_snapshot_is_409(store):
    X, y = blobs(200, 3, seed=9)
    with served(store, snapshot_every=40) as client:
        create(client, "m", "perceptron", {}, classes=["no", "yes"])
        r = client.post("/models/m/compact")
        assert r.status_code == 409 and "not compacted" in r.json()["error"], r.text
        _learn(client, X, y)
        assert sorted(int(p.stem) for p in _folder(store).glob("*.olc")) == [120, 160, 200]
        (_folder(store) / "120.olc").write_bytes(b"not a snapshot")
        data = (_folder(store) / "160.olc").read_bytes()
        (_folder(store) / "160.olc").write_bytes(data[: len(data) // 2])  # truncated
        r = client.post("/models/m/compact")
        assert r.status_code == 200, r.text
        assert r.json()["compacted_to"] == 200 and r.json()["snapshots"] == [200]
        state = _state(learner_from_bytes(client.get("/models/m/snapshot").content))
    assert _log(store)[1] == 200
    with served(store) as client:
        assert _state(learner_from_bytes(client.get("/models/m/snapshot").content)) == state
    # the anchor itself lost (and no newer snapshot): one clear refusal, never a guess
    (_folder(store) / "200.olc").write_bytes(b"lost")
    with pytest.raises(StoreError, match="compacted below event 200"):
        create_app(store)


def test_the_client_compacts(store):
    from olc.client import Client, ServeError

    X, y = blobs(60, 3, seed=11)
    with served(store, snapshot_every=20) as test_client:
        with Client("http://testserver", transport=test_client._transport) as client:
            client.create_model("m", "pa-i", {}, classes=["no", "yes"])
            with pytest.raises(ServeError) as refused:
                client.compact("m")
            assert refused.value.status == 409
            client.learn("m", X, y)
            assert client.compact("m")["compacted_to"] == 60


def test_compact_log_at_start(store):
    X, y = blobs(120, 3, seed=10)
    with served(store, snapshot_every=30) as client:
        create(client, "m", "pa-i", {}, classes=["no", "yes"])
        _learn(client, X, y)
        state = _state(learner_from_bytes(client.get("/models/m/snapshot").content))
    with served(store, compact_log=True) as client:
        assert client.get("/models/m").json()["log_compacted_to"] == 60
        assert _state(learner_from_bytes(client.get("/models/m/snapshot").content)) == state
    batches, anchor = _log(store)
    assert anchor == 60 and [f for f, has in batches if not has] == list(range(0, 60, 10))
