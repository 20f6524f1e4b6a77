"""The ``olc reproduce shen-dietterich`` command (light: imports the paper's code when run)."""
from pathlib import Path
from typing import List, Optional

import typer

GRID_KEYS = ("alpha", "l2_beta", "l1_beta", "norma_eta", "norma_lam", "l2_sigma_rel",
             "l1_sigma_rel", "ig_k", "game_k")


def parse_grids(items):
    """``KEY=v1,v2,...`` options → {key: tuple}; a clear error naming the bad item."""
    grids = {}
    for item in items or ():
        key, sep, values = item.partition("=")
        if not sep or key not in GRID_KEYS:
            raise ValueError(f"--grid {item!r}: expected KEY=V1,V2,... with KEY one of "
                             f"{', '.join(GRID_KEYS)}")
        try:
            parsed = tuple((int if key.endswith("_k") else float)(v) for v in values.split(","))
        except ValueError:
            raise ValueError(f"--grid {item!r}: values must be "
                             f"{'integers' if key.endswith('_k') else 'numbers'}") from None
        if key.endswith("_k") and min(parsed) < 1:
            raise ValueError(f"--grid {item!r}: k must be ≥ 1")
        if key.endswith("sigma_rel") and min(parsed) < 0:
            raise ValueError(f"--grid {item!r}: sigma_rel must be ≥ 0")
        grids[key] = parsed
    return grids


def command(
    out_dir: Path = typer.Option(Path("shen-dietterich-out"), "--out",
                                 help="Folder for tables, figures, results.json, summary.md, "
                                      "streams/ and the per-run store (runs/)."),
    trials: int = typer.Option(40, "--trials", min=1, help="Trials (seeded drift streams)."),
    datasets: str = typer.Option("usps,20newsgroups,sraa", "--datasets",
                                 help="Comma-separated: usps, 20newsgroups, sraa (SRAA is "
                                      "skipped, with the reason, when its archive is absent)."),
    grid: Optional[List[str]] = typer.Option(None, "--grid",
                                             help="Override a grid: KEY=V1,V2,... (keys: "
                                                  + ", ".join(GRID_KEYS) + ")."),
    n_jobs: int = typer.Option(2, "--n-jobs", help="Runs in parallel (joblib; -1: all cores)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler",
                                            help="Run on this Dask cluster (tcp://host:8786)."),
    force: bool = typer.Option(False, "--force", help="Recompute runs stored in --out."),
):
    """Shen & Dietterich (2009) §4: drifting USPS / 20 Newsgroups (/ SRAA) streams, Figures
    1–3 and the claims summary."""
    from .run import run

    run(out_dir, trials=trials, datasets=datasets, grids=parse_grids(grid), n_jobs=n_jobs,
        scheduler=scheduler, force=force, echo=typer.echo)
