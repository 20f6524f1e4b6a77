"""The reproductions behind ``olc reproduce NAME``: name → ``"module:command"``.

A command is built in its paper's light ``command.py`` by
:func:`olc.experiments.engine.command.reproduction_command` from the options the paper
declares (its code is imported only when the command runs, so ``olc --help`` stays fast);
the CLI registers every entry as ``olc reproduce NAME``. Add a paper with one line here
(docs/adding-a-reproduction.md).
"""
REPRODUCTIONS = {
    "obpm": "olc.experiments.obpm.command:command",
    "omm-adult": "olc.experiments.omm_adult.command:command",
    "shen-dietterich": "olc.experiments.shen_dietterich.command:command",
    "textbook": "olc.experiments.textbook.command:command",
    "lecture-bounds": "olc.experiments.lecture_bounds.command:command",
    "kernel-budget": "olc.experiments.kernel_budget.command:command",
}


def command(name):
    """The command function of reproduction ``name`` (its module imported)."""
    import importlib

    module, _, function = REPRODUCTIONS[name].partition(":")
    return getattr(importlib.import_module(module), function)
