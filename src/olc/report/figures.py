"""Figures (matplotlib, non-interactive backend)."""
from pathlib import Path

import numpy as np


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_cumulative_error(curves, path, title="Online protocol: cumulative error rate",
                          max_points=2000, ylabel="mistakes / t"):
    """One line per learner: ``curves`` maps a label to its cumulative error-rate array.
    Long curves are subsampled to ``max_points`` (log-spaced steps) to keep files small."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for label, curve in curves.items():
        curve = np.asarray(curve)
        steps = np.arange(1, curve.size + 1)
        if curve.size > max_points:
            keep = np.unique(np.geomspace(1, curve.size, max_points).astype(int)) - 1
            steps, curve = steps[keep], curve[keep]
        ax.plot(steps, curve, label=label, linewidth=1.4)
    ax.set_xscale("log")
    ax.set_xlabel("step t")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
