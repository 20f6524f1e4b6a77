"""Row forms (dense, sparse, named with a logged vocabulary), model life cycle (list, curve,
delete, snapshots by count and by time) and the metrics text."""
import re
import time

import numpy as np
import pytest
from scipy.sparse import csr_matrix

import olc
from olc.serve.learner_files import learner_from_bytes

from .conftest import blobs, create, served


def test_sparse_and_mixed_rows_equal_partial_fit_on_the_same_batches(store):
    X, y = blobs(90, 6, seed=14)
    X[np.abs(X) < 0.7] = 0.0
    with served(store) as client:
        create(client, "m", "pa-i", n_features=6, classes=["no", "yes"])
        batches = [slice(0, 30), slice(30, 60), slice(60, 90)]
        for k, b in enumerate(batches):
            rows = []
            for i, row in enumerate(X[b]):
                nz = np.flatnonzero(row)
                rows.append(row.tolist() if (i + k) % 2 else
                            {"indices": nz.tolist()[::-1], "values": row[nz].tolist()[::-1]})
            r = client.post("/models/m/learn", json={"rows": rows, "labels": y[b].tolist()})
            assert r.status_code == 200, r.text
        served_model = learner_from_bytes(client.get("/models/m/snapshot").content)
    offline = olc.make("pa-i")
    for b in batches:  # a batch with any sparse row is learned as CSR, as the service does
        offline.partial_fit(csr_matrix(X[b]), y[b], classes=["no", "yes"])
    assert served_model._vecs.tobytes() == offline._vecs.tobytes()
    assert served_model._scal.tobytes() == offline._scal.tobytes()


def test_named_features_map_to_columns_by_a_logged_vocabulary(store):
    rows = [{"features": {"size": 1.0, "red": 1.0}}, {"features": {"green": 1.0, "size": 2.0}},
            {"features": {"red": 0.5}}, {"features": {"blue": -1.0, "size": 0.5}}]
    labels = ["yes", "no", "yes", "no"]
    with served(store) as client:
        create(client, "m", "perceptron", n_features=4, classes=["no", "yes"])
        assert client.post("/models/m/learn", json={"rows": rows, "labels": labels}).status_code \
            == 200
        full = client.post("/models/m/predict", json={"rows": [{"features": {"new": 1.0}}]})
        assert full.status_code == 422 and full.json()["field"] == "rows[0].features.new"
        state = learner_from_bytes(client.get("/models/m/snapshot").content)
    # columns in order of first appearance: size 0, red 1, green 2, blue 3
    X = np.array([[1, 1, 0, 0], [2, 0, 1, 0], [0, 0.5, 0, 0], [0.5, 0, 0, -1]], float)
    offline = olc.make("perceptron")
    offline.partial_fit(csr_matrix(X), labels, classes=["no", "yes"])
    assert state._vecs.tobytes() == offline._vecs.tobytes()
    with served(store) as client:  # the vocabulary came back from the store
        p = client.post("/models/m/predict", json={"rows": [{"features": {"green": 1.0}}]})
        assert p.json()["predictions"][0]["score"] == pytest.approx(
            offline.decision_function(np.array([[0, 0, 1.0, 0]]))[0], abs=0)


def test_list_curve_and_delete(store):
    X, y = blobs(100, 3, seed=6)
    with served(store, snapshot_every=30) as client:
        create(client, "b", "perceptron", classes=["no", "yes"])
        create(client, "a", "pa", classes=["no", "yes"])
        r = client.post("/models/a/learn", json={"rows": X.tolist(), "labels": y.tolist()})
        wrong = np.array(r.json()["predictions"]) != y
        assert [m["name"] for m in client.get("/models").json()["models"]] == ["a", "b"]
        curve = client.get("/models/a/curve?points=4").json()
        assert curve["rows"] == [1, 34, 67, 100]
        assert curve["error"] == [wrong[:n].sum() / n for n in curve["rows"]]
        summary = client.get("/models/a").json()
        assert summary["mistakes"] == wrong.sum()
        assert summary["error_last_n"] == {"n": 100, "error": wrong.mean()}
        assert summary["last_snapshot_event"] == 100
        assert (store / "snapshots" / "a" / "100.olc").is_file()
        assert client.delete("/models/a").status_code == 204
        assert client.get("/models/a").status_code == 404
        assert not (store / "snapshots" / "a").exists()
        assert client.get("/healthz").json()["models"] == 1
        create(client, "a", "pa", classes=["no", "yes"])  # the name is free again
        assert client.get("/models/a").json()["events_logged"] == 0
    with served(store) as client:
        assert [m["name"] for m in client.get("/models").json()["models"]] == ["a", "b"]
        assert client.get("/models/a").json()["rows_seen"] == 0


