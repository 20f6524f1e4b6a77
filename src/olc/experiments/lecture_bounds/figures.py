"""The lecture-bounds figure: measured mistakes against each bound (``bounds.png``/``.pdf``)."""
from __future__ import annotations

from pathlib import Path

from ...report.figures import plot_panels


def plot(rows, out_dir):
    """Measured mistakes against the bound, one panel per algorithm, log-log, with y = x."""
    groups = [("Perceptron (Theorem 1)", ("perceptron", "perceptron (adversarial)")),
              ("Winnow (Eq. 42)", ("winnow",)), ("Weighted Majority (Eq. 1)",
                                                 ("weighted-majority",)),
              ("Randomized WM, E[M] (Eq. 2)", ("randomized-weighted-majority (E[M], exact)",))]
    panels = []
    for title, names in groups:
        pts = [r for r in rows if r["algorithm"] in names]
        if not pts:
            continue
        top = max(max(r["bound"] for r in pts), 1.0) * 1.5
        series = [{"x": [0.8, top], "y": [0.8, top], "label": "measured = bound",
                   "style": {"color": "grey", "linestyle": "--", "marker": None}}]
        for name in names:
            sub = [r for r in pts if r["algorithm"] == name]
            if sub:
                series.append({"x": [r["bound"] for r in sub],
                               "y": [max(r["measured"], 0.8) for r in sub],
                               "label": name.split(" (")[0] if "adversarial" not in name
                               else "adversarial (x_t = e_t)",
                               "style": {"linestyle": "none", "marker": "o" if "adv" not in
                                         name else "*", "markersize": 6 if "adv" not in name
                                         else 10}})
        panels.append({"title": title, "ylabel": "mistakes (measured; 0 drawn at 0.8)",
                       "xlabel": "bound", "log": True, "xlog": True, "legend": "upper left",
                       "series": series})
    return plot_panels(panels, [Path(out_dir) / f"bounds.{e}" for e in ("png", "pdf")],
                       title="Kitani's lecture notes: measured mistakes against the bounds",
                       panel_width=4.0, height=3.8)


def figures(measured, settings, out_dir):
    return {"figure": [str(p) for p in plot(measured.rows, out_dir)]}
