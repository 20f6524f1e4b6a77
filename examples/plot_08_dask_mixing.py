"""
Training on a Dask cluster
==========================

``olc.distributed.iterative_parameter_mixing`` (McDonald, Hall & Mann 2010) trains one model
on data spread over a cluster: each block of rows runs one online pass from the current mixed
weights on the worker that holds it, then the weights are averaged. Here a two-worker
``LocalCluster`` in this process stands in for a cluster; we compare mixing uniformly and by
each block's updates with one machine's passes over the same data. On these noisy data
mixing also averages four perceptrons, which steadies the last iterate (as the averaging
example shows), so it beats the single perceptron here.
"""
import dask.array as da
import matplotlib.pyplot as plt
import numpy as np
from distributed import Client, LocalCluster

import olc
from olc.distributed import iterative_parameter_mixing

X, y = olc.data.noisy(8000, 20, flip=0.05, seed=5)
truth_X, truth_y = X[6000:], y[6000:]
X, y = X[:6000], y[:6000]

cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                       dashboard_address=None)
client = Client(cluster)
dX = da.from_array(X, chunks=(1500, -1))
dy = da.from_array(y, chunks=1500)

epochs = [1, 2, 3, 5, 8]
fig, ax = plt.subplots(figsize=(7, 4))
for weighting in ("uniform", "updates"):
    accuracy = [iterative_parameter_mixing(olc.make("perceptron"), dX, dy, epochs=e,
                                           weighting=weighting).score(truth_X, truth_y)
                for e in epochs]
    ax.plot(epochs, accuracy, marker="o", label=f"mixing, {weighting} (4 blocks)")
single = [olc.make("perceptron").fit(np.concatenate([X] * e), np.concatenate([y] * e))
          .score(truth_X, truth_y) for e in epochs]
ax.plot(epochs, single, marker="x", linestyle="--", label="one machine, e passes")
ax.set_xlabel("epochs")
ax.set_ylabel("held-out accuracy")
ax.legend()
fig.tight_layout()
client.close()
cluster.close()
