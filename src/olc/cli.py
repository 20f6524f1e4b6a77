"""The ``olc`` command line: a thin layer over the library (learners, data, evaluate, report)."""
import json
import os
import sys
import textwrap
from pathlib import Path
from typing import List, Optional

import typer

from . import __version__
from .cli_support import (
    OneLineErrors,
    announce_compile,
    announce_early,
    exit_now,
    fail,
    model_target,
    out,
    terminal_width,
    writable_folder,
)
from .learners.registry import UnknownAlgorithmError, algorithms, info

app = typer.Typer(add_completion=False, no_args_is_help=True, cls=OneLineErrors,
                  help="Online linear classification: run and compare online learners.")


def _version(value: bool):
    if value:
        out.print(f"olc {__version__}")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Print the version and exit."),
         debug: bool = typer.Option(False, "--debug",
                                    help="Show the full traceback of an error (also: "
                                         "OLC_DEBUG=1).")):
    pass


@app.command("algorithms")
def algorithms_cmd(
    name: Optional[str] = typer.Argument(None, metavar="[NAME]",
                                         help="Show this learner's card: description, "
                                              "parameters with defaults and constraints, "
                                              "references."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
):
    """List the learners (name, kind, citation), or show one learner's card."""
    if name is not None:
        try:
            info(name)
        except UnknownAlgorithmError as exc:
            fail(exc)
        from .learners.registry.cards import card_data, card_lines

        if as_json:
            typer.echo(json.dumps(card_data(name), default=str, ensure_ascii=False, indent=2))
        else:
            typer.echo("\n".join(card_lines(name, terminal_width())))
        return
    if as_json:
        entries = [{"name": e.name, "class": e.class_name, "kind": e.kind,
                    "summary": e.summary, "citation": e.citation,
                    "references": list(e.references), "parameters": e.parameters,
                    "fixed": dict(e.preset)} for e in algorithms()]
        typer.echo(json.dumps(entries, default=str, ensure_ascii=False, indent=2))
        return
    from .learners.registry.cards import listing_lines

    typer.echo("\n".join(listing_lines()))
    typer.echo("\nolc algorithms NAME: one learner's card (parameters, references).")


@app.command("warmup")
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
):
    """Compile ahead of time (dense and CSR rows) the compiled code of the named learners, or
    of all (--all, one-vs-rest loops and wide averaged models included), into numba's disk
    cache: for images and CI."""
    if bool(names) == all_:
        fail("name the learners to warm up, or pass --all (not both)")
    names = [e.name for e in algorithms()] if all_ else names
    from .warmup import warmup

    try:
        report = warmup(names, n_jobs=n_jobs, multiclass=multiclass or all_,
                        averaged=averaged or all_)
    except UnknownAlgorithmError as exc:
        fail(exc)
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


_DATA_HELP = ("Dataset name (see `olc datasets`, optionally NAME:SPLIT), a path to an "
              "svmlight file, or synthetic[:k=v,...] (the built-in stream).")


@app.command("datasets")
def datasets_cmd():
    """List the named datasets of the data registry."""
    from rich.table import Table

    from .data import datasets as names
    from .data.registry import get_spec

    table = Table(title="olc datasets")
    for col in ("name", "description"):
        table.add_column(col)
    for name in names():
        table.add_row(name, getattr(get_spec(name), "description", ""))
    out.print(table)


