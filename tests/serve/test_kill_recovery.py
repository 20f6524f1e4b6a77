"""``olc serve`` killed with SIGKILL under concurrent load, ten times, restarted each time.

Clients (threads, one httpx client each) send learn batches and predict-then-feedback pairs,
each request with its own idempotency key, and retry the same request with the same key until
it is acknowledged. At the end, independently of the server's own counters:

- every acknowledged event is in the log, at the position its response named, with the rows
  and labels the client sent; every logged row is a row some client sent, exactly once (no
  request applied twice, none lost);
- the model the server serves (its downloaded snapshot) equals, bit for bit, an offline
  ``olc.progressive`` replay of the logged rows in log order, and the predictions and scores
  the server acknowledged are the replay's; a restart (snapshot + log) serves the same model.

After the last kill the newest snapshot is truncated while the server is down: the restart
refuses it (a warning naming the file) and recovers from an older snapshot plus the log, to
the same model. (tests/serve/test_recovery.py covers damaged snapshots in process.)

Everything is bounded: requests time out, retries stop at a deadline, threads are joined with
a timeout, and the kills are drawn from a seeded generator.

The same runs for a regressor (real-valued targets; three kills, to keep the suite short).
"""
import random
import threading
import time
from pathlib import Path

import httpx
import numpy as np
import pytest

import olc
from _serve_process import ServeProcess

pytest.importorskip("uvicorn")
pytest.importorskip("starlette")

SEED = 20261127
D = 6
LEARNER, PARAMS = "pa-i", {"C": 0.5}
REGRESSOR, REGRESSOR_PARAMS = "pa-i-regression", {"C": 0.5, "epsilon": 0.05}
CLIENTS = 6
KILLS = 10
DEADLINE_SECONDS = 240.0  # the whole test; on a loaded 2-core machine it needs far less
REQUEST_TIMEOUT = httpx.Timeout(10.0, connect=2.0)
RETRYABLE = {502, 503, 504}


def labelled_rows(rng, n, w, regression=False):
    X = rng.normal(size=(n, D))
    if regression:
        return X, X @ w + 0.3 * rng.normal(size=n)
    y = np.where(X @ w + 0.3 * rng.normal(size=n) >= 0, 1, -1)
    return X, y


