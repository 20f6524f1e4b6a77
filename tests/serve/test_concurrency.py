"""One writer per model: concurrent learns are applied in log order (the model equals the
offline replay of the log), predictions never see a half-applied batch, a retried request
(same Idempotency-Key) is applied once even when the copies race, and a full queue answers
503 with Retry-After."""
import asyncio
import threading
import time

import httpx
import numpy as np
import pytest

import olc
from olc.serve import create_app
from olc.serve.learner_files import learner_from_bytes

from .conftest import blobs


def _run(app, scenario):
    """Run ``scenario(client)`` (a coroutine function) against ``app`` in one event loop."""
    async def main():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            try:
                return await scenario(client)
            finally:
                service = app.state.service
                for host in service.hosts.values():
                    host.close()
    try:
        return asyncio.run(main())
    finally:
        app.state.service.store.close()


async def _create(client, name="m", learner="pa-i", **extra):
    r = await client.post("/models", json={"name": name, "learner": learner,
                                           "classes": ["no", "yes"], **extra})
    assert r.status_code == 201, r.text


def test_concurrent_learns_are_applied_in_log_order(store):
    X, y = blobs(400, 5, seed=8)
    app = create_app(store)

    async def scenario(client):
        await _create(client)
        parts = np.array_split(np.arange(400), 40)
        answers = await asyncio.gather(*[
            client.post("/models/m/learn", json={"rows": X[p].tolist(),
                                                 "labels": y[p].tolist()}) for p in parts])
        assert all(a.status_code == 200 for a in answers)
        firsts = sorted(a.json()["first_event"] for a in answers)
        assert firsts == sorted({f for f in firsts}) and len(firsts) == 40
        snapshot = (await client.get("/models/m/snapshot")).content
        return learner_from_bytes(snapshot)

    served = _run(app, scenario)
    store_ = app.state.service.store.__class__(store)
    batches = list(store_.batches("m"))
    store_.close()
    X_log = np.vstack([b.X for b in batches])
    y_log = np.concatenate([b.labels for b in batches])
    assert len(y_log) == 400
    assert sorted(map(tuple, X_log.tolist())) == sorted(map(tuple, X.tolist()))
    offline = olc.make("pa-i")
    olc.progressive(offline, X_log, y_log, classes=np.array(["no", "yes"]))
    assert served._vecs.tobytes() == offline._vecs.tobytes()
    assert served._scal.tobytes() == offline._scal.tobytes()


def test_predictions_never_see_a_half_applied_batch(store, monkeypatch):
    """While the writer applies a batch (here: slowed down between its two halves),
    predictions give the scores of the model before the batch or after it, nothing else."""
    X, y = blobs(80, 4, seed=12)
    probe = X[:5]
    app = create_app(store)
    scores = []

    async def scenario(client):
        await _create(client, learner="perceptron")
        r = await client.post("/models/m/learn", json={"rows": X[:40].tolist(),
                                                       "labels": y[:40].tolist()})
        assert r.status_code == 200
        host = app.state.service.hosts["m"]
        learner = host.learner
        original = learner.predict_then_learn
        before = learner.decision_function(probe).tolist()

        def slow_halves(Xb, yb, classes=None):
            original(Xb[:20], yb[:20], classes=classes)
            time.sleep(0.3)
            return original(Xb[20:], yb[20:], classes=classes)

        monkeypatch.setattr(learner, "predict_then_learn", slow_halves)
        learn = asyncio.create_task(client.post("/models/m/learn", json={
            "rows": X[40:].tolist(), "labels": y[40:].tolist()}))
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline and not learn.done():
            p = await client.post("/models/m/predict", json={"rows": probe.tolist()})
            scores.append([q["score"] for q in p.json()["predictions"]])
            await asyncio.sleep(0.01)
        assert (await learn).status_code == 200
        after = learner.decision_function(probe).tolist()
        return before, after

    before, after = _run(app, scenario)
    assert before != after
    assert scores and all(s in (before, after) for s in scores)
    half = olc.make("perceptron")
    half.partial_fit(X[:60], y[:60], classes=["no", "yes"])
    assert half.decision_function(probe).tolist() not in scores  # the torn state was real


