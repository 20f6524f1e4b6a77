"""An experiment's outputs, from its :class:`~.aggregate.Results` (never from a learner):

- ``table.md`` / ``table.csv``: per stream and learner, each scalar metric's mean over the
  trials with its Student-t 95 % half-width, and the paper's number in a column marked
  ``[paper]`` wherever the paper gives one; measured times apart in ``timing.md`` / ``.csv``
  (a resumed run reuses stored times, a clean run measures new ones, so only the timing
  files may differ between the two);
- ``cumulative_error.png`` / ``.pdf``: one panel per stream, the mean cumulative error
  curve of each learner with its 95 % band;
- ``results.json``: the experiment's description and one record per run;
- the claims table of ``summary.md`` (the pipeline that writes it:
  :mod:`.reproduction`).
Everything goes through :mod:`olc.report` and :mod:`olc._util.atomic` (whole files, renamed).
"""
from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np

from ..._util.atomic import write_text
from ...report import format_number, plot_panels, write_json
from .metrics import TIMING


def _cell(summary, digits=4):
    return format_number(summary.mean, digits)


def _half(summary, digits=2):
    """"± h" for a symmetric interval, "[low, high]" for a rate's interval kept in [0, 1]."""
    if summary.half_width is None:
        return "—"
    if summary.symmetric:
        return f"± {summary.half_width:.{digits}g}"
    return f"[{summary.low:.4g}, {summary.high:.4g}]"


def table_rows(results, metrics):
    """Rows {stream, learner, n, <m>, <m>_ci95, <m>_paper} for the scalar ``metrics``."""
    rows = []
    for stream in results.streams():
        for learner in results.learners(stream):
            row = {"stream": stream, "learner": learner,
                   "trials": len(results.select(stream, learner))}
            for m in metrics:
                s = results.mean(stream, learner, m.name)
                row[m.name] = s.mean
                row[f"{m.name}_ci95"] = s.half_width
                row[f"{m.name}_low"], row[f"{m.name}_high"] = s.low, s.high
                row[f"{m.name}_paper"] = results.paper_value(stream, learner, m.name)
            rows.append(row)
    return rows


def _with_paper(results, metrics):
    return {m.name for m in metrics
            if any(k[2] == m.name for k in results.paper)}


def write_table(results, metrics, out_dir, stem, title):
    """``stem``.md and ``stem``.csv; returns their paths."""
    out_dir = Path(out_dir)
    rows = table_rows(results, metrics)
    paper = _with_paper(results, metrics)
    columns = ["stream", "learner", "trials"]
    for m in metrics:
        columns += [m.name, f"{m.name}_ci95", f"{m.name}_low", f"{m.name}_high"] + \
            ([f"{m.name}_paper"] if m.name in paper else [])
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({c: ("" if row.get(c) is None else repr(row[c]) if
                             isinstance(row[c], float) else row[c]) for c in columns})
    csv_path = write_text(out_dir / f"{stem}.csv", buf.getvalue())
    heads = ["stream", "learner", "trials"]
    for m in metrics:
        heads += [m.display, "95 % CI"] + ([f"{m.display} [paper]"] if m.name in paper else [])
    lines = [f"# {title}", "",
             "Mean over trials ± the Student-t 95 % half-width; for a rate whose t-interval "
             "leaves [0, 1], the 95 % interval [low, high] made for proportions instead "
             "(olc.experiments.engine.aggregate). Columns marked [paper] are the paper's "
             "published numbers; everything else comes from this run.", "",
             "| " + " | ".join(heads) + " |", "|" + "|".join("---" for _ in heads) + "|"]
    for row in rows:
        cells = [row["stream"], row["learner"], str(row["trials"])]
        for m in metrics:
            s = results.mean(row["stream"], row["learner"], m.name)
            cells += [_cell(s), _half(s)]
            if m.name in paper:
                cells.append(format_number(row[f"{m.name}_paper"]))
        lines.append("| " + " | ".join(cells) + " |")
    md_path = write_text(out_dir / f"{stem}.md", "\n".join(lines) + "\n")
    return md_path, csv_path


