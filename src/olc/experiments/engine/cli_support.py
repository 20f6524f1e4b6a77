"""What every experiment command shares: run a spec or a :class:`~.spec.Reproduction` and
print where its outputs are; Ctrl-C ends with one line (finished runs are kept).

The commands themselves (``olc experiment``, ``olc reproduce NAME``) stay thin: they parse
options and call :func:`run_spec_file` / :func:`reproduce`."""
from __future__ import annotations

from contextlib import contextmanager

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
    typer.echo(f"runs: {report['reused'] + report['computed']} "
               f"({report['reused']} reused from the store, {report['computed']} computed)")
    for key, path in report["files"].items():
        typer.echo(f"{key:18s} {path}")


def run_spec_file(path, out_dir, n_jobs=1, scheduler=None, force=False):
    from .experiment import run_experiment
    from .toml_spec import load_spec

    spec = load_spec(path)
    with interruptible():
        report = run_experiment(spec, out_dir, n_jobs=n_jobs, scheduler=scheduler,
                                force=force)
    print_outputs(report)
    return report


def reproduce(reproduction, out_dir, n_jobs=1, scheduler=None, force=False, **options):
    """``olc reproduce NAME`` for a declarative :class:`~.spec.Reproduction`."""
    from .experiment import run_experiment

    spec = reproduction.spec(**options)
    with interruptible():
        report = run_experiment(spec, out_dir, n_jobs=n_jobs, scheduler=scheduler,
                                force=force, reproduction=reproduction)
    print_outputs(report)
    return report
