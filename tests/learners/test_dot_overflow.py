"""The compiled dot products never make NaN from finite weights and finite values: an
overflowing sum is recomputed scaled, giving ±inf with the right sign when |v·x| is beyond
the largest double, else its finite value — compared with the exact sum in rationals."""
from fractions import Fraction

import numba
import numpy as np
import pytest

from olc._compiled.kernels.scaled import sv_dot
from olc._compiled.kernels.vector import dot

BIG = np.finfo(np.float64).max


def exact(v, x, c=1.0):
    """c·(v·x) rounded once, ±inf beyond the largest double (Python's float(Fraction)
    refuses to overflow, so the range is tested first)."""
    s = Fraction(c) * sum((Fraction(float(a)) * Fraction(float(b)) for a, b in zip(v, x)),
                          Fraction(0))
    if abs(s) > Fraction(BIG) + Fraction(2.0 ** 970):   # beyond max + half an ulp
        return np.inf if s > 0 else -np.inf
    return float(s)


@numba.njit
def dense(v, x, fast):
    return dot(v, None, x, fast)


@numba.njit
def sparse(v, idx, x, fast):
    return dot(v, idx, x, fast)


@numba.njit
def sparse_binary(v, idx, fast):
    return dot(v, idx, None, fast)


@numba.njit
def scaled(v, s, x, fast):
    return sv_dot(v, s, None, x, fast)


CASES = [
    # +inf and −inf partial sums: NaN before; the true value is finite
    ([1e308, 1e308, -1e308, -1e308, 3.0], [10.0, 10.0, 10.0, 10.0, 1.0]),
    # the sum overflows although the value is finite (1e308 + 1e308 − 1e308)
    ([1e308, 1e308, -1e308], [1.0, 1.0, 1.0]),
    # genuinely beyond the range: +inf, and −inf
    ([1e200, 1e200, -1.0], [1e200, 1e200, 1.0]),
    ([-1e300, 1e-300, 2.0], [1e100, 1.0, 1.0]),
    # tiny weights, huge values (the scale of each side is found separately)
    ([1e-300, -2e-300, 5e-310], [1.7e308, 1.7e308, 1.7e308]),
    # mixed signs beyond the range on both sides: the sign of the true value
    ([1.5e308, -1e308, 1.2e308, -1.6e308, 1e308], [1e10, 1e10, 1e10, 1e10, 1e10]),
]


@pytest.mark.parametrize("fast", [False, True], ids=["strict", "fast"])
@pytest.mark.parametrize("v, x", CASES)
def test_an_overflowing_dot_is_recomputed_exactly(v, x, fast):
    v, x = np.array(v), np.array(x)
    want = exact(v, x)
    got = dense(v, x, fast)
    assert not np.isnan(got)
    if np.isinf(want):
        assert got == want
    else:
        assert got == pytest.approx(want, rel=1e-15, abs=1e-300)
    # the same row as CSR, over a longer weight vector
    w = np.zeros(20)
    idx = np.array([3, 5, 8, 13, 19][:v.size], dtype=np.uint32)
    w[idx] = v
    got = sparse(w, idx, x, fast)
    assert got == want if np.isinf(want) else got == pytest.approx(want, rel=1e-15, abs=1e-300)


@pytest.mark.parametrize("fast", [False, True], ids=["strict", "fast"])
def test_binary_rows_and_finite_sums_are_unchanged(fast):
    w = np.array([1e308, 1e308, -1e308, 4.0])
    idx = np.array([0, 1, 2, 3], dtype=np.uint32)
    assert sparse_binary(w, idx, fast) == exact(w, np.ones(4))        # 1e308 + 4
    rng = np.random.default_rng(0)
    v, x = rng.normal(size=50), rng.normal(size=50)
    left_to_right = 0.0
    for a, b in zip(v, x):
        left_to_right += float(a) * float(b)
    assert dense(v, x, False) == left_to_right


def test_a_nan_or_inf_value_still_gives_a_non_finite_score():
    """The loops' contract: a bad row yields a non-finite score (then it is reported)."""
    for bad in (np.nan, np.inf):
        assert not np.isfinite(dense(np.ones(3), np.array([1.0, bad, 1.0]), False))
    assert np.isnan(dense(np.array([1e308, -1e308]), np.array([np.inf, 1.0]), True))


