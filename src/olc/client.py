"""``olc.client.Client``: a Python client of ``olc serve`` (on httpx).

    from olc.client import Client
    c = Client("http://127.0.0.1:8000")
    c.create_model("spam", "pa-i", params={"C": 0.5}, n_features=100, classes=["ham", "spam"])
    c.learn("spam", X, y)            # predictions made before each update
    p = c.predict("spam", X_new)     # predictions with event ids
    c.feedback("spam", [(p["predictions"][0]["event_id"], "spam")])

Calls that change a model (learn, feedback, predict) carry an ``Idempotency-Key`` generated
once per call: a retry after a lost connection or a ``503`` (waiting as ``Retry-After`` says)
is applied once by the server. Refused requests raise :class:`ServeError` with the server's
one-line message and field.
"""
import time
import uuid

import numpy as np

__all__ = ["Client", "ServeError"]


class ServeError(Exception):
    """The server refused a request: ``status``, ``message``, ``field``."""

    def __init__(self, status, message, field=None):
        super().__init__(f"{status}: {message}" + (f" (field {field})" if field else ""))
        self.status = status
        self.message = message
        self.field = field


def _rows(X):
    """Rows as the contract's ROWS: a dense array, a scipy sparse matrix, or a list of rows
    already in the contract's form."""
    if hasattr(X, "tocsr"):
        X = X.tocsr()
        return [{"indices": X.indices[X.indptr[i]:X.indptr[i + 1]].tolist(),
                 "values": X.data[X.indptr[i]:X.indptr[i + 1]].tolist()}
                for i in range(X.shape[0])]
    if isinstance(X, np.ndarray):
        return np.asarray(X, np.float64).reshape(len(X), -1).tolist()
    return list(X)


def _labels(y):
    return np.asarray(y).tolist() if isinstance(y, np.ndarray) else list(y)


class Client:
    """A client of one ``olc serve`` at ``base_url``.

    token: the bearer token (when the server has one); timeout: seconds per request;
    retries: further attempts after a connection error or a 503."""

    def __init__(self, base_url, token=None, timeout=30.0, retries=3, transport=None):
        import httpx

        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._http = httpx.Client(base_url=base_url.rstrip("/"), headers=headers,
                                  timeout=timeout, transport=transport)
        self.retries = retries
        self._httpx = httpx

    def close(self):
        self._http.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- the one request path ---------------------------------------------------------------
    def _request(self, method, path, *, json=None, content=None, idempotent=False,
                 headers=None):
        headers = dict(headers or {})
        if idempotent:
            headers["Idempotency-Key"] = uuid.uuid4().hex  # once per logical call
        for attempt in range(self.retries + 1):
            try:
                response = self._http.request(method, path, json=json, content=content,
                                              headers=headers)
            except self._httpx.TransportError:
                if attempt == self.retries:
                    raise
                time.sleep(min(0.1 * 2 ** attempt, 2.0))
                continue
            if response.status_code == 503 and attempt < self.retries:
                time.sleep(_retry_after(response))
                continue
            if response.status_code >= 400:
                try:
                    body = response.json()
                    message, field = body.get("error", response.text), body.get("field")
                except ValueError:
                    message, field = response.text, None
                raise ServeError(response.status_code, message, field)
            return response
        raise AssertionError("unreachable")  # pragma: no cover

    # -- models -----------------------------------------------------------------------------
    def create_model(self, name, learner, params=None, n_features=None, classes=None):
        body = {"name": name, "learner": learner, "params": params or {},
                "n_features": n_features}
        if classes is not None:
            body["classes"] = _labels(classes)
        return self._request("POST", "/models", json=body).json()

    def models(self):
        return self._request("GET", "/models").json()["models"]

    def model(self, name):
        return self._request("GET", f"/models/{name}").json()

    def delete(self, name):
        self._request("DELETE", f"/models/{name}")

    def curve(self, name, points=200):
        return self._request("GET", f"/models/{name}/curve?points={points}").json()

    def compact(self, name):
        """Compact the model's log below its oldest snapshot verified to load (the server's
        ``POST /models/{name}/compact``; docs/serving.md, Log compaction)."""
        return self._request("POST", f"/models/{name}/compact").json()

    def download(self, name):
        """The ``olc.save`` bytes of the model now (``olc.load`` reads them from a file)."""
        return self._request("GET", f"/models/{name}/snapshot").content

    def upload(self, name, data):
        """A new model from ``olc.save`` bytes (or a path to such a file)."""
        if not isinstance(data, (bytes, bytearray)):
            with open(data, "rb") as fh:
                data = fh.read()
        return self._request("PUT", f"/models/{name}/snapshot", content=bytes(data),
                             headers={"Content-Type": "application/octet-stream"}).json()

    def health(self):
        return self._request("GET", "/healthz").json()

    # -- events -----------------------------------------------------------------------------
    def predict(self, name, X):
        return self._request("POST", f"/models/{name}/predict", json={"rows": _rows(X)},
                             idempotent=True).json()

    def learn(self, name, X, y):
        return self._request("POST", f"/models/{name}/learn",
                             json={"rows": _rows(X), "labels": _labels(y)},
                             idempotent=True).json()

    def feedback(self, name, events):
        """events: (event_id, label) pairs or {event_id, label} objects."""
        events = [e if isinstance(e, dict) else {"event_id": e[0], "label": _label(e[1])}
                  for e in events]
        return self._request("POST", f"/models/{name}/feedback", json={"events": events},
                             idempotent=True).json()


def _label(value):
    return value.item() if isinstance(value, np.generic) else value


def _retry_after(response):
    try:
        return min(max(float(response.headers.get("retry-after", "1")), 0.0), 30.0)
    except ValueError:
        return 1.0
