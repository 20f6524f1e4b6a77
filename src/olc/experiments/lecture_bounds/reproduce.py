"""``olc reproduce lecture-bounds``: the mistake bounds of Kitani's lecture notes (Perceptron
Theorem 1, Winnow Eq. 42, Weighted Majority Eq. 1, Randomized WM Eq. 2) against the mistakes
measured on generated sequences, and one adversarial sequence on which Theorem 1 is tight;
runs through the engine's runner and store, then the table, figure, ``results.json`` and
``summary.md``."""
from __future__ import annotations

from pathlib import Path

from ..._atomic import check_out_dir, write_text
from ...report import markdown_table, write_csv, write_json
from ..engine import RunStore, execute
from ..engine.runner import check_n_jobs, check_scheduler
from ..engine.report import summary_markdown, verdict
from . import runs as R
from .report import CLAIMS, COLUMNS, plot, table_rows

TITLE = "Kitani's lecture notes on online linear classification: mistake bounds"
#: Below this many rows the expert sequences cannot hold the best expert's 10 % of mistakes
#: as a whole number worth testing, nor the disjunctions both classes.
MIN_ROWS = 50


def parse_bounds(text):
    names = [b.strip() for b in str(text).split(",") if b.strip()]
    unknown = [b for b in names if b not in R.BOUNDS]
    if unknown or not names:
        raise ValueError(f"--bounds: unknown bound(s) {unknown or [text]}; choose from "
                         f"{', '.join(R.BOUNDS)}")
    return tuple(b for b in R.BOUNDS if b in names)


def check_settings(seed, rows, rwm_seeds):
    for name, value, low in (("--seed", seed, 0), ("--rows", rows, MIN_ROWS),
                             ("--rwm-seeds", rwm_seeds, 2)):
        if isinstance(value, bool) or int(value) != value or value < low:
            raise ValueError(f"{name} must be an integer ≥ {low}, got {value!r}")


def reproduce(out_dir, bounds=R.BOUNDS, seed=0, rows=R.ROWS, rwm_seeds=R.RWM_SEEDS,
              max_margin=True, n_jobs=1, scheduler=None, force=False, progress=None):
    bounds = parse_bounds(bounds if isinstance(bounds, str) else ",".join(bounds))
    check_settings(seed, rows, rwm_seeds)
    check_n_jobs(n_jobs)
    check_scheduler(scheduler)
    check_out_dir(out_dir)
    out = Path(out_dir)
    planned = R.runs(bounds, int(seed), int(rows), int(rwm_seeds), max_margin)
    out.mkdir(parents=True, exist_ok=True)
    done = execute(planned, RunStore(out / "runs"), n_jobs=n_jobs, scheduler=scheduler,
                   force=force, progress=progress, label="lecture-bounds runs")
    records = {}
    for run, value in zip(planned, done.values):
        job = run.key["job"]
        families = [b for b in ("weighted-majority", "randomized-weighted-majority")
                    if b in bounds] if job == "experts" else [job]
        for family in families:
            records.setdefault(family, []).append(value)
    rows_ = table_rows(records)
    keys = [k for k, _ in COLUMNS if any(r.get(k) is not None for r in rows_)]
    heads = [h for k, h in COLUMNS if k in keys]
    md = out / "bounds.md"
    write_text(md, f"## {TITLE}\n\nAll mistakes measured in this run; each bound computed "
               "from quantities measured on the same sequence (R, γ, m, k, N). Perceptron and "
               "Winnow: every mistake until a pass without one. Randomized WM: the exact "
               "expectation (from the weights), the learner's own draws averaged beside it.\n\n"
               + markdown_table(rows_, keys, heads))
    write_csv(out / "bounds.csv", rows_, keys)
    files = {"table": str(md), "csv": str(out / "bounds.csv"),
             "figure": [str(p) for p in plot(rows_, out)]}
    header = [f"Seed {seed}; sequences of T = {rows} rows (adversarial: T = d); "
              f"{rwm_seeds} seeds for RWM's sampled mistakes; Perceptron with "
              f"{'the generator’s w* and the largest margin γ*' if max_margin else 'the generator’s w*'}.",
              ""]
    write_text(out / "summary.md", summary_markdown(TITLE, rows_, CLAIMS, header))
    files["summary"] = str(out / "summary.md")
    files["json"] = str(out / "results.json")
    claims = []
    for c in CLAIMS:
        try:
            ok, evidence = c.test(rows_)
        except LookupError as exc:
            ok, evidence = None, str(exc)
        claims.append({"text": c.text, "source": c.source, "verdict": verdict(ok),
                       "supported": ok, "evidence": evidence})
    report = {"reproduction": "lecture-bounds", "source": "Kitani's lecture notes (bounds)",
              "settings": {"bounds": list(bounds), "seed": seed, "rows": rows,
                           "rwm_seeds": rwm_seeds, "max_margin": max_margin},
              "records": records, "table": rows_, "claims": claims, "files": files}
    write_json(out / "results.json", report)
    return dict(report, reused=done.reused, computed=done.computed)
