"""Tables 2–4 and Figure 1 of the OMM paper (Ho-Nguyen et al. 2025, §6 / App. B.4) from
the records, in the paper's layout, with the paper's numbers in columns marked "[paper]";
drawn and written by :mod:`olc.report` (atomic files)."""
from __future__ import annotations

from pathlib import Path

from ..._util.atomic import write_text
from .translations import BIASES, THETAS
from ...report import markdown_table, plot_panels, write_csv
from . import paper
from .spec import ALGORITHMS, LABELS, SINGLE_PASS_ONLY


def _lookup(records):
    table = {(r["algorithm"], r["theta"], r["bias"], r["passes"]): r for r in records}

    def cell(algorithm, theta, bias, passes):
        r = table.get((algorithm, float(theta), bias, passes))
        if r is None and algorithm in SINGLE_PASS_ONLY:
            r = table.get((algorithm, float(theta), bias, 1))
        return None if r is None else (r["mistakes"], r["margin"], r["tau"], r["seconds"])
    return cell


def _fmt(value, kind, paper_value=False):
    if value is None:
        return "—"
    if kind in ("m", "tau"):
        return str(int(value))
    if kind == "margin":
        return f"{value:.2f}" if paper_value else f"{value:.4f}"
    if kind == "seconds":
        return f"{value:.2f}" if paper_value else f"{value:.4f}"
    return f"{value:.4f}"


METRICS = (("m", "m"), ("margin", "γ̄"), ("tau", "τ"), ("seconds", "time (s)"))
BIAS_HEAD = {"zero": "b*=0", "original": "b*≠0"}


def table_rows(records, passes, thetas=THETAS, with_paper=True):
    """Rows of a table in the paper's layout: per θ, one row per algorithm, for each bias
    setting the four metrics, each followed by the paper's value (``<metric>_paper``)."""
    ours = _lookup(records)
    dbar = {(r["theta"], r["bias"]): r["D_bar_over_D"] for r in records}
    rows = []
    for theta in thetas:
        for a in ALGORITHMS:
            row = {"theta": theta, "algorithm": LABELS[a]}
            for bias in BIASES:
                mine = ours(a, theta, bias, passes)
                theirs = paper.paper_cell(passes, theta, bias, a) if with_paper else None
                for i, (key, _) in enumerate(METRICS):
                    row[f"{bias}_{key}"] = None if mine is None else mine[i]
                    row[f"{bias}_{key}_paper"] = None if theirs is None else theirs[i]
                row[f"{bias}_D_bar_over_D"] = dbar.get((theta, bias))
                pd = paper.D_BAR_OVER_D.get(theta)
                row[f"{bias}_D_bar_over_D_paper"] = None if pd is None or not with_paper \
                    else pd[paper.BIAS_INDEX[bias]]
            rows.append(row)
    return rows


def csv_columns():
    cols = ["theta", "algorithm"]
    for bias in BIASES:
        cols += [f"{bias}_D_bar_over_D", f"{bias}_D_bar_over_D_paper"]
        for key, _ in METRICS:
            cols += [f"{bias}_{key}", f"{bias}_{key}_paper"]
    return cols


