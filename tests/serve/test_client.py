"""``olc.client.Client``: every route, errors as ServeError, and retries that are applied
once (an Idempotency-Key made once per call, kept across attempts)."""
import httpx
import numpy as np
import pytest

import olc
from olc.client import Client, ServeError

from .conftest import blobs, served


class Flaky(httpx.BaseTransport):
    """Delegates to the server; per request path, fails the first attempts as told:
    "lost" — the server applies the request but the answer is lost (a dropped connection);
    "refused" — the connection fails before the server sees it; 503 — answered busy."""

    def __init__(self, inner, plan):
        self.inner, self.plan, self.keys = inner, dict(plan), []

    def handle_request(self, request):
        self.keys.append((request.url.path, request.headers.get("idempotency-key")))
        failures = self.plan.get(request.url.path, [])
        if failures:
            how = failures.pop(0)
            if how == "refused":
                raise httpx.ConnectError("connection refused", request=request)
            if how == 503:
                return httpx.Response(503, headers={"Retry-After": "0"},
                                      json={"error": "busy", "field": None})
            response = self.inner.handle_request(request)
            response.read()
            raise httpx.ReadError("connection lost", request=request)
        return self.inner.handle_request(request)


def test_client_round_trip_and_retries_applied_once(store):
    X, y = blobs(60, 4, seed=21)
    with served(store) as test_client:
        plan = {"/models/m/learn": ["lost", 503], "/models/m/feedback": ["lost", "refused"],
                "/models/m/predict": ["lost"]}
        attempts = {path: len(failures) + 1 for path, failures in plan.items()}
        flaky = Flaky(test_client._transport, plan)
        with Client("http://testserver", transport=flaky, retries=3) as client:
            summary = client.create_model("m", "pa-i", {"C": 0.5}, n_features=4,
                                          classes=np.array(["no", "yes"]))
            assert summary["rows_seen"] == 0 and summary["classes"] == ["no", "yes"]
            learned = client.learn("m", X[:40], y[:40])
            assert learned["first_event"] == 0 and len(learned["predictions"]) == 40
            p = client.predict("m", X[40:])
            ids = [q["event_id"] for q in p["predictions"]]
            assert ids == [f"p{i}" for i in range(20)]  # the lost attempt's ids, kept once
            fb = client.feedback("m", list(zip(ids, y[40:])))
            assert fb["applied"] == 20
            model = client.model("m")
            assert model["rows_seen"] == 60 and model["events_logged"] == 60
            assert [m["name"] for m in client.models()] == ["m"]
            assert client.curve("m", points=3)["rows"] == [1, 30, 60]
            data = client.download("m")
            assert client.upload("copy", data)["rows_seen"] == 60
            with pytest.raises(ServeError) as refused:
                client.learn("m", X[:1, :3], y[:1])
            assert refused.value.status == 422 and refused.value.field == "rows[0]"
            client.delete("copy")
            with pytest.raises(ServeError, match="404"):
                client.model("copy")
            assert client.health()["models"] == 1
    for path, n in attempts.items():  # every attempt of one call carried the same key
        keys = [k for p, k in flaky.keys if p == path][:n]
        assert len(keys) == n and len(set(keys)) == 1 and keys[0]
    offline = olc.make("pa-i", C=0.5)
    offline.partial_fit(X, y, classes=["no", "yes"])
    from olc.serve.learner_files import learner_from_bytes

    served_model = learner_from_bytes(data)
    assert served_model._vecs.tobytes() == offline._vecs.tobytes()
    assert served_model.n_steps_ == 60


def test_client_gives_up_after_its_retries(store):
    with served(store) as test_client:
        flaky = Flaky(test_client._transport, {"/healthz": [503, 503, 503]})
        with Client("http://testserver", transport=flaky, retries=2) as client:
            with pytest.raises(ServeError) as busy:
                client.health()
            assert busy.value.status == 503


def test_client_is_a_lazy_root_module():
    assert olc.client.Client is Client


def test_client_learns_a_regressor(store):
    """Real-valued targets through the client (NumPy arrays and floats), feedback included;
    the model equals the same rows learned offline."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(50, 3))
    y = X @ np.array([1.5, -0.5, 2.0]) - 1.0
    with served(store) as test_client:
        with Client("http://testserver", transport=test_client._transport) as client:
            assert client.create_model("r", "pa-i-regression", {"C": 2.0})["kind"] == "regressor"
            learned = client.learn("r", X[:40], y[:40])
            served_ = client.predict("r", X[40:])["predictions"]
            result = client.feedback("r", [(p["event_id"], t) for p, t in zip(served_, y[40:])])
            assert [r["residual"] for r in result["results"]] == \
                (y[40:] - np.array([p["prediction"] for p in served_])).tolist()
            with pytest.raises(ServeError) as refused:
                client.learn("r", X[:1], ["high"])
            assert refused.value.field == "labels[0]"
            data = client.download("r")
    from olc.serve.learner_files import learner_from_bytes

    offline = olc.make("pa-i-regression", C=2.0)
    record = offline.predict_then_learn(X[:40], y[:40])
    assert learned["predictions"] == record.score.tolist()
    offline.partial_fit(X[40:], y[40:])
    served_model = learner_from_bytes(data)
    assert served_model._vecs.tobytes() == offline._vecs.tobytes()
    assert served_model._scal.tobytes() == offline._scal.tobytes()
