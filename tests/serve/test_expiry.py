"""Retention: pending predictions older than ``pending_ttl`` and idempotency keys older than
``idempotency_ttl`` are deleted by the model's writer (bounded work per sweep); a feedback
for an expired prediction is 410 (the id existed), a retry with an expired key is applied as
new, prediction ids are never reused. A fake clock drives every time (no sleeps)."""
import numpy as np
import pytest

import olc.serve.writer as writer_module
from olc.serve import create_app

from .conftest import blobs, create, served

DAY = 86400.0


class Clock:
    def __init__(self, now=1.8e9):
        self.now = now

    def __call__(self):
        return self.now


def gauge(client, metric, model="m"):
    for line in client.get("/metrics").text.splitlines():
        if line.startswith(f'{metric}{{model="{model}"}} '):
            return int(line.split()[-1])
    raise AssertionError(f"no {metric} for {model}")


def learn(client, X, y, key=None):
    r = client.post("/models/m/learn", json={"rows": X.tolist(), "labels": y.tolist()},
                    headers={"Idempotency-Key": key} if key else None)
    assert r.status_code == 200, r.text
    return r


def feedback(client, pid, label):
    return client.post("/models/m/feedback", json={"events": [{"event_id": pid,
                                                               "label": label}]})


def predict(client, X):
    r = client.post("/models/m/predict", json={"rows": X.tolist()})
    assert r.status_code == 200, r.text
    return [p["event_id"] for p in r.json()["predictions"]]


def test_feedback_for_an_expired_prediction_is_410_then_swept(store):
    X, y = blobs(40, 3, seed=1)
    clock = Clock()
    with served(store, pending_ttl=DAY, clock=clock) as client:
        create(client, "m", "pa-i", {}, classes=["no", "yes"])
        learn(client, X[:10], y[:10])
        ids = predict(client, X[10:14])  # at t0
        assert gauge(client, "olc_pending_predictions") == 4
        clock.now += DAY - 1
        assert feedback(client, ids[0], y[10].item()).status_code == 200  # in time
        clock.now += 2  # ids[1:] are now older than the TTL, not yet swept
        assert gauge(client, "olc_pending_predictions") == 3
        rows = client.get("/models/m").json()["rows_seen"]
        r = feedback(client, ids[1], y[11].item())
        assert r.status_code == 410, r.text
        assert r.json()["field"] == "events[0].event_id" and ids[1] in r.json()["error"]
        assert "expired" in r.json()["error"]
        assert client.get("/models/m").json()["rows_seen"] == rows  # nothing learned
        learn(client, X[14:16], y[14:16])
        assert gauge(client, "olc_pending_predictions") == 3  # swept 2 s ago: not due yet
        clock.now += writer_module.SWEEP_SECONDS
        learn(client, X[14:16], y[14:16])  # a commit: its sweep takes the expired rows
        assert gauge(client, "olc_pending_predictions") == 0
        r = feedback(client, ids[2], y[12].item())  # swept: still 410, not 404
        assert r.status_code == 410 and ids[2] in r.json()["error"], r.text
        assert feedback(client, ids[0], y[10].item()).status_code == 404  # answered already
        assert feedback(client, "p999999", "yes").status_code == 404  # never existed
        # a fresh prediction gets an id beyond every earlier one, and can be fed back
        fresh = predict(client, X[16:17])
        assert int(fresh[0][1:]) > max(int(i[1:]) for i in ids)
        assert feedback(client, fresh[0], y[16].item()).status_code == 200
        # the expiry marks are themselves kept one more TTL, then the id is unknown (404)
        clock.now += DAY + 11
        learn(client, X[17:18], y[17:18])
        assert feedback(client, ids[3], y[13].item()).status_code == 404
    with served(store, pending_ttl=DAY, clock=clock) as client:  # a restart: new id block
        again = predict(client, X[18:19])
        assert int(again[0][1:]) > int(fresh[0][1:])


def test_sweep_work_is_bounded_per_commit(store, monkeypatch):
    monkeypatch.setattr(writer_module, "SWEEP_LIMIT", 2)
    X, y = blobs(30, 3, seed=2)
    clock = Clock()
    with served(store, pending_ttl=60.0, idempotency_ttl=60.0, clock=clock) as client:
        create(client, "m", "perceptron", {}, classes=["no", "yes"])
        learn(client, X[:5], y[:5])
        predict(client, X[5:12])  # 7 pending
        for k in range(5):
            learn(client, X[12 + k:13 + k], y[12 + k:13 + k], key=f"k{k}")
        assert gauge(client, "olc_idempotency_keys") == 5
        clock.now += 61
        seen = []
        for k in range(4):  # each commit deletes at most 2 rows a table
            learn(client, X[20 + k:21 + k], y[20 + k:21 + k])
            seen.append((gauge(client, "olc_pending_predictions"),
                         gauge(client, "olc_idempotency_keys")))
        assert seen == [(5, 3), (3, 1), (1, 0), (0, 0)]