def _thin(n, max_points=1500):
    if n <= max_points:
        return np.arange(n)
    return np.unique(np.linspace(0, n - 1, max_points).round().astype(int))


def _end(results, stream, learner, metric):
    mean, _ = results.curve(stream, learner, metric)
    return float(mean[-1]) if mean.size else np.inf


#: The share of a curve's first steps left out when choosing a figure's y range: there a
#: cumulative rate averages a handful of predictions and its band spans most of [0, 1].
SKIP_SHARE = 0.05


def y_range(series, skip=SKIP_SHARE):
    """(low, high) of the y axis that shows where the curves differ: the curves and their
    bands after the first ``skip`` share of the steps, with a 5 % margin; None when
    nothing is left. The first steps stay drawn, cut off at the axis."""
    lo, hi = np.inf, -np.inf
    for s in series:
        x = np.asarray(s["x"], dtype=np.float64)
        if x.size == 0:
            continue
        keep = x >= x.min() + skip * (x.max() - x.min())
        for k in ("y", "lower", "upper"):
            if s.get(k) is not None:
                v = np.asarray(s[k], dtype=np.float64)[keep]
                v = v[np.isfinite(v)]
                if v.size:
                    lo, hi = min(lo, v.min()), max(hi, v.max())
    if not np.isfinite(lo) or not np.isfinite(hi):
        return None
    pad = 0.05 * (hi - lo) if hi > lo else max(abs(hi) * 0.05, 1e-3)
    return lo - pad, hi + pad


def curve_learners(results, stream, metric, curves=None):
    """The configurations the curves figure shows on ``stream`` (``ExperimentSpec.curves``).

    Default rule (``curves`` None): one curve per learner (LearnerSpec label): a learner
    without a sweep is its one configuration (its tuning, if any, happens inside each run);
    a learner with a sweep is represented by its best configuration, the one whose mean
    curve ends lowest (the first in sweep order on ties) — the engine's curves are error
    curves. ``"all"``: every configuration. A list: each name a configuration's label, or
    a learner's label standing for its best configuration (the same rule)."""
    labels = results.learners(stream)
    if curves == "all":
        return labels
    groups = {}
    for r in results.select(stream):
        groups.setdefault(r["group"], [])
        if r["learner"] not in groups[r["group"]]:
            groups[r["group"]].append(r["learner"])

    def best(group):
        return min(groups[group], key=lambda label: _end(results, stream, label, metric))

    names = list(groups) if curves is None else list(curves)
    chosen = [name if name in labels else best(name) for name in names
              if name in labels or name in groups]
    return list(dict.fromkeys(chosen))


def plot_curves(results, metric, out_dir, stem="cumulative_error", title=None, curves=None):
    """One panel per stream: the mean curve of each learner :func:`curve_learners` picks,
    with its 95 % band; PNG and PDF."""
    panels = []
    for stream in results.streams():
        series = []
        for learner in curve_learners(results, stream, metric.name, curves):
            mean, lower, upper = results.curve_bounds(stream, learner, metric.name)
            if mean.size == 0:
                continue
            keep = _thin(mean.size)
            s = {"x": keep + 1, "y": mean[keep].tolist(), "label": learner,
                 "style": {"marker": None}}
            if lower is not None:
                s["lower"], s["upper"] = lower[keep].tolist(), upper[keep].tolist()
            series.append(s)
        if series:
            panels.append({"title": stream, "ylabel": metric.display, "series": series,
                           "xlabel": "evaluated step t", "legend": "upper right",
                           "ylim": y_range(series)})
    if not panels:
        return []
    title = title or f"{metric.display}: mean over trials, 95 % band"
    width = 6.5 if len(panels) == 1 else 4.8
    return plot_panels(panels, [Path(out_dir) / f"{stem}.{ext}" for ext in ("png", "pdf")],
                       title=title, xlabel="step t", panel_width=width, height=4.2)


