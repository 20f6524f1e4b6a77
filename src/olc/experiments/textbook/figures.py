"""Figures 31.4, 31.5, 31.8 and 31.9 of the textbook chapter, redrawn from the runs' records
with ``olc.report.figures.plot_panels`` (PNG and PDF), with the codes' axes and markers:
positives ``bo``, negatives ``rx``, the boundary ``k-`` (Figs. 31.3, 31.7); the data ``bo``
and the fitted function ``g-`` (Figs. 31.5, 31.9)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ...report.figures import plot_panels
from . import data as D

POSITIVE = {"linestyle": "none", "marker": "o", "markerfacecolor": "none", "color": "tab:blue",
            "markersize": 4}
NEGATIVE = {"linestyle": "none", "marker": "x", "color": "tab:red", "markersize": 4}
OUTLIER = {"linestyle": "none", "marker": "o", "markersize": 11, "markerfacecolor": "none",
           "color": "darkorange", "markeredgewidth": 1.5}
BOUNDARY = {"color": "black", "marker": None, "linewidth": 1.4}


def _paths(out_dir, stem):
    return [Path(out_dir) / f"{stem}.{ext}" for ext in ("png", "pdf")]


def boundary(theta, x_range, y_range):
    """Two points of the line θ¹x¹ + θ²x² + θ³ = 0 across the plot (vertical when θ² = 0)."""
    t1, t2, t3 = theta
    if t2 != 0.0:
        xs = np.asarray(x_range, float)
        return xs.tolist(), (-(t3 + t1 * xs) / t2).tolist()
    x0 = -t3 / t1 if t1 != 0.0 else np.nan
    return [x0, x0], list(y_range)


def _points(X, y):
    X, y = np.asarray(X), np.asarray(y)
    return [{"x": X[y > 0, 0].tolist(), "y": X[y > 0, 1].tolist(), "label": "y = +1",
             "style": POSITIVE},
            {"x": X[y < 0, 0].tolist(), "y": X[y < 0, 1].tolist(), "label": "y = −1",
             "style": NEGATIVE}]


def figure_31_4(record, out_dir):
    X, y, thetas = record["X"], record["y"], record["thetas"]
    lim = (-10.0, 10.0)
    panels = []
    for key, theta in thetas.items():
        bx, by = boundary(theta, lim, lim)
        title = f"after {key} iteration{'s' if key != '1' else ''}" if key != "final" else \
            f"final (after {len(y)} iterations)"
        panels.append({"title": title, "ylabel": "x²", "xlabel": "x¹", "xlim": lim,
                       "ylim": lim, "series": _points(X, y) + [
                           {"x": bx, "y": by, "label": "PA boundary", "style": BOUNDARY}]})
    return plot_panels(panels, _paths(out_dir, "figure_31_4"), panel_width=3.6, height=3.8,
                       title="Fig. 31.4: passive-aggressive classification (λ = 1, bias by an "
                             "appended 1)")


def figure_31_8(record, out_dir):
    X, y, out, thetas = (np.asarray(record["X"]), np.asarray(record["y"]),
                         np.asarray(record["outlier"], bool), record["thetas"])
    xlim, ylim = (-20.0, 0.0), (-2.0, 2.0)
    panels = []
    for name in ("PA", "AROW"):
        bx, by = boundary(thetas[name], xlim, ylim)
        cx, cy = boundary(thetas[f"{name} without outliers"], xlim, ylim)
        panels.append({"title": {"PA": "passive-aggressive", "AROW": "AROW"}[name],
                       "ylabel": "x²", "xlabel": "x¹", "xlim": xlim, "ylim": ylim,
                       "series": _points(X, y) + [
                           {"x": X[out, 0].tolist(), "y": X[out, 1].tolist(),
                            "label": "the two outliers (y = +1)", "style": OUTLIER},
                           {"x": bx, "y": by, "label": "boundary", "style": BOUNDARY},
                           {"x": cx, "y": cy, "label": "boundary without the outliers",
                            "style": dict(BOUNDARY, linestyle="--", color="grey")}]})
    return plot_panels(panels, _paths(out_dir, "figure_31_8"), panel_width=4.6, height=3.8,
                       title="Fig. 31.8: passive-aggressive and AROW classification "
                             "(two outliers)")


def _regression(record, out_dir, stem, title, label):
    grid = D.sinc_grid(len(record["grid_fit"]))
    panel = {"title": label, "ylabel": "y", "xlabel": "x", "xlim": (-2.8, 2.8),
             "ylim": (-0.5, 1.2), "series": [
                 {"x": grid.tolist(), "y": record["grid_fit"], "label": "learned function",
                  "style": {"color": "tab:green", "marker": None}},
                 {"x": grid.tolist(), "y": D.sinc_target(grid).tolist(),
                  "label": "sin(πx)/(πx) + 0.1x (noiseless)",
                  "style": {"color": "grey", "marker": None, "linestyle": ":"}},
                 {"x": record["x"], "y": record["y"], "label": "training points",
                  "style": POSITIVE}]}
    return plot_panels([panel], _paths(out_dir, stem), panel_width=6.0, height=4.2,
                       title=title)


def figure_31_5(record, out_dir):
    return _regression(record, out_dir, "figure_31_5",
                       "Fig. 31.5: passive-aggressive regression, ℓ2 loss (one pass)",
                       "Gaussian basis σ = 0.3, λ = 1, θ₀ ~ N(0, I)")


def figure_31_9(record, out_dir):
    passes = record["measures"]["passes"]
    return _regression(record, out_dir, "figure_31_9",
                       f"Fig. 31.9: AROW regression = recursive least squares ({passes} "
                       "passes)", "Gaussian basis σ = 0.3, λ = 1, μ₀ ~ N(0, I), Σ₀ = I")


FIGURE_FUNCTIONS = {"31.4": figure_31_4, "31.5": figure_31_5, "31.8": figure_31_8,
                    "31.9": figure_31_9}
