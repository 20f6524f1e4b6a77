"""The options of ``olc reproduce obpm`` (light: the paper's code is imported when the
command runs)."""
from typing import Optional

import typer

from ..engine.command import reproduction_command

command = reproduction_command(
    "olc.experiments.obpm.reproduction:REPRODUCTION",
    "Harrington et al. 2003 (Online Bayes Point Machines) §4: Tables 1–2, Figures 1–3 and "
    "the claims summary.",
    {"parts": (str, typer.Option("all", "--parts",
                                 help="Comma-separated: table-1 (with Figure 1), figure-2, "
                                      "figure-3, table-2 (with the SVM line), or all.")),
     "trials": (int, typer.Option(30, "--trials",
                                  help="Monte Carlo runs (Table 1) and permutations (Table 2); "
                                       "the paper: 30.")),
     "drift_trials": (int, typer.Option(10, "--drift-trials",
                                        help="Trials of the MNIST drift (Figure 2); the "
                                             "paper: 10.")),
     "limit": (Optional[int], typer.Option(None, "--limit",
                                           help="Only N rows of each Adult/Web file, evenly "
                                                "spaced (quick runs; §4.1 and MNIST keep their "
                                                "sizes).")),
     "web_trials": (int, typer.Option(10, "--web-trials",
                                      help="Trials of Figure 3's random-order Web stream (the "
                                           "file-order stream is one sequence).")),
     "test_size": (int, typer.Option(10_000, "--test-size",
                                     help="Test examples per Monte Carlo run of §4.1."))},
    out="obpm-out", n_jobs=2,
    out_help="Folder for tables, figures, results.json, summary.md, streams/ and the per-run "
             "store (runs/).")
