"""Figures 1–3 of Shen & Dietterich (2009) §4 from the engine's results (drawn with
``olc.report.figures.plot_panels``; Figure 3's images with matplotlib's ``imshow``)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ...report.figures import new_figure, plot_panels
from . import spec as S
from .final_models import final_models


def _curve_series(results, stream, learners):
    series = []
    for learner in learners:
        mean, half = results.curve(stream, learner, "cumulative_error")
        if mean.size == 0:
            continue
        x = np.arange(1, mean.size + 1)
        s = {"x": x.tolist(), "y": mean.tolist(), "label": learner, "style": {"marker": None}}
        if half is not None:
            s["lower"], s["upper"] = (mean - half).tolist(), (mean + half).tolist()
        series.append(s)
    return series


def sweep_points(results, stream, group):
    """[(features mean, features half, error mean, error half)] of a sweep group, sorted by
    features; configurations with the same mean feature count (k ≥ d) are kept once."""
    pts = []
    for _, f, e in results.sweep(stream, group, "features", "error_rate"):
        if f.mean is None or not np.isfinite(f.mean):
            continue
        pts.append((f.mean, f.half_width or 0.0, e.mean, e.half_width or 0.0))
    pts.sort(key=lambda p: p[0])
    out = []
    for p in pts:
        if not out or p[0] != out[-1][0]:
            out.append(p)
    return out


def figure1(results, out_dir):
    panels = [{"title": s, "ylabel": "cumulative error rate", "xlabel": "instances (second half)",
               "series": _curve_series(results, s, S.FIGURE1)} for s in results.streams()]
    return plot_panels(panels, [Path(out_dir) / f"figure1.{ext}" for ext in ("png", "pdf")],
                       title="Figure 1: cumulative error rate on the second half (mean over "
                             "trials, 95 % band)")


def figure2(results, out_dir):
    panels = []
    for s in results.streams():
        series = []
        for group in S.FIGURE2:
            pts = sweep_points(results, s, group)
            if pts:
                f, fh, e, eh = map(list, zip(*pts))
                series.append({"x": f, "y": e, "xerr": fh, "yerr": eh, "label": group})
        panels.append({"title": s, "ylabel": "error rate (second half)", "xlog": True,
                       "xlabel": "features used per iteration", "series": series})
    return plot_panels(panels, [Path(out_dir) / f"figure2.{ext}" for ext in ("png", "pdf")],
                       title="Figure 2: feature selection (mean over trials, 95 % CIs)",
                       height=4.0)


def _draw_models(models):
    fig = new_figure(figsize=(2.6 * len(models), 3.0))
    axes = fig.subplots(1, len(models))
    for ax, (name, image) in zip(np.atleast_1d(axes), models.items()):
        ax.imshow(np.abs(image).reshape(16, 16), cmap="gray")  # lighter = larger |w|
        ax.set_title(name, fontsize=8)
        ax.set_xticks([])
        ax.set_yticks([])
    fig.suptitle("Figure 3: USPS learned models, trial 0 (lighter = larger |weight|)",
                 fontsize=9)
    fig.tight_layout()
    return fig


def figure3(results, out_dir):
    from ...report.figures import save_figure

    models = final_models(results, trial=0)
    if models is None:
        return []
    return save_figure(_draw_models(models),
                 [Path(out_dir) / f"figure3.{ext}" for ext in ("png", "pdf")])


def figures(results, settings, out_dir):
    files = {}
    for name, fn in (("figure1", figure1), ("figure2", figure2), ("figure3", figure3)):
        for p in fn(results, out_dir):
            files[f"{name}_{Path(p).suffix[1:]}"] = str(p)
    return files
