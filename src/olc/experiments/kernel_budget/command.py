"""The options of ``olc reproduce kernel-budget`` (light: the experiment's code is imported
when the command runs)."""
from typing import Optional

import typer

from ..engine.command import reproduction_command

command = reproduction_command(
    "olc.experiments.kernel_budget.reproduction:REPRODUCTION",
    "Kernel learners on a budget: the regularized kernel PA with oldest removal against the "
    "Forgetron on Shen & Dietterich's drift streams (their §5's proposal), and a budget "
    "table on a9a and w8a.",
    {"parts": (str, typer.Option("all", "--parts", help="drift, table or all.")),
     "trials": (int, typer.Option(40, "--trials", min=1,
                                  help="Drift part: trials (seeded drift streams).")),
     "dataset_trials": (Optional[str], typer.Option(
         None, "--dataset-trials", help="Drift part: NAME=TRIALS,... overrides --trials for "
                                        "those data sets.")),
     "table_trials": (int, typer.Option(10, "--table-trials", min=1,
                                        help="Budget table: permutations of each training "
                                             "file.")),
     "datasets": (str, typer.Option("usps,20newsgroups", "--datasets",
                                    help="Drift part: usps, 20newsgroups.")),
     "table_datasets": (str, typer.Option("a9a,w8a", "--table-datasets",
                                          help="Budget table: a9a, w8a.")),
     "budgets": (str, typer.Option("25,50,100,200", "--budgets",
                                   help="Drift part: budgets (comma-separated).")),
     "table_budgets": (str, typer.Option("100,500", "--table-budgets",
                                         help="Budget table: budgets (comma-separated).")),
     "kernels": (str, typer.Option("rbf,poly", "--kernels", help="Drift part: rbf, poly.")),
     "limit": (Optional[int], typer.Option(None, "--limit", min=20,
                                           help="Budget table: an evenly spaced slice of this "
                                                "many rows of each file (quick looks).")),
     "skip": (Optional[str], typer.Option(None, "--skip",
                                          help="Budget table: catalogue names to leave out "
                                               "(comma-separated; named in summary.md); "
                                               "default: projectron,projectron++ (their "
                                               "pools are not bounded by B); '' runs all.")),
     "quick": (bool, typer.Option(False, "--quick",
                                  help="A quick slice (≤ 1 minute on a quiet 2-core machine): "
                                       "3 trials on drift streams of a quarter of the rows, "
                                       "3 permutations of 2,000-row slices of a9a and w8a; "
                                       "overrides --trials, --table-trials, --limit, "
                                       "--svc-subsample.")),
     "svc_subsample": (int, typer.Option(5000, "--svc-subsample", min=10,
                                         help="Budget table: rows SVC(rbf) is fitted on."))},
    out="kernel-budget-out", n_jobs=2,
    out_help="Folder for the tables, the figure, results.json, summary.md and the per-run "
             "store (runs/).")
