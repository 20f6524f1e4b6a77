"""Figures (matplotlib's object API, no pyplot: importing pyplot and its backend machinery
costs about a second at the start of a command, and figures here are only written to files,
never shown)."""
from pathlib import Path

import numpy as np

from .._util.atomic import atomic_open

FIGURE_DPI = 120


def new_figure(**kwargs):
    """A matplotlib Figure not managed by pyplot (saved by ``savefig`` through the Agg/PDF
    canvases; freed with the object)."""
    from matplotlib.figure import Figure

    return Figure(**kwargs)


def plot_cumulative_error(curves, path, title="Online protocol: cumulative error rate",
                          max_points=2000, ylabel="mistakes / t"):
    """One line per learner: ``curves`` maps a label to its cumulative error-rate array.
    Long curves are subsampled to ``max_points`` (log-spaced steps) to keep files small."""
    return save_figure(_cumulative_error_figure(curves, title, max_points, ylabel), path)


def _cumulative_error_figure(curves, title, max_points, ylabel):
    fig = new_figure(figsize=(7, 4.2))
    ax = fig.subplots()
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
    # Fixed margins (room for 6-character tick labels): tight_layout would measure every
    # tick label of the log axis, a third of the figure's cost.
    fig.subplots_adjust(left=0.11, right=0.98, bottom=0.12, top=0.92)
    return fig


def preload():
    """Import what drawing a figure needs (matplotlib's Figure and its Agg canvas, ~0.8 s),
    ahead of the figure: ``figure_process`` does it while the command computes."""
    import importlib

    for module in ("matplotlib.figure", "matplotlib.backends.backend_agg"):
        importlib.import_module(module)


def _values(seq):
    return np.array([np.nan if v is None else float(v) for v in seq])


def _errors(seq):
    """Error bars: one value per point (symmetric) or two rows (below, above)."""
    if seq is None:
        return None
    if len(seq) == 2 and all(isinstance(row, (list, tuple, np.ndarray)) for row in seq):
        return np.vstack([_values(row) for row in seq])
    return _values(seq)


def plot_panels(panels, path, title=None, xlabel="x", panel_width=4.2, height=3.6):
    """Side-by-side line plots sharing an x axis.

    ``panels``: a list of dicts with ``title``, ``ylabel``, optional ``log`` (log y axis),
    ``xlog`` (log x axis), ``xticks`` (the x values to mark, labelled as given, no minor
    ticks), ``xlim``, ``ylim``, ``legend`` (True: a legend inside this panel) and
    ``series``: a list of dicts with ``x``, ``y`` (None entries are gaps: the value does not
    exist, e.g. the papers' "—"), ``label`` and optional matplotlib ``style`` keywords
    (color, linestyle, marker); optional ``lower``/``upper`` (a shaded band, e.g. a confidence
    interval) and ``xerr``/``yerr`` (symmetric error bars). Unless a panel has its own legend, one legend is drawn below
    the panels from the labels of the first panel; ``legend`` may also be a matplotlib
    location ("upper right"), which spares the costly search of the "best" one.
    ``path``: one file, or a list of files (e.g. PNG and PDF) drawn from the same figure
    (built and laid out once); returns the path or the list of paths."""
    fig = new_figure(figsize=(panel_width * len(panels), height))
    axes = fig.subplots(1, len(panels), squeeze=False)
    for ax, panel in zip(axes[0], panels):
        for s in panel["series"]:
            y = np.array([np.nan if v is None else float(v) for v in s["y"]])
            if panel.get("log"):
                y[y <= 0] = np.nan
            style = {"marker": "o", "markersize": 3.5, "linewidth": 1.3}
            style.update(s.get("style", {}))
            x = np.asarray(s["x"], dtype=float)
            if s.get("xerr") is not None or s.get("yerr") is not None:
                line = ax.errorbar(x, y, xerr=_errors(s.get("xerr")), yerr=_errors(s.get("yerr")),
                                   label=s["label"], capsize=2, **style)[0]
            else:
                (line,) = ax.plot(x, y, label=s["label"], **style)
            if s.get("lower") is not None and s.get("upper") is not None:
                ax.fill_between(x, _values(s["lower"]), _values(s["upper"]),
                                color=line.get_color(), alpha=0.2, linewidth=0)
        if panel.get("log"):
            ax.set_yscale("log")
        if panel.get("xlog"):
            ax.set_xscale("log")
        if panel.get("xticks"):
            ax.set_xticks(panel["xticks"], [str(t) for t in panel["xticks"]])
            ax.minorticks_off()
        if panel.get("xlim"):
            ax.set_xlim(*panel["xlim"])
        if panel.get("ylim"):
            ax.set_ylim(*panel["ylim"])
        if panel.get("legend"):
            loc = panel["legend"] if isinstance(panel["legend"], str) else "best"
            ax.legend(fontsize=7, loc=loc)
        ax.set_title(panel["title"])
        ax.set_ylabel(panel["ylabel"])
        ax.set_xlabel(panel.get("xlabel", xlabel))
        ax.grid(True, which="both", alpha=0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    if any(panel.get("legend") for panel in panels):
        handles = []
    if handles:
        fig.legend(handles, labels, loc="lower center", ncol=min(len(labels), 8), fontsize=7.5,
                   frameon=False)
    if title:
        fig.suptitle(title)
    fig.tight_layout(rect=(0, 0.12 if handles else 0, 1, 1))
    return save_figure(fig, path)


def save_figure(fig, path):
    """Write the figure atomically (format from the suffix: png, pdf, svg, ...) to ``path``
    or to each path of a list; returns what it was given."""
    paths = [Path(p) for p in path] if isinstance(path, (list, tuple)) else [Path(path)]
    for p in paths:
        with atomic_open(p, "wb") as fh:
            fig.savefig(fh, format=p.suffix.lstrip(".").lower() or "png", dpi=FIGURE_DPI)
    return paths if isinstance(path, (list, tuple)) else paths[0]
