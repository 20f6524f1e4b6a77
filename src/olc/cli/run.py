"""``olc run``: one learner in the online protocol (:mod:`olc.evaluate.summary`)."""
import json
from pathlib import Path
from typing import List, Optional

import typer

from ..learners.registry import info
from .options import DATA_HELP, parse_param_assignments
from .support import announce_compile, announce_early, fail, model_target, out


def run_cmd(
    algorithm: str = typer.Argument(..., help="Algorithm name (see `olc algorithms`)."),
    data: str = typer.Option("synthetic", "--data", help=DATA_HELP),
    param: List[str] = typer.Option([], "--param", help="Hyper-parameter k=v (repeatable)."),
    passes: int = typer.Option(1, "--passes", min=1, help="Passes over the data."),
    seed: Optional[int] = typer.Option(None, "--seed", min=0,
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

    from ..data.sources import describe_source, load_source
    from ..evaluate.summary import run_one, run_one_streamed
    from ..report import format_number

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
        from ..persistence import save

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
    if "support_vectors" in summary:  # a kernel learner's pool
        keys = keys[:3] + ("support_vectors",) + keys[3:]
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
