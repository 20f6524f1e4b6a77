"""Aggregation over trials: means with confidence intervals, curves with bands.

For n trial values x₁..xₙ the interval is x̄ ± t_{n−1, (1+level)/2} · s/√n, s the sample
standard deviation (ddof = 1) and t the Student-t quantile (``scipy.stats.t.ppf``); with
one trial there is no interval (``half_width`` None). A curve's band is that interval at
each step, over the trials' curves (cut to the shortest, should they differ in length).

Rates (a metric declared ``rate=True``, e.g. the error rate and the cumulative error curve:
each trial's value is a proportion of its predictions) keep that interval where it lies in
[0, 1]. Where it leaves [0, 1] — few trials, a rate near 0 or 1, the first steps of a
curve — it is replaced by :func:`wilson_effective`: the Wilson score interval for a
proportion, with the trials treated as clusters of predictions (Korn & Graubard 1998):
effective sample size n* = p̂(1 − p̂)/se², se = s/√n the t-interval's standard error, and
the same t quantile in place of the normal one. [Decision] Why this interval: the
quantity estimated is the mean rate over trials (random streams), so the spread between
trials has to enter, which rules out a Wilson interval on the pooled counts (it treats
every prediction of every trial as independent and is far too narrow when trials differ);
a bootstrap over 3 trials has 10 distinct resampled means; logit-t fails at a rate of 0,
which every curve has at its first steps. The Wilson form with n* matches the t-interval's
standard error, tends to it as n* grows, and always lies in [0, 1]. Where the t-interval
is inside [0, 1] it is kept, so those numbers are the same as before.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

LEVEL = 0.95
#: The metrics that are rates when the caller does not say (the engine's own).
RATES = ("error_rate", "cumulative_error")


@dataclass(frozen=True)
class Summary:
    """``half_width``: the Student-t half-width; ``lower``/``upper``: the interval's ends
    when it is not mean ± half_width (a rate's :func:`wilson_effective` interval)."""

    mean: float | None
    half_width: float | None
    n: int
    values: tuple
    lower: float | None = None
    upper: float | None = None

    @property
    def low(self):
        if self.lower is not None:
            return self.lower
        return None if self.half_width is None else self.mean - self.half_width

    @property
    def high(self):
        if self.upper is not None:
            return self.upper
        return None if self.half_width is None else self.mean + self.half_width

    @property
    def symmetric(self):
        return self.lower is None


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


def wilson_effective(mean, se, quantile):
    """(lower, upper) of the Wilson score interval of a proportion ``mean`` whose standard
    error is ``se``, with effective sample size n* = mean(1 − mean)/se² and ``quantile`` in
    place of the normal quantile (Korn & Graubard 1998); inside [0, 1] for mean in [0, 1].
    Arrays broadcast. With se = 0 the interval is the point."""
    p = np.clip(np.asarray(mean, dtype=np.float64), 0.0, 1.0)
    se = np.asarray(se, dtype=np.float64)
    c2 = quantile * quantile
    with np.errstate(divide="ignore", invalid="ignore"):
        n = p * (1.0 - p) / (se * se)
        a = c2 / n                       # c²/n*; 0 when se = 0 (n* infinite)
        centre = (p + a / 2.0) / (1.0 + a)
        half = np.sqrt(a * (p * (1.0 - p) + a / 4.0)) / (1.0 + a)
    point = ~(se > 0) | ~np.isfinite(n) | (n <= 0)
    lower = np.where(point, p, np.clip(centre - half, 0.0, 1.0))
    upper = np.where(point, p, np.clip(centre + half, 0.0, 1.0))
    return lower, upper


def rate_interval(values, level=LEVEL) -> Summary:
    """:func:`t_interval` of proportions, with the :func:`wilson_effective` interval where
    the t-interval leaves [0, 1]."""
    s = t_interval(values, level)
    if s.half_width is None or (s.mean - s.half_width >= 0.0 and s.mean + s.half_width <= 1.0):
        return s
    q = t_quantile(s.n, level)
    lower, upper = wilson_effective(s.mean, s.half_width / q, q)
    return Summary(s.mean, s.half_width, s.n, s.values, float(lower), float(upper))


def curve_interval(curves, level=LEVEL, rate=False):
    """(mean, lower, upper) arrays of equal-length curves; lower/upper None for a single
    curve. With ``rate``, steps where the t band leaves [0, 1] take the
    :func:`wilson_effective` interval."""
    mean, half = curve_band(curves, level)
    if half is None:
        return mean, None, None
    lower, upper = mean - half, mean + half
    if rate:
        out = (lower < 0.0) | (upper > 1.0)
        if out.any():
            q = t_quantile(len(curves), level)
            wl, wu = wilson_effective(mean[out], half[out] / q, q)
            lower, upper = lower.copy(), upper.copy()
            lower[out], upper[out] = wl, wu
    return mean, lower, upper


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

    def __init__(self, records, curves=None, paper=None, spec=None, rates=None):
        self.records = list(records)
        self.curves = curves or {}
        self.paper = dict(paper or {})
        self.spec = spec
        self.rates = frozenset(RATES if rates is None else rates)

    def interval(self, metric, values, level=LEVEL) -> Summary:
        """The interval of ``metric``'s trial values (a rate's stays in [0, 1])."""
        return (rate_interval if metric in self.rates else t_interval)(values, level)

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
        return self.interval(metric, self.values(stream, learner, metric), level)

    def curve(self, stream, learner, metric="cumulative_error", level=LEVEL):
        """(mean, t half-width) of a curve over the trials."""
        return curve_band(self.curves.get((stream, learner), {}).get(metric, []), level)

    def curve_bounds(self, stream, learner, metric="cumulative_error", level=LEVEL):
        """(mean, lower, upper) of a curve over the trials (:func:`curve_interval`; a
        rate's band stays in [0, 1])."""
        return curve_interval(self.curves.get((stream, learner), {}).get(metric, []), level,
                              rate=metric in self.rates)

    def sweep(self, stream, group, x_metric, y_metric, level=LEVEL):
        """[(sweep point, Summary of x, Summary of y)] over a sweep group's configurations
        (e.g. mean features used against error rate, one point per σ)."""
        out = []
        for learner in dict.fromkeys(r["learner"] for r in self.select(stream, group=group)):
            rs = self.select(stream, learner)
            out.append((rs[0]["sweep"],
                        self.interval(x_metric, [r.get(x_metric) for r in rs], level),
                        self.interval(y_metric, [r.get(y_metric) for r in rs], level)))
        return out

    def paper_value(self, stream, learner, metric):
        return self.paper.get((stream, learner, metric))
