"""Metrics of a run, computed from its :class:`~.protocols.RunOutput`.

A :class:`Metric` has a ``name``, a function ``fn(output) -> number`` (a scalar) or
``-> array`` (a curve, one value per evaluated step; ``curve=True``), and a ``label``
for tables and figures; ``rate=True`` for proportions (their intervals stay in [0, 1]).
Scalars are averaged over trials with confidence intervals, curves get CI bands
(:mod:`.aggregate`). The functions must be module-level
(or picklable objects such as :class:`SeriesMean`): runs compute their metrics in worker
processes. Names in a spec are looked up in :data:`METRICS`; ``mean:<series>`` means
:class:`SeriesMean` of the model's per-step series ``<series>``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class Metric:
    name: str
    fn: Callable
    curve: bool = False
    label: str = ""
    rate: bool = False     # each value a proportion in [0, 1]: intervals stay in [0, 1]

    @property
    def display(self):
        return self.label or self.name


def _mistakes(out):
    return int(np.count_nonzero(out.pred != out.y))


def _error_rate(out):
    return _mistakes(out) / max(len(out.y), 1)


def _updates(out):
    return None if out.updated is None else int(np.count_nonzero(out.updated))


def _seconds(out):
    return float(out.seconds)


def _steps(out):
    return int(len(out.y))


def _cumulative_error(out):
    """Mistakes up to step t over t, t = 1..n (of the evaluated part)."""
    wrong = np.cumsum(out.pred != out.y)
    return wrong / np.arange(1, len(wrong) + 1)


@dataclass(frozen=True)
class SeriesMean:
    """The mean over the evaluated steps of the model's per-step series (e.g. the average
    number of features used per iteration).

    [Decision] A run whose model reports no series of that name (e.g. a plain registry
    learner next to custom procedures that report ``features``), or reports it empty (no
    evaluated step), has no value: None, stored as null and left out of the means (the
    table shows "—"). A learner's table cell is then empty rather than the whole
    experiment failing."""

    series: str

    def __call__(self, out):
        values = out.series.get(self.series) if out.series else None
        if values is None or len(values) == 0:
            return None
        return float(np.mean(values))


METRICS = {
    "mistakes": Metric("mistakes", _mistakes, label="mistakes"),
    "error_rate": Metric("error_rate", _error_rate, label="error rate", rate=True),
    "updates": Metric("updates", _updates, label="updates"),
    "steps": Metric("steps", _steps, label="steps"),
    "seconds": Metric("seconds", _seconds, label="time (s)"),
    "cumulative_error": Metric("cumulative_error", _cumulative_error, curve=True,
                               label="cumulative error rate", rate=True),
}

#: Metrics that measure time: kept out of the tables that must be equal between a clean run
#: and a resumed one (they go to their own timing table).
TIMING = ("seconds",)


def metric(spec):
    """A :class:`Metric` from a name of :data:`METRICS`, ``mean:<series>``, or itself."""
    if isinstance(spec, Metric):
        return spec
    if isinstance(spec, str) and spec.startswith("mean:") and len(spec) > 5:
        return Metric(spec, SeriesMean(spec[5:]), label=f"mean {spec[5:]}")
    try:
        return METRICS[spec]
    except (KeyError, TypeError):
        raise ValueError(f"unknown metric {spec!r}; known: {', '.join(METRICS)}, "
                         "mean:<series>") from None


def compute(metrics, output):
    """({name: scalar}, {name: curve list}) of one run."""
    scalars, curves = {}, {}
    for m in metrics:
        value = m.fn(output)
        if m.curve:
            curves[m.name] = [float(v) for v in np.asarray(value, dtype=np.float64)]
        else:
            scalars[m.name] = None if value is None else (
                int(value) if isinstance(value, (int, np.integer)) else float(value))
    return scalars, curves
