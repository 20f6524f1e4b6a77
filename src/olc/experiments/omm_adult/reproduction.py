"""``olc reproduce omm-adult`` declared: the OMM paper's §6 / App. B on the Adult data — the
variants of App. B.2 verified, every learner run on each (:mod:`.spec`), Tables 2–4,
Figure 1 and the claims tested on our records and on the paper's numbers."""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.reproduction import Plan, Reproduction
from .claims import CLAIMS, on_paper
from .geometry import load_adult
from .spec import BIAS_TERMS, PASSES_PERMUTED, PHI, PUMMA_DELTA, SEED, _job_verify, runs
from .summary import header, sections
from .tables import _lookup, plot_figure_1, write_tables
from .translations import THETAS, make_variants

TITLE = "OMM paper (Ho-Nguyen et al. 2025) §6 / App. B reproduced"


@dataclass
class Outcome:
    """The Adult problem, the App. B.2 verification of each variant and one record per
    (variant, learner, passes); ``cell``, ``thetas`` and ``passes`` are what the claims
    read (:class:`.claims.Cells`)."""

    problem: object
    verifications: list
    records: list
    thetas: tuple
    passes: int

    @property
    def cell(self):
        return _lookup(self.records)


def settings(passes_permuted=PASSES_PERMUTED, limit=None, cache_dir=None, bias_terms="paper",
             thetas=THETAS, seed=SEED, problem=None):
    """The command's options checked; ``problem``: a prepared :class:`.geometry.Problem` to
    run instead of the Adult set (e.g. a synthetic one)."""
    if isinstance(passes_permuted, bool) or int(passes_permuted) != passes_permuted \
            or passes_permuted < 1:
        raise ValueError(f"--passes-permuted must be an integer ≥ 1, got {passes_permuted!r}")
    if limit is not None and (isinstance(limit, bool) or int(limit) != limit or limit < 10):
        raise ValueError(f"--limit must be an integer ≥ 10, got {limit!r}")
    if bias_terms not in BIAS_TERMS:
        raise ValueError(f"--bias-terms must be one of {', '.join(BIAS_TERMS)}, got "
                         f"{bias_terms!r}")
    return {"passes_permuted": passes_permuted, "limit": limit, "cache_dir": cache_dir,
            "bias_terms": bias_terms, "thetas": tuple(thetas), "seed": seed,
            "problem": problem}


def plan(settings, shared):
    """The problem (the Adult set, built and cached on first use), its variants, the runs."""
    problem = settings["problem"] or load_adult(settings["limit"], settings["cache_dir"])
    variants = make_variants(problem, settings["thetas"])
    planned = runs(problem, variants, settings["passes_permuted"], settings["seed"],
                   settings["bias_terms"])

    def collect(values, info):
        verifications, records = [], []
        for run, value in zip(planned, values):
            if run.fn is _job_verify:
                verifications.append(value)
            else:
                records.extend(value)
        return Outcome(problem, verifications, records, settings["thetas"],
                       settings["passes_permuted"])

    return Plan(planned, collect)


def tables(outcome, settings, out_dir):
    return write_tables(outcome.records, out_dir, settings["passes_permuted"],
                        outcome.problem.original.intercept)


def figures(outcome, settings, out_dir):
    return {"figure_1": plot_figure_1(outcome.records, out_dir / "figure_1.png")}


def record(outcome, settings, verdicts):
    problem = outcome.problem
    return {"paper": "Ho-Nguyen et al. 2025 (OMM paper), §6 and App. B",
            "source": problem.source,
            "geometry": {"original": problem.original.scalars(),
                         "normalized": problem.normalized.scalars()},
            "settings": {"passes_permuted": settings["passes_permuted"],
                         "seed": settings["seed"], "bias_terms": settings["bias_terms"],
                         "thetas": list(settings["thetas"]), "phi": PHI,
                         "pumma_delta": PUMMA_DELTA},
            "variants": outcome.verifications, "records": outcome.records}


def console(outcome, settings):
    g = outcome.problem.original.scalars()
    src = outcome.problem.source
    return [f"{src['n']} points × {src['d']} features; γ = {g['gamma']:.6g}, "
            f"b* = {g['b_star']:.4f}, D = {g['D']:.4f}, D̄ = {g['D_bar']:.4f}, "
            f"r = D/γ = {g['r']:.6g}"]


def verify(outcome, settings, out_dir):
    """App. B.2's checks failing on a variant is the reproduction failing (the details are
    in ``results.json``)."""
    failed = [v for v in outcome.verifications if not v["ok"]]
    if failed:
        raise RuntimeError("App. B.2 verification failed for "
                           + ", ".join(f"θ={v['theta']:g} {v['bias']}" for v in failed)
                           + f" (see {out_dir / 'results.json'})")


REPRODUCTION = Reproduction(
    name="omm-adult", title=TITLE, settings=settings, plan=plan, claims=CLAIMS,
    claims_on_paper=on_paper,
    claims_heading=("", "## Claims of §6 and App. B.4", "",
                    "Each claim is turned into a test on the results (criterion in the "
                    "text); the same test is applied to the paper's own published numbers.",
                    ""),
    tables=tables, figures=figures, summary_header=header, summary_sections=sections,
    record=record, console=console, verify=verify)
