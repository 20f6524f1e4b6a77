"""The ``olc reproduce lecture-bounds`` command (light: imports the code when run)."""
from pathlib import Path
from typing import Optional

import typer


def command(
    out_dir: Path = typer.Option(Path("lecture-bounds-out"), "--out",
                                 help="Folder for the table, figure, results.json, summary.md "
                                      "and the per-run store (runs/)."),
    bounds: str = typer.Option("perceptron,winnow,weighted-majority,"
                               "randomized-weighted-majority,adversarial", "--bounds",
                               help="Comma-separated: perceptron, winnow, weighted-majority, "
                                    "randomized-weighted-majority, adversarial."),
    seed: int = typer.Option(0, "--seed", min=0, help="Seed of the generated sequences."),
    rows: int = typer.Option(2000, "--rows", min=50, help="Length T of each sequence."),
    rwm_seeds: int = typer.Option(100, "--rwm-seeds", min=2,
                                  help="Seeds of Randomized WM's own draws (a check beside "
                                       "the exact expectation)."),
    max_margin: bool = typer.Option(True, "--max-margin/--no-max-margin",
                                    help="Also compute the largest margin γ* of each "
                                         "Perceptron sequence (the tightest Theorem 1 bound)."),
    n_jobs: int = typer.Option(1, "--n-jobs", help="Runs in parallel (joblib; -1: all cores)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler",
                                            help="Run on this Dask cluster (tcp://host:8786)."),
    force: bool = typer.Option(False, "--force", help="Recompute runs stored in --out."),
):
    """Kitani's lecture notes: Perceptron, Winnow, (Randomized) Weighted Majority bounds vs measured mistakes, and a sequence meeting the Perceptron's."""
    from ..engine.cli_support import interruptible
    from .reproduce import reproduce

    with interruptible():
        report = reproduce(out_dir, bounds=bounds, seed=seed, rows=rows, rwm_seeds=rwm_seeds,
                           max_margin=max_margin, n_jobs=n_jobs, scheduler=scheduler,
                           force=force)
    typer.echo(f"runs: {report['reused'] + report['computed']} ({report['reused']} reused "
               f"from the store, {report['computed']} computed)")
    for c in report["claims"]:
        typer.echo(f"[{c['verdict']}] {c['text']}")
    for key, path in report["files"].items():
        typer.echo(f"{key:8s} {path if isinstance(path, str) else ', '.join(path)}")
