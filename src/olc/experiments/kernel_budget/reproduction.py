"""``olc reproduce kernel-budget`` declared: the drift part (Shen & Dietterich 2009, §5's
proposed comparison, :func:`.spec.drift_spec`) and the budget table on a9a and w8a
(:func:`.spec.table_spec`).

Bad input fails before anything is written or run (the options, every spec validated, every
custom model built once). ``plan`` loads the data, chooses the table's γ on the first 10 %
of each training file (:func:`.data.select_gamma`, a few seconds, in this process) and hands
every run of both parts to the engine's runner in one call, so ``--n-jobs`` workers share
the whole workload; stored runs are reused.
"""
from __future__ import annotations

import inspect
import time

from ..engine.aggregate import Results
from ..engine.experiment import describe
from ..engine.models import build_model
from ..engine.plan import load_data, plan as plan_runs, record as run_record, validate
from ..engine.reproduction import Plan, Reproduction
from ..engine.store import jsonable, run_id
from . import data as kb_data
from . import spec as kb_spec
from .claims import CLAIMS, Outcome
from .figures import figures
from .summary import header, sections
from .tables import tables

PARTS = ("drift", "table")
CITATION = ("J. Shen and T. G. Dietterich. A Family of Large Margin Linear Classifiers and Its "
            "Application in Dynamic Environments. Statistical Analysis and Data Mining 2(5–6), "
            "2009, §5 (the proposed comparison with the Forgetron); O. Dekel, S. "
            "Shalev-Shwartz and Y. Singer. The Forgetron. SIAM J. Computing 37(5), 2008.")


def _names(text, known, option):
    names = [p.strip() for p in str(text).split(",") if p.strip()]
    if names == ["all"]:
        return tuple(known)
    unknown = [p for p in names if p not in known]
    if unknown or not names:
        raise ValueError(f"{option}: unknown value(s) {unknown or [text]}; choose from "
                         f"{', '.join(known)}")
    return tuple(p for p in known if p in names)


def _integers(text, option, minimum=1):
    try:
        values = tuple(int(v) for v in str(text).split(",") if v.strip())
    except ValueError:
        raise ValueError(f"{option}: expected comma-separated integers, got {text!r}") from None
    if not values or min(values) < minimum:
        raise ValueError(f"{option}: expected integers ≥ {minimum}, got {text!r}")
    return tuple(sorted(set(values)))


def _dataset_trials(text):
    out = {}
    for item in [p.strip() for p in str(text or "").split(",") if p.strip()]:
        name, sep, value = item.partition("=")
        if not sep or name not in kb_data.DRIFT_DATASETS or not value.isdigit() or \
                int(value) < 1:
            raise ValueError(f"--dataset-trials {item!r}: expected NAME=TRIALS with NAME one "
                             f"of {', '.join(kb_data.DRIFT_DATASETS)} and TRIALS ≥ 1")
        out[name] = int(value)
    return out


def _skip(text):
    if text is None:
        return kb_spec.DEFAULT_SKIP
    names = tuple(p.strip() for p in str(text).split(",") if p.strip())
    known = {name for _, name, _, _ in kb_spec.TABLE_BUDGETED}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"--skip: {unknown} are not budgeted learners of the table; choose "
                         f"from {', '.join(sorted(known))}")
    return names


def _positive(value, option, minimum=1):
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{option} must be an integer ≥ {minimum}, got {value!r}")
    return value


def _check_models(spec):
    """Build every custom model of ``spec`` once (the engine validates registry learners)."""
    for c in spec.learner_configs():
        if c.method is None:
            continue
        try:
            model = build_model(c, c.params, 0)
            learner = getattr(model, "learner", None)
            if learner is not None:
                learner._hyperparameters()
        except (TypeError, ValueError, KeyError) as exc:
            raise ValueError(f"{spec.name}: learner {c.label!r}: {exc}") from None


def settings(parts="all", trials=kb_spec.TRIALS, table_trials=kb_spec.TABLE_TRIALS,
             datasets="usps,20newsgroups", table_datasets="a9a,w8a",
             budgets="25,50,100,200", table_budgets="100,500", kernels="rbf,poly",
             limit=None, svc_subsample=kb_spec.SVC_SUBSAMPLE, rows_per_phase=None,
             seed=kb_spec.SEED, quick=False, dataset_trials=None, skip=None):
    """Everything checked, nothing loaded or written. ``rows_per_phase`` ({data set: n})
    and ``limit`` (rows of each a9a/w8a file) shrink the data (tests, quick looks);
    ``quick``: :data:`.spec.QUICK` in place of those options. ``dataset_trials``:
    "NAME=TRIALS,..." overrides ``trials`` for the named drift data sets (e.g. the expensive
    20 Newsgroups stream on fewer trials; summary.md says so)."""
    if quick:
        trials, table_trials = kb_spec.QUICK["trials"], kb_spec.QUICK["table_trials"]
        limit, svc_subsample = kb_spec.QUICK["limit"], kb_spec.QUICK["svc_subsample"]
        rows_per_phase = kb_spec.QUICK["rows_per_phase"]
    parts = _names(parts, PARTS, "--parts")
    _positive(trials, "--trials")
    _positive(table_trials, "--table-trials")
    _positive(svc_subsample, "--svc-subsample", 10)
    if limit is not None:
        _positive(limit, "--limit", 20)
    options = {"parts": list(parts), "trials": trials, "table_trials": table_trials,
               "datasets": _names(datasets, kb_data.DRIFT_DATASETS, "--datasets"),
               "table_datasets": _names(table_datasets, kb_data.TABLE_DATASETS,
                                        "--table-datasets"),
               "budgets": _integers(budgets, "--budgets"),
               "table_budgets": _integers(table_budgets, "--table-budgets"),
               "kernels": _names(kernels, kb_spec.KERNELS, "--kernels"), "limit": limit,
               "svc_subsample": svc_subsample, "rows_per_phase": rows_per_phase, "seed": seed,
               "quick": bool(quick),
               "dataset_trials": _dataset_trials(dataset_trials),
               "skip": _skip(skip)}
    for name in (options["datasets"] if "drift" in parts else ()):
        spec = drift_spec(options, name)
        validate(spec)
        _check_models(spec)
    for name in (options["table_datasets"] if "table" in parts else ()):
        spec = table_spec(options, name, gamma=1.0)   # γ is chosen on the data (plan)
        validate(spec)
        _check_models(spec)
    return options