@pytest.mark.parametrize("s, v, x", [
    (1e-200, [1e300, 1e300, 1e300], [1e100, 1e100, -1e99]),     # v·x = inf, s·(v·x) finite
    (1e-10, [1e308, 1e308, -1e308], [1.0, 1.0, 1.0]),           # NaN partial sums
    (1e100, [1e300, 1.0], [1e10, 1.0]),                          # genuinely +inf
    (0.0, [1e308, 1e308], [1e308, 1e308]),                       # 0·inf is 0 here
])
def test_the_scaled_vector_dot_folds_its_scale_into_the_recomputation(s, v, x):
    v, x = np.array(v), np.array(x)
    want = exact(v, x, s)
    got = scaled(v, s, x, False)
    assert got == want if np.isinf(want) else got == pytest.approx(want, rel=1e-14, abs=0)


# -- learners ------------------------------------------------------------------------------

def test_decision_values_are_signed_infinities_not_nan():
    """A finite model and a finite row whose score is beyond the range: ±inf with the sign
    of the exact score (the perceptron's score was NaN from +inf and −inf partial sums)."""
    import olc

    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
    clf = olc.make("perceptron").partial_fit(X, [1, 0, 0, 1], classes=[0, 1])
    w, b = clf.coef_.ravel(), float(clf.intercept_[0])
    rows = np.array([[1e308, 1e308], [-1e308, -1e308], [1e308, -1e308], [1.7e308, -1.7e308]])
    got = clf.decision_function(rows)
    for row, g in zip(rows, got):
        want = exact(np.r_[w, b], np.r_[row, 1.0])
        assert not np.isnan(g) and (g == want if np.isinf(want) else
                                    g == pytest.approx(want, rel=1e-12))


def test_n_omm_refuses_a_row_whose_bias_would_not_be_finite():
    """n-OMM's bias −w·x₁ − ½w·(v₊ + v₋): a first row of ±1.7e308 would leave it −inf; the
    row is declined, the stream stops there with an error, nothing is learned."""
    import olc
    from olc.learners import StreamStoppedError

    X = np.array([[1.7e308, 1.7e308, 1.7e308], [-1.0, 2.0, 0.5], [1.0, 1.0, 1.0]])
    with pytest.raises(StreamStoppedError, match="overflow occurred at row 0"):
        olc.make("n-omm").partial_fit(X, [1, 0, 1], classes=[0, 1])
    # far from the first row, later: declined as well, the model stays finite
    m = olc.make("n-omm").partial_fit(X[1:], [0, 1], classes=[0, 1])
    before = (m.coef_.copy(), m.intercept_.copy())
    with pytest.raises(StreamStoppedError, match="overflow occurred at row 0"):
        m.partial_fit(np.array([[-1.7e308, 1.7e308, -1.7e308]]), [1])
    assert np.isfinite(m.intercept_).all()
    np.testing.assert_array_equal(m.coef_, before[0])
    np.testing.assert_array_equal(m.intercept_, before[1])


def test_a_diverging_constant_step_stops_naming_the_row_and_suggesting_scaling():
    """SGD regression with a constant step on unscaled rows (|x| ~ 1e60, inside the
    documented range) diverges: it stops at the row whose score or update overflows, with
    scikit-learn's advice, and the model is the one before that row."""
    import olc
    from olc.learners import StreamStoppedError

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 4)) * 1e60
    y = rng.normal(size=40)
    m = olc.make("sgd-regression", eta0=0.1, schedule="constant")
    with pytest.raises(StreamStoppedError, match=r"(?s)under-/overflow occurred at row (\d+)"
                                                 r".*consider scaling") as info:
        m.partial_fit(X, y)
    row = info.value.row
    assert 0 < row < 40 and info.value.rows_learned == row
    ref = olc.make("sgd-regression", eta0=0.1, schedule="constant").partial_fit(X[:row],
                                                                                 y[:row])
    np.testing.assert_array_equal(m.coef_, ref.coef_)
    np.testing.assert_array_equal(m.intercept_, ref.intercept_)
    assert np.isfinite(m.coef_).all()


def test_a_nan_value_gives_nan_even_against_zero_weights():
    """0·NaN is NaN: the recomputation must not read a NaN row as 0 (max() skips NaN)."""
    for bad in (np.nan, np.inf, -np.inf):
        assert np.isnan(dense(np.zeros(3), np.array([1.0, bad, 1.0]), False))
        assert np.isnan(sparse(np.zeros(5), np.array([1, 3], dtype=np.uint32),
                               np.array([bad, 1.0]), True))


