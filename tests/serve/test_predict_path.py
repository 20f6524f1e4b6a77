"""The predict route's fast path: the scorer that keeps the packed parameters gives
``decision_function``'s values bit for bit (and follows learning and rebuilt learners),
concurrent predictions share one commit of their pending rows (each kept or refused on its
own), and the route reached without the router answers as the routed one."""
import asyncio
import threading

import httpx
import numpy as np
import pytest
from scipy.sparse import csr_matrix
from starlette.applications import Starlette
from starlette.routing import Mount

import olc
from olc.serve import create_app
from olc.serve.learner_files import learner_bytes, learner_from_bytes
from olc.serve.parsing import RequestError
from olc.serve.scoring import Scorer

from .conftest import blobs
from .test_concurrency import _create, _run


@pytest.mark.parametrize("name, params, classes", [
    ("perceptron", {}, ["no", "yes"]),
    ("pa-i", {"C": 0.5}, ["no", "yes"]),
    ("pa-i", {"C": 0.5, "average": True}, ["no", "yes"]),
    ("arow", {"r": 1.0}, ["no", "yes"]),
    ("perceptron", {}, ["a", "b", "c"]),  # one-vs-rest: decision_function itself
    ("multiclass-pa-i", {}, ["a", "b", "c"]),
    ("kernel-perceptron", {"kernel": "rbf"}, ["no", "yes"]),
])
def test_scores_equal_decision_function_through_learning_and_rebuilds(name, params, classes):
    X, y = blobs(120, 6, seed=4, classes=classes)
    learner = olc.make(name, **params)
    scorer = Scorer()
    probe = np.random.default_rng(9).normal(size=(7, 6))
    learner.partial_fit(X[:40], y[:40], classes=classes)
    for batch in (slice(40, 41), slice(41, 90), slice(90, 120)):
        for rows in (probe, probe[:1], csr_matrix(probe)):
            got = scorer.scores(learner, rows)
            assert got.tobytes() == learner.decision_function(rows).tobytes()
        learner.partial_fit(X[batch], y[batch])
    rebuilt = learner_from_bytes(learner_bytes(learner))  # a new object, same n_steps_
    rebuilt.partial_fit(X[:5], y[:5])
    assert scorer.scores(rebuilt, probe).tobytes() == rebuilt.decision_function(probe).tobytes()
    other = olc.make(name, **params)
    other.partial_fit(X[60:], y[60:], classes=classes)  # same n_steps_ as learner had at 60
    assert scorer.scores(other, probe).tobytes() == other.decision_function(probe).tobytes()


def test_scores_follow_a_learner_rebuilt_with_the_same_step_count():
    """A rebuilt learner (the writer's recovery) with as many steps as the cached one: the
    cache is keyed on the object, so its state, not the old one's, is scored."""
    X, y = blobs(80, 5, seed=5)
    first, second = olc.make("pa-i"), olc.make("pa-i")
    first.partial_fit(X[:40], y[:40], classes=["no", "yes"])
    second.partial_fit(X[40:], y[40:], classes=["no", "yes"])
    assert first.n_steps_ == second.n_steps_
    scorer = Scorer()
    probe = X[:3]
    assert scorer.scores(first, probe).tobytes() == first.decision_function(probe).tobytes()
    assert scorer.scores(second, probe).tobytes() == second.decision_function(probe).tobytes()
    assert first.decision_function(probe).tolist() != second.decision_function(probe).tolist()


def test_concurrent_predictions_share_commits_and_every_answered_id_is_pending(store):
    X, y = blobs(60, 4, seed=6)
    app = create_app(store)
    commits = []

    async def scenario(client):
        await _create(client)
        await client.post("/models/m/learn", json={"rows": X[:20].tolist(),
                                                    "labels": y[:20].tolist()})
        predictions = app.state.predictions
        write = predictions._write

        def counted(items):
            commits.append(len(items))
            return write(items)

        predictions._write = counted
        answers = await asyncio.gather(*[
            client.post("/models/m/predict", json={"rows": X[20 + i:21 + i].tolist()})
            for i in range(40)])
        store_ = app.state.service.store
        with store_.lock:
            pending = dict(store_.db.execute("SELECT pid, prediction FROM pending WHERE "
                                             "model = ?", ("m",)).fetchall())
        return answers, pending

    answers, pending = _run(app, scenario)
    assert all(a.status_code == 200 for a in answers)
    ids = [a.json()["predictions"][0]["event_id"] for a in answers]
    assert len(set(ids)) == 40
    assert sorted(f"p{pid}" for pid in pending) == sorted(ids)
    assert sum(commits) == 40 and len(commits) < 40  # grouped, none lost or repeated
    offline = olc.make("pa-i")
    offline.partial_fit(X[:20], y[:20], classes=["no", "yes"])
    expected = offline.decision_function(X[20:60]).tolist()
    assert [a.json()["predictions"][0]["score"] for a in answers] == expected


