"""The ``olc`` command line: a thin layer over the library (learners, data, evaluate, report).

Start-up is kept short: this module imports only typer and olc's catalogue; each command
imports what it needs (``olc --help`` and ``olc algorithms`` import neither scikit-learn nor
numba)."""
import json
import shutil
import sys
import textwrap
from pathlib import Path
from typing import List, Optional

import typer

from . import __version__
from .learners.registry import UnknownAlgorithmError, algorithms, info

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Online linear classification: run and compare online learners.")


def _out():
    from rich.console import Console

    return Console()


def _fail(message):
    """One line on stderr, exit status 2."""
    typer.secho(f"error: {message}", err=True, fg="red")
    raise typer.Exit(2)


def _width():
    return shutil.get_terminal_size((80, 24)).columns


def _announce_compile(names, X):
    """Say at once which compiled families this command will build (first use only)."""
    import scipy.sparse as sp

    from ._compiled import families

    families.announce([families.family_of_learner_module(info(n).module) for n in names],
                      sparse=sp.issparse(X))


def _version(value: bool):
    if value:
        typer.echo(f"olc {__version__}")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Print the version and exit.")):
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
            _fail(exc)
        from .learners.cards import card_data, card_lines

        if as_json:
            typer.echo(json.dumps(card_data(name), default=str, ensure_ascii=False, indent=2))
        else:
            typer.echo("\n".join(card_lines(name, _width())))
        return
    if as_json:
        entries = [{"name": e.name, "class": e.class_name, "kind": e.kind,
                    "summary": e.summary, "citation": e.citation,
                    "references": list(e.references), "parameters": e.parameters,
                    "fixed": dict(e.preset)} for e in algorithms()]
        typer.echo(json.dumps(entries, default=str, ensure_ascii=False, indent=2))
        return
    from .learners.cards import listing_lines

    typer.echo("\n".join(listing_lines()))
    typer.echo("\nolc algorithms NAME: one learner's card (parameters, references).")


@app.command("warmup")
def warmup_cmd(
    names: List[str] = typer.Argument(None, metavar="[NAME]...",
                                      help="Learners whose compiled families to compile."),
    all_: bool = typer.Option(False, "--all", help="Every learner of the catalogue."),
):
    """Compile ahead of time (dense and CSR rows) the compiled code of the named learners, or
    of all (--all), into numba's disk cache: for images and CI."""
    if bool(names) == all_:
        _fail("name the learners to warm up, or pass --all (not both)")
    names = [e.name for e in algorithms()] if all_ else names
    from .warmup import warmup

    try:
        report = warmup(names)
    except UnknownAlgorithmError as exc:
        _fail(exc)
    total = wall = 0.0
    for row in report:
        total += row.compile_seconds
        wall += row.seconds
        state = (f"compiled in {row.compile_seconds:5.1f} s" if row.compile_seconds > 0
                 else "already compiled (disk cache)")
        typer.echo(textwrap.fill(f"{row.family:<13} {state}  ({', '.join(row.learners)})",
                                 max(_width(), 60), subsequent_indent=" " * 14,
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
    _out().print(table)


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
):
    """Run one learner in the online protocol (predict, then learn) and print its metrics."""
    from rich.table import Table

    from .compare import parse_param_assignments, run_one
    from .data.sources import describe_source, load_source
    from .report import format_number

    out = _out()
    try:
        info(algorithm)
        params = parse_param_assignments(param, [algorithm])[algorithm]
        X, y, name = load_source(data)
        _announce_compile([algorithm], X)
        summary, learner, _ = run_one(algorithm, params, X, y, passes=passes, seed=seed,
                                      track_tau=tau)
    except (UnknownAlgorithmError, TypeError, ValueError, FileNotFoundError) as exc:
        _fail(exc)
    summary["data"] = describe_source(name, X, y)
    if save_model is not None:
        from .persistence import save

        summary["model"] = str(save(learner, save_model))
    if as_json:
        out.print_json(json.dumps(summary))
        return
    table = Table(title=f"{algorithm} on {name} ({X.shape[0]} rows × {X.shape[1]} features, "
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
    from rich.table import Table

    from .compare import compare_learners, parse_param_assignments
    from .data.sources import describe_source, load_source
    from .report import format_number

    out = _out()
    names = algorithms_ or ["perceptron", "pa", "pa-i", "pa-ii", "ce-omm", "e-omm"]
    try:
        for n in names:
            info(n)
        params = parse_param_assignments(param, names)
        X, y, source_name = load_source(data)
        _announce_compile(names, X)
        report = compare_learners(names, params, X, y, passes=passes, seed=seed,
                                  track_tau=tau, n_jobs=n_jobs, out_dir=out_dir,
                                  source=describe_source(source_name, X, y))
    except (UnknownAlgorithmError, TypeError, ValueError, FileNotFoundError) as exc:
        _fail(exc)
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


@reproduce_app.command("omm-adult")
def reproduce_omm_adult_cmd(
    out_dir: Path = typer.Option(Path("omm-adult-out"), "--out",
                                 help="Folder for tables, figure, results.json, summary.md "
                                      "and the per-run cache (runs/)."),
    n_jobs: int = typer.Option(1, "--n-jobs", help="Runs in parallel (joblib; -1: all cores)."),
    force: bool = typer.Option(False, "--force", help="Recompute runs cached in --out."),
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
    """Ho-Nguyen et al. 2025 (the OMM paper) §6 / App. B on the Adult data: Tables 2–4,
    Figure 1, summary."""
    from .experiments import omm_adult

    out = _out()
    try:
        report = omm_adult.run(out_dir, n_jobs=n_jobs, force=force,
                               passes_permuted=passes_permuted, limit=limit,
                               cache_dir=cache_dir, bias_terms=bias_terms)
    except (ValueError, FileNotFoundError, RuntimeError) as exc:
        _fail(exc)
    g = report["geometry"]["original"]
    out.print(f"{report['source']['n']} points × {report['source']['d']} features; "
              f"γ = {g['gamma']:.6g}, b* = {g['b_star']:.4f}, D = {g['D']:.4f}, "
              f"D̄ = {g['D_bar']:.4f}, r = D/γ = {g['r']:.6g}")
    for key in ("summary", "table_2", "table_3", "table_4", "figure_1", "json"):
        if key in report["files"]:
            out.print(f"{key:9s} {report['files'][key]}")


@reproduce_app.command("omm-example-5-1")
def reproduce_omm_example_cmd(
    c: List[float] = typer.Option([], "--c", help="Values of c > 2 (repeatable; default "
                                                  "3 5 10 20 50 100)."),
    out_dir: Path = typer.Option(Path("omm-example-5-1-out"), "--out",
                                 help="Folder for the table, figure and results.json."),
):
    """Ho-Nguyen et al. 2025, Example 5.1: the perceptron's mistakes grow as c², e-OMM's
    stay ≤ 2."""
    from .experiments import omm_example_5_1

    out = _out()
    try:
        report = omm_example_5_1.run(c or None, out_dir)
    except ValueError as exc:
        _fail(exc)
    typer.echo(Path(report["files"]["table"]).read_text())
    out.print(f"figure {report['files']['figure']}\njson   {report['files']['json']}")


def run():  # pragma: no cover - console entry point for `python -m olc`
    app(prog_name="olc")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run())
