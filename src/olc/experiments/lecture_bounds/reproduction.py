"""``olc reproduce lecture-bounds`` declared: the mistake bounds of Kitani's lecture notes
(Perceptron Theorem 1, Winnow Eq. 42, Weighted Majority Eq. 1, Randomized WM Eq. 2)
against the mistakes measured on generated sequences, and one adversarial sequence on
which Theorem 1 is tight."""
from __future__ import annotations

from ..engine.reproduction import Plan, Reproduction, claims_json
from . import spec as R
from .claims import CLAIMS
from .figures import figures
from .tables import Measured, table_rows, write_table

TITLE = "Kitani's lecture notes on online linear classification: mistake bounds"
#: Below this many rows the expert sequences cannot hold the best expert's 10 % of mistakes
#: as a whole number worth testing, nor the disjunctions both classes.
MIN_ROWS = 50


def parse_bounds(text):
    names = [b.strip() for b in str(text).split(",") if b.strip()]
    unknown = [b for b in names if b not in R.BOUNDS]
    if unknown or not names:
        raise ValueError(f"--bounds: unknown bound(s) {unknown or [text]}; choose from "
                         f"{', '.join(R.BOUNDS)}")
    return tuple(b for b in R.BOUNDS if b in names)


def settings(bounds=",".join(R.BOUNDS), seed=0, rows=R.ROWS, rwm_seeds=R.RWM_SEEDS,
             max_margin=True):
    bounds = parse_bounds(bounds if isinstance(bounds, str) else ",".join(bounds))
    for name, value, low in (("--seed", seed, 0), ("--rows", rows, MIN_ROWS),
                             ("--rwm-seeds", rwm_seeds, 2)):
        if isinstance(value, bool) or int(value) != value or value < low:
            raise ValueError(f"{name} must be an integer ≥ {low}, got {value!r}")
    return {"bounds": bounds, "seed": seed, "rows": rows, "rwm_seeds": rwm_seeds,
            "max_margin": max_margin}


def plan(settings, shared):
    bounds = settings["bounds"]
    planned = R.runs(bounds, int(settings["seed"]), int(settings["rows"]),
                     int(settings["rwm_seeds"]), settings["max_margin"])

    def collect(values, info):
        records = {}
        for run, value in zip(planned, values):
            job = run.key["job"]
            families = [b for b in ("weighted-majority", "randomized-weighted-majority")
                        if b in bounds] if job == "experts" else [job]
            for family in families:
                records.setdefault(family, []).append(value)
        return Measured(records, table_rows(records))

    return Plan(planned, collect)


def header(measured, settings):
    margin = ("the generator’s w* and the largest margin γ*" if settings["max_margin"]
              else "the generator’s w*")
    return [f"Seed {settings['seed']}; sequences of T = {settings['rows']} rows (adversarial: "
            f"T = d); {settings['rwm_seeds']} seeds for RWM's sampled mistakes; Perceptron "
            f"with {margin}.", ""]


def record(measured, settings, verdicts):
    return {"reproduction": "lecture-bounds", "source": "Kitani's lecture notes (bounds)",
            "settings": {**settings, "bounds": list(settings["bounds"])},
            "records": measured.records, "table": measured.rows,
            "claims": claims_json(verdicts)}


REPRODUCTION = Reproduction(
    name="lecture-bounds", title=TITLE, settings=settings, plan=plan, claims=CLAIMS,
    tables=write_table, figures=figures, summary_header=header, record=record)
