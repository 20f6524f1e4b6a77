"""Ho-Nguyen et al. 2025, Example 5.1: three points, z¹ = ((c, 1), +1), z² = ((c, −1), −1),
z³ = ((c + r, −1), −1) with r = 2/c, c > 2 (so r < 1).

* e-OMM / ce-OMM, any ρ ∈ [0, 1]: at most two mistakes on any sequence of these points.
* The perceptron with b* = 0 known a priori (fit_intercept=False), on z¹, z³, z¹, z³, …,
  updates at every round t ≤ m := ⌊(c² + 4/c² + 5)/(2(1 + 1/c²))⌋ — the paper counts these
  updates as "mistakes" (its rule updates when y·w·x ≤ 0). Algebra:
  (c² + 4/c² + 5)/(2(1 + 1/c²)) = (c⁴ + 5c² + 4)/(2(c² + 1)) = (c² + 4)/2, so m = ⌊c²/2⌋ + 2.

Floating point (the knife edge). In exact arithmetic the perceptron's score on z¹ at odd t is
(t − 1)(−rc/2 + 1) = 0: z¹ is predicted correctly (sign(0) = +1) but updated on (y·s ≤ 0).
The float64 perceptron never multiplies by r: by hand, t = 1: w = 0, s = 0, update, w = (c, 1);
t = 2: s = c·fl(c + r) − 1 > 0, update, w = (c ⊖ fl(c + r), 2) = (−r′, 2) where
r′ := fl(c + r) − c (exact, Sterbenz); t = 3: s₃ = fl(fl(−r′·c) + 2) (the dot product summed
left to right). So the sign of s₃ — not of fl(c·r) − 2 — decides what happens:
  s₃ > 0: z¹ is not updated on; w = (−r′, 2) then classifies z¹ (s₃ > 0) and z³
          (−r′·fl(c+r) − 2 < 0) correctly forever: exactly 2 updates and 1 wrong prediction
          (t = 2), for every c of this class — the Ω(c²) lower bound disappears;
  s₃ = 0: the exact-arithmetic path (all rounds t ≤ m are updates);
  s₃ < 0: z¹ rounds become real mistakes (prediction −1) and are updated on.
This file asserts those consequences on a grid of c, with s₃ computed as derived above.
A second knife edge: in exact arithmetic the score on z³ at even t is
(c − (t/2 − 1)r)(c + r) − (t − 1) = c² + 5 − 2t − (t − 2)·2/c², which vanishes at
t = (c² + 4)/2 — a round of the stream exactly when c² is an even integer, and then t = m.
There the sign of a tiny accumulated rounding error decides, so for such c only the rounds
t ≤ m − 1 are asserted (on the grid below some even integers c do lose that last update).

Lecture rule (update="mistake": update only when sign(s) ≠ y, sign(0) = +1): by hand, t = 1:
s = 0, correct, no update; t = 2: mistake, w = (−fl(c + r), 1); t = 3: s = −fl(c+r)·c + 1 < 0,
mistake, w = (−r′, 2); from then on z³ is correct and z¹ scores s₃: if s₃ ≥ 0 it is correct
too, so the lecture rule makes exactly 2 mistakes and 2 updates in total (for power-of-two c,
where s₃ = 0 exactly, this is the exact-arithmetic behaviour: the zero-score z¹ rounds that
the paper counts are not mistakes). If s₃ < 0 the lecture rule follows the paper's path two
rounds late.
"""
import math
from fractions import Fraction

import numpy as np
import pytest

import olc


def _points(c):
    r = 2.0 / c
    X = np.array([[c, 1.0], [c, -1.0], [c + r, -1.0]])
    y = np.array([1, -1, -1])
    return X, y


def _m_paper(c):
    """The paper's m, evaluated exactly on the double c (float evaluation of the formula is
    itself on a knife edge: at c = 42 it gives 883.999… instead of 884)."""
    cf = Fraction(c)
    return math.floor((cf * cf + 4 / cf ** 2 + 5) / (2 * (1 + 1 / cf ** 2)))


def _s3(c):
    """The float64 score on z¹ at t = 3 (derivation in the module docstring)."""
    r = 2.0 / c
    r_prime = (c + r) - c
    return (-r_prime * c) + 2.0


