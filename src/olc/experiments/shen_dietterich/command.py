"""The options of ``olc reproduce shen-dietterich`` and their parsing (light: the paper's
code is imported when the command runs)."""
from typing import List, Optional

import typer

from ..engine.command import reproduction_command

GRID_KEYS = ("alpha", "l2_beta", "l1_beta", "norma_eta", "norma_lam", "l2_sigma_rel",
             "l1_sigma_rel", "ig_k", "game_k")


def parse_grids(items):
    """``KEY=v1,v2,...`` options → {key: tuple}; a clear error naming the bad item."""
    grids = {}
    for item in items or ():
        key, sep, values = item.partition("=")
        if not sep or key not in GRID_KEYS:
            raise ValueError(f"--grid {item!r}: expected KEY=V1,V2,... with KEY one of "
                             f"{', '.join(GRID_KEYS)}")
        try:
            parsed = tuple((int if key.endswith("_k") else float)(v) for v in values.split(","))
        except ValueError:
            raise ValueError(f"--grid {item!r}: values must be "
                             f"{'integers' if key.endswith('_k') else 'numbers'}") from None
        if key.endswith("_k") and min(parsed) < 1:
            raise ValueError(f"--grid {item!r}: k must be ≥ 1")
        if key.endswith("sigma_rel") and min(parsed) < 0:
            raise ValueError(f"--grid {item!r}: sigma_rel must be ≥ 0")
        grids[key] = parsed
    return grids


command = reproduction_command(
    "olc.experiments.shen_dietterich.reproduction:REPRODUCTION",
    "Shen & Dietterich (2009) §4: drifting USPS / 20 Newsgroups (/ SRAA) streams, Figures "
    "1–3 and the claims summary.",
    {"trials": (int, typer.Option(40, "--trials", min=1,
                                  help="Trials (seeded drift streams).")),
     "datasets": (str, typer.Option("usps,20newsgroups,sraa", "--datasets",
                                    help="Comma-separated: usps, 20newsgroups, sraa (SRAA is "
                                         "skipped, with the reason, when its archive is "
                                         "absent).")),
     "grid": (Optional[List[str]], typer.Option(None, "--grid",
                                                help="Override a grid: KEY=V1,V2,... (keys: "
                                                     + ", ".join(GRID_KEYS) + ")."))},
    out="shen-dietterich-out", n_jobs=2,
    out_help="Folder for tables, figures, results.json, summary.md, streams/ and the per-run "
             "store (runs/).")