def verdict(v):
    return {True: "supported", False: "**not supported**", None: "n/a"}[v]


def claims_table(verdicts, on_paper=None):
    """The markdown table of tested claims (:class:`~.reproduction.Verdict` list); with
    ``on_paper``, the same claims tested on the paper's own numbers in a last column."""
    if on_paper is None:
        lines = ["| # | claim | source | our run | evidence |", "|---|---|---|---|---|"]
        for i, v in enumerate(verdicts, 1):
            lines.append(f"| {i} | {v.claim.text} | {v.claim.source} | {verdict(v.supported)} "
                         f"| {v.evidence} |")
        return lines
    lines = ["| # | claim | source | our run | evidence (our run) | on the paper's numbers |",
             "|---|---|---|---|---|---|"]
    for i, (v, p) in enumerate(zip(verdicts, on_paper), 1):
        lines.append(f"| {i} | {v.claim.text} | {v.claim.source} | {verdict(v.supported)} | "
                     f"{v.evidence} | {verdict(p.supported)} |")
    return lines


def write_rows(rows, columns, out_dir, stem, intro):
    """``stem``.md (``intro``, then a markdown table) and ``stem``.csv of ``rows`` (dicts),
    with the ``columns`` [(key, heading)] that some row fills; returns their paths."""
    from ...report import markdown_table, write_csv

    keys = [k for k, _ in columns if any(r.get(k) is not None for r in rows)]
    heads = [h for k, h in columns if k in keys]
    md = write_text(Path(out_dir) / f"{stem}.md", intro + markdown_table(rows, keys, heads))
    csv_path = Path(out_dir) / f"{stem}.csv"
    write_csv(csv_path, rows, keys)
    return md, csv_path


def write_stream(stream, path):
    """The stream of one trial: per position, the data set's row and its original label
    (and the ±1 label the learners see)."""
    buf = io.StringIO()
    buf.write("position,row,original_label,y\n")
    for i, (row, label, y) in enumerate(zip(stream.origin, stream.labels, stream.y)):
        buf.write(f"{i},{int(row)},{label},{format_number(y)}\n")
    return write_text(path, buf.getvalue())


def write_results(path, payload):
    return write_json(path, payload)


__all__ = ["claims_table", "plot_curves", "plot_sweeps", "table_rows", "verdict", "write_results",
           "write_rows", "write_stream", "write_table", "TIMING"]


def error_bars(summaries):
    """Matplotlib's 2 × n (below, above) error bars of :class:`~.aggregate.Summary` objects:
    a rate's interval may be asymmetric; no interval → 0."""
    below = [0.0 if s.low is None else s.mean - s.low for s in summaries]
    above = [0.0 if s.high is None else s.high - s.mean for s in summaries]
    return [below, above]


def plot_sweeps(results, groups, x_metric, y_metric, out_dir, stem, title=None,
                x_label=None, y_label=None):
    """One panel per stream: for each sweep group (a LearnerSpec with ``sweep``), the mean
    of ``x_metric`` against the mean of ``y_metric``, one point per sweep value, with 95 %
    error bars on both (e.g. features used per iteration against the error rate, one point
    per threshold σ). PNG and PDF; returns the paths."""
    panels = []
    for stream in results.streams():
        series = []
        for group in groups:
            points = results.sweep(stream, group, x_metric, y_metric)
            if not points:
                continue
            series.append({"x": [p[1].mean for p in points], "y": [p[2].mean for p in points],
                           "xerr": error_bars([p[1] for p in points]),
                           "yerr": error_bars([p[2] for p in points]),
                           "label": group})
        if series:
            panels.append({"title": stream, "ylabel": y_label or y_metric, "series": series,
                           "xlabel": x_label or x_metric, "legend": True})
    if not panels:
        return []
    return plot_panels(panels, [Path(out_dir) / f"{stem}.{ext}" for ext in ("png", "pdf")],
                       title=title)
