"""``olc reproduce NAME`` (one command per paper, from :mod:`olc.experiments.registry`; and
``olc reproduce omm-example-5-1``) and ``olc experiment SPEC``."""
from pathlib import Path
from typing import List

import typer

from .support import out, writable_folder


reproduce_app = typer.Typer(no_args_is_help=True,
                            help="Reproduce the experiments of a paper (tables, figures, JSON).")


def _register_reproductions():
    """``olc reproduce NAME`` for every entry of olc.experiments.registry (each command
    lives in a light module of its paper)."""
    from ..experiments.registry import REPRODUCTIONS, command

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
    from ..experiments.omm_adult import example_5_1 as omm_example_5_1

    writable_folder(out_dir, "--out")
    report = omm_example_5_1.run(c or None, out_dir)
    typer.echo(Path(report["files"]["table"]).read_text())
    out.print(f"figure {report['files']['figure']}\njson   {report['files']['json']}")


def experiment_command():
    """``olc experiment SPEC``: its options are the ones every experiment command shares
    (:mod:`olc.experiments.engine.command`)."""
    from ..experiments.engine.command import spec_file_command

    return spec_file_command()
