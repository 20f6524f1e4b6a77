"""Served regressors: real-valued targets through learn (predict-then-learn), predict and
feedback; the model equals an offline ``olc.progressive`` replay of its log bit for bit; the
progressive metric is the library's for regressors (squared / absolute error, the cumulative
mean squared error); bad targets are refused naming their field and change nothing."""
import math

import numpy as np
import pytest

import olc
from olc.evaluate.metrics import cumulative_mean_squared_error
from olc.serve.learner_files import learner_from_bytes

from .conftest import create, served

CASES = [
    ("pa-i-regression", {"C": 0.5, "epsilon": 0.05}),
    ("arow-regression", {"r": 2.0}),
    ("sgd-regression", {"eta0": 0.05}),
]


def _stream(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = X @ np.linspace(-2.0, 3.0, d) + 0.5 + 0.2 * rng.normal(size=n)
    return X, y


def _state(learner):
    return [np.asarray(a) for a in (learner._vecs, learner._ints, learner._scal)]


@pytest.mark.parametrize("learner,params", CASES, ids=[c[0] for c in CASES])
def test_served_regressor_equals_offline_replay(store, learner, params):
    X, y = _stream(200, 5, seed=4)
    rng = np.random.default_rng(9)
    learned, residuals = [], []  # row indices in the server's log order; y − ŷ served
    with served(store, snapshot_every=10**6) as client:
        summary = create(client, "m", learner, params)
        assert summary["kind"] == "regressor" and summary["classes"] is None
        assert "mistakes" not in summary
        position, pending = 0, []
        while position < len(X):
            chunk = range(position, min(position + int(rng.choice([1, 3, 8, 21])), len(X)))
            position = chunk.stop
            rows = X[chunk.start:chunk.stop].tolist()
            if rng.random() < 0.5 or chunk.start < 30:
                r = client.post("/models/m/learn", json={"rows": rows,
                                                         "labels": y[chunk].tolist()})
                assert r.status_code == 200, r.text
                learned += list(chunk)
                residuals += (y[chunk] - np.array(r.json()["predictions"])).tolist()
            else:
                r = client.post("/models/m/predict", json={"rows": rows})
                assert r.status_code == 200, r.text
                answers = r.json()["predictions"]
                assert all(p["prediction"] == p["score"] for p in answers)
                pending += [(p["event_id"], i, p["prediction"]) for p, i in zip(answers, chunk)]
            if pending and rng.random() < 0.4:
                take = pending[:int(rng.integers(1, len(pending) + 1))]
                pending = pending[len(take):]
                r = client.post("/models/m/feedback", json={"events": [
                    {"event_id": e, "label": float(y[i])} for e, i, _ in take]})
                assert r.status_code == 200, r.text
                for (e, i, served_value), result in zip(take, r.json()["results"]):
                    assert result == {"event_id": e, "prediction": served_value,
                                      "residual": y[i] - served_value}
                learned += [i for _, i, _ in take]
                residuals += [y[i] - s for _, i, s in take]
        served_model = learner_from_bytes(client.get("/models/m/snapshot").content)
        summary = client.get("/models/m").json()
        curve = client.get("/models/m/curve?points=100000").json()
    offline = olc.make(learner, **params)
    olc.progressive(offline, X[learned], y[learned])
    assert served_model.n_steps_ == offline.n_steps_ == len(learned) == summary["rows_seen"]
    for a, b in zip(_state(served_model), _state(offline)):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert a.tobytes() == b.tobytes()  # bit for bit
    # the served predictions' errors, computed here from the answers alone
    r = np.array(residuals)
    assert summary["squared_error"] == float(np.dot(r, r))
    assert summary["absolute_error"] == float(np.sum(np.abs(r)))
    assert summary["mean_squared_error"] == float(np.dot(r, r)) / len(r)
    last = r[-1000:]
    assert summary["error_last_n"] == {
        "n": len(last), "mean_squared_error": float(np.dot(last, last)) / len(last),
        "mean_absolute_error": float(np.sum(np.abs(last))) / len(last)}
    assert curve["metric"] == "mean_squared_error" and curve["rows"] == list(range(1, len(r) + 1))
    assert curve["mean_squared_error"] == (np.cumsum(r * r) / np.arange(1, len(r) + 1)).tolist()


def test_learn_only_metrics_are_those_of_olc_progressive(store):
    """With learn alone, the served metric is exactly what ``olc.progressive`` reports for the
    same rows: its squared and absolute error sums and its cumulative mean squared error."""
    X, y = _stream(120, 4, seed=2)
    with served(store) as client:
        create(client, "m", "pa-ii-regression", {"C": 0.3})
        answers = []
        for start in range(0, 120, 25):
            r = client.post("/models/m/learn", json={"rows": X[start:start + 25].tolist(),
                                                     "labels": y[start:start + 25].tolist()})
            answers += r.json()["predictions"]
        summary = client.get("/models/m").json()
        curve = client.get("/models/m/curve?points=100000").json()
        metrics = client.get("/metrics").text
    result = olc.progressive(olc.make("pa-ii-regression", C=0.3), X, y, record="full")
    assert answers == result.score.tolist()  # the predictions made before each update
    assert summary["squared_error"] == result.squared_error
    assert summary["absolute_error"] == result.absolute_error
    assert summary["mean_absolute_error"] == result.absolute_error / 120
    assert curve["mean_squared_error"] == cumulative_mean_squared_error(result.score, y).tolist()
    assert f'olc_progressive_mean_squared_error{{model="m"}} {result.squared_error / 120!r}' \
        in metrics.splitlines()
    assert 'olc_mistakes_total{model="m"}' not in metrics
    assert 'olc_progressive_error{model="m"}' not in metrics


BAD_TARGETS = [
    (b'{"rows": [[1, 2]], "labels": [NaN]}', "labels[0]", "finite"),
    (b'{"rows": [[1, 2], [3, 4]], "labels": [1.5, Infinity]}', "labels[1]", "finite"),
    (b'{"rows": [[1, 2]], "labels": [-Infinity]}', "labels[0]", "finite"),
    (b'{"rows": [[1, 2]], "labels": ["2.5"]}', "labels[0]", "real number"),
    (b'{"rows": [[1, 2]], "labels": [true]}', "labels[0]", "real number"),
    (b'{"rows": [[1, 2]], "labels": [null]}', "labels[0]", "real number"),
    (b'{"rows": [[1, 2]], "labels": [[1]]}', "labels[0]", "real number"),
    (b'{"rows": [[1, 2]], "labels": [1' + b"0" * 400 + b']}', "labels[0]", "finite"),
    (b'{"rows": [[1, 2]], "labels": 3.0}', "labels", "list"),
    (b'{"rows": [[1, 2]], "labels": [1.0, 2.0]}', "labels", "2 targets for 1 rows"),
]


def test_bad_targets_are_refused_naming_the_field(store):
    with served(store) as client:
        create(client, "m", "pa-i-regression", {})
        assert client.post("/models/m/learn", json={"rows": [[0.5, 1.0]],
                                                    "labels": [2.0]}).status_code == 200
        before = client.get("/models/m/snapshot").content
        pid = client.post("/models/m/predict", json={"rows": [[1.0, 1.0]]}).json()[
            "predictions"][0]["event_id"]
        for body, field, words in BAD_TARGETS:
            r = client.post("/models/m/learn", content=body,
                            headers={"Content-Type": "application/json"})
            assert r.status_code == 422, (body, r.text)
            assert r.json()["field"] == field and words in r.json()["error"], r.text
        for label, words in (('"1"', "real number"), ("false", "real number"),
                             ("NaN", "finite"), ("1e999", "finite")):
            r = client.post("/models/m/feedback", headers={"Content-Type": "application/json"},
                            content=f'{{"events": [{{"event_id": "{pid}", "label": {label}}}]}}')
            assert r.status_code == 422 and r.json()["field"] == "events[0].label", r.text
            assert words in r.json()["error"]
        assert client.get("/models/m/snapshot").content == before  # nothing learned
        assert client.get("/models/m").json()["rows_seen"] == 1
        # the prediction is still pending: a good label is learned against it
        r = client.post("/models/m/feedback", json={"events": [{"event_id": pid, "label": 4}]})
        assert r.status_code == 200 and r.json()["applied"] == 1


def test_a_regressor_has_no_classes_and_predicts_only_once_fitted(store):
    with served(store) as client:
        r = client.post("/models", json={"name": "m", "learner": "sgd-regression",
                                         "classes": [0, 1]})
        assert r.status_code == 422 and r.json()["field"] == "classes"
        create(client, "m", "sgd-regression", {}, n_features=3)
        r = client.post("/models/m/predict", json={"rows": [[1.0, 2.0, 3.0]]})
        assert r.status_code == 409 and "learned nothing" in r.json()["error"]


def test_regressor_recovers_and_uploads(store, tmp_path):
    """A restart (snapshot + log tail) gives the model that never stopped, with the same
    metric; a downloaded regressor uploads as a new model that keeps learning."""
    X, y = _stream(90, 3, seed=6)
    with served(store, snapshot_every=40) as client:
        create(client, "m", "arow-regression", {"r": 0.5})
        for start in range(0, 90, 10):
            client.post("/models/m/learn", json={"rows": X[start:start + 10].tolist(),
                                                 "labels": y[start:start + 10].tolist()})
        state = client.get("/models/m/snapshot").content
        summary = client.get("/models/m").json()
    assert summary["last_snapshot_event"] == 80  # so the restart replays a log tail
    with served(store) as client:
        again = client.get("/models/m").json()
        assert client.get("/models/m/snapshot").content == state
        for key in ("rows_seen", "squared_error", "absolute_error", "error_last_n"):
            assert again[key] == summary[key]
        r = client.put("/models/copy/snapshot", content=state,
                       headers={"Content-Type": "application/octet-stream"})
        assert r.status_code == 201, r.text
        assert r.json()["kind"] == "regressor" and r.json()["rows_seen"] == 90
        r = client.post("/models/copy/learn", json={"rows": X[:5].tolist(),
                                                    "labels": y[:5].tolist()})
        assert r.status_code == 200
    offline = learner_from_bytes(state)
    record = offline.predict_then_learn(X[:5], y[:5])
    assert r.json()["predictions"] == record.score.tolist()
    assert math.isfinite(sum(record.score))
