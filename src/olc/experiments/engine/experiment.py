"""An engine experiment (:class:`~.spec.ExperimentSpec`) as a reproduction's runs, and
``run_experiment``: a spec in, the outputs of :mod:`.report` out, through the same pipeline
as every paper (:func:`.reproduction.reproduce`).

The spec is validated (learners built with every value they will get) and its data loaded
before anything is written; a spec's outputs are ``table.md``/``.csv`` with the paper's
numbers in ``[paper]`` columns, ``timing.md``/``.csv``, one figure per curve metric, the
streams a reproduction asks for (``streams/``), then the reproduction's own tables and
figures.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .aggregate import Results
from .metrics import TIMING
from .plan import load_data, plan, record, validate
from .report import plot_curves, write_stream, write_table
from .spec import stream_seed
from .store import jsonable
from .transforms import apply_transforms


def describe(spec):
    return {"name": spec.name, "title": spec.title, "trials": spec.trials, "seed": spec.seed,
            "curves": spec.curves,
            "protocol": spec.protocol.key(),
            "streams": [{"name": s.name, "source": s.source.key(),
                         "transforms": [t.key() for t in s.transforms]} for s in spec.streams],
            "learners": [{"label": c.label, "name": c.name, "method": c.method,
                          "params": dict(c.params), "tune": dict(c.tune),
                          "sweep": dict(c.sweep)} for c in spec.learner_configs()]}


class SpecOutcome(Results):
    """The engine's :class:`~.aggregate.Results` of a spec, with what its outputs need:
    the validated metrics and the loaded data (for ``streams/``)."""

    def __init__(self, records, curves, paper, spec, metrics, data, n_configs):
        super().__init__(records, curves, paper, spec,
                         rates=[m.name for m in metrics if m.rate])
        self.metrics = metrics
        self.data = data
        self.n_configs = n_configs


def spec_plan(spec, paper, shared=None):
    """The :class:`~.reproduction.Plan` of ``spec``: validated, its data loaded (and, with
    ``shared``, memory-mapped there for worker processes), its runs planned."""
    from .reproduction import Plan

    configs, metrics = validate(spec)
    data = load_data(spec)
    sent = data
    if shared is not None:
        mapped = {}
        for d in data.values():
            mapped.setdefault(id(d), d.memory_mapped(shared))
        sent = {k: mapped[id(d)] for k, d in data.items()}
    planned = plan(spec, sent, configs, metrics)

    def collect(values, info):
        records, curves = [], {}
        for p, value in zip(planned, values):
            records.append(record(p, value))
            for name, curve in value["curves"].items():
                curves.setdefault((p.stream, p.config.label), {}).setdefault(
                    name, []).append(curve)
        return SpecOutcome(records, curves, paper, spec, metrics, data, len(configs))

    return Plan([p.run for p in planned], collect)


def spec_header(spec, outcome):
    return [f"{spec.trials} trial(s); protocol {spec.protocol.key()}; "
            f"{outcome.n_configs} learner configuration(s) × {len(spec.streams)} stream(s).",
            ""]


def spec_outputs(reproduction, spec, settings, outcome, out_dir):
    """The engine's outputs of a spec: tables, curve figures, ``streams/``."""
    files = {}
    title = reproduction.title or spec.title or spec.name
    metrics = outcome.metrics
    scalar = [m for m in metrics if not m.curve and m.name not in TIMING]
    timing = [m for m in metrics if not m.curve and m.name in TIMING]
    if scalar:
        files["table"], files["table_csv"] = map(str, write_table(
            outcome, scalar, out_dir, "table", title))
    if timing:
        files["timing"], files["timing_csv"] = map(str, write_table(
            outcome, timing, out_dir, "timing", f"{title}: measured times"))
    for m in metrics:
        if m.curve:
            for path in plot_curves(outcome, m, out_dir, stem=m.name, curves=spec.curves):
                files[f"{m.name}_{path.suffix[1:]}"] = str(path)
    return files


def write_streams(outcome, names, out_dir):
    """``streams/NAME-trial0.csv`` for each stream of ``names``: trial 0's order."""
    spec, files = outcome.spec, {}
    for name in names:
        s = next(x for x in spec.streams if x.name == name)
        stream = apply_transforms(outcome.data[name], s.transforms,
                                  np.random.default_rng(stream_seed(spec.seed, 0)))
        files[f"stream_{name}"] = str(write_stream(
            stream, Path(out_dir) / "streams" / f"{name}-trial0.csv"))
    return files


def spec_record(spec, outcome):
    return {"experiment": jsonable(describe(spec)), "records": outcome.records}


def run_experiment(spec, out_dir, *, n_jobs=1, scheduler=None, force=False, progress=None):
    """Run ``spec`` into ``out_dir``; returns the report (``results.json``'s content plus
    ``reused``/``computed`` run counts, the written ``files`` and the ``results``)."""
    from .reproduction import Reproduction, reproduce

    experiment = Reproduction(spec.name, spec.title or spec.name, spec=lambda: spec)
    report = reproduce(experiment, out_dir, n_jobs=n_jobs, scheduler=scheduler, force=force,
                       progress=progress)
    return dict(report, results=report["outcome"])
