"""``olc run``: one learner in the online protocol (:mod:`olc.evaluate.summary`)."""
import json
from pathlib import Path
from typing import List, Optional

import typer

from ..learners.registry import info
from .options import (BITS_HELP, CACHE_HELP, DATA_HELP, FORMAT_HELP, QUIET_HELP, bits_callback,
                      format_callback, parse_param_assignments, reading_progress)
from .support import announce_compile, announce_early, fail, model_target, out


def run_cmd(
    algorithm: str = typer.Argument(..., help="Algorithm name (see `olc algorithms`)."),
    data: str = typer.Option("synthetic", "--data", help=DATA_HELP),
    param: List[str] = typer.Option([], "--param", help="Hyper-parameter k=v (repeatable)."),
    passes: int = typer.Option(1, "--passes", min=1, help="Passes over the data."),
    seed: Optional[int] = typer.Option(None, "--seed", min=0,
                                       help="Shuffle each pass with this seed (default: "
                                            "data order)."),
    tau: bool = typer.Option(False, "--tau/--no-tau",
                             help="Also compute τ (the first step whose classifier has "
                                  "positive margin on the whole data): it re-checks the data "
                                  "at every update until then, which can cost more than "
                                  "learning. Not computed by default."),
    margin: bool = typer.Option(False, "--margin/--no-margin",
                                help="Also compute the final margin γ̄ = min y(w·x+b)/‖w‖ "
                                     "over the data (one more pass; a stream reads the file "
                                     "again). Not computed by default."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    save_model: Optional[Path] = typer.Option(None, "--save-model",
                                              help="Save the final learner (.npz)."),
    stream: Optional[bool] = typer.Option(
        None, "--stream/--no-stream",
        help="Read a --data file (svmlight or VW) chunk by chunk: memory bounded by the "
             "chunk, one pass in file order, no τ (default: for files over 256 MB)."),
    chunk_rows: int = typer.Option(10_000, "--chunk-rows", min=1,
                                   help="Lines per chunk when streaming."),
    n_features: Optional[int] = typer.Option(
        None, "--n-features", min=1,
        help="svmlight files: the number of columns (default: the largest index in the "
             "file, which a stream finds by an extra counting pass over the file)."),
    format_: Optional[str] = typer.Option(None, "--format", callback=format_callback,
                                          help=FORMAT_HELP),
    bits: Optional[int] = typer.Option(None, "--bits", callback=bits_callback, help=BITS_HELP),
    parse_cache: bool = typer.Option(True, "--parse-cache/--no-parse-cache", help=CACHE_HELP),
    quiet: bool = typer.Option(False, "--quiet", help=QUIET_HELP),
):
    """Run one learner in the online protocol (predict, then learn) and print its metrics."""
    model_target(save_model)
    info(algorithm)
    announce_early([algorithm], data)
    from rich.table import Table

    from ..data.files import detect_format
    from ..data.sources import describe_source, load_source
    from ..evaluate.summary import run_one, run_one_streamed
    from ..report import format_number

    from ..data.files import finish_writes

    params = parse_param_assignments(param, [algorithm])[algorithm]
    try:
        progress = False if quiet else None
        if _streamed(data, stream, passes, seed, format_):
            summary, learner = run_one_streamed(
                algorithm, params, Path(data), chunk_rows, progress=progress, margin=margin,
                tau=tau, n_features=n_features, format=detect_format(Path(data), format_),
                bits=bits)
            name, n_rows, width = Path(data).name, summary["steps"], learner.n_features_in_
        else:
            advance, close = reading_progress(Path(data).name, quiet)
            try:
                X, y, name = load_source(data, format=format_, bits=bits, cache=parse_cache,
                                         progress=advance, write_behind=True,
                                         n_features=n_features)
            finally:
                close()
            announce_compile([algorithm], X)
            summary, learner, _ = run_one(algorithm, params, X, y, passes=passes, seed=seed,
                                          track_tau=tau, progress=progress, margin=margin)
            summary["data"] = describe_source(name, X, y)
            n_rows, width = X.shape
        if save_model is not None:
            from ..persistence import save

            summary["model"] = str(save(learner, save_model))
        if as_json:
            out.print_json(json.dumps(summary))
            return
        table = Table(title=f"{algorithm} on {name} ({n_rows} rows × {width} features, "
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
        skipped = summary.get("not_computed", {})
        for key in keys:
            table.add_row(key, f"not computed: {skipped[key]}" if key in skipped
                          else format_number(summary.get(key)))
        out.print(table)
    finally:
        finish_writes()  # a parse-cache entry written while the learner ran


STREAM_ABOVE_BYTES = 256 << 20


def _streamed(data, stream, passes, seed, format_=None):
    """Whether ``olc run`` reads --data chunk by chunk (a file, one pass in order)."""
    path = Path(data)
    if stream is False or not path.is_file():
        if stream:
            fail(f"--stream needs --data to be a data file; {data!r} is not a file")
        return False
    if stream is None and path.stat().st_size <= STREAM_ABOVE_BYTES:
        return False
    if passes != 1 or seed is not None:
        if stream:
            fail("--stream reads the file once, in order: it takes neither --passes nor "
                  "--seed")
        return False  # large but several passes: load it whole
    return True
