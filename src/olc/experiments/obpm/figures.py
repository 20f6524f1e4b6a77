"""Figures 1–3 of Harrington et al. 2003 (§4) from our records, drawn with
``olc.report.figures.plot_panels`` (PNG and PDF, atomic). Means over trials with 95 %
Student-t bands where there are several trials."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ...report.figures import plot_panels
from ..engine.aggregate import t_interval
from .artificial import N_FIGURE, TAUS, select
from .tables import figure_1_rows


def _paths(out_dir, stem):
    return [Path(out_dir) / f"{stem}.{ext}" for ext in ("png", "pdf")]


def _thin(n, max_points=1500):
    if n <= max_points:
        return np.arange(n)
    return np.unique(np.linspace(0, n - 1, max_points).round().astype(int))


def _band_series(results, stream, label, metric, scale=1.0):
    mean, half = results.curve(stream, label, metric)
    if mean.size == 0:
        return None
    keep = _thin(mean.size)
    s = {"x": (keep + 1).tolist(), "y": (scale * mean[keep]).tolist(), "label": label,
         "style": {"marker": None}}
    if half is not None:
        # counts are ≥ 0: the band is cut at 0 (its intersection with the range of the mean,
        # which keeps its coverage), never drawn below
        s["lower"] = np.maximum(scale * (mean - half)[keep], 0.0).tolist()
        s["upper"] = (scale * (mean + half)[keep]).tolist()
    return s


def _error_bars(rows, key, scale):
    """(below, above) bars: the test error's interval is kept in [0, 1] (asymmetric where
    the t-interval would leave it), the margin's is mean ± its t half-width."""
    if key == "test_error":
        return [[0.0 if r.get("test_error_low") is None else scale * (r[key] - r["test_error_low"])
                 for r in rows],
                [0.0 if r.get("test_error_high") is None else
                 scale * (r["test_error_high"] - r[key]) for r in rows]]
    return [0.0 if r[f"{key}_ci95"] is None else scale * r[f"{key}_ci95"] for r in rows]


def figure_1(records, out_dir):
    """(a) test error vs τ, (b) margin γ_z(w̃_T) vs τ, one line per N (e = 0, one epoch),
    with ALMA's chosen configuration as a dashed reference."""
    rows = figure_1_rows(records)
    if not rows:
        return []
    panels = [{"title": "(a) test error", "ylabel": "test error (%)", "series": []},
              {"title": "(b) margin γ_z(w̃_T)", "ylabel": "margin on the training sample",
               "series": []}]
    for N in N_FIGURE:
        rs = [r for r in rows if r["N"] == N]
        if not rs:
            continue
        taus = [r["tau"] for r in rs]
        for panel, key, scale in ((panels[0], "test_error", 100.0), (panels[1], "margin", 1.0)):
            panel["series"].append({
                "x": taus, "y": [None if r[key] is None else scale * r[key] for r in rs],
                "yerr": _error_bars(rs, key, scale), "label": f"OBPM N={N}"})
    chosen = select(records, "ALMA", 0.0)
    if chosen:
        params, rs = chosen
        label = f"ALMA (B={params['B']:g}, C={params['C']:.2f})"
        err = t_interval([r["test_error"] for r in rs]).mean
        margin = t_interval([r["margin"] for r in rs]).mean
        for panel, value in ((panels[0], 100.0 * err), (panels[1], margin)):
            if value is not None:
                panel["series"].append({"x": [TAUS[0], TAUS[-1]], "y": [value, value],
                                        "label": label, "style": {"marker": None,
                                                                  "linestyle": "--",
                                                                  "color": "black"}})
    return plot_panels(panels, _paths(out_dir, "figure_1"), xlabel="τ",
                       title="Figure 1: artificial data, e = 0, one epoch (mean over runs, "
                             "95 % CI)")


def figure_2(results, out_dir):
    stream = results.streams()[0] if results.streams() else None
    if stream is None:
        return []
    series = [s for s in (_band_series(results, stream, label, "cumulative_mistakes")
                          for label in results.learners(stream)) if s]
    panel = {"title": results.spec.streams[0].display, "ylabel": "cumulative prediction errors",
             "xlabel": "example t", "series": series, "legend": "upper left"}
    n = len(results.select(stream, results.learners(stream)[0]))
    return plot_panels([panel], _paths(out_dir, "figure_2"), panel_width=6.5, height=4.2,
                       title=f"Figure 2: MNIST drift, mean over {n} trial(s), 95 % band")


def figure_3(results, out_dir, stem="figure_3"):
    stream = results.streams()[0] if results.streams() else None
    if stream is None:
        return []
    panels = []
    for metric, title, ylabel in (("cumulative_mistakes", "(a) prediction errors",
                                   "prediction errors up to t"),
                                  ("cumulative_updates", "(b) total updates",
                                   "updates up to t (OBPM: all members)")):
        series = [s for s in (_band_series(results, stream, label, metric)
                              for label in results.learners(stream)) if s]
        panels.append({"title": title, "ylabel": ylabel, "xlabel": "training example t",
                       "series": series, "legend": "upper left"})
    n = len(results.select(stream, results.learners(stream)[0]))
    return plot_panels(panels, _paths(out_dir, stem), panel_width=5.0, height=4.0,
                       title=f"Figure 3: {results.spec.streams[0].display}"
                             + (f" (mean over {n} trials, 95 % band)" if n > 1 else ""))



def figures(outcome, settings, out_dir):
    """Figures 1–3 of the parts that ran: {name_png/pdf: path}."""
    files = {}
    for name, paths in (("figure_1", figure_1(outcome.table_1, out_dir)
                         if outcome.table_1 else []),
                        ("figure_2", figure_2(outcome.drift, out_dir) if outcome.drift else []),
                        ("figure_3", figure_3(outcome.web, out_dir) if outcome.web else []),
                        ("figure_3_permuted", figure_3(outcome.web_permuted, out_dir,
                                                       "figure_3_permuted")
                         if outcome.web_permuted else [])):
        for p in paths:
            files[f"{name}_{Path(p).suffix[1:]}"] = str(p)
    return files
