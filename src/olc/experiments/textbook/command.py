"""The ``olc reproduce textbook`` command (light: imports the chapter's code when run)."""
from pathlib import Path
from typing import Optional

import typer


def command(
    out_dir: Path = typer.Option(Path("textbook-out"), "--out",
                                 help="Folder for the figures, tables, results.json, summary.md "
                                      "and the per-run store (runs/)."),
    figures: str = typer.Option("31.4,31.5,31.8,31.9", "--figures",
                                help="Comma-separated: 31.4, 31.5, 31.8, 31.9."),
    seed: int = typer.Option(0, "--seed", min=0, help="The figures' seed (data and θ₀)."),
    replications: int = typer.Option(100, "--replications", min=0,
                                     help="Seeds over which the chapter's claims are measured "
                                          "(0: the figures' runs only)."),
    passes: int = typer.Option(100, "--passes", min=1,
                               help="Passes of AROW regression (Fig. 31.9: 100)."),
    n_jobs: int = typer.Option(1, "--n-jobs", help="Runs in parallel (joblib; -1: all cores)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler",
                                            help="Run on this Dask cluster (tcp://host:8786)."),
    force: bool = typer.Option(False, "--force", help="Recompute runs stored in --out."),
):
    """The textbook chapter on online learning (ch. 31): Figs. 31.4, 31.5, 31.8, 31.9 from its codes' data processes, and its claims tested."""
    from ..engine.cli_support import interruptible
    from .reproduce import reproduce

    with interruptible():
        report = reproduce(out_dir, figures=figures, seed=seed, replications=replications,
                           passes=passes, n_jobs=n_jobs, scheduler=scheduler, force=force)
    typer.echo(f"runs: {report['reused'] + report['computed']} ({report['reused']} reused "
               f"from the store, {report['computed']} computed)")
    for c in report["claims"]:
        typer.echo(f"[{c['verdict']}] {c['text']}")
    for key, path in report["files"].items():
        typer.echo(f"{key:14s} {path if isinstance(path, str) else ', '.join(path)}")
