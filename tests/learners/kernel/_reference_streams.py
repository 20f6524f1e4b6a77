"""Small random streams for the tests of the references."""
import numpy as np


def stream(n=40, d=3, seed=0, kind="xor"):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    if kind == "xor":
        y = np.where(X[:, 0] * X[:, 1] > 0, 1.0, -1.0)
    else:
        y = np.where(X @ np.arange(1, d + 1) + 0.3 * rng.normal(size=n) > 0, 1.0, -1.0)
    return X, y
