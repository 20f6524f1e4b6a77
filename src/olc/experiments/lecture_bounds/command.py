"""The options of ``olc reproduce lecture-bounds`` (light: the code is imported when the
command runs)."""
import typer

from ..engine.command import reproduction_command

command = reproduction_command(
    "olc.experiments.lecture_bounds.reproduction:REPRODUCTION",
    "Kitani's lecture notes: Perceptron, Winnow, (Randomized) Weighted Majority bounds vs "
    "measured mistakes, and a sequence meeting the Perceptron's.",
    {"bounds": (str, typer.Option("perceptron,winnow,weighted-majority,"
                                  "randomized-weighted-majority,adversarial", "--bounds",
                                  help="Comma-separated: perceptron, winnow, weighted-majority, "
                                       "randomized-weighted-majority, adversarial.")),
     "seed": (int, typer.Option(0, "--seed", min=0, help="Seed of the generated sequences.")),
     "rows": (int, typer.Option(2000, "--rows", min=50, help="Length T of each sequence.")),
     "rwm_seeds": (int, typer.Option(100, "--rwm-seeds", min=2,
                                     help="Seeds of Randomized WM's own draws (a check beside "
                                          "the exact expectation).")),
     "max_margin": (bool, typer.Option(True, "--max-margin/--no-max-margin",
                                       help="Also compute the largest margin γ* of each "
                                            "Perceptron sequence (the tightest Theorem 1 "
                                            "bound)."))},
    out="lecture-bounds-out", out_help="Folder for the table, figure, results.json, summary.md "
                                       "and the per-run store (runs/).")
