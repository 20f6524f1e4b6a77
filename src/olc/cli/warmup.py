"""``olc warmup``: compile learners' families ahead of time (:func:`olc.warmup.warmup`)."""
import json
import textwrap
from typing import List

import typer

from ..learners.registry import UnknownAlgorithmError, algorithms
from .support import fail, terminal_width


def warmup_cmd(
    names: List[str] = typer.Argument(None, metavar="[NAME]...",
                                      help="Learners whose compiled families to compile."),
    all_: bool = typer.Option(False, "--all", help="Every learner of the catalogue."),
    as_json: bool = typer.Option(False, "--json",
                                 help="Print one JSON record per family instead."),
    n_jobs: int = typer.Option(1, "--n-jobs", min=1,
                               help="Compile families in this many processes at once."),
    multiclass: bool = typer.Option(False, "--multiclass",
                                    help="Also the one-vs-rest loops (K ≥ 3 classes); "
                                         "implied by --all."),
    averaged: bool = typer.Option(False, "--averaged",
                                  help="Also wide averaged models (average=True, "
                                       "feature-major states); implied by --all."),
    readers: bool = typer.Option(False, "--readers",
                                 help="Also the data-file readers (svmlight, Vowpal Wabbit); "
                                      "implied by --all."),
):
    """Compile ahead of time (dense and CSR rows) the compiled code of the named learners, or
    of all (--all, one-vs-rest loops and wide averaged models included), into numba's disk
    cache: for images and CI."""
    if bool(names) == all_ and not (readers and not names):
        fail("name the learners to warm up, or pass --all (not both)")
    names = [e.name for e in algorithms()] if all_ else names
    from ..warmup import warm_readers, warmup

    try:
        report = warmup(names, n_jobs=n_jobs, multiclass=multiclass or all_,
                        averaged=averaged or all_) if names else []
    except UnknownAlgorithmError as exc:
        fail(exc)
    if readers or all_:
        report.append(warm_readers())
    if as_json:
        typer.echo(json.dumps([{"family": r.family, "learners": r.learners,
                                "compile_seconds": round(r.compile_seconds, 2),
                                "seconds": round(r.seconds, 2)} for r in report], indent=1))
        return
    total = wall = 0.0
    for row in report:
        total += row.compile_seconds
        wall += row.seconds
        state = (f"compiled in {row.compile_seconds:5.1f} s" if row.compile_seconds > 0
                 else "already compiled (disk cache)")
        typer.echo(textwrap.fill(f"{row.family:<13} {state}  ({', '.join(row.learners)})",
                                 max(terminal_width(), 60), subsequent_indent=" " * 14,
                                 break_on_hyphens=False))
    typer.echo(f"total         compiled in {total:5.1f} s  ({wall:.1f} s with the warm-up runs)")
