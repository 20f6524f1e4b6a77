"""``olc compare``: learners side by side on one stream (:func:`olc.compare.compare_learners`)."""
import json
import os
from pathlib import Path
from typing import List, Optional

import typer

from ..learners.registry import info
from .options import DATA_HELP, n_jobs_callback, parse_param_assignments
from .support import announce_compile, announce_early, out, writable_folder


def compare_cmd(
    algorithms_: List[str] = typer.Argument(None, metavar="[ALGORITHM]...",
                                            help="Learners to compare (default: perceptron, "
                                                 "pa, pa-i, pa-ii, ce-omm, e-omm)."),
    data: str = typer.Option("synthetic", "--data", help=DATA_HELP),
    param: List[str] = typer.Option([], "--param",
                                    help="k=v for every learner that has k, or ALGO:k=v "
                                         "(repeatable)."),
    passes: int = typer.Option(1, "--passes", min=1),
    seed: Optional[int] = typer.Option(None, "--seed", min=0,
                                       help="Shuffle each pass with this seed."),
    out_dir: Path = typer.Option(Path("olc-out"), "--out",
                                 help="Folder for results.json and cumulative_error.png."),
    n_jobs: int = typer.Option(1, "--n-jobs", callback=n_jobs_callback,
                               help="Learners run in parallel (joblib; -1: all cores)."),
    tau: bool = typer.Option(True, "--tau/--no-tau"),
    as_json: bool = typer.Option(False, "--json", help="Print the results as JSON too."),
):
    """Compare learners on the same stream in the online protocol: table, JSON and figure."""
    names = algorithms_ or ["perceptron", "pa", "pa-i", "pa-ii", "ce-omm", "e-omm"]
    writable_folder(out_dir, "--out")
    for n in names:
        info(n)
    announce_early(names, data)  # first: starting the figure process takes a moment
    from ..report.figure_process import FigureProcess

    # matplotlib's import and first text layout, on the other core while the learners run
    with FigureProcess(enabled=os.environ.get("OLC_FIGURE_PROCESS", "1") != "0") as figures:
        from rich.table import Table

        from ..compare import compare_learners
        from ..data.sources import describe_source, load_source
        from ..report import format_number

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
    if any("support_vectors" in row for row in report["results"]):  # kernel learners' pools
        columns[4:4] = [("support vectors", "support_vectors")]
    for header, _ in columns:
        table.add_column(header, justify="left" if header == "algorithm" else "right")
    for row in report["results"]:
        table.add_row(*(format_number(row.get(key)) for _, key in columns))
    out.print(table)
    out.print(f"results: {report['files']['json']}\nfigure:  {report['files']['figure']}")
    if as_json:
        out.print_json(json.dumps(report, default=str))
