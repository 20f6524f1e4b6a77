"""``olc reproduce obpm``: Harrington et al. 2003, §4, on the experiment engine.

Order, so that bad input fails before anything is written or run: the parts and options are
checked, every engine spec validated (``plan.validate``) and every custom model built once
with its parameters, the output folder checked, the data loaded (a missing file is the data
registry's one-line message naming the file and the folder); then all runs of all parts —
§4.1's (:mod:`.artificial`), the SVM's (:mod:`.svm`) and the planned runs of the Figure 2,
Figure 3 and Table 2 specs (:mod:`.spec`) — go to the engine's runner in *one* call, so
``--n-jobs`` workers share the whole workload; every run is stored as it finishes
(``OUT/runs``) and reused by the next invocation. Tables, figures, ``results.json`` and
``summary.md`` are written last, each atomically.
"""
from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from ..engine import RunStore, execute
from ..engine.aggregate import Results
from ..engine.experiment import check_out_dir, describe
from ..engine.models import build_model
from ..engine.plan import load_data, plan, record, validate
from ..engine.spec import ExperimentSpec
from ..engine.store import jsonable, run_id
from . import artificial, paper, svm
from .data import BATCH_DATASETS, TEST_SIZE, TRAIN_SIZE
from .spec import (DRIFT_TRIALS, SEED, TRIALS, WEB_PERMUTED_TRIALS, batch_specs, drift_spec,
                   web_spec)

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


def prepare(out_dir, parts=PARTS, trials=TRIALS, drift_trials=DRIFT_TRIALS, limit=None,
            test_size=TEST_SIZE, seed=SEED, web_trials=WEB_PERMUTED_TRIALS, n_jobs=1,
            scheduler=None):
    """Everything checked and loaded, nothing written: (specs, validated, data, options)."""
    from ..engine.runner import check_scheduler

    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs == 0:
        raise ValueError(f"--n-jobs must be a nonzero integer (−1: all cores), got {n_jobs!r}")
    check_scheduler(scheduler)
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
    check_out_dir(out_dir)
    data = load_all(spec for group in specs.values() for spec in group)
    options = {"parts": list(parts), "trials": trials, "drift_trials": drift_trials,
               "web_trials": web_trials,
               "limit": limit, "test_size": test_size, "seed": seed,
               "train_size": TRAIN_SIZE}
    return specs, validated, data, options


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
            runs += [("table-2", p, p.run) for p in plan(spec, data[spec.name],
                                                         *validated[spec.name])]
    if "table-1" in options["parts"]:
        sizes = (options["train_size"], options["test_size"])
        runs += [("table-1", None, r) for r in artificial.runs(options["trials"],
                                                              options["seed"], sizes)]
    for part in ("figure-3", "figure-2"):
        for spec in specs.get(part, ()):
            runs += [(part, p, p.run) for p in plan(spec, data[spec.name],
                                                    *validated[spec.name])]
    return runs


def _results(spec, planned_values):
    records, curves = [], {}
    for p, value in planned_values:
        records.append(record(p, value))
        for name, curve in value["curves"].items():
            curves.setdefault((p.stream, p.config.label), {}).setdefault(name, []).append(curve)
    return Results(records, curves, {}, spec)


def execute_all(specs, validated, data, options, out_dir, n_jobs=1, scheduler=None,
                force=False, progress=None):
    """Run (or reuse) every run; returns (outcome parts, execution)."""
    from .claims import Outcome
    from .spec import batch_learners

    with tempfile.TemporaryDirectory(prefix="olc-obpm-") as shared:
        if n_jobs != 1 and scheduler is None:   # worker processes get the data by file
            data = _mapped(data, shared)
        runs = _all_runs(specs, validated, data, options)
        done = execute([r for _, _, r in runs], RunStore(Path(out_dir) / "runs"),
                       n_jobs=n_jobs, scheduler=scheduler, force=force, progress=progress,
                       label="obpm runs")
    by_part = {}
    for (part, planned, _), value in zip(runs, done.values):
        by_part.setdefault(part, []).append((planned, value))
    outcome = Outcome()
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
    return outcome, done


def run(out_dir, parts=PARTS, trials=TRIALS, drift_trials=DRIFT_TRIALS, limit=None,
        test_size=TEST_SIZE, seed=SEED, n_jobs=2, scheduler=None, force=False, progress=None,
        web_trials=WEB_PERMUTED_TRIALS):
    """``olc reproduce obpm``; returns the report (``results.json``'s content plus
    ``reused``/``computed`` and ``seconds``)."""
    from .figures import figure_1, figure_2, figure_3
    from .report import write_report
    from .tables import write_tables

    t0 = time.perf_counter()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    specs, validated, data, options = prepare(out_dir, parts, trials, drift_trials, limit,
                                              test_size, seed, web_trials, n_jobs, scheduler)
    t_prepared = time.perf_counter()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    outcome, done = execute_all(specs, validated, data, options, out_dir, n_jobs, scheduler,
                                force, progress)
    t_ran = time.perf_counter()
    sizes = (options["train_size"], options["test_size"])
    files, texts = write_tables(out_dir, outcome.table_1, sizes, outcome.batch, outcome.svm)
    for name, paths in (("figure_1", figure_1(outcome.table_1, out_dir)
                         if outcome.table_1 else []),
                        ("figure_2", figure_2(outcome.drift, out_dir) if outcome.drift else []),
                        ("figure_3", figure_3(outcome.web, out_dir) if outcome.web else []),
                        ("figure_3_permuted", figure_3(outcome.web_permuted, out_dir,
                                                       "figure_3_permuted")
                         if outcome.web_permuted else [])):
        for p in paths:
            files[f"{name}_{Path(p).suffix[1:]}"] = str(p)
    timing = {"prepare_seconds": t_prepared - t0, "run_seconds": t_ran - t_prepared,
              "n_jobs": n_jobs, "load_average_at_start": load,
              "reused": done.reused, "computed": done.computed}
    files.update(write_report(out_dir, outcome, texts, options, specs, timing, data))
    timing["total_seconds"] = time.perf_counter() - t0
    report = {"paper": paper.CITATION, "settings": jsonable(options),
              "experiments": {name: jsonable(describe(s)) for g in specs.values() for s in g},
              "table_1": outcome.table_1 or [],
              "figure_2": outcome.drift.records if outcome.drift else [],
              "figure_3": outcome.web.records if outcome.web else [],
              "figure_3_permuted": outcome.web_permuted.records if outcome.web_permuted
              else [],
              "table_2": {d: res.records for d, (res, _) in outcome.batch.items()},
              "svm": outcome.svm, "timing": timing, "files": files}
    from ...report import write_json

    files["json"] = str(write_json(out_dir / "results.json", jsonable(report)))
    return dict(report, reused=done.reused, computed=done.computed, outcome=outcome)


__all__ = ["PARTS", "parse_parts", "prepare", "execute_all", "run", "BATCH_DATASETS"]
