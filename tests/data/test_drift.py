"""olc.data.drift: the schedule of Shen & Dietterich (2009) §4 and the stream drawn from it."""
import numpy as np
import pytest
from scipy.stats import chisquare

from olc.data.drift import (
    SHEN_DIETTERICH_PHASES,
    DriftError,
    Phase,
    drift_stream,
    schedule,
)

# The paper's text, §4 "Datasets", typed in here independently of the module's table:
# (phase, role) -> (probability at the first row, at the last row); unlisted roles are 0.
PAPER = {
    1: {"P1": (0.7, 0.5), "N1": (0.3, 0.5)},
    2: {"P1": (0.5, 0.3), "P2": (0.0, 0.2), "N1": (0.5, 0.5)},
    3: {"P2": (0.5, 0.5), "N1": (0.2, 0.0), "N2": (0.3, 0.5)},
    4: {"P2": (0.5, 0.3), "N2": (0.5, 0.7)},
}
ROLES = ("P1", "P2", "N1", "N2")


def test_schedule_matches_the_paper_at_phase_ends_and_sums_to_one():
    n = 11
    P, roles, phase = schedule(n)
    assert sorted(roles) == sorted(ROLES)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, atol=1e-12)
    assert np.all(P >= 0)
    for k in range(1, 5):
        first, last = (k - 1) * n, k * n - 1
        assert np.all(phase[first:last + 1] == k - 1)
        for r in ROLES:
            a, b = PAPER[k].get(r, (0.0, 0.0))
            j = roles.index(r)
            assert P[first, j] == pytest.approx(a, abs=1e-12)
            assert P[last, j] == pytest.approx(b, abs=1e-12)
            # linear inside the phase: the middle row is the mean of the ends (n odd)
            assert P[first + n // 2, j] == pytest.approx((a + b) / 2, abs=1e-12)


def _window_expectation(a, b, n, lo, hi):
    """Expected count of a role whose probability moves linearly a → b over positions
    0..n-1 (p_i = a + (b − a)·i/(n − 1)), summed over positions lo..hi-1 (closed form)."""
    m = hi - lo
    mean_i = (lo + hi - 1) / 2
    return m * (a + (b - a) * mean_i / (n - 1))


@pytest.mark.parametrize("replace", [True, False])
def test_empirical_class_frequencies_follow_the_schedule(replace):
    n = 6000  # rows per phase; 4 windows of 1500 per phase
    y = np.repeat(np.array([3, 7, 8, 9]), 30000)  # enough rows of each class without replacement
    s = drift_stream(y, {"P1": 3, "P2": 7, "N1": 8, "N2": 9}, n, seed=12345, replace=replace)
    roles = list(s.roles)
    for k in range(1, 5):
        for w in range(4):
            lo, hi = w * n // 4, (w + 1) * n // 4
            got = np.bincount(s.role[(k - 1) * n + lo:(k - 1) * n + hi], minlength=4)
            exp = np.array([_window_expectation(*PAPER[k].get(r, (0.0, 0.0)), n, lo, hi)
                            for r in roles])
            live = exp > 0
            assert np.all(got[~live] == 0), (k, w, got, exp)
            if live.sum() > 1:
                assert chisquare(got[live], exp[live]).pvalue > 1e-4, (k, w, got, exp)
            else:
                assert got[live].sum() == hi - lo


def test_labels_original_classes_and_rows_agree():
    rng = np.random.default_rng(0)
    y = rng.choice(np.array(["three", "seven", "eight", "nine", "other"]), size=5000)
    classes = {"P1": "three", "P2": "seven", "N1": "eight", "N2": "nine"}
    s = drift_stream(y, classes, 200, seed=1)
    assert s.rows.shape == (800,)
    assert np.all(y[s.rows] == s.original)
    for j, r in enumerate(s.roles):
        assert np.all(s.original[s.role == j] == classes[r])
        assert np.all(s.label[s.role == j] == (1.0 if r.startswith("P") else -1.0))
    assert len(np.unique(s.rows)) == s.rows.size  # without replacement: no row twice


def test_seeded():
    y = np.repeat(np.arange(4), 1000)
    c = {"P1": 0, "P2": 1, "N1": 2, "N2": 3}
    a, b = drift_stream(y, c, 100, seed=7), drift_stream(y, c, 100, seed=7)
    assert np.array_equal(a.rows, b.rows)
    assert not np.array_equal(a.rows, drift_stream(y, c, 100, seed=8).rows)


def test_too_few_rows_without_replacement_is_refused_before_drawing():
    y = np.repeat(np.arange(4), [1000, 1000, 5, 1000])
    with pytest.raises(DriftError, match=r"role N1 \(class 2\) needs \d+ rows but the data has 5"):
        drift_stream(y, {"P1": 0, "P2": 1, "N1": 2, "N2": 3}, 100, seed=0)
    s = drift_stream(y, {"P1": 0, "P2": 1, "N1": 2, "N2": 3}, 100, seed=0, replace=True)
    assert set(np.unique(s.rows[s.original == 2])) <= set(np.flatnonzero(y == 2))


def test_bad_schedules_and_mappings():
    y = np.repeat(np.arange(4), 100)
    c = {"P1": 0, "P2": 1, "N1": 2, "N2": 3}
    with pytest.raises(DriftError, match="phase 1 end: probabilities sum to 0.9"):
        drift_stream(y, {"A": 0, "B": 1}, 10, seed=0,
                     phases=[Phase({"A": 0.5, "B": 0.5}, {"A": 0.5, "B": 0.4})])
    with pytest.raises(DriftError, match="no original label for the roles"):
        drift_stream(y, {"P1": 0}, 10, seed=0)
    with pytest.raises(DriftError, match="no row of class 9"):
        drift_stream(y, {**c, "N2": 9}, 10, seed=0)
    with pytest.raises(DriftError, match="rows_per_phase has 2 entries for 4 phases"):
        drift_stream(y, c, [10, 10], seed=0)
    assert len(SHEN_DIETTERICH_PHASES) == 4