@app.command("run")
def run_cmd(
    algorithm: str = typer.Argument(..., help="Algorithm name (see `olc algorithms`)."),
    data: str = typer.Option("synthetic", "--data", help=_DATA_HELP),
    param: List[str] = typer.Option([], "--param", help="Hyper-parameter k=v (repeatable)."),
    passes: int = typer.Option(1, "--passes", min=1, help="Passes over the data."),
    seed: Optional[int] = typer.Option(None, "--seed",
                                       help="Shuffle each pass with this seed (default: "
                                            "data order)."),
    tau: bool = typer.Option(True, "--tau/--no-tau",
                             help="Track τ (first step with positive margin on the data)."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    save_model: Optional[Path] = typer.Option(None, "--save-model",
                                              help="Save the final learner (.npz)."),
    stream: Optional[bool] = typer.Option(
        None, "--stream/--no-stream",
        help="Read an svmlight --data file chunk by chunk: memory bounded by the chunk, one "
             "pass in file order, no τ (default: for files over 256 MB)."),
    chunk_rows: int = typer.Option(10_000, "--chunk-rows", min=1,
                                   help="Lines per chunk when streaming."),
):
    """Run one learner in the online protocol (predict, then learn) and print its metrics."""
    model_target(save_model)
    info(algorithm)
    announce_early([algorithm], data)
    from rich.table import Table

    from .compare import parse_param_assignments, run_one, run_one_streamed
    from .data.sources import describe_source, load_source
    from .report import format_number

    params = parse_param_assignments(param, [algorithm])[algorithm]
    if _streamed(data, stream, passes, seed):
        summary, learner = run_one_streamed(algorithm, params, Path(data), chunk_rows)
        name, n_rows, n_features = Path(data).name, summary["steps"], learner.n_features_in_
    else:
        X, y, name = load_source(data)
        announce_compile([algorithm], X)
        summary, learner, _ = run_one(algorithm, params, X, y, passes=passes, seed=seed,
                                      track_tau=tau)
        summary["data"] = describe_source(name, X, y)
        n_rows, n_features = X.shape
    if save_model is not None:
        from .persistence import save

        summary["model"] = str(save(learner, save_model))
    if as_json:
        out.print_json(json.dumps(summary))
        return
    table = Table(title=f"{algorithm} on {name} ({n_rows} rows × {n_features} features, "
                        f"{passes} pass{'es' if passes > 1 else ''})")
    table.add_column("metric")
    table.add_column("value", justify="right")
    keys = ("mistakes", "error_rate", "updates", "final_margin", "tau", "seconds",
            "compile_seconds")
    if summary.get("kind") == "regressor":  # y taken as real-valued targets
        keys = ("mean_squared_error", "mean_absolute_error", "squared_error",
                "absolute_error", "updates", "seconds", "compile_seconds")
    for key in keys:
        table.add_row(key, format_number(summary.get(key)))
    out.print(table)


STREAM_ABOVE_BYTES = 256 << 20


def _streamed(data, stream, passes, seed):
    """Whether ``olc run`` reads --data chunk by chunk (a file, one pass in order)."""
    path = Path(data)
    if stream is False or not path.is_file():
        if stream:
            fail(f"--stream needs --data to be an svmlight file; {data!r} is not a file")
        return False
    if stream is None and path.stat().st_size <= STREAM_ABOVE_BYTES:
        return False
    if passes != 1 or seed is not None:
        if stream:
            fail("--stream reads the file once, in order: it takes neither --passes nor "
                  "--seed")
        return False  # large but several passes: load it whole
    return True


@app.command("compare")
def compare_cmd(
    algorithms_: List[str] = typer.Argument(None, metavar="[ALGORITHM]...",
                                            help="Learners to compare (default: perceptron, "
                                                 "pa, pa-i, pa-ii, ce-omm, e-omm)."),
    data: str = typer.Option("synthetic", "--data", help=_DATA_HELP),
    param: List[str] = typer.Option([], "--param",
                                    help="k=v for every learner that has k, or ALGO:k=v "
                                         "(repeatable)."),
    passes: int = typer.Option(1, "--passes", min=1),
    seed: Optional[int] = typer.Option(None, "--seed", help="Shuffle each pass with this seed."),
    out_dir: Path = typer.Option(Path("olc-out"), "--out",
                                 help="Folder for results.json and cumulative_error.png."),
    n_jobs: int = typer.Option(1, "--n-jobs", help="Learners run in parallel (joblib)."),
    tau: bool = typer.Option(True, "--tau/--no-tau"),
    as_json: bool = typer.Option(False, "--json", help="Print the results as JSON too."),
):
    """Compare learners on the same stream in the online protocol: table, JSON and figure."""
    names = algorithms_ or ["perceptron", "pa", "pa-i", "pa-ii", "ce-omm", "e-omm"]
    writable_folder(out_dir, "--out")
    for n in names:
        info(n)
    announce_early(names, data)  # first: starting the figure process takes a moment
    from .report.figure_process import FigureProcess

    # matplotlib's import and first text layout, on the other core while the learners run
    with FigureProcess(enabled=os.environ.get("OLC_FIGURE_PROCESS", "1") != "0") as figures:
        from rich.table import Table

        from .compare import compare_learners, parse_param_assignments
        from .data.sources import describe_source, load_source
        from .report import format_number

        params = parse_param_assignments(param, names)
        X, y, source_name = load_source(data)
        announce_compile(names, X)
        report = compare_learners(names, params, X, y, passes=passes, seed=seed,
                                  track_tau=tau, n_jobs=n_jobs, out_dir=out_dir,
                                  source=describe_source(source_name, X, y), figures=figures)
    table = Table(title=f"Online protocol on {source_name}: {X.shape[0]} rows × {X.shape[1]} "
                        f"features, {passes} pass{'es' if passes > 1 else ''}")
    columns = [("algorithm", "algorithm"), ("mistakes", "mistakes"), ("error rate", "error_rate"),
               ("updates", "updates"), ("final margin γ̄", "final_margin"), ("τ", "tau"),
               ("time (s)", "seconds")]
    if any(row.get("kind") == "regressor" for row in report["results"]):
        columns[-1:-1] = [("MSE", "mean_squared_error"), ("MAE", "mean_absolute_error")]
    for header, _ in columns:
        table.add_column(header, justify="left" if header == "algorithm" else "right")
    for row in report["results"]:
        table.add_row(*(format_number(row.get(key)) for _, key in columns))
    out.print(table)
    out.print(f"results: {report['files']['json']}\nfigure:  {report['files']['figure']}")
    if as_json:
        out.print_json(json.dumps(report, default=str))


reproduce_app = typer.Typer(no_args_is_help=True,
                            help="Reproduce the experiments of a paper (tables, figures, JSON).")
app.add_typer(reproduce_app, name="reproduce")


def _register_reproductions():
    """``olc reproduce NAME`` for every entry of olc.experiments.registry (each command
    lives in a light module of its paper)."""
    from .experiments.registry import REPRODUCTIONS, command

    for name in REPRODUCTIONS:
        reproduce_app.command(name)(command(name))


_register_reproductions()


@reproduce_app.command("omm-example-5-1")
def reproduce_omm_example_cmd(
    c: List[float] = typer.Option([], "--c", help="Values of c > 2 (repeatable; default "
                                                  "3 5 10 20 50 100)."),
    out_dir: Path = typer.Option(Path("omm-example-5-1-out"), "--out",
                                 help="Folder for the table, figure and results.json."),
):
    """Example 5.1 of the OMM paper (Ho-Nguyen et al. 2025): the perceptron's mistakes grow
    as c², e-OMM's stay ≤ 2."""
    from .experiments.omm_adult import example_5_1 as omm_example_5_1

    writable_folder(out_dir, "--out")
    report = omm_example_5_1.run(c or None, out_dir)
    typer.echo(Path(report["files"]["table"]).read_text())
    out.print(f"figure {report['files']['figure']}\njson   {report['files']['json']}")


def _register_experiment():
    """``olc experiment SPEC``: its options are the ones every experiment command shares
    (olc.experiments.engine.cli_support)."""
    from .experiments.engine.cli_support import spec_file_command

    app.command("experiment")(spec_file_command())


_register_experiment()


def run():  # pragma: no cover - console entry point (`olc`, `python -m olc`)
    """Run the command, then end the process without the interpreter's teardown.

    A command that touched numba and matplotlib leaves millions of objects; Python's
    finalization (a full garbage collection, then every module's objects freed one by one)
    took ~0.45 s of a 2.5 s ``olc compare`` (measured: `benchmarks/startup.py`). Everything
    a command writes is closed and renamed before it returns (``olc._util.atomic``), so nothing
    needs that teardown: :func:`olc.cli_support.exit_now` does what finalization must (joins
    threads, runs the ``atexit`` handlers, flushes standard output and error) and ends the
    process."""
    try:
        app(prog_name="olc")
        code = 0
    except SystemExit as exc:
        code = exc.code
    exit_now(code)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run())
