"""The options of ``olc reproduce textbook`` (light: the chapter's code is imported when the
command runs)."""
import typer

from ..engine.command import reproduction_command

command = reproduction_command(
    "olc.experiments.textbook.reproduction:REPRODUCTION",
    "The textbook chapter on online learning (ch. 31): Figs. 31.4, 31.5, 31.8, 31.9 from its "
    "codes' data processes, and its claims tested.",
    {"figures": (str, typer.Option("31.4,31.5,31.8,31.9", "--figures",
                                   help="Comma-separated: 31.4, 31.5, 31.8, 31.9.")),
     "seed": (int, typer.Option(0, "--seed", min=0, help="The figures' seed (data and θ₀).")),
     "replications": (int, typer.Option(100, "--replications", min=0,
                                        help="Seeds over which the chapter's claims are "
                                             "measured (0: the figures' runs only).")),
     "passes": (int, typer.Option(100, "--passes", min=1,
                                  help="Passes of AROW regression (Fig. 31.9: 100)."))},
    out="textbook-out", out_help="Folder for the figures, tables, results.json, summary.md and "
                                 "the per-run store (runs/).")