def test_a_snapshot_is_written_after_t_idle_seconds(store):
    X, y = blobs(10, 3, seed=6)
    with served(store, snapshot_every=10**6, snapshot_seconds=0.2) as client:
        create(client, "m", "perceptron", classes=["no", "yes"])
        client.post("/models/m/learn", json={"rows": X.tolist(), "labels": y.tolist()})
        deadline = time.monotonic() + 10
        while client.get("/models/m").json()["last_snapshot_event"] is None:
            assert time.monotonic() < deadline, "no snapshot after T seconds"
            time.sleep(0.05)
        assert client.get("/models/m").json()["last_snapshot_event"] == 10
        assert (store / "snapshots" / "m" / "10.olc").is_file()


SAMPLE = re.compile(r'^([a-z_]+)(\{(?:[a-z_]+="(?:[^"\\]|\\.)*",?)*\})? (\S+)$')


def test_metrics_are_prometheus_text(store):
    X, y = blobs(20, 3, seed=6)
    with served(store) as client:
        create(client, "m", "perceptron", classes=["no", "yes"])
        r = client.post("/models/m/learn", json={"rows": X.tolist(), "labels": y.tolist()})
        wrong = int((np.array(r.json()["predictions"]) != y).sum())
        client.post("/models/m/learn", json={"rows": [[1, 2]], "labels": ["no"]})  # a 422
        response = client.get("/metrics")
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    samples = {}
    for line in response.text.splitlines():
        if line.startswith("#"):
            assert re.match(r"^# (HELP|TYPE) [a-z_]+ ", line), line
            continue
        match = SAMPLE.match(line)
        assert match, line
        samples[match.group(1) + (match.group(2) or "")] = float(match.group(3))
    assert samples['olc_events_total{model="m",kind="learn"}'] == 20
    assert samples['olc_mistakes_total{model="m"}'] == wrong
    assert samples['olc_progressive_error{model="m"}'] == wrong / 20
    assert samples['olc_queue_depth{model="m"}'] == 0
    learn = 'route="/models/{name}/learn",method="POST"'
    assert samples[f'olc_requests_total{{{learn},status="200"}}'] == 1
    assert samples[f'olc_requests_total{{{learn},status="422"}}'] == 1
    buckets = [v for k, v in samples.items() if k.startswith(f"olc_request_seconds_bucket{{{learn}")]
    assert buckets == sorted(buckets) and buckets[-1] == 2  # cumulative, +Inf = count
    assert samples[f"olc_request_seconds_count{{{learn}}}"] == 2


def test_labels_of_one_batch_are_all_strings_or_all_numbers(store):
    with served(store) as client:
        create(client, "m", "perceptron")  # no classes: the first batch fixes them
        r = client.post("/models/m/learn", json={"rows": [[1, 2], [3, 4]], "labels": ["a", 1]})
        assert r.status_code == 422 and r.json()["field"] == "labels[1]"
        assert "mix" in r.json()["error"]
        assert client.get("/models/m").json()["rows_seen"] == 0
        r = client.post("/models/m/learn", json={"rows": [[1, 2], [3, 4]], "labels": [0, 1]})
        assert r.status_code == 200 and client.get("/models/m").json()["classes"] == [0, 1]