class Acks:
    """What the server acknowledged, shared by the client threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.learns = []  # (X, y, response)
        self.feedbacks = []  # (X, y, served predictions, response)
        self.failures = []


def send(client, path, body, key, deadline):
    """POST ``body`` with ``Idempotency-Key: key`` until the server acknowledges it (200),
    retrying through refused connections, resets and 503s; a 4xx other than those fails."""
    while time.monotonic() < deadline:
        try:
            response = client.post(path, json=body, headers={"Idempotency-Key": key})
        except httpx.TransportError:  # the server is down or died mid-request: retry
            time.sleep(0.02)
            continue
        if response.status_code in RETRYABLE:
            time.sleep(0.02)
            continue
        if response.status_code != 200:
            raise AssertionError(f"{path} with key {key}: {response.status_code} "
                                 f"{response.text}")
        return response.json()
    raise AssertionError(f"{path} with key {key}: not acknowledged before the deadline")


def client_thread(number, url, acks, stop, deadline, w, regression=False):
    rng = np.random.default_rng([SEED, number])
    try:
        with httpx.Client(base_url=url, timeout=REQUEST_TIMEOUT) as client:
            request = 0
            while not stop.is_set() and time.monotonic() < deadline:
                request += 1
                key = f"client{number}-{request}"
                if rng.random() < 0.6:
                    X, y = labelled_rows(rng, int(rng.integers(1, 16)), w, regression)
                    body = {"rows": X.tolist(), "labels": y.tolist()}
                    answer = send(client, "/models/k/learn", body, key + "-learn", deadline)
                    with acks.lock:
                        acks.learns.append((X, y, answer))
                else:
                    X, y = labelled_rows(rng, int(rng.integers(1, 5)), w, regression)
                    answer = send(client, "/models/k/predict", {"rows": X.tolist()},
                                  key + "-predict", deadline)
                    predictions = answer["predictions"]
                    assert len(predictions) == len(X)
                    order = rng.permutation(len(X))  # labels come back in any order
                    events = [{"event_id": predictions[i]["event_id"], "label": y[i].item()}
                              for i in order]
                    answer = send(client, "/models/k/feedback", {"events": events},
                                  key + "-feedback", deadline)
                    served = [predictions[i]["prediction"] for i in order]
                    with acks.lock:
                        acks.feedbacks.append((X[order], y[order], served, answer))
    except BaseException as error:  # reported by the main thread
        with acks.lock:
            acks.failures.append(f"client {number}: {error!r}")


def count(acks):
    with acks.lock:
        return len(acks.learns) + len(acks.feedbacks)


def download_model(url, folder, name):
    response = httpx.get(f"{url}/models/k/snapshot", timeout=REQUEST_TIMEOUT)
    assert response.status_code == 200, response.text
    path = Path(folder) / f"{name}.npz"
    path.write_bytes(response.content)
    return olc.load(path)


def logged_batches(store_dir):
    from olc.serve.store import Store

    store = Store(store_dir)
    try:
        return list(store.batches("k"))
    finally:
        store.close()


def replay(batches, learner_name=LEARNER, params=PARAMS):
    """An offline ``olc.progressive`` run over the logged rows in log order."""
    X = np.vstack([b.X for b in batches])
    y = np.concatenate([np.asarray(b.labels) for b in batches])
    learner = olc.make(learner_name, **params)
    result = olc.progressive(learner, X, y)
    if not hasattr(learner, "classes_"):  # a regressor: its predictions are the scores ŷ
        return learner, X, y, result.score, result.score
    predictions = learner.classes_[(result.pred > 0).astype(int)]
    return learner, X, y, predictions, result.score


def assert_same_state(served, offline):
    assert type(served) is type(offline)
    assert served.n_steps_ == offline.n_steps_
    assert served.n_updates_ == offline.n_updates_
    if hasattr(offline, "classes_"):
        assert served.classes_.tolist() == offline.classes_.tolist()
    for name in ("_vecs", "_ints", "_scal"):
        a, b = getattr(served, name), getattr(offline, name)
        assert a.dtype == b.dtype and a.shape == b.shape, name
        assert a.tobytes() == b.tobytes(), f"{name} differs from the replay's"


def create_model(url, learner=LEARNER, params=PARAMS):
    response = httpx.post(f"{url}/models", json={"name": "k", "learner": learner,
                                                 "params": params, "n_features": D},
                          timeout=REQUEST_TIMEOUT)
    assert response.status_code == 201, response.text


@pytest.mark.parametrize("learner,params,kills", [
    (LEARNER, PARAMS, KILLS), (REGRESSOR, REGRESSOR_PARAMS, 3)], ids=["classifier", "regressor"])
def test_ten_sigkills_under_load_lose_nothing_and_apply_nothing_twice(tmp_path, learner,
                                                                       params, kills):
    regression = learner == REGRESSOR
    deadline = time.monotonic() + DEADLINE_SECONDS
    kill_rng = random.Random(SEED)
    w = np.random.default_rng(SEED).normal(size=D)
    # small snapshot interval: recoveries start from snapshots taken mid-run, not only the log
    server = ServeProcess(tmp_path / "store", tmp_path / "server.log",
                          args=["--snapshot-every", "97"])
    acks, stop = Acks(), threading.Event()
    try:
        server.start()
        create_model(server.url, learner, params)
        with httpx.Client(base_url=server.url, timeout=REQUEST_TIMEOUT) as client:
            X0, y0 = labelled_rows(np.random.default_rng(SEED), 8, w, regression)
            if not regression:
                y0[:2] = [1, -1]  # both classes in the first batch
            answer = send(client, "/models/k/learn", {"rows": X0.tolist(), "labels": y0.tolist()},
                          "warm-up", deadline)
            acks.learns.append((X0, y0, answer))
        threads = [threading.Thread(target=client_thread, daemon=True,
                                    args=(i, server.url, acks, stop, deadline, w,
                                          regression))
                   for i in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for _ in range(kills):
            # under load: wait for a request acknowledged by this server, then kill anywhere
            acknowledged = count(acks)
            while count(acks) == acknowledged and time.monotonic() < deadline:
                time.sleep(0.01)
            assert not acks.failures, acks.failures
            time.sleep(kill_rng.uniform(0.0, 0.5))
            server.kill()
            time.sleep(kill_rng.uniform(0.0, 0.2))  # clients hammer a dead port meanwhile
            server.start()
        time.sleep(0.5)
        stop.set()
        for thread in threads:
            thread.join(timeout=max(1.0, deadline - time.monotonic()))
        assert not any(t.is_alive() for t in threads), "a client did not finish in time"
        assert not acks.failures, acks.failures

        served = download_model(server.url, tmp_path, "served")
        summary = httpx.get(f"{server.url}/models/k", timeout=REQUEST_TIMEOUT).json()
        # one more kill, not under load, and the newest snapshot torn while the server is
        # down (what an atomic rename prevents, but a disk can do): the restart refuses it
        # with a warning and serves the same model from an older snapshot plus the log
        server.kill()
        snapshots = sorted((tmp_path / "store" / "snapshots" / "k").glob("*.olc"),
                           key=lambda p: int(p.stem))
        assert len(snapshots) >= 2, [p.name for p in snapshots]
        newest = snapshots[-1]
        newest.write_bytes(newest.read_bytes()[: newest.stat().st_size // 2])
        server.start()
        restarted = download_model(server.url, tmp_path, "restarted")
        recovered_from = httpx.get(f"{server.url}/models/k",
                                   timeout=REQUEST_TIMEOUT).json()["last_snapshot_event"]
        server.kill()
    finally:
        stop.set()
        server.kill()
    refusals = [line for line in server.output(tail=200_000).splitlines()
                if newest.name in line and "skipped" in line]
    assert len(refusals) == 1, server.output()[-3000:]
    assert recovered_from == int(snapshots[-2].stem)

    batches = logged_batches(tmp_path / "store")
    firsts = [b.first_event for b in batches]
    sizes = [len(b.labels) for b in batches]
    assert firsts == list(np.cumsum([0] + sizes[:-1])), "the log's events are not contiguous"
    offline, X_log, y_log, predictions, scores = replay(batches, learner, params)

    # every logged row was sent by a client exactly once, and every acknowledged row is logged
    position = {}
    for i, row in enumerate(X_log):
        assert row.tobytes() not in position, f"row logged twice (events {position[row.tobytes()]}, {i})"
        position[row.tobytes()] = i
    acknowledged_rows = 0
    for X, y, answer in acks.learns:
        first = answer["first_event"]
        assert len(set(answer["event_ids"])) == len(y)
        np.testing.assert_array_equal(X_log[first:first + len(y)], X)  # at its named place
        assert y_log[first:first + len(y)].tolist() == y.tolist()
        # what the server answered is what an offline replay predicts at those steps
        assert answer["predictions"] == predictions[first:first + len(y)].tolist()
        assert answer["scores"] == scores[first:first + len(y)].tolist()
        acknowledged_rows += len(y)
    for X, y, served_predictions, answer in acks.feedbacks:
        assert answer["applied"] == len(y)
        assert [r["prediction"] for r in answer["results"]] == served_predictions
        if regression:
            assert [r["residual"] for r in answer["results"]] == \
                [label - p for p, label in zip(served_predictions, y.tolist())]
        else:
            assert [r["correct"] for r in answer["results"]] == \
                [p == label for p, label in zip(served_predictions, y.tolist())]
        at = [position[row.tobytes()] for row in X]  # KeyError: an acknowledged row not logged
        assert at == list(range(at[0], at[0] + len(at))), "a feedback batch split in the log"
        assert y_log[at].tolist() == y.tolist()
        acknowledged_rows += len(y)
    assert acknowledged_rows == len(X_log), "logged rows that no acknowledgement accounts for"

    # the served model is the replay's, bit for bit, before and after one more restart
    assert_same_state(served, offline)
    assert_same_state(restarted, offline)
    assert summary["rows_seen"] == len(X_log) == summary["events_logged"]
    if regression:  # the squared errors of the served predictions, from the answers alone
        squared = sum(float(np.sum((y - np.asarray(a["predictions"])) ** 2))
                      for _, y, a in acks.learns)
        squared += sum(r["residual"] ** 2 for *_, a in acks.feedbacks for r in a["results"])
        assert summary["squared_error"] == pytest.approx(squared, rel=1e-12)
    else:
        mistakes = sum(int((np.asarray(a["predictions"]) != y).sum())
                       for _, y, a in acks.learns)
        mistakes += sum(sum(not r["correct"] for r in a["results"])
                        for *_, a in acks.feedbacks)
        assert summary["mistakes"] == mistakes
    assert server.starts == kills + 2


def test_event_ids_are_never_reused_across_a_restart(tmp_path):
    """A prediction's event id names that prediction for good: after its feedback was applied
    and the server restarted, a new prediction gets a new id, and a repeated feedback for the
    old id (a client resending it without an idempotency key) is refused, not learned against
    the new prediction's features."""
    server = ServeProcess(tmp_path / "store", tmp_path / "server.log")
    rng = np.random.default_rng(SEED + 2)
    w = rng.normal(size=D)
    try:
        server.start()
        create_model(server.url)
        with httpx.Client(base_url=server.url, timeout=REQUEST_TIMEOUT) as client:
            X, y = labelled_rows(rng, 10, w)
            y[:2] = [1, -1]
            assert client.post("/models/k/learn", json={"rows": X.tolist(),
                                                        "labels": y.tolist()}).status_code == 200
            first = client.post("/models/k/predict", json={"rows": [[1.0] * D]}).json()
            old_id = first["predictions"][0]["event_id"]
            feedback = {"events": [{"event_id": old_id, "label": 1}]}
            assert client.post("/models/k/feedback", json=feedback).status_code == 200
        server.kill()
        server.start()
        with httpx.Client(base_url=server.url, timeout=REQUEST_TIMEOUT) as client:
            second = client.post("/models/k/predict", json={"rows": [[-1.0] * D]}).json()
            new_id = second["predictions"][0]["event_id"]
            repeated = client.post("/models/k/feedback", json=feedback)
    finally:
        server.kill()
    assert new_id != old_id
    assert repeated.status_code == 404, repeated.text
