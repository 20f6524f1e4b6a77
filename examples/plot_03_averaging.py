"""
Averaging against the last iterate
==================================

With ``average=True`` the perceptron and the PAs predict with the average of their iterates
(Freund & Schapire 1999), kept as a lazy sum at O(nnz(x)) per row. On a noisy stream the last
iterate jumps at every mistake; the average is steadier. We train on growing prefixes and
measure the accuracy on held-out data.
"""
import matplotlib.pyplot as plt
import numpy as np

import olc

X, y = olc.data.noisy(6000, 20, flip=0.15, seed=3)
X_test, y_test = X[4000:], y[4000:]
X, y = X[:4000], y[:4000]
sizes = np.linspace(200, 4000, 20, dtype=int)

fig, ax = plt.subplots(figsize=(7, 4))
for name in ["perceptron", "pa-i"]:
    for average in (False, True):
        accuracy = [olc.make(name, average=average).fit(X[:k], y[:k]).score(X_test, y_test)
                    for k in sizes]
        ax.plot(sizes, accuracy, linestyle="-" if average else ":",
                label=f"{name}{', averaged' if average else ''}")
ax.set_xlabel("training examples (one pass)")
ax.set_ylabel("held-out accuracy")
ax.legend()
fig.tight_layout()