@pytest.mark.parametrize("route", ["learn", "feedback", "predict"])
def test_racing_retries_with_one_key_are_applied_once(store, route):
    X, y = blobs(30, 3, seed=1)
    app = create_app(store)

    async def scenario(client):
        await _create(client)
        await client.post("/models/m/learn", json={"rows": X[:10].tolist(),
                                                    "labels": y[:10].tolist()})
        if route == "feedback":
            p = (await client.post("/models/m/predict", json={"rows": X[10:20].tolist()})).json()
            body = {"events": [{"event_id": q["event_id"], "label": label} for q, label in
                               zip(p["predictions"], y[10:20].tolist())]}
        elif route == "learn":
            body = {"rows": X[10:20].tolist(), "labels": y[10:20].tolist()}
        else:
            body = {"rows": X[10:20].tolist()}
        headers = {"Idempotency-Key": "once-only"}
        answers = await asyncio.gather(*[client.post(f"/models/m/{route}", json=body,
                                                     headers=headers) for _ in range(6)])
        later = await client.post(f"/models/m/{route}", json=body, headers=headers)
        summary = (await client.get("/models/m")).json()
        store_ = app.state.service.store
        with store_.lock:
            pending = store_.db.execute("SELECT COUNT(*), MAX(pid) FROM pending WHERE model = ?",
                                        ("m",)).fetchone()
        return answers + [later], summary, tuple(pending)

    answers, summary, pending = _run(app, scenario)
    assert all(a.status_code == 200 for a in answers)
    assert all(a.json() == answers[0].json() for a in answers)
    assert answers[-1].headers.get("idempotent-replay") == "true"
    assert summary["rows_seen"] == (10 if route == "predict" else 20)
    if route == "predict":
        assert pending == (10, 9)  # p0..p9 kept once, not six times
    else:
        assert pending == (0, None)  # feedback consumed its ten; learn keeps none


def test_a_full_queue_answers_503_with_retry_after(store, monkeypatch):
    X, y = blobs(20, 3, seed=3)
    app = create_app(store, queue_size=1)
    gate = threading.Event()

    async def scenario(client):
        await _create(client)
        host = app.state.service.hosts["m"]
        original = host.apply

        def held(jobs):
            gate.wait(5)
            return original(jobs)

        monkeypatch.setattr(host, "apply", held)
        body = {"rows": X[:2].tolist(), "labels": y[:2].tolist()}
        tasks = [asyncio.create_task(client.post("/models/m/learn", json=body))
                 for _ in range(6)]
        await asyncio.sleep(0.3)
        gate.set()
        answers = await asyncio.gather(*tasks)
        summary = (await client.get("/models/m")).json()
        return answers, summary

    answers, summary = _run(app, scenario)
    codes = sorted(a.status_code for a in answers)
    assert 503 in codes and 200 in codes
    for a in answers:
        if a.status_code == 503:
            assert a.headers["retry-after"] == "1" and a.json()["field"] is None
    assert summary["rows_seen"] == 2 * codes.count(200)


def test_deleting_a_model_while_it_learns_leaves_nothing_behind(store, monkeypatch):
    """A batch being applied when its model is deleted is answered (committed, then removed
    with the model); queued ones are refused with 404; nothing hangs, and a new model of the
    same name starts empty (no log rows, pending predictions or snapshots of the old one)."""
    X, y = blobs(40, 3, seed=2)
    app = create_app(store, snapshot_every=1)
    gate = threading.Event()

    async def scenario(client):
        await _create(client)
        await client.post("/models/m/learn", json={"rows": X[:10].tolist(),
                                                    "labels": y[:10].tolist()})
        await client.post("/models/m/predict", json={"rows": X[10:12].tolist()})
        host = app.state.service.hosts["m"]
        original = host.apply

        def held(jobs):
            gate.wait(5)
            return original(jobs)

        monkeypatch.setattr(host, "apply", held)
        body = {"rows": X[10:20].tolist(), "labels": y[10:20].tolist()}
        learns = [asyncio.create_task(client.post("/models/m/learn", json=body))
                  for _ in range(3)]
        await asyncio.sleep(0.2)
        deleting = asyncio.create_task(client.delete("/models/m"))
        await asyncio.sleep(0.2)
        gate.set()
        assert (await deleting).status_code == 204
        codes = [(await t).status_code for t in learns]
        late = await client.post("/models/m/learn", json=body)
        await _create(client)
        fresh = (await client.get("/models/m")).json()
        p = await client.post("/models/m/feedback", json={"events": [
            {"event_id": "p0", "label": "no"}]})
        return codes, late.status_code, fresh, p.status_code

    codes, late, fresh, feedback = _run(app, scenario)
    assert all(code in (200, 404) for code in codes) and 404 in codes
    assert late == 404
    assert fresh["rows_seen"] == fresh["events_logged"] == 0
    assert fresh["last_snapshot_event"] is None
    assert feedback == 404  # the old model's pending p0 went with it
    assert not (store / "snapshots" / "m").exists() or not any(
        (store / "snapshots" / "m").iterdir())


def test_racing_creates_of_one_name_make_one_model(store):
    app = create_app(store)

    async def scenario(client):
        body = {"name": "m", "learner": "perceptron"}
        answers = await asyncio.gather(*[client.post("/models", json=body) for _ in range(5)])
        listed = (await client.get("/models")).json()["models"]
        return sorted(a.status_code for a in answers), answers, listed

    codes, answers, listed = _run(app, scenario)
    assert codes == [201, 409, 409, 409, 409]
    assert all(a.json()["field"] == "name" for a in answers if a.status_code == 409)
    assert [m["name"] for m in listed] == ["m"]
