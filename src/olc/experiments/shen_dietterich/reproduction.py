"""``olc reproduce shen-dietterich`` declared: drifting USPS / 20 Newsgroups (/ SRAA)
streams as an engine spec (:mod:`.spec`), Figures 1–3, the paper's statements beside our
numbers and its claims. SRAA is optional: it is skipped, with the reason, when its archive
is absent."""
from __future__ import annotations

from ..engine.reproduction import Reproduction
from . import data as sd_data
from . import spec as S
from .claims import CLAIMS
from .command import parse_grids
from .figures import figures
from .spec import experiment
from .tables import tables

CITATION = ("J. Shen and T. G. Dietterich. A Family of Large Margin Linear Classifiers and Its "
            "Application in Dynamic Environments. Statistical Analysis and Data Mining 2(5–6), "
            "2009, §4.")


def select_datasets(text):
    """The data sets to run and {skipped: why}; unknown names and missing required data are
    errors (raised before any run)."""
    names = [d.strip() for d in str(text).split(",") if d.strip()]
    unknown = [d for d in names if d not in sd_data.DATASETS]
    if unknown or not names:
        raise ValueError(f"--datasets: unknown data set(s) {unknown or [text]}; choose from "
                         f"{', '.join(sd_data.DATASETS)}")
    kept, skipped = [], {}
    for d in dict.fromkeys(names):
        ok, why = sd_data.available(d)
        if ok:
            kept.append(d)
        elif d == "sraa":  # not obtainable here: run what is there, say why it was skipped
            skipped[d] = why
        else:
            from ...data import fetch

            fetch(d, download=True)  # raises the registry's "put FILE in FOLDER" error
            kept.append(d)
    if not kept:
        raise ValueError("--datasets: none of the requested data sets is available "
                         f"({'; '.join(f'{k}: {v}' for k, v in skipped.items())})")
    return kept, skipped


def settings(trials=40, datasets="usps,20newsgroups,sraa", grid=None, rows_per_phase=None):
    """``grid``: the ``--grid KEY=V1,V2,...`` items; ``rows_per_phase``: {data set: n} to
    shrink the streams (tests)."""
    grids = parse_grids(grid)
    kept, skipped = select_datasets(datasets)
    return {"trials": trials, "datasets": tuple(kept), "grids": grids,
            "rows_per_phase": rows_per_phase, "skipped": skipped}


def spec(trials, datasets, grids, rows_per_phase, skipped):
    return experiment(trials=trials, datasets=datasets, grids=grids,
                      rows_per_phase=rows_per_phase)


def sections(results, settings):
    from ..engine.reproduction import evaluate
    from .claims import claims
    from .readings import section

    verdicts = {r.name: evaluate(claims(r), results) for r in S.READINGS}
    lines = ["", *section(results, verdicts)]
    if settings["skipped"]:
        lines += ["", "## Skipped data sets", "",
                  *(f"- {d}: {why}" for d, why in settings["skipped"].items())]
    return lines


def console(results, settings):
    return [f"skipped {d}: {why} (SRAA is registered but not obtainable here; put "
            "sraa.tar.gz in the data home to run it)" for d, why in settings["skipped"].items()]


REPRODUCTION = Reproduction(
    name="shen-dietterich",
    title="Shen & Dietterich (2009) §4: regularized large-margin online learning on "
          "drifting streams",
    citation=CITATION, settings=settings, spec=spec, claims=CLAIMS, tables=tables,
    figures=figures, summary_sections=sections, console=console,
    streams_to_write=lambda settings: settings["datasets"])
