"""Rates' intervals stay in [0, 1]: the Student-t interval where it lies inside, else the
Wilson score interval with the trials' effective sample size (Korn & Graubard 1998)."""
import math

import numpy as np
import pytest
from scipy.stats import t as student_t

from olc.experiments.engine.aggregate import (Results, curve_interval, rate_interval,
                                              t_interval, wilson_effective)
from olc.experiments.engine.report import error_bars, y_range


def _wilson_by_roots(p, se, c):
    """The Wilson interval as the roots of (p̂ − π)² = c²·π(1 − π)/n*, n* = p̂(1 − p̂)/se²
    (the score test inverted), solved as a quadratic in π by numpy."""
    n = p * (1 - p) / se ** 2
    a, b, k = 1 + c * c / n, -(2 * p + c * c / n), p * p
    return sorted(np.roots([a, b, k]).real)


@pytest.mark.parametrize("p, se, c", [(0.05, 0.04, 4.30), (0.5, 0.1, 2.0), (0.01, 0.002, 2.02),
                                      (0.97, 0.03, 3.18)])
def test_wilson_effective_is_the_inverted_score_test(p, se, c):
    lo, hi = wilson_effective(p, se, c)
    rlo, rhi = _wilson_by_roots(p, se, c)
    assert float(lo) == pytest.approx(rlo, abs=1e-12)
    assert float(hi) == pytest.approx(rhi, abs=1e-12)
    assert 0.0 <= lo <= p <= hi <= 1.0


def test_rate_interval_keeps_the_t_interval_inside_the_range():
    values = [0.30, 0.35, 0.28, 0.33, 0.31]
    s, t = rate_interval(values), t_interval(values)
    assert s.symmetric and (s.low, s.high) == (t.low, t.high)


def test_rate_interval_replaces_a_t_interval_that_leaves_the_range():
    values = [0.0, 0.0, 1.0]          # three trials, one error at step 1 in one of them
    t = t_interval(values)
    assert t.low < 0                  # the defect: Student-t reaches below 0
    s = rate_interval(values)
    assert not s.symmetric and 0.0 <= s.low < s.mean < s.high <= 1.0
    q = student_t.ppf(0.975, 2)
    se = np.std(values, ddof=1) / math.sqrt(3)
    assert [s.low, s.high] == pytest.approx(_wilson_by_roots(1 / 3, se, q), abs=1e-12)


def test_every_rate_interval_lies_in_the_unit_interval():
    rng = np.random.default_rng(0)
    left = 0
    for _ in range(2000):
        k = int(rng.integers(2, 12))
        p = rng.choice([0.001, 0.02, 0.2, 0.5, 0.9, 0.995])
        n = int(rng.integers(1, 60))
        values = rng.binomial(n, p, size=k) / n
        s, t = rate_interval(values), t_interval(values)
        assert 0.0 <= s.low <= s.mean <= s.high <= 1.0
        left += (t.low < 0) or (t.high > 1)
    assert left > 100                 # the t-interval left the range often enough to test


def test_wilson_effective_tends_to_the_t_interval():
    """Many trials: n* is large and both intervals agree to a small fraction of a width."""
    rng = np.random.default_rng(1)
    values = rng.binomial(200, 0.02, size=400) / 200
    t = t_interval(values)
    q = student_t.ppf(0.975, 399)
    lo, hi = wilson_effective(t.mean, t.half_width / q, q)
    assert float(lo) == pytest.approx(t.low, abs=0.03 * t.half_width)
    assert float(hi) == pytest.approx(t.high, abs=0.03 * t.half_width)


def test_curve_band_of_a_rate_stays_in_range_and_equals_t_where_t_does():
    rng = np.random.default_rng(2)
    wrong = rng.random((3, 400)) < 0.08
    curves = [np.cumsum(w) / np.arange(1, 401) for w in wrong]
    mean, lower, upper = curve_interval(curves, rate=True)
    assert (lower >= 0).all() and (upper <= 1).all() and (lower <= mean).all() and \
        (mean <= upper).all()
    m2, half = Results([], {("s", "a"): {"c": curves}}).curve("s", "a", "c")
    inside = (m2 - half >= 0) & (m2 + half <= 1)
    assert inside.any() and (~inside).any()
    np.testing.assert_array_equal(lower[inside], (m2 - half)[inside])
    # not declared a rate: the plain t band, which leaves the range
    _, lo_plain, _ = curve_interval(curves, rate=False)
    assert (lo_plain < 0).any()


def test_results_use_the_rate_interval_for_declared_rates_only():
    recs = [{"stream": "s", "learner": "a", "group": "a", "trial": i, "error_rate": v,
             "mistakes": v} for i, v in enumerate([0.0, 0.0, 1.0])]
    r = Results(recs)
    assert r.mean("s", "a", "error_rate").low >= 0          # a rate by default
    assert r.mean("s", "a", "mistakes").low < 0             # not a rate
    assert Results(recs, rates=()).mean("s", "a", "error_rate").low < 0


def test_axis_range_skips_the_first_steps():
    x = np.arange(1, 1001)
    y = np.r_[np.full(20, 0.9), np.full(980, 0.1)]
    lo, hi = y_range([{"x": x, "y": y, "lower": y - 0.01, "upper": y + 0.01}])
    assert lo == pytest.approx(0.09 - 0.001) and hi == pytest.approx(0.11 + 0.001)
    assert y_range([{"x": [], "y": []}]) is None


def test_error_bars_are_asymmetric_for_a_rate():
    s = rate_interval([0.0, 0.0, 1.0])
    below, above = error_bars([s])
    assert below[0] == pytest.approx(s.mean - s.low) and above[0] == pytest.approx(s.high - s.mean)
    assert below[0] != above[0]