def markdown(rows, title, b_star, b_star_paper=paper.B_STAR):
    """The paper's layout: a block per θ (with D̄/D), columns m, γ̄, τ, time for b* = 0 and
    b* ≠ 0, each followed by the paper's value, labelled "[paper]"."""
    columns, headers = ["algorithm"], ["algorithm"]
    for bias in BIASES:
        for key, head in METRICS:
            columns += [f"{bias}_{key}_s", f"{bias}_{key}_paper_s"]
            headers += [f"{BIAS_HEAD[bias]} {head}", f"{BIAS_HEAD[bias]} {head} [paper]"]
    out = [f"## {title}\n",
           f"Left block b* = 0; right block b* ≠ 0 (ours b* = {b_star:.4f}; the paper's "
           f"{b_star_paper}). Columns marked [paper] are the paper's published numbers "
           "(Ho-Nguyen et al. 2025), everything else comes from this run. — : γ̄ not "
           "positive / τ never reached.\n"]
    for theta in sorted({r["theta"] for r in rows}):
        block = [dict(r) for r in rows if r["theta"] == theta]
        for r in block:
            for bias in BIASES:
                for key, _ in METRICS:
                    r[f"{bias}_{key}_s"] = _fmt(r[f"{bias}_{key}"], key)
                    r[f"{bias}_{key}_paper_s"] = _fmt(r[f"{bias}_{key}_paper"], key, True)
        d = {b: block[0][f"{b}_D_bar_over_D"] for b in BIASES}
        dp = {b: block[0][f"{b}_D_bar_over_D_paper"] for b in BIASES}
        heads = "; ".join(f"{BIAS_HEAD[b]}: {_fmt(d[b], 'ratio')} [paper "
                          f"{_fmt(dp[b], 'ratio')}]" for b in BIASES)
        out.append(f"### θ = {theta:g} — D̄/D {heads}\n")
        out.append(markdown_table(block, columns, headers))
    return "\n".join(out)


def write_tables(records, out_dir, passes_permuted, b_star):
    """Tables 2, 3, 4 as markdown and CSV; returns their paths."""
    files = {}
    specs = [("table_2", 1, (0.0,), "Table 2: θ = 0, one pass"),
             ("table_3", 1, THETAS, "Table 3: all variants, one pass"),
             ("table_4", passes_permuted, THETAS,
              f"Table 4: all variants, {passes_permuted} passes (pass 1 in data order, later "
              "passes permuted; n-OMM one pass)")]
    thetas_present = sorted({r["theta"] for r in records})
    for name, passes, thetas, title in specs:
        if passes <= 1 and name == "table_4":
            continue
        thetas = [t for t in thetas if t in thetas_present]
        rows = table_rows(records, passes, thetas, with_paper=passes in (1, 5))
        md = Path(out_dir) / f"{name}.md"
        write_text(md, markdown(rows, title, b_star))
        write_csv(Path(out_dir) / f"{name}.csv", rows, csv_columns())
        files[name] = str(md)
        files[name + "_csv"] = str(Path(out_dir) / f"{name}.csv")
    return files


# ----------------------------------------------------------------------------- figure 1

COLORS = {"n-omm": "#1b9e77", "ce-omm": "#66a61e", "e-omm": "#d95f02", "romma": "#7570b3",
          "a-romma": "#e7298a", "pumma": "#e6ab02", "perceptron": "#a6761d", "alma2": "#666666"}


def plot_figure_1(records, path, passes=1):
    """Figure 1: m, γ̄ and τ against θ, solid lines b* = 0, dashed b* ≠ 0."""
    cell = _lookup(records)
    thetas = sorted({r["theta"] for r in records})
    panels = []
    for i, (key, label, log) in enumerate((("m", "mistakes m", True),
                                           ("margin", "final margin γ̄", False),
                                           ("tau", "τ (steps to positive margin)", True))):
        series = []
        for a in ALGORITHMS:
            for bias, ls in (("zero", "-"), ("original", "--")):
                ys = []
                for t in thetas:
                    c = cell(a, t, bias, passes)
                    ys.append(None if c is None else c[i])
                series.append({"x": thetas, "y": ys, "label": f"{LABELS[a]} ({BIAS_HEAD[bias]})",
                               "style": {"color": COLORS[a], "linestyle": ls}})
        panels.append({"title": label, "ylabel": label, "log": log, "series": series})
    return plot_panels(panels, path, xlabel="θ", title=(
        f"OMM paper Fig. 1 reproduced: {passes} pass{'es' if passes > 1 else ''}; "
        "solid b* = 0, dashed b* ≠ 0 (missing point: —)"))

