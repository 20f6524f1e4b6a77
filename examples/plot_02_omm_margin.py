"""
Margin growth: OMM against ROMMA and ALMA
=========================================

On separable data, the online maximum-margin algorithm (Ho-Nguyen et al. 2025, Algorithm 1)
drives the margin of its classifier toward the largest possible one; ROMMA (Li & Long 2002)
and ALMA₂ (Gentile 2001) approximate it. After every block of examples we measure the
geometric margin min y(w·x + b)/‖w‖ of each learner's current classifier on the whole data
set, and compare it with the exact maximum margin (``olc.max_margin``).
"""
import matplotlib.pyplot as plt
import numpy as np

import olc

X, y = olc.data.separable(3000, 5, margin=0.05, seed=1)
best = olc.max_margin(X, y).margin
blocks = np.array_split(np.arange(len(y)), 30)

fig, ax = plt.subplots(figsize=(7, 4))
for name in ["e-omm", "ce-omm", "romma", "a-romma", "alma2"]:
    learner, seen, margins = olc.make(name), [], []
    for rows in blocks:
        learner.partial_fit(X[rows], y[rows], classes=[-1, 1])
        margin = olc.evaluate.final_margin(learner, X, y)
        seen.append(rows[-1] + 1)
        margins.append(np.nan if margin is None else margin)
    ax.plot(seen, margins, marker=".", label=name)
ax.axhline(best, color="black", linestyle="--", label="maximum margin")
ax.set_xlabel("examples seen")
ax.set_ylabel("margin on the whole data set")
ax.legend()
fig.tight_layout()