def _omm_exact_score(vp, vn, x):
    """e-OMM's w·x + b from its certificates (Lemma 3.1: w = u/‖u‖, u = v₊ − v₋,
    b = −(‖v₊‖² − ‖v₋‖²)/(2‖u‖)) in rationals; ‖u‖ is an integer in these cases."""
    vp, vn, x = ([Fraction(float(a)) for a in r] for r in (vp, vn, x))
    u = [a - b for a, b in zip(vp, vn)]
    nu = Fraction(int(round(float(sum(a * a for a in u)) ** 0.5)))
    assert nu * nu == sum(a * a for a in u)
    s = (sum(a * b for a, b in zip(u, x)) - (sum(a * a for a in vp) - sum(a * a for a in vn))
         / 2) / nu
    if abs(s) > Fraction(BIG) + Fraction(2.0 ** 970):
        return np.inf if s > 0 else -np.inf
    return float(s)


@pytest.mark.parametrize("name", ["e-omm", "ce-omm"])
def test_e_omm_scores_are_not_nan_when_both_certificate_products_overflow(name):
    """e-OMM's score (v₊·x − v₋·x − ½(‖v₊‖² − ‖v₋‖²))/‖v₊ − v₋‖: when v₊·x and v₋·x both
    overflow to +inf (or both to −inf) the difference was inf − inf = NaN. Certificates
    v₊ = (40, 40), v₋ = (37, 36) (the first row of each label), u = (3, 4), ‖u‖ = 5: the
    score is the exact one — finite where u·x is (u·x = 0 below), ±inf where it is beyond
    the range, with its sign."""
    import olc

    m = olc.make(name).partial_fit(np.array([[40.0, 40.0], [37.0, 36.0]]), [1, 0],
                                   classes=[0, 1])
    vp, vn = m.certificates_
    np.testing.assert_array_equal(vp, [40.0, 40.0])
    np.testing.assert_array_equal(vn, [37.0, 36.0])
    p = 2.0 ** 1021
    # v₊·x = v₋·x = 40·2^1021 (beyond the range) in the first two rows
    rows = np.array([[4 * p, -3 * p],          # u·x = 0: −(3200 − 2665)/10 = −53.5
                     [-4 * p, 3 * p],
                     [4 * p, -2.5 * p],         # u·x = 2^1022: finite, large
                     [1.7e308, 1.7e308],        # u·x = 7·1.7e308: +inf
                     [-1.7e308, -1.7e308]])     # −inf
    got = m.decision_function(rows)
    for row, g in zip(rows, got):
        want = _omm_exact_score(vp, vn, row)
        assert not np.isnan(g), (row, g)
        assert g == want if np.isinf(want) else g == pytest.approx(want, rel=1e-12)
    assert got[0] == -53.5 and got[3] == np.inf and got[4] == -np.inf
    # the same rows sparse, and the predictions follow the scores' signs
    from scipy import sparse as sp
    np.testing.assert_array_equal(m.decision_function(sp.csr_matrix(rows)), got)
    np.testing.assert_array_equal(m.predict(rows), np.where(got >= 0, 1, 0))


@pytest.mark.parametrize("name", ["e-omm", "ce-omm"])
def test_e_omm_learns_past_a_row_whose_certificate_products_overflow(name):
    """While learning, the same inf − inf made the score NaN and the stream stopped at a
    row e-OMM need not learn: x = (4, −2.5)·2^1021 against v₊ = (40, 40), v₋ = (37, 36) has
    the exact score (2^1022 − 267.5)/5 > γ, label +1 — no update (line 18), the state stays
    as it was and the next rows are learned. A row of the same size that needs an update
    (label −1) still stops the stream there, naming it, with the model as before it."""
    import olc
    from olc.learners import StreamStoppedError

    p = 2.0 ** 1021
    first = np.array([[40.0, 40.0], [37.0, 36.0]])
    later = np.array([[30.0, 41.0], [39.0, 30.0]])
    ref = olc.make(name).partial_fit(np.vstack([first, later]), [1, 0, 1, 0],
                                     classes=[0, 1])
    m = olc.make(name).partial_fit(np.vstack([first, [[4 * p, -2.5 * p]], later]),
                                   [1, 0, 1, 1, 0], classes=[0, 1])
    assert m.n_steps_ == 5
    for a, b in zip(m.certificates_, ref.certificates_):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(m.coef_, ref.coef_)

    m = olc.make(name).partial_fit(first, [1, 0], classes=[0, 1])
    before = [c.copy() for c in m.certificates_]
    with pytest.raises(StreamStoppedError, match="overflow occurred at row 0"):
        m.partial_fit(np.array([[4 * p, -2.5 * p]]), [0])
    for a, b in zip(m.certificates_, before):
        np.testing.assert_array_equal(a, b)
