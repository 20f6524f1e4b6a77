"""``olc reproduce obpm`` declared: Harrington et al. 2003 (Online Bayes Point Machines), §4.

Bad input fails before anything is written or run: the parts and options are checked and
every engine spec validated (``plan.validate``), every custom model built once with its
parameters; then the data are loaded (a missing file is the data registry's one-line
message naming the file and the folder) and all runs of all parts — §4.1's
(:mod:`.artificial`), the SVM's (:mod:`.svm`) and the planned runs of the Figure 2, Figure 3
and Table 2 specs (:mod:`.spec`) — go to the engine's runner in *one* call, so ``--n-jobs``
workers share the whole workload.
"""
from __future__ import annotations

import time

from ..engine.aggregate import Results
from ..engine.experiment import describe
from ..engine.models import build_model
from ..engine.plan import load_data, plan as plan_runs, record as run_record, validate
from ..engine.reproduction import Plan, Reproduction
from ..engine.spec import ExperimentSpec
from ..engine.store import jsonable, run_id
from . import artificial, paper, svm
from .claims import CLAIMS, Outcome
from .data import TEST_SIZE, TRAIN_SIZE
from .figures import figures
from .spec import (DRIFT_TRIALS, SEED, TRIALS, WEB_PERMUTED_TRIALS, batch_learners,
                   batch_specs, drift_spec, web_spec)
from .summary import header, preamble, sections
from .tables import write_tables

PARTS = ("table-1", "figure-2", "figure-3", "table-2")


def parse_parts(text):
    """The parts named in ``text`` (comma-separated; "all"); a one-line error otherwise."""
    names = [p.strip() for p in str(text).split(",") if p.strip()]
    if names == ["all"]:
        return PARTS
    unknown = [p for p in names if p not in PARTS]
    if unknown or not names:
        raise ValueError(f"--parts: unknown part(s) {unknown or [text]}; choose from "
                         f"{', '.join(PARTS)} (or all)")
    return tuple(p for p in PARTS if p in names)


def _positive(value, option, minimum=1):
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{option} must be an integer ≥ {minimum}, got {value!r}")
    return value


def engine_specs(parts, trials, drift_trials, limit, seed, web_trials=WEB_PERMUTED_TRIALS):
    specs = {}
    if "figure-2" in parts:
        specs["figure-2"] = [drift_spec(drift_trials, seed)]
    if "figure-3" in parts:
        specs["figure-3"] = [web_spec(1, seed, limit),
                             web_spec(web_trials, seed, limit, permuted=True)]
    if "table-2" in parts:
        specs["table-2"] = batch_specs(trials, seed, limit)
    return specs


def _check_models(spec):
    """Build every custom model of ``spec`` once and check its learner's hyper-parameters
    (the engine's ``validate`` checks only registry learners)."""
    for c in spec.learner_configs():
        if c.method is None:
            continue
        try:
            model = build_model(c, c.params, 0)
            wrapped = getattr(model, "learner", None) or getattr(model, "regressor", None)
            if wrapped is not None:
                wrapped._hyperparameters()
        except (TypeError, ValueError, KeyError) as exc:
            raise ValueError(f"{spec.name}: learner {c.label!r}: {exc}") from None


def settings(parts="all", trials=TRIALS, drift_trials=DRIFT_TRIALS, limit=None,
             web_trials=WEB_PERMUTED_TRIALS, test_size=TEST_SIZE, seed=SEED):
    """Everything checked, nothing loaded or written."""
    _positive(trials, "--trials", 2)
    _positive(drift_trials, "--drift-trials", 1)
    _positive(test_size, "--test-size", 1)
    _positive(web_trials, "--web-trials", 1)
    if limit is not None:
        _positive(limit, "--limit", 10)
    parts = parse_parts(",".join(parts)) if not isinstance(parts, str) else parse_parts(parts)
    specs = engine_specs(parts, trials, drift_trials, limit, seed, web_trials)
    validated = {}
    for group in specs.values():
        for spec in group:
            validated[spec.name] = validate(spec)
            _check_models(spec)
    options = {"parts": list(parts), "trials": trials, "drift_trials": drift_trials,
               "web_trials": web_trials, "limit": limit, "test_size": test_size, "seed": seed,
               "train_size": TRAIN_SIZE}
    return {"options": options, "specs": specs, "validated": validated,
            "sizes": (TRAIN_SIZE, test_size)}


