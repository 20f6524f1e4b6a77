"""The command line of every experiment: ``olc experiment SPEC`` and ``olc reproduce NAME``.

:func:`reproduction_command` builds a reproduction's typer command from the options its
``command.py`` declares, :func:`spec_file_command` the command of a TOML spec, both with
the options every experiment shares, declared once here
(:func:`shared_options`): ``--out``, ``--n-jobs``, ``--scheduler``, ``--force``. The command
imports the paper's code only when it runs, so ``olc --help`` stays fast. Ctrl-C ends with
one line (finished runs are kept).
"""
from __future__ import annotations

import inspect
from contextlib import contextmanager
from pathlib import Path
from typing import Optional

import typer


@contextmanager
def interruptible():
    """Ctrl-C (KeyboardInterrupt, or the runner's :class:`~.runner.Interrupted`) → one line
    on standard error and exit status 130."""
    from .runner import Interrupted

    try:
        yield
    except Interrupted as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(130) from None
    except KeyboardInterrupt:
        typer.echo("interrupted (finished runs are stored; run the same command again to "
                   "resume)", err=True)
        raise typer.Exit(130) from None


def print_outputs(report):
    """The console: the reproduction's own lines, the run counts, each claim's verdict, and
    every file written."""
    from .report import verdict

    for line in report.get("console", ()):
        typer.echo(line)
    typer.echo(f"runs: {report['reused'] + report['computed']} "
               f"({report['reused']} reused from the store, {report['computed']} computed)")
    for v in report.get("verdicts", ()):
        typer.echo(f"[{verdict(v.supported)}] {v.claim.text}")
    for key, path in report["files"].items():
        typer.echo(f"{key:18s} {path if isinstance(path, str) else ', '.join(path)}")


def run_spec_file(path, out_dir, n_jobs=1, scheduler=None, force=False):
    from .experiment import run_experiment
    from .toml_spec import load_spec

    spec = load_spec(path)
    with interruptible():
        report = run_experiment(spec, out_dir, n_jobs=n_jobs, scheduler=scheduler,
                                force=force)
    print_outputs(report)
    return report


def _signature(declared):
    return inspect.Signature([
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option,
                          annotation=kind) for name, (kind, option) in declared.items()])


def spec_file_command():
    """``olc experiment SPEC``: a TOML spec and the shared options."""
    declared = {"spec": (Path, typer.Argument(..., help="The experiment spec (TOML; see "
                                                        "docs/experiments.md and examples/).")),
                **shared_options("olc-experiment-out", "Folder for tables, figures, "
                                 "results.json, summary.md and the per-run store (runs/).")}

    def command(**values):
        return run_spec_file(values["spec"], values["out_dir"], n_jobs=values["n_jobs"],
                             scheduler=values["scheduler"], force=values["force"])

    command.__doc__ = ("Run an experiment from a TOML spec: streams × learners × protocol × "
                       "trials; runs are stored as they finish, so an interrupted run "
                       "resumes.")
    command.__signature__ = _signature(declared)
    return command


def shared_options(out, out_help, n_jobs=1):
    """The options every experiment command has: {parameter: (type, typer.Option)}."""
    return {
        "out_dir": (Path, typer.Option(Path(out), "--out", help=out_help)),
        "n_jobs": (int, typer.Option(n_jobs, "--n-jobs",
                                     help="Runs in parallel (joblib; -1: all cores).")),
        "scheduler": (Optional[str], typer.Option(
            None, "--scheduler", help="Run on this Dask cluster (tcp://host:8786).")),
        "force": (bool, typer.Option(False, "--force", help="Recompute runs stored in --out.")),
    }


def reproduction_command(reproduction, doc, options, *, out, out_help, n_jobs=1):
    """The ``olc reproduce NAME`` command of the reproduction named ``reproduction``
    (``"module:NAME"``, imported when the command runs): its own ``options``
    ({parameter: (type, typer.Option)}, in help order) between ``--out`` and the other
    shared ones."""
    shared = shared_options(out, out_help, n_jobs)
    declared = {"out_dir": shared.pop("out_dir"), **options, **shared}

    def command(**values):
        from .reproduction import reproduce
        from .spec import resolve_callable

        shared = {k: values.pop(k) for k in ("out_dir", "n_jobs", "scheduler", "force")}
        with interruptible():
            report = reproduce(resolve_callable(reproduction), shared["out_dir"], values,
                               n_jobs=shared["n_jobs"], scheduler=shared["scheduler"],
                               force=shared["force"])
        print_outputs(report)
        return report

    command.__doc__ = doc
    command.__signature__ = _signature(declared)
    return command
