"""The options of ``olc reproduce omm-adult`` (light: the paper's code is imported when the
command runs)."""
from pathlib import Path
from typing import Optional

import typer

from ..engine.command import reproduction_command

command = reproduction_command(
    "olc.experiments.omm_adult.reproduction:REPRODUCTION",
    "The OMM paper (Ho-Nguyen et al. 2025) §6 / App. B on the Adult data: Tables 2–4, "
    "Figure 1, summary.",
    {"passes_permuted": (int, typer.Option(5, "--passes-permuted", min=1,
                                           help="Passes of the multi-pass runs (Table 4); "
                                                "pass 1 in data order, later passes "
                                                "permuted.")),
     "limit": (Optional[int], typer.Option(None, "--limit", min=10,
                                           help="Only the first N points (quick runs).")),
     "cache_dir": (Optional[Path], typer.Option(None, "--cache-dir",
                                                help="Where the built data set and its "
                                                     "max-margin solution are cached "
                                                     "(default: olc's derived-data cache).")),
     "bias_terms": (str, typer.Option("paper", "--bias-terms",
                                      help="paper: ROMMA, a-ROMMA, Perceptron, ALMA get their "
                                           "bias coordinate only when b* ≠ 0 (as the paper); "
                                           "always: on every variant."))},
    out="omm-adult-out",
    out_help="Folder for tables, figure, results.json, summary.md and the per-run store "
             "(runs/).")
