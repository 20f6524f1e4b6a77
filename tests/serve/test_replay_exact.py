"""A served model equals, bit for bit, an offline replay of its log: every learn and feedback
row learned by ``olc.progressive`` (or ``partial_fit``) in log order, whatever the batch sizes
and however feedback interleaves with learning."""
import numpy as np
import pytest

import olc
from olc.serve.learner_files import learner_from_bytes

from .conftest import blobs, create, served

CASES = [
    ("perceptron", {}, ("no", "yes")),
    ("pa-i", {"C": 0.5}, ("no", "yes")),
    ("arow", {"r": 0.7}, ("no", "yes")),
    ("perceptron", {}, ("a", "b", "c")),  # one-vs-rest, K = 3
    ("multiclass-pa-i", {"C": 1.0}, ("a", "b", "c")),
    ("kernel-perceptron", {"kernel": "rbf", "gamma": 0.5}, ("no", "yes")),
]


def _state(learner):
    return [np.asarray(a) for a in (learner._vecs, learner._ints, learner._scal)]


@pytest.mark.parametrize("learner,params,classes", CASES,
                         ids=[f"{c[0]}-{len(c[2])}" for c in CASES])
def test_served_model_equals_offline_replay(store, learner, params, classes):
    X, y = blobs(230, 6, seed=3, classes=classes)
    rng = np.random.default_rng(7)
    learned_X, learned_y = [], []  # the order the server learns rows in (its log order)
    with served(store, snapshot_every=10**6) as client:
        create(client, "m", learner, params, classes=classes)
        position, pending = 0, []
        while position < len(X):
            size = int(rng.choice([1, 2, 7, 19, 40]))
            chunk = slice(position, min(position + size, len(X)))
            position = chunk.stop
            if rng.random() < 0.5 or chunk.start < 40:  # the first rows learned, then a mix
                r = client.post("/models/m/learn", json={"rows": X[chunk].tolist(),
                                                         "labels": y[chunk].tolist()})
                assert r.status_code == 200, r.text
                learned_X.append(X[chunk])
                learned_y.append(y[chunk])
            else:
                r = client.post("/models/m/predict", json={"rows": X[chunk].tolist()})
                assert r.status_code == 200, r.text
                ids = [p["event_id"] for p in r.json()["predictions"]]
                pending += list(zip(ids, range(chunk.start, chunk.stop)))
            if pending and rng.random() < 0.4:  # a late label for some served predictions
                take = int(rng.integers(1, len(pending) + 1))
                order = rng.permutation(len(pending))[:take]
                events = [pending[k] for k in order]
                pending = [p for k, p in enumerate(pending) if k not in set(order.tolist())]
                r = client.post("/models/m/feedback", json={"events": [
                    {"event_id": e, "label": y[i].item()} for e, i in events]})
                assert r.status_code == 200, r.text
                assert r.json()["applied"] == len(events)
                learned_X.append(X[[i for _, i in events]])
                learned_y.append(y[[i for _, i in events]])
        served_model = learner_from_bytes(client.get("/models/m/snapshot").content)
        summary = client.get("/models/m").json()
    X_log, y_log = np.vstack(learned_X), np.concatenate(learned_y)
    offline = olc.make(learner, **params)
    result = olc.progressive(offline, X_log, y_log, classes=np.array(classes))
    assert summary["rows_seen"] == summary["events_logged"] == len(y_log)
    assert served_model.n_steps_ == offline.n_steps_ == len(y_log)
    assert served_model.n_updates_ == offline.n_updates_ == summary["updates"]
    for a, b in zip(_state(served_model), _state(offline)):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert a.tobytes() == b.tobytes()  # bit for bit
    assert result.n_steps == len(y_log)


def test_learn_answers_the_predictions_made_before_each_update(store):
    """The learn route is the online protocol: its predictions and scores are those of
    ``predict_then_learn`` on the same rows, row by row before each update."""
    X, y = blobs(60, 4, seed=11)
    offline = olc.make("pa-i", C=2.0)
    with served(store) as client:
        create(client, "m", "pa-i", {"C": 2.0}, classes=["no", "yes"])
        r = client.post("/models/m/learn", json={"rows": X.tolist(), "labels": y.tolist()})
    record = offline.predict_then_learn(X, y, classes=np.array(["no", "yes"]))
    body = r.json()
    assert body["scores"] == record.score.tolist()
    assert body["predictions"] == np.array(["no", "yes"])[(record.pred > 0).astype(int)].tolist()
    assert body["event_ids"] == [f"e{i}" for i in range(60)] and body["first_event"] == 0
