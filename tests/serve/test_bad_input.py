"""Every bad request gets a 4xx with one JSON line naming the field — and leaves the model as
it was (rows seen, every array of its snapshot, the log)."""
import io
import json

import numpy as np
import pytest

from .conftest import blobs, create, served

TOKEN = "a-test-token-of-some-length"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
LIMIT_BYTES = 20_000
LIMIT_ROWS = 50
X, Y = blobs(40, 3, seed=5)


def _post(path, body=None, content=None, headers=None):
    return ("POST", path, body, content, {**AUTH, **(headers or {})})


def _raw(path, text):
    return _post(path, content=text.encode(), headers={"Content-Type": "application/json"})


def _chunks():
    yield b'{"rows": ['
    for _ in range(2000):
        yield b"[0.0, 0.0, 0.0],"
    yield b"[0.0, 0.0, 0.0]]}"


# (case, request, status, field): the bad-input line, and the service's own limits.
CASES = [
    ("malformed JSON", _raw("/models/m/learn", '{"rows": [[1, 2, 3]], "labels": ["no"'),
     400, "body"),
    ("JSON not an object", _raw("/models/m/learn", "[1, 2]"), 400, "body"),
    ("row too short", _post("/models/m/learn", {"rows": [[1.0, 2.0, 3.0], [1.0, 2.0]],
                                                "labels": ["no", "yes"]}), 422, "rows[1]"),
    ("row too long (predict)", _post("/models/m/predict", {"rows": [[1, 2, 3, 4]]}), 422,
     "rows[0]"),
    ("NaN feature", _raw("/models/m/learn",
                         '{"rows": [[1, 2, 3], [1, NaN, 3]], "labels": ["no", "yes"]}'),
     422, "rows[1][1]"),
    ("infinite feature", _raw("/models/m/predict", '{"rows": [[1, 2, Infinity]]}'), 422,
     "rows[0][2]"),
    ("overflowing number", _raw("/models/m/predict", '{"rows": [[1, 2, 1e999]]}'), 422,
     "rows[0][2]"),
    ("string feature", _post("/models/m/learn", {"rows": [[1, "x", 3]], "labels": ["no"]}),
     422, "rows[0][1]"),
    ("boolean feature", _post("/models/m/learn", {"rows": [[1, 2, 3], [0.5, True, 3]],
                                                  "labels": ["no", "no"]}), 422, "rows[1][1]"),
    ("sparse index out of range", _post("/models/m/predict", {"rows": [
        {"indices": [0, 3], "values": [1.0, 2.0]}]}), 422, "rows[0].indices[1]"),
    ("sparse NaN value", _raw("/models/m/predict",
                              '{"rows": [{"indices": [0], "values": [NaN]}]}'),
     422, "rows[0].values[0]"),
    ("unknown label", _post("/models/m/learn", {"rows": [[1, 2, 3]], "labels": ["maybe"]}),
     422, "labels[0]"),
    ("labels mixing types", _post("/models/m/learn", {"rows": [[1, 2, 3], [1, 2, 3]],
                                                      "labels": ["no", 1]}), 422, "labels[1]"),
    ("labels/rows mismatch", _post("/models/m/learn", {"rows": [[1, 2, 3]],
                                                       "labels": ["no", "yes"]}), 422, "labels"),
    ("missing labels", _post("/models/m/learn", {"rows": [[1, 2, 3]]}), 422, "labels"),
    ("unknown model", _post("/models/nope/learn", {"rows": [[1, 2, 3]], "labels": ["no"]}),
     404, "name"),
    ("unknown event id", _post("/models/m/feedback", {"events": [
        {"event_id": "p999999", "label": "no"}]}), 404, "events[0].event_id"),
    ("malformed event id", _post("/models/m/feedback", {"events": [
        {"event_id": "e3", "label": "no"}]}), 404, "events[0].event_id"),
    ("oversized body (Content-Length)", _post("/models/m/learn", {
        "rows": [[0.5, 0.5, 0.5]] * 1500, "labels": ["no"] * 1500}), 413, "body"),
    ("oversized body (streamed)", _post("/models/m/predict", content=_chunks,
                                        headers={"Content-Type": "application/json"}),
     413, "body"),
    ("too many rows", _post("/models/m/predict", {"rows": [[0, 0, 0]] * (LIMIT_ROWS + 1)}),
     413, "rows"),
    ("missing token", ("POST", "/models/m/learn", {"rows": [[1, 2, 3]], "labels": ["no"]},
                       None, {}), 401, "Authorization"),
    ("wrong token", ("POST", "/models/m/learn", {"rows": [[1, 2, 3]], "labels": ["no"]},
                     None, {"Authorization": "Bearer not-the-token-at-all-no"}),
     401, "Authorization"),
    ("unknown learner", _post("/models", {"name": "n", "learner": "no-such-learner"}), 422,
     "learner"),
    ("regressor with classes", _post("/models", {"name": "n", "learner": "pa-regression",
                                                 "classes": ["a", "b"]}), 422, "classes"),
    ("bad parameter value", _post("/models", {"name": "n", "learner": "pa-i",
                                              "params": {"C": -1}}), 422, "params.C"),
    ("unknown parameter", _post("/models", {"name": "n", "learner": "pa-i",
                                            "params": {"CC": 1}}), 422, "params.CC"),
    ("NaN parameter", _raw("/models", '{"name": "n", "learner": "pa-i", "params": {"C": NaN}}'),
     422, "params.C"),
    ("existing name", _post("/models", {"name": "m", "learner": "pa-i"}), 409, "name"),
    ("bad name", _post("/models", {"name": "../x", "learner": "pa-i"}), 422, "name"),
    ("bad n_features", _post("/models", {"name": "n", "learner": "pa-i", "n_features": 0}),
     422, "n_features"),
    ("not a model file", ("PUT", "/models/up/snapshot", None, b"PK\x03\x04 not a zip",
                          AUTH), 422, "body"),
    ("bad curve points", ("GET", "/models/m/curve?points=-3", None, None, AUTH), 422, "points"),
]


