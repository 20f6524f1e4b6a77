"""``run_experiment``: a spec in, the outputs of :mod:`.report` out.

Order, so that bad input fails before anything is written: validate the spec (learners
built with every value they will get), check the output folder, load the data, plan the
runs; only then create the folder, execute the runs (reusing stored ones) and write the
outputs, each atomically.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from .aggregate import Results
from .metrics import TIMING
from .plan import load_data, plan, record, validate
from .report import plot_curves, summary_markdown, write_results, write_stream, write_table
from .runner import execute
from .spec import stream_seed
from .store import RunStore, jsonable
from .transforms import apply_transforms
from ..._atomic import check_out_dir  # noqa: F401  (re-exported: the engine's API)


def describe(spec):
    return {"name": spec.name, "title": spec.title, "trials": spec.trials, "seed": spec.seed,
            "curves": spec.curves,
            "protocol": spec.protocol.key(),
            "streams": [{"name": s.name, "source": s.source.key(),
                         "transforms": [t.key() for t in s.transforms]} for s in spec.streams],
            "learners": [{"label": c.label, "name": c.name, "method": c.method,
                          "params": dict(c.params), "tune": dict(c.tune),
                          "sweep": dict(c.sweep)} for c in spec.learner_configs()]}


def run_experiment(spec, out_dir, *, n_jobs=1, scheduler=None, force=False, progress=None,
                   reproduction=None):
    """Run ``spec`` into ``out_dir``; returns the report (``results.json``'s content plus
    ``reused``/``computed`` run counts and the written ``files``)."""
    configs, metrics = validate(spec)
    check_out_dir(out_dir)
    data = load_data(spec)
    planned = plan(spec, data, configs, metrics)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="olc-data-") as shared:
        if n_jobs != 1 and scheduler is None:   # worker processes: send the data by file
            mapped = {}
            for name, d in data.items():
                mapped.setdefault(id(d), d.memory_mapped(shared))
            planned = plan(spec, {k: mapped[id(d)] for k, d in data.items()}, configs, metrics)
        done = execute([p.run for p in planned], RunStore(out_dir / "runs"), n_jobs=n_jobs,
                       scheduler=scheduler, force=force, progress=progress,
                       label=f"{spec.name} runs")
    records, curves = [], {}
    for p, value in zip(planned, done.values):
        records.append(record(p, value))
        for name, curve in value["curves"].items():
            curves.setdefault((p.stream, p.config.label), {}).setdefault(name, []).append(curve)
    paper = reproduction.paper if reproduction is not None else {}
    results = Results(records, curves, paper, spec)
    files = {}
    scalar = [m for m in metrics if not m.curve and m.name not in TIMING]
    timing = [m for m in metrics if not m.curve and m.name in TIMING]
    title = (reproduction.title if reproduction is not None else spec.title) or spec.name
    if scalar:
        files["table"], files["table_csv"] = map(str, write_table(
            results, scalar, out_dir, "table", title))
    if timing:
        files["timing"], files["timing_csv"] = map(str, write_table(
            results, timing, out_dir, "timing", f"{title}: measured times"))
    for m in metrics:
        if m.curve:
            for path in plot_curves(results, m, out_dir, stem=m.name, curves=spec.curves):
                files[f"{m.name}_{path.suffix[1:]}"] = str(path)
    if reproduction is not None:
        if reproduction.figures is not None:
            files.update({k: str(v) for k, v in
                          reproduction.figures(results, out_dir).items()})
        for name in reproduction.streams_to_write:
            s = next(x for x in spec.streams if x.name == name)
            stream = apply_transforms(data[name], s.transforms,
                                      np.random.default_rng(stream_seed(spec.seed, 0)))
            files[f"stream_{name}"] = str(write_stream(
                stream, out_dir / "streams" / f"{name}-trial0.csv"))
    claims = reproduction.claims if reproduction is not None else ()
    from ..._atomic import write_text

    header = [f"{spec.trials} trial(s); protocol {spec.protocol.key()}; "
              f"{len(configs)} learner configuration(s) × {len(spec.streams)} stream(s).", ""]
    files["summary"] = str(write_text(out_dir / "summary.md",
                                      summary_markdown(title, results, claims, header)))
    files["json"] = str(out_dir / "results.json")
    report = {"experiment": jsonable(describe(spec)), "records": records, "files": files}
    write_results(out_dir / "results.json", report)
    return dict(report, reused=done.reused, computed=done.computed, results=results)
