"""The margin perceptron against an independent per-example NumPy loop."""
import numpy as np

import olc


def test_margin_perceptron_matches_a_numpy_loop():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((50, 4))
    y = np.where(X @ np.array([1.0, -2.0, 0.5, 0.0]) >= 0, 1, -1)
    learner = olc.make("margin-perceptron", eta=0.5, gamma=1.0)
    learner.partial_fit(X, y, classes=[-1, 1])
    w, b = np.zeros(4), 0.0
    for x, t in zip(X, y):
        if t * (w @ x + b) <= 1.0:
            w, b = w + 0.5 * t * x, b + 0.5 * t
    np.testing.assert_allclose(learner.coef_.ravel(), w, rtol=1e-12)
    np.testing.assert_allclose(learner.intercept_, [b], rtol=1e-12)
