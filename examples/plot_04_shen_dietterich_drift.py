"""
The Shen & Dietterich drift
===========================

Shen & Dietterich (2009, §4) test their regularized PAs on a stream whose class mixture
drifts: four classes (P1, P2 positive; N1, N2 negative), four phases, and inside each phase
each class's probability moves linearly. ``olc.data.drift.drift_stream`` draws such a stream
from any labelled data; here from scikit-learn's small digits set (3 and 7 positive, 8 and 9
negative). The top panel shows the mixture, the bottom one the error of a plain PA and of
the objective-regularized PA, which forgets old examples geometrically.
"""
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_digits

import olc
from olc.data.drift import drift_stream

digits = load_digits()
X_all = digits.data / 16.0
stream = drift_stream(digits.target, {"P1": 3, "P2": 7, "N1": 8, "N2": 9}, 140, seed=0)
X, y = X_all[stream.rows], stream.label

fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
window = 80
for k, role in enumerate(stream.roles):
    share = np.convolve(stream.role == k, np.ones(window) / window, mode="same")
    top.plot(share, label=role)
top.set_ylabel(f"share of each class\n(moving window of {window})")
top.legend(ncol=4)
for name, params in [("pa", {}), ("regularized-pa", {"alpha": 0.01}),
                     ("regularized-pa", {"alpha": 0.1})]:
    result = olc.progressive(olc.make(name, **params), X, y)
    wrong = (result.pred != result.y).astype(float)
    label = name + "".join(f", {k}={v}" for k, v in params.items())
    bottom.plot(np.convolve(wrong, np.ones(window) / window, mode="same"), label=label)
for b in np.flatnonzero(np.diff(stream.phase)) + 1:
    top.axvline(b, color="grey", linestyle=":")
    bottom.axvline(b, color="grey", linestyle=":")
bottom.set_xlabel("position in the stream")
bottom.set_ylabel("error rate (moving window)")
bottom.legend()
fig.tight_layout()
