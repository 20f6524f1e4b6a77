"""
Margin growth: OMM against ROMMA and ALMA
=========================================

On separable data, the online maximum-margin algorithm (Ho-Nguyen et al. 2025, Algorithm 1)
drives the margin of its classifier toward the largest possible one; ROMMA (Li & Long 2002)
and ALMA₂ (Gentile 2001) approximate it, and the perceptron stops at the first separating
hyperplane. After every pass over 400 points we measure the geometric margin
min y(w·x + b)/‖w‖ of each learner's classifier on the whole data set (missing points: not
yet separating), against the exact maximum margin (``olc.max_margin``). The hyperplane
passes through the origin (``bias=0``), so the learners without a bias term compete fairly.
"""
import matplotlib.pyplot as plt
import numpy as np

import olc

X, y = olc.data.separable(400, 5, margin=0.1, bias=0.0, seed=1)
passes = np.arange(1, 21)

fig, ax = plt.subplots(figsize=(7, 5))
for name in ["e-omm", "ce-omm", "a-romma", "romma", "alma2", "perceptron"]:
    learner, margins = olc.make(name), []
    for _ in passes:
        learner.partial_fit(X, y, classes=[-1, 1])        # one more pass, in order
        margin = olc.evaluate.final_margin(learner, X, y)
        margins.append(np.nan if margin is None else margin)
    ax.plot(passes, margins, marker=".", label=name)
ax.axhline(olc.max_margin(X, y).margin, color="black", linestyle="--", label="maximum margin")
ax.set_xlabel("passes over the data")
ax.set_ylabel("margin on the whole data set")
ax.set_xticks(passes[::2])
ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=4)
fig.tight_layout()