def test_a_refused_prediction_in_a_group_leaves_the_others_kept(store):
    """Two models' predictions in one commit; one model deleted meanwhile: its prediction
    is refused (404, its rows not kept), the other's is committed."""
    X, y = blobs(30, 3, seed=7)
    app = create_app(store)

    async def scenario(client):
        await _create(client, "a")
        await _create(client, "b")
        for name in ("a", "b"):
            await client.post(f"/models/{name}/learn", json={"rows": X[:10].tolist(),
                                                              "labels": y[:10].tolist()})
        service, predictions = app.state.service, app.state.predictions
        a, b = service.hosts["a"], service.hosts["b"]
        items = []
        for host in (a, b):
            pids, labels, scores = host.score(X[10:12])
            items.append((host, pids, X[10:12], labels, scores, None, {}))
        b.closed = True  # deleted after scoring, before the commit
        outcomes = predictions._write(items)
        with service.store.lock:
            kept = service.store.db.execute(
                "SELECT model, COUNT(*) FROM pending GROUP BY model").fetchall()
        b.closed = False
        return outcomes, kept

    outcomes, kept = _run(app, scenario)
    assert outcomes[0] is None
    assert isinstance(outcomes[1], RequestError) and outcomes[1].status == 404
    assert kept == [("a", 2)]


def test_the_direct_predict_route_answers_as_the_routed_one(store):
    """Answers and refusals of POST /models/{name}/predict keep the contract's fields and
    headers; other methods and paths near it still reach the router (405, 404); and the
    application mounted under a prefix serves predictions too."""
    X, y = blobs(20, 3, seed=8)
    app = create_app(store)
    outer = Starlette(routes=[Mount("/api", app=app)])

    async def scenario(client):
        await _create(client)
        await client.post("/models/m/learn", json={"rows": X[:10].tolist(),
                                                    "labels": y[:10].tolist()})
        good = await client.post("/models/m/predict", json={"rows": X[10:11].tolist()})
        wide = await client.post("/models/m/predict", json={"rows": [[1.0, 2.0]]})
        unknown = await client.post("/models/nope/predict", json={"rows": [[1.0, 2.0, 3.0]]})
        method = await client.get("/models/m/predict")
        slash = await client.post("/models/m/predict/x", json={"rows": [[1.0]]})
        transport = httpx.ASGITransport(app=outer)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as mounted:
            via_mount = await mounted.post("/api/models/m/predict",
                                           json={"rows": X[11:12].tolist()})
        return good, wide, unknown, method, slash, via_mount

    good, wide, unknown, method, slash, via_mount = _run(app, scenario)
    assert good.status_code == 200 and good.headers["x-olc-durable"] == "true"
    assert good.headers["content-type"] == "application/json"
    assert set(good.json()["predictions"][0]) == {"event_id", "prediction", "score"}
    assert wide.status_code == 422 and wide.json() == {
        "error": "rows[0] has 2 values; the model has 3", "field": "rows[0]"}
    assert wide.headers["x-olc-durable"] == "true"
    assert unknown.status_code == 404 and unknown.json() == {
        "error": "no model named 'nope'", "field": "name"}
    assert method.status_code == 405 and method.json()["field"] is None
    assert slash.status_code == 404
    assert via_mount.status_code == 200
    assert via_mount.json()["predictions"][0]["event_id"] == "p1"


def test_a_keyed_prediction_whose_client_left_is_kept_once_for_its_retry(store):
    """The first copy of a keyed prediction is cancelled (its client went away) while its
    pending rows are being committed; a retry arriving then gets the first's answer (a
    replay), and the rows are kept once."""
    X, y = blobs(30, 3, seed=9)
    app = create_app(store)
    gate = threading.Event()

    async def scenario(client):
        await _create(client)
        await client.post("/models/m/learn", json={"rows": X[:10].tolist(),
                                                    "labels": y[:10].tolist()})
        predictions = app.state.predictions
        write = predictions._write

        def held(items):
            gate.wait(5)
            return write(items)

        predictions._write = held
        body, headers = {"rows": X[10:13].tolist()}, {"Idempotency-Key": "left"}
        first = asyncio.create_task(client.post("/models/m/predict", json=body,
                                                headers=headers))
        await asyncio.sleep(0.2)  # scored, its commit held
        first.cancel()
        retry = asyncio.create_task(client.post("/models/m/predict", json=body,
                                                headers=headers))
        await asyncio.sleep(0.2)
        gate.set()
        answer = await retry
        store_ = app.state.service.store
        with store_.lock:
            pending = store_.db.execute("SELECT COUNT(*) FROM pending WHERE model = ?",
                                        ("m",)).fetchone()[0]
        return first, answer, pending

    first, answer, pending = _run(app, scenario)
    assert first.cancelled()
    assert answer.status_code == 200, answer.text
    assert answer.headers["idempotent-replay"] == "true"
    assert [p["event_id"] for p in answer.json()["predictions"]] == ["p0", "p1", "p2"]
    assert pending == 3
