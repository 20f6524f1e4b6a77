"""The ``olc reproduce obpm`` command (light: imports the paper's code when run)."""
from pathlib import Path
from typing import Optional

import typer


def command(
    out_dir: Path = typer.Option(Path("obpm-out"), "--out",
                                 help="Folder for tables, figures, results.json, summary.md, "
                                      "streams/ and the per-run store (runs/)."),
    parts: str = typer.Option("all", "--parts",
                              help="Comma-separated: table-1 (with Figure 1), figure-2, "
                                   "figure-3, table-2 (with the SVM line), or all."),
    trials: int = typer.Option(30, "--trials",
                               help="Monte Carlo runs (Table 1) and permutations (Table 2); "
                                    "the paper: 30."),
    drift_trials: int = typer.Option(10, "--drift-trials",
                                     help="Trials of the MNIST drift (Figure 2); the paper: 10."),
    limit: Optional[int] = typer.Option(None, "--limit",
                                        help="Only N rows of each Adult/Web file, evenly "
                                             "spaced (quick runs; §4.1 and MNIST keep "
                                             "their sizes)."),
    web_trials: int = typer.Option(10, "--web-trials",
                                   help="Trials of Figure 3's random-order Web stream (the "
                                        "file-order stream is one sequence)."),
    test_size: int = typer.Option(10_000, "--test-size",
                                  help="Test examples per Monte Carlo run of §4.1."),
    n_jobs: int = typer.Option(2, "--n-jobs", help="Runs in parallel (joblib; -1: all cores)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler",
                                            help="Run on this Dask cluster (tcp://host:8786)."),
    force: bool = typer.Option(False, "--force", help="Recompute runs stored in --out."),
):
    """Harrington et al. 2003 (Online Bayes Point Machines) §4: Tables 1–2, Figures 1–3 and
    the claims summary."""
    from ..engine.cli_support import interruptible
    from .reproduce import run

    with interruptible():
        report = run(out_dir, parts=parts, trials=trials, drift_trials=drift_trials,
                     limit=limit, test_size=test_size, n_jobs=n_jobs, scheduler=scheduler,
                     force=force, web_trials=web_trials)
    t = report["timing"]
    typer.echo(f"runs: {report['reused'] + report['computed']} ({report['reused']} reused "
               f"from the store, {report['computed']} computed) in {t['run_seconds']:.1f} s; "
               f"total {t['total_seconds']:.1f} s")
    for key in ("summary", "table_1", "table_2", "figure_1_png", "figure_2_png",
                "figure_3_png", "figure_3_permuted_png", "timing", "json"):
        if key in report["files"]:
            typer.echo(f"{key:21s} {report['files'][key]}")
