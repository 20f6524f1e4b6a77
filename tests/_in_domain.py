"""In-domain streams for every catalogue entry, shared by test folders: Winnow's X in {0, 1},
the experts' in {−1, +1}, else real; labels 0/1 (both present early) or real targets."""
import numpy as np

import olc

NAMES = [e.name for e in olc.algorithms()]
KIND = {e.name: e.kind for e in olc.algorithms()}


def in_domain(name, seed=0, n=40, d=6):
    """(X, y) a learner accepts: Winnow's X in {0, 1}, the experts' in {−1, +1}, else real;
    y: labels 0/1 (both present early) or, for regressors, real targets."""
    rng = np.random.default_rng(seed)
    domain = getattr(olc.algorithms()[NAMES.index(name)].cls, "input_domain", None)
    if domain == "binary":
        X = (rng.random((n, d)) < 0.4).astype(float)
    elif domain == "sign":
        X = np.where(rng.random((n, d)) < 0.5, 1.0, -1.0)
    else:
        X = rng.normal(size=(n, d))
    score = X @ rng.normal(size=d) + 0.1
    if KIND[name] == "regressor":
        return X, score + 0.01 * rng.normal(size=n)
    y = (score > 0).astype(int)
    y[0], y[1] = 0, 1
    return X, y


def fit_kwargs(name):
    return {"classes": [0, 1]} if KIND[name] == "classifier" else {}