def _arrays(data):
    with np.load(io.BytesIO(data), allow_pickle=False) as archive:
        return {key: archive[key].tobytes() for key in archive.files}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with served(tmp_path_factory.mktemp("bad") / "store", token=TOKEN,
                max_body_bytes=LIMIT_BYTES, max_batch_rows=LIMIT_ROWS) as client:
        client.headers.update(AUTH)
        create(client, "m", "perceptron", n_features=3, classes=["no", "yes"])
        r = client.post("/models/m/learn", json={"rows": X.tolist(), "labels": Y.tolist()})
        assert r.status_code == 200
        client.headers.pop("Authorization")
        yield client


@pytest.mark.parametrize("case,request_,status,field", CASES, ids=[c[0] for c in CASES])
def test_bad_request_is_refused_naming_the_field(client, case, request_, status, field):
    before = client.get("/models/m", headers=AUTH).json()
    snapshot = _arrays(client.get("/models/m/snapshot", headers=AUTH).content)
    models = [m["name"] for m in client.get("/models", headers=AUTH).json()["models"]]
    method, path, body, content, headers = request_
    content = content() if callable(content) else content
    response = client.request(method, path, json=body, content=content, headers=headers)
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    answer = response.json()
    assert set(answer) == {"error", "field"} and answer["field"] == field
    assert "\n" not in answer["error"] and answer["error"]
    after = client.get("/models/m", headers=AUTH).json()
    for key in ("rows_seen", "mistakes", "updates", "events_logged", "n_features", "classes"):
        assert after[key] == before[key], key
    assert _arrays(client.get("/models/m/snapshot", headers=AUTH).content) == snapshot
    assert [m["name"] for m in client.get("/models", headers=AUTH).json()["models"]] == models


def test_error_bodies_are_one_json_line(client):
    response = client.get("/no/such/route", headers=AUTH)
    assert response.status_code == 404
    assert json.loads(response.text)["field"] is None
    response = client.request("PATCH", "/models", headers=AUTH)
    assert response.status_code == 405 and response.json()["error"]


def test_healthz_needs_no_token_but_everything_else_does(client):
    assert client.get("/healthz").json()["status"] == "ok"
    assert client.get("/metrics").status_code == 401
    assert client.get("/models").status_code == 401
    assert client.get("/models", headers=AUTH).status_code == 200


def test_the_dashboard_paths_need_no_token_but_the_api_does(tmp_path, monkeypatch):
    """The page and its assets hold no data (the dashboard declares them with
    ``is_public_path``): a browser loads them without a token, then calls the API with one."""
    import importlib.machinery
    import sys
    import types

    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    async def page(request):
        return PlainTextResponse("the page")

    fake = types.ModuleType("olc.serve.dashboard")
    fake.__spec__ = importlib.machinery.ModuleSpec("olc.serve.dashboard", None)
    fake.dashboard_routes = lambda: [Route("/", page), Route("/static/app.js", page)]
    fake.is_public_path = lambda path: path == "/" or path.startswith("/static/")
    monkeypatch.setitem(sys.modules, "olc.serve.dashboard", fake)
    with served(tmp_path / "store", token=TOKEN) as client:
        assert client.get("/").text == "the page"
        assert client.get("/static/app.js").status_code == 200
        assert client.post("/").status_code == 401  # only reading is open
        assert client.get("/models").status_code == 401
        assert client.get("/models", headers=AUTH).status_code == 200
        assert 'route="/static"' in client.get("/metrics", headers=AUTH).text


def test_without_the_dashboard_the_root_is_a_json_404(tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "olc.serve.dashboard", None)  # not installed
    with served(tmp_path / "store", token=TOKEN) as client:
        response = client.get("/", headers=AUTH)
    assert response.status_code == 404 and response.json()["field"] is None
