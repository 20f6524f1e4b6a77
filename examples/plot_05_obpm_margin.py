"""
OBPM: margin against the number of members
==========================================

The Online Bayes Point Machine (Harrington et al. 2003, Algorithm 2) trains N perceptrons,
each on its own Bernoulli(τ) sub-stream, and predicts with their average. More members give
a classifier closer to the "centre" of the version space, and so a larger margin. We measure
the final margin on the whole data set for N from 1 to 64, averaged over five seeds (a
point is missing where some seed's classifier does not yet separate the data).
"""
import matplotlib.pyplot as plt
import numpy as np

import olc

X, y = olc.data.separable(2000, 10, margin=0.05, seed=2)
members = [1, 2, 4, 8, 16, 32, 64]

fig, ax = plt.subplots(figsize=(7, 4))
for tau in (0.5, 0.8):
    runs = []
    for seed in range(5):
        margins = []
        for N in members:
            learner = olc.make("obpm", N=N, tau=tau, seed=seed).fit(X, y)
            margin = olc.evaluate.final_margin(learner, X, y)
            margins.append(np.nan if margin is None else margin)
        runs.append(margins)
    ax.plot(members, np.nanmean(runs, axis=0), marker="o", label=f"τ = {tau} (mean of 5)")
ax.axhline(olc.max_margin(X, y).margin, color="black", linestyle="--", label="maximum margin")
ax.set_xscale("log", base=2)
ax.set_xlabel("members N")
ax.set_ylabel("final margin")
ax.legend()
fig.tight_layout()
