"""From an :class:`~.spec.ExperimentSpec` to runs: validation first, then one
:class:`~.runner.Run` per (stream, learner configuration, trial).

:func:`validate` checks everything that can be checked without data and without writing
(names, metrics, learners built with every parameter value they will get, the protocol's
demands); :func:`load_data` loads each stream's source once (a missing file is reported by
the data registry, naming the file and the folder); :func:`plan` builds the runs.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ... import __version__
from .metrics import metric
from .models import validate_learner
from .protocols import _grid
from .runner import Run
from .spec import ENGINE_FORMAT, callable_name, learner_seed, resolve_callable, stream_seed
from .store import jsonable, run_id
from .transforms import apply_transforms


def _unique(names, what):
    seen = set()
    for n in names:
        if n in seen:
            raise ValueError(f"two {what} are named {n!r}: names must be unique")
        seen.add(n)


def validate(spec):
    """Refuse a spec that cannot run, with a one-line message naming what is wrong."""
    from ...learners.registry import info

    if not spec.streams:
        raise ValueError(f"experiment {spec.name!r}: no streams")
    if not spec.learners:
        raise ValueError(f"experiment {spec.name!r}: no learners")
    if isinstance(spec.trials, bool) or not isinstance(spec.trials, int) or spec.trials < 1:
        raise ValueError(f"trials must be an integer ≥ 1, got {spec.trials!r}")
    _unique([s.name for s in spec.streams], "streams")
    metrics = [metric(m) for m in spec.metrics]
    _unique([m.name for m in metrics], "metrics")
    configs = spec.learner_configs()
    _unique([c.label for c in configs], "learner configurations")
    check_curves(spec.curves, configs)
    for s in spec.streams:
        s.source.check()
    for c in configs:
        where = f"learner {c.label!r}"
        if c.method is None:
            info(c.name)
            for point in _grid(c.tune):
                validate_learner(c.name, {**c.params, **point},
                                 where + (f" with {point}" if point else ""))
        else:
            resolve_callable(c.method)
        spec.protocol.check(c)
    return configs, metrics


def check_curves(curves, configs):
    """``ExperimentSpec.curves``: None, "all", or labels of configurations or learners."""
    if curves is None or curves == "all":
        return
    known = {c.label for c in configs} | {c.group for c in configs}
    if isinstance(curves, str) or not all(isinstance(c, str) for c in curves):
        raise ValueError(f"curves: expected \"all\" or a list of learner labels, got {curves!r}")
    unknown = [c for c in curves if c not in known]
    if unknown:
        raise ValueError(f"curves: unknown learner label(s) {unknown}; the labels are "
                         f"{sorted(known)}")


def load_data(spec):
    """{stream name: Data}, each source loaded once (sources shared by streams are loaded
    once too)."""
    cache, out = {}, {}
    for s in spec.streams:
        k = run_id(s.source.key()) if not hasattr(s.source, "X") else id(s.source)
        if k not in cache:
            cache[k] = s.source.load()
        out[s.name] = cache[k]
    return out


def metric_key(m):
    return {"name": m.name, "fn": callable_name(m.fn) if callable(m.fn) and not
            hasattr(m.fn, "series") else repr(m.fn), "curve": m.curve}


def perform(data, transforms, config, protocol, metrics, s_seed, l_seed):
    """One run: the trial's stream, the protocol, the metrics (in a worker process)."""
    from .metrics import compute

    stream = apply_transforms(data, transforms, np.random.default_rng(s_seed))
    output = protocol.run(config, stream, s_seed, l_seed)
    scalars, curves = compute(metrics, output)
    return {"metrics": scalars, "curves": curves, "extra": jsonable(output.extra)}


@dataclass
class PlannedRun:
    run: Run
    stream: str
    config: object
    trial: int
    seed: int


def plan(spec, data, configs, metrics):
    """One run per (stream, learner configuration, trial), in that nesting order."""
    planned = []
    for s in spec.streams:
        d = data[s.name]
        base = {"engine": ENGINE_FORMAT, "olc": __version__,
                "data": {"source": s.source.key(), "fingerprint": d.fingerprint},
                "transforms": [t.key() for t in s.transforms],
                "protocol": spec.protocol.key(),
                "metrics": [metric_key(m) for m in metrics]}
        for c in configs:
            learner = {"name": c.name, "method": c.method, "params": dict(c.params),
                       "tune": dict(c.tune)}
            for t in range(spec.trials):
                ss, ls = stream_seed(spec.seed, t), learner_seed(spec.seed, t)
                key = dict(base, learner=learner, trial=t, seed=spec.seed,
                           stream_seed=ss, learner_seed=ls)
                run = Run(key=jsonable(key), fn=perform,
                          args=(d, tuple(s.transforms), c, spec.protocol, tuple(metrics), ss, ls),
                          name=f"{s.name}/{c.label}/trial{t}")
                planned.append(PlannedRun(run, s.name, c, t, ss))
    return planned


def record(p, value):
    """The results.json record of a planned run (curves kept apart)."""
    c = p.config
    return {"stream": p.stream, "learner": c.label, "group": c.group, "algorithm": c.name,
            "params": jsonable(dict(c.params)), "sweep": jsonable(dict(c.sweep)),
            "trial": p.trial, "stream_seed": p.seed, "run": run_id(p.run.key)[:16],
            **value["metrics"], **({"extra": value["extra"]} if value.get("extra") else {})}
