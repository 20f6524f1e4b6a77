"""The reproductions behind ``olc reproduce NAME``: name → ``"module:command"``.

A command is a typer-annotated function in a light module (it imports its paper's code
inside the function, so ``olc --help`` stays fast); the CLI registers every entry as
``olc reproduce NAME``. Add a paper with one line here; the engine's runner, store and
reports are shared (``olc.experiments.engine``; the helper
``olc.experiments.engine.cli_support.reproduce`` runs a ``Reproduction`` and prints its
outputs).
"""
REPRODUCTIONS = {
    "obpm": "olc.experiments.obpm.command:command",
    "omm-adult": "olc.experiments.omm_adult.command:command",
    "shen-dietterich": "olc.experiments.shen_dietterich.command:command",
    "textbook": "olc.experiments.textbook.command:command",
    "lecture-bounds": "olc.experiments.lecture_bounds.command:command",
}


def command(name):
    """The command function of reproduction ``name`` (its module imported)."""
    import importlib

    module, _, function = REPRODUCTIONS[name].partition(":")
    return getattr(importlib.import_module(module), function)
