"""The ``olc reproduce omm-adult`` command (light: imports the paper's code when run)."""
from pathlib import Path
from typing import Optional

import typer


def command(
    out_dir: Path = typer.Option(Path("omm-adult-out"), "--out",
                                 help="Folder for tables, figure, results.json, summary.md "
                                      "and the per-run store (runs/)."),
    n_jobs: int = typer.Option(1, "--n-jobs", help="Runs in parallel (joblib; -1: all cores)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler",
                                            help="Run on this Dask cluster "
                                                 "(tcp://host:8786) instead."),
    force: bool = typer.Option(False, "--force", help="Recompute runs stored in --out."),
    passes_permuted: int = typer.Option(5, "--passes-permuted", min=1,
                                        help="Passes of the multi-pass runs (Table 4); pass 1 "
                                             "in data order, later passes permuted."),
    limit: Optional[int] = typer.Option(None, "--limit", min=10,
                                        help="Only the first N points (quick runs)."),
    cache_dir: Optional[Path] = typer.Option(None, "--cache-dir",
                                             help="Where the built data set and its max-margin "
                                                  "solution are cached (default: olc's "
                                                  "derived-data cache)."),
    bias_terms: str = typer.Option("paper", "--bias-terms",
                                   help="paper: ROMMA, a-ROMMA, Perceptron, ALMA get their "
                                        "bias coordinate only when b* ≠ 0 (as the paper); "
                                        "always: on every variant."),
):
    """The OMM paper (Ho-Nguyen et al. 2025) §6 / App. B on the Adult data: Tables 2–4, Figure 1, summary."""
    from ..engine.cli_support import interruptible
    from .reproduce import run

    with interruptible():
        report = run(out_dir, n_jobs=n_jobs, force=force, passes_permuted=passes_permuted,
                     limit=limit, cache_dir=cache_dir, bias_terms=bias_terms,
                     scheduler=scheduler)
    g = report["geometry"]["original"]
    typer.echo(f"{report['source']['n']} points × {report['source']['d']} features; "
               f"γ = {g['gamma']:.6g}, b* = {g['b_star']:.4f}, D = {g['D']:.4f}, "
               f"D̄ = {g['D_bar']:.4f}, r = D/γ = {g['r']:.6g}")
    typer.echo(f"runs: {report['reused'] + report['computed']} ({report['reused']} reused "
               f"from the store, {report['computed']} computed)")
    for key in ("summary", "table_2", "table_3", "table_4", "figure_1", "json"):
        if key in report["files"]:
            typer.echo(f"{key:9s} {report['files'][key]}")