def test_a_retry_with_an_expired_key_is_applied_as_new(store):
    X, y = blobs(10, 3, seed=3)
    clock = Clock()
    with served(store, idempotency_ttl=3600.0, clock=clock) as client:
        create(client, "m", "pa-i", {}, classes=["no", "yes"])
        first = learn(client, X[:4], y[:4], key="batch-1").json()
        clock.now += 3599
        retry = learn(client, X[:4], y[:4], key="batch-1")
        assert retry.headers.get("Idempotent-Replay") == "true" and retry.json() == first
        assert client.get("/models/m").json()["rows_seen"] == 4
        r = client.post("/models/m/predict", json={"rows": X[4:5].tolist()},
                        headers={"Idempotency-Key": "pred-1"})
        clock.now += 2  # batch-1 is older than the TTL; pred-1 is not
        late = learn(client, X[:4], y[:4], key="batch-1")
        assert late.headers.get("Idempotent-Replay") is None
        assert late.json()["first_event"] == 4  # learned a second time: a new request
        assert client.get("/models/m").json()["rows_seen"] == 8
        again = client.post("/models/m/predict", json={"rows": X[4:5].tolist()},
                            headers={"Idempotency-Key": "pred-1"})
        assert again.headers.get("Idempotent-Replay") == "true" and again.json() == r.json()
        # and the renewed key replays again, with its new answer
        renewed = learn(client, X[:4], y[:4], key="batch-1")
        assert renewed.headers.get("Idempotent-Replay") == "true"
        assert renewed.json() == late.json()
        assert gauge(client, "olc_idempotency_keys") == 2


def test_a_feedback_being_applied_is_never_swept(store):
    """The sweep runs in the writer's own transaction, after the feedback of that transaction
    took its pending rows: a prediction that expires between the feedback's lookup and the
    commit is learned (200), not marked expired."""
    X, y = blobs(20, 3, seed=4)
    clock = Clock()
    with served(store, pending_ttl=100.0, clock=clock) as client:
        create(client, "m", "pa-i", {}, classes=["no", "yes"])
        learn(client, X[:5], y[:5])
        ids = predict(client, X[5:7])
        host = client.app.state.service.hosts["m"]
        lookup = host.store.pending

        def lookup_then_time_passes(name, pids):
            found = lookup(name, pids)
            clock.now += 1000  # the commit (and its sweep) comes after the TTL
            return found

        clock.now += 99
        host.store.pending = lookup_then_time_passes
        r = feedback(client, ids[0], y[5].item())
        host.store.pending = lookup
        assert r.status_code == 200 and r.json()["applied"] == 1, r.text
        assert client.get("/models/m").json()["rows_seen"] == 6
        assert gauge(client, "olc_pending_predictions") == 0  # ids[1] swept in that commit
        assert feedback(client, ids[0], y[5].item()).status_code == 404  # learned, not expired
        assert feedback(client, ids[1], y[6].item()).status_code == 410


def test_zero_keeps_forever_and_bad_ttls_are_refused(store, tmp_path):
    X, y = blobs(10, 3, seed=5)
    clock = Clock()
    with served(store, pending_ttl=0, idempotency_ttl=0, clock=clock) as client:
        create(client, "m", "pa-i", {}, classes=["no", "yes"])
        learn(client, X[:4], y[:4], key="once")
        ids = predict(client, X[4:6])
        clock.now += 100 * 365 * DAY
        learn(client, X[6:7], y[6:7])
        assert gauge(client, "olc_pending_predictions") == 2
        assert feedback(client, ids[0], y[4].item()).status_code == 200
        assert learn(client, X[:4], y[:4], key="once").headers.get("Idempotent-Replay") == "true"
    for bad in (-1, float("nan"), float("inf"), "1", True):
        with pytest.raises(ValueError, match="pending_ttl"):
            create_app(tmp_path / "other", pending_ttl=bad)
        with pytest.raises(ValueError, match="idempotency_ttl"):
            create_app(tmp_path / "other", idempotency_ttl=bad)


def test_an_idle_writer_sweeps(store):
    """Without commits, the writer's idle turn (every snapshot_seconds) sweeps."""
    X, y = blobs(10, 3, seed=6)
    clock = Clock()
    with served(store, pending_ttl=5.0, clock=clock) as client:
        create(client, "m", "pa-i", {}, classes=["no", "yes"])
        learn(client, X[:4], y[:4])
        ids = predict(client, X[4:7])
        clock.now += 6
        client.app.state.service.hosts["m"].idle_work()
        assert gauge(client, "olc_pending_predictions") == 0
        assert feedback(client, ids[2], y[6].item()).status_code == 410
    assert np.all(np.isfinite(X))


def test_a_replay_read_before_its_key_is_swept_keeps_its_answer(store):
    """A retry found stored when the writer takes it is answered with the stored response,
    even when the same group's commit sweeps the key (it expired meanwhile)."""
    X, y = blobs(12, 3, seed=7)
    clock = Clock()
    with served(store, idempotency_ttl=100.0, clock=clock) as client:
        create(client, "m", "pa-i", {}, classes=["no", "yes"])
        first = learn(client, X[:4], y[:4], key="k").json()
        host = client.app.state.service.hosts["m"]
        read = host.store.stored_response

        def read_then_time_passes(key):
            found = read(key)
            clock.now += 1000  # the group's commit (and its sweep) comes after the TTL
            return found

        clock.now += 99
        host.store.stored_response = read_then_time_passes
        jobs = [writer_module.Job("learn", X=X[:4], labels=y[:4].tolist(),
                                  key="m\x00learn\x00k"),
                writer_module.Job("learn", X=X[4:6], labels=y[4:6].tolist())]
        host.apply(jobs)
        host.store.stored_response = read
        assert jobs[0].result == (200, first)  # the stored answer, not learned again
        assert jobs[1].result["first_event"] == 4
        assert gauge(client, "olc_idempotency_keys") == 0  # swept by that commit
        assert client.get("/models/m").json()["rows_seen"] == 6