def load_all(specs):
    """{spec name: {stream: Data}}, each distinct source loaded once across the specs."""
    cache, out = {}, {}
    for spec in specs:
        out[spec.name] = {}
        for s in spec.streams:
            key = run_id(s.source.key())
            if key not in cache:
                cache[key] = load_data(ExperimentSpec(spec.name, [s], spec.learners,
                                                      spec.protocol))[s.name]
            out[spec.name][s.name] = cache[key]
    return out


def _mapped(data, folder):
    out, seen = {}, {}
    for name, per_stream in data.items():
        out[name] = {}
        for stream, d in per_stream.items():
            if id(d) not in seen:
                seen[id(d)] = d.memory_mapped(folder)
            out[name][stream] = seen[id(d)]
    return out


def _all_runs(specs, validated, data, options):
    """[(part, planned or None, Run)] — longest first (SVM, Table 2, §4.1, Figures)."""
    runs = []
    if "table-2" in specs:
        svm_data = {s.streams[0].name: (data[s.name][s.streams[0].name],
                                        s.streams[0].transforms[0].n_train)
                    for s in specs["table-2"]}
        runs += [("svm", None, r) for r in svm.runs(svm_data, options["seed"])]
        for spec in specs["table-2"]:
            runs += [("table-2", p, p.run) for p in plan_runs(spec, data[spec.name],
                                                              *validated[spec.name])]
    if "table-1" in options["parts"]:
        sizes = (options["train_size"], options["test_size"])
        runs += [("table-1", None, r) for r in artificial.runs(options["trials"],
                                                              options["seed"], sizes)]
    for part in ("figure-3", "figure-2"):
        for spec in specs.get(part, ()):
            runs += [(part, p, p.run) for p in plan_runs(spec, data[spec.name],
                                                         *validated[spec.name])]
    return runs


def _results(spec, planned_values):
    records, curves = [], {}
    for p, value in planned_values:
        records.append(run_record(p, value))
        for name, curve in value["curves"].items():
            curves.setdefault((p.stream, p.config.label), {}).setdefault(name, []).append(curve)
    return Results(records, curves, {}, spec)


def plan(settings, shared):
    specs = settings["specs"]
    data = load_all(spec for group in specs.values() for spec in group)
    sent = _mapped(data, shared) if shared is not None else data
    runs = _all_runs(specs, settings["validated"], sent, settings["options"])

    def collect(values, info):
        by_part = {}
        for (part, planned, _), value in zip(runs, values):
            by_part.setdefault(part, []).append((planned, value))
        outcome = Outcome(data=data, info=info)
        if "table-1" in by_part:
            outcome.table_1 = [r for _, value in by_part["table-1"] for r in value]
        if "figure-2" in by_part:
            outcome.drift = _results(specs["figure-2"][0], by_part["figure-2"])
        if "figure-3" in by_part:
            for spec, attr in zip(specs["figure-3"], ("web", "web_permuted")):
                stream = spec.streams[0].name
                setattr(outcome, attr, _results(spec, [(p, v) for p, v in by_part["figure-3"]
                                                       if p.stream == stream]))
        if "table-2" in by_part:
            for spec in specs["table-2"]:
                d = spec.streams[0].name
                mine = [(p, v) for p, v in by_part["table-2"] if p.stream == d]
                labels = {a: s.label for a, s in zip(("Perceptron", "ALMA", "OBPM"),
                                                     batch_learners(d))}
                outcome.batch[d] = (_results(spec, mine), labels)
            for (_, value), d in zip(by_part.get("svm", []), [s.streams[0].name
                                                              for s in specs["table-2"]]):
                outcome.svm[d] = value
        return outcome

    return Plan([r for _, _, r in runs], collect)


def record(outcome, settings, verdicts):
    timing = dict(outcome.timing, total_seconds=time.perf_counter() - outcome.info.started)
    return jsonable({
        "paper": paper.CITATION, "settings": settings["options"],
        "experiments": {s.name: describe(s) for g in settings["specs"].values() for s in g},
        "table_1": outcome.table_1 or [],
        "figure_2": outcome.drift.records if outcome.drift else [],
        "figure_3": outcome.web.records if outcome.web else [],
        "figure_3_permuted": outcome.web_permuted.records if outcome.web_permuted else [],
        "table_2": {d: res.records for d, (res, _) in outcome.batch.items()},
        "svm": outcome.svm, "timing": timing})


REPRODUCTION = Reproduction(
    name="obpm", title="Harrington et al. 2003, \"Online Bayes Point Machines\", §4",
    citation=paper.CITATION, settings=settings, plan=plan, claims=CLAIMS,
    tables=write_tables, figures=figures, summary_preamble=preamble, summary_header=header,
    summary_sections=sections, record=record)
