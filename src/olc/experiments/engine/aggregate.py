"""Aggregation over trials: means with Student-t confidence intervals, curves with bands.

For n trial values x₁..xₙ the interval is x̄ ± t_{n−1, (1+level)/2} · s/√n, s the sample
standard deviation (ddof = 1) and t the Student-t quantile (``scipy.stats.t.ppf``); with
one trial there is no interval (``half_width`` None). A curve's band is that interval at
each step, over the trials' curves (cut to the shortest, should they differ in length).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

LEVEL = 0.95


@dataclass(frozen=True)
class Summary:
    mean: float | None
    half_width: float | None
    n: int
    values: tuple

    @property
    def low(self):
        return None if self.half_width is None else self.mean - self.half_width

    @property
    def high(self):
        return None if self.half_width is None else self.mean + self.half_width


def t_quantile(n, level=LEVEL):
    from scipy.stats import t

    return float(t.ppf(0.5 + level / 2.0, n - 1))


def t_interval(values, level=LEVEL) -> Summary:
    """Mean and Student-t half-width of the non-missing ``values``."""
    v = [float(x) for x in values if x is not None and not (isinstance(x, float) and
                                                            math.isnan(x))]
    n = len(v)
    if n == 0:
        return Summary(None, None, 0, ())
    mean = float(np.mean(v))
    if n < 2:
        return Summary(mean, None, 1, tuple(v))
    half = t_quantile(n, level) * float(np.std(v, ddof=1)) / math.sqrt(n)
    return Summary(mean, half, n, tuple(v))


def curve_band(curves, level=LEVEL):
    """(mean, half-width) arrays of equal-length curves (one per trial); half-width None
    for a single curve."""
    if not curves:
        return np.array([]), None
    length = min(len(c) for c in curves)
    A = np.array([np.asarray(c[:length], dtype=np.float64) for c in curves])
    mean = A.mean(axis=0)
    if A.shape[0] < 2:
        return mean, None
    half = t_quantile(A.shape[0], level) * A.std(axis=0, ddof=1) / math.sqrt(A.shape[0])
    return mean, half


class Results:
    """The records of an experiment (one per run) and their curves, with lookups.

    ``records``: dicts with ``stream``, ``learner``, ``group``, ``trial``, the scalar metrics
    (and more, see :func:`.plan.record`); ``curves``: {(stream, learner): {metric: [curve per
    trial]}}; ``paper``: {(stream, learner, metric): published value}."""

    def __init__(self, records, curves=None, paper=None, spec=None):
        self.records = list(records)
        self.curves = curves or {}
        self.paper = dict(paper or {})
        self.spec = spec

    def streams(self):
        return list(dict.fromkeys(r["stream"] for r in self.records))

    def learners(self, stream=None):
        return list(dict.fromkeys(r["learner"] for r in self.records
                                  if stream is None or r["stream"] == stream))

    def select(self, stream=None, learner=None, group=None):
        return [r for r in self.records if (stream is None or r["stream"] == stream) and
                (learner is None or r["learner"] == learner) and
                (group is None or r["group"] == group)]

    def values(self, stream, learner, metric):
        return [r.get(metric) for r in self.select(stream, learner)]

    def mean(self, stream, learner, metric, level=LEVEL) -> Summary:
        return t_interval(self.values(stream, learner, metric), level)

    def curve(self, stream, learner, metric="cumulative_error", level=LEVEL):
        return curve_band(self.curves.get((stream, learner), {}).get(metric, []), level)

    def sweep(self, stream, group, x_metric, y_metric, level=LEVEL):
        """[(sweep point, Summary of x, Summary of y)] over a sweep group's configurations
        (e.g. mean features used against error rate, one point per σ)."""
        out = []
        for learner in dict.fromkeys(r["learner"] for r in self.select(stream, group=group)):
            rs = self.select(stream, learner)
            out.append((rs[0]["sweep"], t_interval([r.get(x_metric) for r in rs], level),
                        t_interval([r.get(y_metric) for r in rs], level)))
        return out

    def paper_value(self, stream, learner, metric):
        return self.paper.get((stream, learner, metric))
