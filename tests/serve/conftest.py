"""Shared pieces of the ``olc serve`` tests: a service on a temporary store, driven in process
by Starlette's TestClient (lifespan included)."""
import contextlib
import warnings

import numpy as np
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's notice about httpx's successor
    from starlette.testclient import TestClient

from olc.serve import create_app


@contextlib.contextmanager
def served(store, **options):
    """A TestClient over a service on ``store`` (started and stopped around the block)."""
    app = create_app(store, **options)
    with TestClient(app, raise_server_exceptions=True) as client:
        yield client


@pytest.fixture
def store(tmp_path):
    return tmp_path / "store"


def blobs(n, d, seed, classes=("no", "yes")):
    """A labelled stream: class = sign of a fixed direction, with noise."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    w = np.linspace(-1.0, 1.0, d)
    if len(classes) == 2:
        labels = np.where(X @ w + 0.3 * rng.normal(size=n) >= 0, classes[1], classes[0])
    else:
        labels = np.array(classes)[np.argmax(X[:, :len(classes)], axis=1)]
    return X, labels


def create(client, name, learner, params=None, n_features=None, classes=None):
    body = {"name": name, "learner": learner, "params": params or {},
            "n_features": n_features}
    if classes is not None:
        body["classes"] = list(classes)
    response = client.post("/models", json=body)
    assert response.status_code == 201, response.text
    return response.json()
