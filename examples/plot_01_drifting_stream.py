"""
Cumulative error on a drifting stream
=====================================

Five learners of the catalogue on one stream whose separating hyperplane turns half-way
through: the online protocol (predict, then learn) records each prediction *before* its
update, so the cumulative error rate is the learner's honest error on data it had not seen.
Learners that keep their step bounded (PA-I) or forget (the ℓ2-constrained PA) recover from
the change; the perceptron and the OMM, which keep everything, recover more slowly.
"""
import matplotlib.pyplot as plt
import numpy as np

import olc

rng = np.random.default_rng(0)
n, d = 4000, 10
X = rng.normal(size=(n, d))
w_before, w_after = rng.normal(size=d), rng.normal(size=d)
y = np.where(np.arange(n) < n // 2, np.sign(X @ w_before), np.sign(X @ w_after))
flip = rng.random(n) < 0.05                      # 5% label noise
y[flip] = -y[flip]

fig, ax = plt.subplots(figsize=(7, 4))
for name, params in [("perceptron", {}), ("pa-i", {"C": 0.1}), ("e-omm", {}),
                     ("l2-constrained-pa", {"beta": 5.0}), ("arow", {"r": 1.0})]:
    result = olc.progressive(olc.make(name, **params), X, y)
    ax.plot(result.error_rate_curve(), label=f"{name} ({result.mistakes} mistakes)")
ax.axvline(n // 2, color="grey", linestyle=":", label="the hyperplane turns")
ax.set_xlabel("examples seen")
ax.set_ylabel("cumulative error rate")
ax.set_ylim(0, 0.5)
ax.legend()
fig.tight_layout()