def _alternating(c, n):
    X, y = _points(c)
    idx = np.tile([0, 2], n // 2)
    return X[idx], y[idx]


def _perceptron_run(c, n, update="margin"):
    X, y = _alternating(c, n)
    p = olc.make("perceptron", fit_intercept=False, update=update)
    # d = 2: every summation order gives the same dot product; strict mode for good measure.
    with olc.strict_mode():
        rec = p.predict_then_learn(X, y, classes=[-1, 1])
    return rec, y


def _last_round_is_tie(c):
    c2 = Fraction(c) ** 2
    return c2.denominator == 1 and c2.numerator % 2 == 0


# -- e-OMM: at most two mistakes -------------------------------------------------------------

OMM_LEARNERS = [("e-omm", {}), ("ce-omm", {}), ("e-omm", {"rho": 0.25}),
                ("e-omm", {"rho": 0.5}), ("e-omm", {"rho": 0.75}), ("e-omm", {"rho": 0.0})]


@pytest.mark.parametrize("c", [2.01, 2.5, 3.0, 4.0, 7.3, 10.0, 50.0, 1000.0])
@pytest.mark.parametrize("name,params", OMM_LEARNERS,
                         ids=[f"{n}{p}" for n, p in OMM_LEARNERS])
def test_omm_at_most_two_mistakes(name, params, c):
    X, y = _points(c)
    for seed in range(10):
        idx = np.random.default_rng([seed, int(c * 100)]).integers(0, 3, size=200)
        learner = olc.make(name, **params)
        rec = learner.predict_then_learn(X[idx], y[idx], classes=[-1, 1])
        assert np.count_nonzero(rec.pred != y[idx]) <= 2, (seed, rec.pred, y[idx])


@pytest.mark.parametrize("c", [2.5, 4.0, 10.0, 50.0])
def test_omm_at_most_two_mistakes_on_the_perceptron_killer(c):
    """The alternating z¹, z³ sequence that defeats the perceptron."""
    X, y = _alternating(c, 2 * _m_paper(c) + 20)
    for name, params in OMM_LEARNERS:
        rec = olc.make(name, **params).predict_then_learn(X, y, classes=[-1, 1])
        assert np.count_nonzero(rec.pred != y) <= 2


# -- the perceptron lower bound, where arithmetic is exact -----------------------------------

def test_m_closed_form():
    for c in [2.01, 2.5, 3.0, 4.0, 7.3, 8.0, 16.0, 20.0, 33.3, 42.0, 50.0]:
        cf = Fraction(c)
        assert _m_paper(c) == math.floor((cf * cf + 4) / 2)


@pytest.mark.parametrize("c", [4.0, 8.0, 16.0, 32.0, 64.0])
def test_perceptron_power_of_two_c_exact(c):
    """c = 2^k: r = 2/c, c + r and all partial sums are exact dyadic numbers, so the float
    run is the exact-arithmetic run: z¹ scores exactly 0 and is updated on, every round
    t ≤ m is an update, and the count grows like c²/2."""
    r = 2.0 / c
    assert c * r == 2.0 and (c + r) - c == r and _s3(c) == 0.0
    m = _m_paper(c)
    assert m == int(c * c) // 2 + 2
    rec, y = _perceptron_run(c, 2 * m + 20)
    odd = np.arange(0, m, 2)   # rounds t = 1, 3, 5, … (z¹)
    even = np.arange(1, m, 2)  # rounds t = 2, 4, … (z³)
    assert np.all(rec.score[odd] == 0.0)
    assert rec.updated[:m].all()             # the paper's ≥ m "mistakes" (updates)
    assert np.all(rec.pred[odd] == 1)        # … of which the z¹ ones predict correctly
    assert np.all(rec.pred[even] == 1)       # and the z³ ones are real mistakes
    assert np.count_nonzero(rec.updated) >= m
    assert np.count_nonzero(rec.pred != y) >= len(even)


def test_perceptron_mistakes_grow_like_c_squared():
    counts = {}
    for c in [4.0, 8.0, 16.0, 32.0, 64.0]:
        rec, _ = _perceptron_run(c, 2 * _m_paper(c) + 20)
        counts[c] = np.count_nonzero(rec.updated)
    for c, k in counts.items():
        assert 0.5 <= k / c ** 2 <= 0.5 + 4 / c ** 2  # m = c²/2 + 2 ≤ k ≤ m + few
    ratios = [counts[2 * c] / counts[c] for c in [4.0, 8.0, 16.0, 32.0]]
    assert all(q > 3.0 for q in ratios) and ratios[-1] > 3.9  # doubling c: ×4 asymptotically


# -- the float64 knife edge on a grid of c ---------------------------------------------------

GRID = [round(2.5 + 0.1 * k, 10) for k in range(476)]  # 2.5, 2.6, …, 50.0


def test_grid_classes():
    """What float64 does on the grid: c·r == 2.0 for most c, yet s₃ takes all three signs,
    and c·r − 2 does not predict the sign of s₃."""
    s3 = np.array([_s3(c) for c in GRID])
    cr_exact = np.array([c * (2.0 / c) == 2.0 for c in GRID])
    assert (s3 > 0).any() and (s3 == 0).any() and (s3 < 0).any()
    assert (~cr_exact).any()                          # c with fl(c·(2/c)) ≠ 2 exist …
    assert (s3[~cr_exact] > 0).any() and (s3[~cr_exact] < 0).any()   # … of both kinds
    assert (s3[cr_exact] > 0).any() and (s3[cr_exact] < 0).any()     # and c·r == 2 too
    # the brief's candidate example: 3·(2/3) == 2.0 in float64, yet s₃ > 0
    assert 3.0 * (2.0 / 3.0) == 2.0 and _s3(3.0) > 0


@pytest.mark.parametrize("chunk", range(4))
def test_perceptron_follows_sign_of_s3(chunk):
    for c in GRID[chunk::4]:
        m = _m_paper(c)
        s3 = _s3(c)
        rec, y = _perceptron_run(c, 2 * m + 40)
        n_upd = int(np.count_nonzero(rec.updated))
        n_err = int(np.count_nonzero(rec.pred != y))
        assert rec.updated[0] and rec.updated[1]  # t = 1 (s = 0) and t = 2 always
        if s3 > 0:
            assert rec.score[2] == s3 and not rec.updated[2] and rec.pred[2] == 1
            assert (n_upd, n_err) == (2, 1), c
        else:
            assert rec.score[2] == s3 and rec.updated[2]
            assert rec.pred[2] == (1 if s3 == 0 else -1)
            sure = m - 1 if _last_round_is_tie(c) else m
            assert rec.updated[:sure].all(), c
            if s3 < 0:  # the z¹ rounds t = 3, 5, … < m are real mistakes now
                assert np.all(rec.pred[2:sure:2] == -1), c


@pytest.mark.parametrize("chunk", range(4))
def test_lecture_rule_zero_score_is_not_a_mistake(chunk):
    for c in GRID[chunk::4]:
        m = _m_paper(c)
        s3 = _s3(c)
        rec, y = _perceptron_run(c, 2 * m + 40, update="mistake")
        n_upd = int(np.count_nonzero(rec.updated))
        n_err = int(np.count_nonzero(rec.pred != y))
        # with the lecture rule every update is a mistake and vice versa
        assert np.array_equal(rec.updated, rec.pred != y)
        assert not rec.updated[0]  # t = 1: s = 0, predicted +1 = y: no update
        if s3 >= 0:
            assert (n_upd, n_err) == (2, 2), c
            assert list(np.flatnonzero(rec.updated)) == [1, 2]
        else:
            assert rec.updated[4] and n_upd >= m - 1, c  # the paper's path, two rounds late


@pytest.mark.parametrize("c", [4.0, 8.0, 16.0, 32.0])
def test_lecture_rule_power_of_two(c):
    """Exact arithmetic (c = 2^k): the paper's ≥ m count relies on updating at score 0;
    the lecture rule does not, and makes exactly 2 mistakes on the same sequence."""
    m = _m_paper(c)
    rec, y = _perceptron_run(c, 2 * m + 20, update="mistake")
    assert np.count_nonzero(rec.pred != y) == 2
    assert np.count_nonzero(rec.updated) == 2
    assert np.all(rec.score[4::2] == 0.0)  # z¹ keeps scoring exactly 0, predicted correctly
