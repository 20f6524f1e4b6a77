"""Figures 1–3 of Shen & Dietterich (2009) §4 from the engine's results (drawn with
``olc.report.figures.plot_panels``; Figure 3's images with matplotlib's ``imshow``)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ...report.figures import new_figure, plot_panels
from ..engine.report import SKIP_SHARE, error_bars, y_range
from . import spec as S
from .final_models import final_models


def _legend(label):
    """A learner's label without its reading's suffix (the figure's title names it)."""
    return label[:-len(S.MARGIN_SUFFIX)] if label.endswith(S.MARGIN_SUFFIX) else label


def _curve_series(results, stream, learners):
    series = []
    for learner in learners:
        mean, lower, upper = results.curve_bounds(stream, learner, "cumulative_error")
        if mean.size == 0:
            continue
        x = np.arange(1, mean.size + 1)
        s = {"x": x.tolist(), "y": mean.tolist(), "label": _legend(learner),
             "style": {"marker": None}}
        if lower is not None:
            s["lower"], s["upper"] = lower.tolist(), upper.tolist()
        series.append(s)
    return series


def sweep_summaries(results, stream, group):
    """[(features Summary, error Summary)] of a sweep group, sorted by mean features;
    configurations with the same mean feature count (k ≥ d) are kept once."""
    pts = [(f, e) for _, f, e in results.sweep(stream, group, "features", "error_rate")
           if f.mean is not None and np.isfinite(f.mean)]
    pts.sort(key=lambda p: p[0].mean)
    out = []
    for p in pts:
        if not out or p[0].mean != out[-1][0].mean:
            out.append(p)
    return out


def sweep_points(results, stream, group):
    """[(features mean, features half, error mean, error half)] of :func:`sweep_summaries`
    (half-widths: Student-t's, 0 without an interval)."""
    return [(f.mean, f.half_width or 0.0, e.mean, e.half_width or 0.0)
            for f, e in sweep_summaries(results, stream, group)]


def _stem(name, reading):
    return name if reading is S.ERRORS else f"{name}-{reading.name}"


def figure1(results, out_dir, reading=S.ERRORS):
    panels = []
    for s in results.streams():
        series = _curve_series(results, s, reading.figure1)
        panels.append({"title": s, "ylabel": "cumulative error rate",
                       "xlabel": "instances (second half)", "series": series,
                       "ylim": y_range(series)})
    stem = _stem("figure1", reading)
    return plot_panels(panels, [Path(out_dir) / f"{stem}.{ext}" for ext in ("png", "pdf")],
                       title=f"Figure 1 (updates on {reading.name}): cumulative error, "
                             f"2nd half (mean, 95 % band; y from {SKIP_SHARE:.0%} in)")


def figure2(results, out_dir, reading=S.ERRORS):
    panels = []
    for s in results.streams():
        series = []
        for group in reading.figure2:
            pts = sweep_summaries(results, s, group)
            if pts:
                f, e = zip(*pts)
                series.append({"x": [p.mean for p in f], "y": [p.mean for p in e],
                               "xerr": error_bars(f), "yerr": error_bars(e),
                               "label": _legend(group)})
        panels.append({"title": s, "ylabel": "error rate (second half)", "xlog": True,
                       "xlabel": "features used per iteration", "series": series})
    stem = _stem("figure2", reading)
    return plot_panels(panels, [Path(out_dir) / f"{stem}.{ext}" for ext in ("png", "pdf")],
                       title=f"Figure 2 (updates on {reading.name}): feature selection (mean "
                             "over trials, 95 % CIs)", height=4.0)


def _draw_models(models, reading):
    fig = new_figure(figsize=(2.6 * len(models), 3.0))
    axes = fig.subplots(1, len(models))
    for ax, (name, image) in zip(np.atleast_1d(axes), models.items()):
        ax.imshow(np.abs(image).reshape(16, 16), cmap="gray")  # lighter = larger |w|
        ax.set_title(name, fontsize=8)
        ax.set_xticks([])
        ax.set_yticks([])
    fig.suptitle(f"Figure 3 (updates on {reading.name}): USPS learned models, trial 0 "
                 "(lighter = larger |weight|)", fontsize=9)
    fig.tight_layout()
    return fig


def figure3(results, out_dir, reading=S.ERRORS):
    from ...report.figures import save_figure

    models = final_models(results, 0, reading)
    if models is None:
        return []
    stem = _stem("figure3", reading)
    return save_figure(_draw_models(models, reading),
                       [Path(out_dir) / f"{stem}.{ext}" for ext in ("png", "pdf")])


def figures(results, settings, out_dir):
    """Figures 1–3 under each reading (the margin reading's files end in ``-margin``)."""
    files = {}
    for reading in S.READINGS:
        for name, fn in (("figure1", figure1), ("figure2", figure2), ("figure3", figure3)):
            for p in fn(results, out_dir, reading):
                files[f"{_stem(name, reading)}_{Path(p).suffix[1:]}"] = str(p)
    return files
