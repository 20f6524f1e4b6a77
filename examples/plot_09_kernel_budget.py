"""
Kernel learners on a budget
===========================

A stream no hyperplane separates (two concentric rings): the kernel learners keep a pool of
stored rows, f(x) = Σ c_s k(x_s, x). The unbounded kernel perceptron stores every mistake;
the Forgetron (Dekel, Shalev-Shwartz & Singer 2008) and the budget PA (Wang & Vucetic 2010)
keep at most ``budget`` rows; FOGD (Lu et al. 2016) learns over a fixed number of random
Fourier features. Left: the cumulative error; right: the decision regions of the Forgetron.
"""
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_circles

import olc

X, y = make_circles(n_samples=3000, noise=0.08, factor=0.5, random_state=0)

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2))
learners = {
    "perceptron (linear)": olc.make("perceptron"),
    "kernel-perceptron, no budget": olc.make("kernel-perceptron", gamma=2.0),
    "forgetron, budget 30": olc.make("forgetron", gamma=2.0, budget=30),
    "budget-pa, budget 30": olc.make("budget-pa", gamma=2.0, budget=30),
    "fogd, 100 features": olc.make("fogd", gamma=2.0, n_components=100),
}
for label, learner in learners.items():
    result = olc.progressive(learner, X, y)
    left.plot(result.error_rate_curve(), label=label)
left.set_xlabel("examples seen")
left.set_ylabel("cumulative error rate")
left.legend(fontsize="small")

forgetron = learners["forgetron, budget 30"]
grid = np.linspace(-1.4, 1.4, 150)
gx, gy = np.meshgrid(grid, grid)
scores = forgetron.decision_function(np.c_[gx.ravel(), gy.ravel()]).reshape(gx.shape)
right.contourf(gx, gy, scores > 0, alpha=0.3, cmap="coolwarm")
right.scatter(X[:400, 0], X[:400, 1], c=y[:400], s=6, cmap="coolwarm")
right.scatter(*forgetron.support_vectors_.T, s=40, facecolors="none", edgecolors="black",
              label=f"{forgetron.n_support_.sum()} stored rows")
right.set_aspect("equal")
right.legend(loc="upper right", fontsize="small")
fig.tight_layout()
