"""The declarative experiment: streams × learners × protocol × trials × metrics.

An :class:`ExperimentSpec` says *what* to run; :mod:`.plan` turns it into independent runs,
:mod:`.runner` executes them (joblib or Dask) through :mod:`.store` (one atomic file per
run, keyed by a hash of its full spec), :mod:`.aggregate` and :mod:`.report` turn the
records into tables, figures and a claims summary. A paper declares a
:class:`~.reproduction.Reproduction`: its spec (or its own runs), its published numbers,
its claims, its tables and figures.

Everything here is plain data (frozen dataclasses); the only behaviour is expansion of a
learner's ``sweep`` into configurations and the per-trial seeds.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np

#: Bumped when the meaning of a stored run changes (enters every run's key).
ENGINE_FORMAT = 1


def callable_name(fn) -> str:
    """``module:qualname`` of a module-level function or class (how it enters a run's key;
    worker processes import it by this name)."""
    if isinstance(fn, str):
        return fn
    module, qualname = getattr(fn, "__module__", None), getattr(fn, "__qualname__", None)
    if not module or not qualname or "<" in qualname:
        raise ValueError(f"{fn!r} must be a module-level function or class (runs are sent to "
                         "other processes by name)")
    return f"{module}:{qualname}"


def resolve_callable(target):
    """The object named ``module:qualname`` (or ``target`` itself when not a string)."""
    if not isinstance(target, str):
        return target
    import importlib

    module, _, qualname = target.partition(":")
    if not qualname:
        raise ValueError(f"{target!r} is not of the form 'module:function'")
    try:
        obj = importlib.import_module(module)
    except ImportError as exc:
        raise ValueError(f"cannot import {module!r} (from {target!r}): {exc}") from None
    for part in qualname.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ValueError(f"{module!r} has no {qualname!r} (from {target!r})") from None
    return obj


@dataclass(frozen=True)
class StreamSpec:
    """A named stream: a data source (:mod:`.sources`) and stream transforms applied in
    order (:mod:`.transforms`), each drawing from the trial's stream generator, so every
    learner of a trial sees the same stream."""

    name: str
    source: Any                      # a Source: key() -> dict, load() -> Data
    transforms: Sequence[Any] = ()   # StreamTransform objects: key(), apply(data, rng)
    label: str | None = None

    @property
    def display(self):
        return self.label or self.name


@dataclass(frozen=True)
class LearnerConfig:
    """One concrete learner of the experiment (a :class:`LearnerSpec` with one ``sweep``
    point): what a run is keyed by."""

    label: str
    name: str
    params: Mapping[str, Any]
    tune: Mapping[str, Sequence[Any]]
    sweep: Mapping[str, Any]
    method: str | None               # "module:function" factory, or None (olc registry)
    group: str                       # the LearnerSpec's label (sweeps share it)


@dataclass(frozen=True)
class LearnerSpec:
    """A learner: an olc registry name with fixed ``params``, or a custom ``method``.

    ``tune``: {parameter: candidate values}, searched by a tuning protocol
    (:class:`~.protocols.TuneThenTest`) on each trial's tuning part; ``sweep``:
    {parameter: values}, each combination (cartesian, in the given order) becomes its own
    learner configuration and its own runs (e.g. a threshold σ against which a feature-count
    vs error curve is drawn). ``method``: a module-level factory
    ``method(params: dict, seed: int) -> OnlineModel`` (:mod:`.models`) for procedures that
    are not registry learners (e.g. feature-selection baselines); ``name`` then only names
    it.
    """

    name: str
    params: Mapping[str, Any] = field(default_factory=dict)
    tune: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    sweep: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    label: str | None = None
    method: Any = None

    def configs(self) -> list[LearnerConfig]:
        label = self.label or self.name
        method = None if self.method is None else callable_name(self.method)
        keys = list(self.sweep)
        out = []
        for values in itertools.product(*(list(self.sweep[k]) for k in keys)):
            point = dict(zip(keys, values))
            suffix = ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                               for k, v in point.items())
            out.append(LearnerConfig(label=f"{label} ({suffix})" if suffix else label,
                                     name=self.name, params={**self.params, **point},
                                     tune={k: list(v) for k, v in self.tune.items()},
                                     sweep=point, method=method, group=label))
        return out


@dataclass(frozen=True)
class ExperimentSpec:
    """streams × learners × protocol × trials, and the metrics to aggregate.

    ``metrics``: names of :data:`.metrics.METRICS` or :class:`.metrics.Metric` objects
    (scalars are averaged over trials with Student-t CIs; curves get CI bands).
    ``seed``: the experiment's seed; trial t of stream s uses :func:`stream_seed` and
    every learner :func:`learner_seed` (see there).
    ``curves``: which learner configurations the curves figure (``<curve metric>.png``)
    shows — None: one per learner (a learner with a ``sweep`` by its best configuration,
    :func:`.report.curve_learners`); ``"all"``: every configuration; or a list of labels,
    each a configuration's label (that configuration) or a learner's label (its best
    configuration)."""

    name: str
    streams: Sequence[StreamSpec]
    learners: Sequence[LearnerSpec]
    protocol: Any                    # a Protocol (:mod:`.protocols`)
    trials: int = 1
    seed: int = 0
    metrics: Sequence[Any] = ("mistakes", "error_rate", "cumulative_error")
    title: str = ""
    curves: Sequence[str] | str | None = None

    def learner_configs(self) -> list[LearnerConfig]:
        return [c for spec in self.learners for c in spec.configs()]


def _seed(*words) -> int:
    return int(np.random.SeedSequence([int(w) for w in words]).generate_state(1)[0])


def stream_seed(seed: int, trial: int) -> int:
    """The seed of trial ``trial``'s stream (the transforms' generator): the same for every
    learner and every stream spec of the trial, so all learners see the same drift draw or
    permutation of a data set."""
    return _seed(seed, trial, 0)


def learner_seed(seed: int, trial: int) -> int:
    """The seed handed to a learner's factory in trial ``trial`` (randomized learners)."""
    return _seed(seed, trial, 1)


@dataclass(frozen=True)
class Claim:
    """A claim of a paper, tested on the records: ``test(results) -> (verdict, evidence)``
    with verdict True/False/None (None: the runs it needs are missing) and a one-line
    evidence string; ``LookupError``: the runs it needs are not part of this run.
    ``results`` is an :class:`~.aggregate.Results` for a spec, or the outcome a
    reproduction's own :class:`~.reproduction.Plan` collects."""

    text: str
    source: str
    test: Callable
