"""The ``olc`` application: the top-level command, its options (``--version``, ``--debug``),
one command per module of this package, and :func:`run`, the console entry point."""
import sys

import typer

from .. import __version__
from . import algorithms, compare, datasets, reproduce, run as run_command, warmup
from .serve import serve_cmd
from .support import OneLineErrors, exit_now, out

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


app.command("algorithms")(algorithms.algorithms_cmd)
app.command("warmup")(warmup.warmup_cmd)
app.command("datasets")(datasets.datasets_cmd)
app.command("run")(run_command.run_cmd)
app.command("compare")(compare.compare_cmd)
app.add_typer(reproduce.reproduce_app, name="reproduce")
app.command("experiment")(reproduce.experiment_command())
app.command("serve")(serve_cmd)


def run():  # pragma: no cover - console entry point (`olc`, `python -m olc`)
    """Run the command, then end the process without the interpreter's teardown.

    A command that touched numba and matplotlib leaves millions of objects; Python's
    finalization (a full garbage collection, then every module's objects freed one by one)
    takes ~0.45 s of a 2.5 s ``olc compare`` (measured: `benchmarks/startup.py`). Everything
    a command writes is closed and renamed before it returns (``olc._util.atomic``), so nothing
    needs that teardown: :func:`olc.cli.support.exit_now` does what finalization must (joins
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
