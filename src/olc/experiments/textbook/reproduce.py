"""``olc reproduce textbook``: Figs. 31.4, 31.5, 31.8 and 31.9 of the textbook chapter
regenerated from its codes' data processes (:mod:`.data`) with catalogue learners
(:mod:`.runs`), through the engine's runner and run store; then the figures, the tables,
``results.json`` and ``summary.md`` (the chapter's claims tested on the records)."""
from __future__ import annotations

from pathlib import Path

from ..._atomic import check_out_dir, write_text
from ...report import markdown_table, write_csv, write_json
from ..engine import RunStore, execute
from ..engine.runner import check_n_jobs, check_scheduler
from ..engine.report import summary_markdown, verdict
from . import runs as R
from .claims import (CLAIMS, FIGURE_COLUMNS, REPLICATION_COLUMNS, figure_rows, notes,
                     replication_rows)
from .figures import FIGURE_FUNCTIONS

TITLE = "Textbook ch. 31 (online learning): Figs. 31.4, 31.5, 31.8, 31.9"


def parse_figures(text):
    """``"31.4,31.8"`` → ("31.4", "31.8"); unknown or no figures are a one-line error."""
    names = [f.strip().removeprefix("Fig.").removeprefix("fig").strip()
             for f in str(text).split(",") if f.strip()]
    unknown = [f for f in names if f not in R.FIGURES]
    if unknown or not names:
        raise ValueError(f"--figures: unknown figure(s) {unknown or [text]}; choose from "
                         f"{', '.join(R.FIGURES)}")
    return tuple(f for f in R.FIGURES if f in names)


def check_settings(seed, replications, passes):
    for name, value, low in (("--seed", seed, 0), ("--replications", replications, 0),
                             ("--passes", passes, 1)):
        if isinstance(value, bool) or int(value) != value or value < low:
            raise ValueError(f"{name} must be an integer ≥ {low}, got {value!r}")


def _table(rows, columns, out_dir, stem, title):
    keys = [k for k, _ in columns if any(r.get(k) is not None for r in rows)]
    heads = [h for k, h in columns if k in keys]
    md = Path(out_dir) / f"{stem}.md"
    write_text(md, f"## {title}\n\nAll numbers from this run.\n\n"
               + markdown_table(rows, keys, heads))
    write_csv(Path(out_dir) / f"{stem}.csv", rows, keys)
    return str(md)


def reproduce(out_dir, figures=R.FIGURES, seed=0, replications=R.REPLICATIONS,
              passes=R.PASSES_31_9, n_jobs=1, scheduler=None, force=False, progress=None):
    """Everything, written into ``out_dir``; returns the report (also ``results.json``),
    with ``reused``/``computed`` run counts."""
    figures = parse_figures(",".join(figures)) if not isinstance(figures, str) else \
        parse_figures(figures)
    check_settings(seed, replications, passes)
    check_n_jobs(n_jobs)
    check_scheduler(scheduler)
    check_out_dir(out_dir)
    out = Path(out_dir)
    planned = R.runs(figures, int(seed), int(replications), passes=int(passes))
    out.mkdir(parents=True, exist_ok=True)
    done = execute(planned, RunStore(out / "runs"), n_jobs=n_jobs, scheduler=scheduler,
                   force=force, progress=progress, label="textbook runs")
    results = {f: {"record": None, "replications": []} for f in figures}
    for run, value in zip(planned, done.values):
        results[run.key["figure"]]["record" if run.key["job"] == "figure"
                                   else "replications"] = value
    files = {}
    for f in figures:
        paths = FIGURE_FUNCTIONS[f](results[f]["record"], out)
        files[f"figure_{f}"] = [str(p) for p in paths]
    files["table"] = _table(figure_rows(results), FIGURE_COLUMNS, out, "figures_table",
                            f"The figures' runs (seed {seed})")
    if replications:
        files["replications"] = _table(
            replication_rows(results), REPLICATION_COLUMNS, out, "replications",
            f"Each figure's measures over {replications} seeds (mean, Student-t 95 % CI)")
    header = [f"Seed {seed}; {replications} replication seeds; λ = {R.LAMBDA}; Gaussian basis "
              f"σ = {R.WIDTH}; Fig. 31.9: {passes} passes. The points are drawn from the "
              "chapter's data processes with NumPy (not MATLAB's random streams), so they are "
              "not the book's own points.", "", "## What the figures show", "",
              *notes(results), ""]
    summary = summary_markdown(TITLE, results, CLAIMS, header)
    write_text(out / "summary.md", summary)
    files["summary"] = str(out / "summary.md")
    files["json"] = str(out / "results.json")
    claims = []
    for c in CLAIMS:
        try:
            ok, evidence = c.test(results)
        except LookupError as exc:
            ok, evidence = None, str(exc)
        claims.append({"text": c.text, "source": c.source, "verdict": verdict(ok),
                       "supported": ok, "evidence": evidence})
    report = {"reproduction": "textbook", "source": "textbook ch. 31, Figs. 31.3–31.9",
              "settings": {"figures": list(figures), "seed": seed,
                           "replications": replications, "lam": R.LAMBDA, "width": R.WIDTH,
                           "passes_31_9": passes},
              "figures": results, "claims": claims, "files": files}
    write_json(out / "results.json", report)
    return dict(report, reused=done.reused, computed=done.computed)