def drift_spec(options, dataset):
    trials = options.get("dataset_trials", {}).get(dataset, options["trials"])
    return kb_spec.drift_spec(dataset, trials, options["budgets"],
                              options["kernels"], options["seed"],
                              (options["rows_per_phase"] or {}).get(dataset))


def table_spec(options, dataset, gamma):
    return kb_spec.table_spec(dataset, gamma, options["table_trials"],
                              options["table_budgets"], options["seed"], options["limit"],
                              options["svc_subsample"], options.get("skip", ()))


def _load(specs):
    """{spec name: Data} (one stream per spec), each distinct source loaded once."""
    cache, out = {}, {}
    for spec in specs:
        s = spec.streams[0]
        key = run_id(s.source.key())
        if key not in cache:
            cache[key] = load_data(spec)[s.name]
        out[spec.name] = cache[key]
    return out


def _results(spec, metrics, pairs):
    records, curves = [], {}
    for p, value in pairs:
        records.append(run_record(p, value))
        for name, curve in value["curves"].items():
            curves.setdefault((p.stream, p.config.label), {}).setdefault(name, []).append(curve)
    if "rates" in inspect.signature(Results).parameters:  # proportion-aware intervals
        return Results(records, curves, {}, spec,
                       rates=["error_rate", *(m.name for m in metrics
                                             if getattr(m, "rate", False))])
    return Results(records, curves, {}, spec)


def plan(options, shared):
    drift = [drift_spec(options, d) for d in options["datasets"]] \
        if "drift" in options["parts"] else []
    table_data = {}
    gammas = {}
    if "table" in options["parts"]:
        probe = [table_spec(options, d, 1.0) for d in options["table_datasets"]]
        table_data = _load(probe)
        for d, spec in zip(options["table_datasets"], probe):
            gammas[d] = kb_data.select_gamma(table_data[spec.name])
    table = [table_spec(options, d, gammas[d][0]) for d in options["table_datasets"]] \
        if "table" in options["parts"] else []
    data = {**_load(drift), **table_data}   # a table spec's name does not depend on γ
    sent = data
    if shared is not None:   # worker processes read the arrays from files, not pickles
        mapped = {}
        for d in data.values():
            mapped.setdefault(id(d), d.memory_mapped(shared))
        sent = {k: mapped[id(d)] for k, d in data.items()}
    runs, specs = [], {}
    for part, group in (("table", table), ("drift", drift)):
        for spec in group:
            configs, metrics = validate(spec)
            specs[spec.name] = (part, spec, metrics)
            runs += [(spec.name, p) for p in plan_runs(spec, {spec.streams[0].name:
                                                               sent[spec.name]},
                                                        configs, metrics)]
    # trial by trial (stable: within a trial the table's long runs first), so that a run
    # stopped early leaves whole trials behind: `--trials k` then reuses all of them
    runs.sort(key=lambda item: item[1].trial)
    skipped = {} if not table else kb_spec.table_learners(1.0, skip=options["skip"])[1]

    def collect(values, info):
        by_spec = {}
        for (name, p), value in zip(runs, values):
            by_spec.setdefault(name, []).append((p, value))
        outcome = Outcome(settings=options, info=info, gammas=gammas, skipped=skipped)
        for name, (part, spec, metrics) in specs.items():
            dataset = spec.streams[0].name
            getattr(outcome, part)[dataset] = _results(spec, metrics, by_spec.get(name, []))
        return outcome

    return Plan([p.run for _, p in runs], collect)


def record(outcome, settings, verdicts):
    info = outcome.info
    return jsonable({
        "paper": CITATION, "settings": settings,
        "gammas": {d: {"gamma": g, "grid": scores} for d, (g, scores) in outcome.gammas.items()},
        "skipped": outcome.skipped,
        "experiments": {r.spec.name: describe(r.spec) for r in
                        [*outcome.drift.values(), *outcome.table.values()]},
        "drift": {d: r.records for d, r in outcome.drift.items()},
        "table": {d: r.records for d, r in outcome.table.items()},
        "timing": {"runs_reused": info.reused, "runs_computed": info.computed,
                   "n_jobs": info.n_jobs, "prepare_seconds": info.prepare_seconds,
                   "run_seconds": info.run_seconds,
                   "total_seconds": time.perf_counter() - info.started,
                   "load_average_at_start": info.load_average_at_start}})


REPRODUCTION = Reproduction(
    name="kernel-budget",
    title="Kernel learners on a budget: the regularized kernel PA against the Forgetron "
          "(Shen & Dietterich 2009, §5) and a budget table",
    citation=CITATION, settings=settings, plan=plan, claims=CLAIMS, tables=tables,
    figures=figures, summary_header=header, summary_sections=sections, record=record)
