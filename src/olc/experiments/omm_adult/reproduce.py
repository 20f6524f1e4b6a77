"""``olc reproduce omm-adult``: the OMM paper's §6 / App. B on the engine — its runs
(:mod:`.spec`) through the engine's runner and run store, then its tables, Figure 1,
``results.json`` and ``summary.md``."""
from __future__ import annotations

from pathlib import Path

from ..._atomic import write_text
from ...data.omm_translations import THETAS, make_variants
from ...report import write_json
from ..engine import RunStore, execute
from ..engine.experiment import check_out_dir
from .claims import summary_markdown
from .geometry import load_adult
from .spec import PASSES_PERMUTED, PHI, PUMMA_DELTA, SEED, _job_verify, runs
from .tables import plot_figure_1, write_tables


def execute_runs(problem, variants, out_dir, n_jobs=1, force=False,
                 passes_permuted=PASSES_PERMUTED, seed=SEED, progress=None,
                 bias_terms="paper", scheduler=None):
    """Run (or reuse from ``out_dir/runs``) every verification and run; returns
    (verifications, records, execution)."""
    planned = runs(problem, variants, passes_permuted, seed, bias_terms)
    done = execute(planned, RunStore(Path(out_dir) / "runs"), n_jobs=n_jobs,
                   scheduler=scheduler, force=force, progress=progress,
                   label="omm-adult runs")
    verifications, records = [], []
    for run, value in zip(planned, done.values):
        if run.fn is _job_verify:
            verifications.append(value)
        else:
            records.extend(value)
    return verifications, records, done


def reproduce(problem, out_dir, n_jobs=1, force=False, passes_permuted=PASSES_PERMUTED,
              thetas=THETAS, seed=SEED, progress=None, bias_terms="paper", scheduler=None):
    """Everything of §6/App. B for ``problem``: verifications, runs (stored per run in
    ``out_dir/runs``), tables, Figure 1, ``results.json`` and ``summary.md``. Returns the
    report dict (also written as ``results.json``), plus ``reused``/``computed``."""
    check_out_dir(out_dir)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    variants = make_variants(problem, thetas)
    verifications, records, done = execute_runs(problem, variants, out_dir, n_jobs, force,
                                                passes_permuted, seed, progress, bias_terms,
                                                scheduler)
    failed = [v for v in verifications if not v["ok"]]
    files = write_tables(records, out_dir, passes_permuted, problem.original.intercept)
    files["figure_1"] = str(plot_figure_1(records, out_dir / "figure_1.png"))
    summary = summary_markdown(problem, verifications, records, passes_permuted, thetas)
    write_text(out_dir / "summary.md", summary)
    files["summary"] = str(out_dir / "summary.md")
    files["json"] = str(out_dir / "results.json")
    report = {"paper": "Ho-Nguyen et al. 2025 (OMM paper), §6 and App. B",
              "source": problem.source,
              "geometry": {"original": problem.original.scalars(),
                           "normalized": problem.normalized.scalars()},
              "settings": {"passes_permuted": passes_permuted, "seed": seed,
                           "bias_terms": bias_terms,
                           "thetas": list(thetas), "phi": PHI, "pumma_delta": PUMMA_DELTA},
              "variants": verifications, "records": records, "files": files}
    write_json(out_dir / "results.json", report)
    if failed:
        raise RuntimeError("App. B.2 verification failed for "
                           + ", ".join(f"θ={v['theta']:g} {v['bias']}" for v in failed)
                           + f" (see {out_dir / 'results.json'})")
    return dict(report, reused=done.reused, computed=done.computed)


def run(out_dir, n_jobs=1, force=False, passes_permuted=PASSES_PERMUTED, limit=None,
        cache_dir=None, progress=None, bias_terms="paper", scheduler=None):
    """``olc reproduce omm-adult``: the Adult problem (built and cached on first use), then
    :func:`reproduce`."""
    check_out_dir(out_dir)
    return reproduce(load_adult(limit, cache_dir), out_dir, n_jobs=n_jobs, force=force,
                     passes_permuted=passes_permuted, progress=progress,
                     bias_terms=bias_terms, scheduler=scheduler)
