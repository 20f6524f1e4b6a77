"""``olc reproduce textbook`` declared: Figs. 31.4, 31.5, 31.8 and 31.9 of the textbook
chapter regenerated from its codes' data processes (:mod:`.data`) with catalogue learners
(:mod:`.spec`), then the figures, the tables, and the chapter's claims tested on the
records."""
from __future__ import annotations

from ..engine.reproduction import Plan, Reproduction, claims_json
from . import spec as R
from .claims import CLAIMS
from .figures import FIGURE_FUNCTIONS
from .summary import header
from .tables import write_tables


def parse_figures(text):
    """``"31.4,31.8"`` → ("31.4", "31.8"); unknown or no figures are a one-line error."""
    names = [f.strip().removeprefix("Fig.").removeprefix("fig").strip()
             for f in str(text).split(",") if f.strip()]
    unknown = [f for f in names if f not in R.FIGURES]
    if unknown or not names:
        raise ValueError(f"--figures: unknown figure(s) {unknown or [text]}; choose from "
                         f"{', '.join(R.FIGURES)}")
    return tuple(f for f in R.FIGURES if f in names)


def settings(figures=",".join(R.FIGURES), seed=0, replications=R.REPLICATIONS,
             passes=R.PASSES_31_9):
    figures = parse_figures(figures if isinstance(figures, str) else ",".join(figures))
    for name, value, low in (("--seed", seed, 0), ("--replications", replications, 0),
                             ("--passes", passes, 1)):
        if isinstance(value, bool) or int(value) != value or value < low:
            raise ValueError(f"{name} must be an integer ≥ {low}, got {value!r}")
    return {"figures": figures, "seed": seed, "replications": replications, "passes": passes}


def plan(settings, shared):
    planned = R.runs(settings["figures"], int(settings["seed"]),
                     int(settings["replications"]), passes=int(settings["passes"]))

    def collect(values, info):
        """{figure: {"record": the figure's run, "replications": [measures per seed]}}."""
        results = {f: {"record": None, "replications": []} for f in settings["figures"]}
        for run, value in zip(planned, values):
            results[run.key["figure"]]["record" if run.key["job"] == "figure"
                                       else "replications"] = value
        return results

    return Plan(planned, collect)


def figures(results, settings, out_dir):
    return {f"figure_{f}": [str(p) for p in FIGURE_FUNCTIONS[f](results[f]["record"], out_dir)]
            for f in settings["figures"]}


def record(results, settings, verdicts):
    return {"reproduction": "textbook", "source": "textbook ch. 31, Figs. 31.3–31.9",
            "settings": {"figures": list(settings["figures"]), "seed": settings["seed"],
                         "replications": settings["replications"], "lam": R.LAMBDA,
                         "width": R.WIDTH, "passes_31_9": settings["passes"]},
            "figures": results, "claims": claims_json(verdicts)}


REPRODUCTION = Reproduction(
    name="textbook", title="Textbook ch. 31 (online learning): Figs. 31.4, 31.5, 31.8, 31.9",
    settings=settings, plan=plan, claims=CLAIMS, tables=write_tables, figures=figures,
    summary_header=header, record=record)
