"""Translation invariance (Ho-Nguyen et al. 2025, Remarks 2.1, 3.1, 3.4), and invariance
under scaling by powers of two (no overflow or underflow of the state from 2^-1000
to 2^1000).

Shifting every x_t by the same u leaves e-OMM's run unchanged: the same predictions, updates
and predicted margins γ_t, the same w, and the intercept becomes b − w·u. The perceptron and
PA are not translation invariant: a concrete shift changes their mistakes.

Floating point: the e-OMM state is the certificates v± plus cached inner products
‖v₊‖², ‖v₋‖², v₊·v₋; after a shift these are O(‖u‖²) while w, γ and the scores come from
differences of them, so rounding moves the results by about eps·‖u‖²/γ (measured: coef_
1e-12 at ‖u‖ = 10R, 1e-8 at ‖u‖ = 10³R). Tolerances below follow that error model with a
generous constant. (Beyond ~10⁵–10⁶·R the cancellation reaches the size of the margins and
predictions may flip; "realistic" shifts here stop at 10³·R.)
"""
import numpy as np
import pytest
import scipy.sparse as sp

import olc
from _exactness_helpers import separable_stream

EPS = np.finfo(float).eps
OMM = [("e-omm", {}), ("ce-omm", {}), ("e-omm", {"rho": 0.5})]


def _data(seed, n=300, d=5):
    rng = np.random.default_rng([seed, 34])
    X, y, _, b_star = separable_stream(rng, n, d, margin=0.1)
    assert b_star != 0
    direction = rng.normal(size=d)
    direction /= np.linalg.norm(direction)
    return X, y, direction


@pytest.mark.parametrize("factor", [10.0, 1e3])
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("name,params", OMM, ids=[f"{n}{p}" for n, p in OMM])
def test_omm_translation_invariant(name, params, seed, factor):
    X, y, direction = _data(seed)
    R = np.linalg.norm(X, axis=1).max()
    u = factor * R * direction

    a = olc.make(name, **params)
    rec_a = a.predict_then_learn(X, y, classes=[-1, 1])
    b = olc.make(name, **params)
    rec_b = b.predict_then_learn(X + u, y, classes=[-1, 1])

    assert np.array_equal(rec_a.pred, rec_b.pred)
    assert np.array_equal(rec_a.updated, rec_b.updated)
    assert rec_a.updated.sum() > 5  # not vacuous

    gamma = a.margin_
    err = 1e3 * EPS * (R + np.linalg.norm(u)) ** 2 / gamma   # error model, generous constant
    np.testing.assert_allclose(rec_b.aux, rec_a.aux, rtol=0, atol=err)        # γ_t per step
    np.testing.assert_allclose(rec_b.score, rec_a.score, rtol=0, atol=err)    # w_t·x_t + b_t
    w_a, w_b = a.coef_.ravel(), b.coef_.ravel()
    np.testing.assert_allclose(w_b, w_a, rtol=0, atol=err)
    # Remark 3.4: (w, b − w·u). Compared through w_b: b_b + w_b·u = −½ w_b·(v₊ + v₋) of the
    # unshifted certificates, which is free of the ‖u‖-sized cancellation; and directly.
    np.testing.assert_allclose(b.intercept_[0] + w_b @ u, a.intercept_[0], rtol=0,
                               atol=err * (R + np.linalg.norm(u)))
    np.testing.assert_allclose(b.intercept_[0], a.intercept_[0] - w_a @ u,
                               rtol=0, atol=err * (R + np.linalg.norm(u)))
    # certificates move with the data (Remark 3.1)
    for va, vb in zip(a.certificates_, b.certificates_):
        np.testing.assert_allclose(vb, va + u, rtol=0, atol=err * (R + np.linalg.norm(u)))
    # and the shifted model predicts the shifted data as the original predicts the original
    assert np.array_equal(a.predict(X), b.predict(X + u))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("name", ["perceptron", "pa", "pa-i", "pa-ii"])
def test_not_translation_invariant(name, seed):
    """The same data, shifted by 10× its radius: the perceptron's and PA's mistakes change
    (they measure ‖x‖ from the origin; Ho-Nguyen et al. 2025, Table 1, D̄ = sup‖x‖ in their
    bounds)."""
    X, y, direction = _data(seed)
    R = np.linalg.norm(X, axis=1).max()
    u = 10.0 * R * direction
    ra = olc.progressive(olc.make(name), X, y)
    rb = olc.progressive(olc.make(name), X + u, y)
    assert ra.mistakes != rb.mistakes
    assert not np.array_equal(ra.pred, rb.pred)
    # while e-OMM's do not
    oa = olc.progressive(olc.make("e-omm"), X, y)
    ob = olc.progressive(olc.make("e-omm"), X + u, y)
    assert oa.mistakes == ob.mistakes and np.array_equal(oa.pred, ob.pred)


def test_perceptron_shift_hand_example():
    """A two-point stream where a shift changes the perceptron's mistakes, by hand.
    Points x = 1 (y = +1), x = −1 (y = −1) in 1-D with a bias, repeated. Unshifted:
    t=1: s = 0 → update w = 1, b = 1; t=2: s = −1 + 1 = 0 → update w = 2, b = 0; after that
    s(+1) = 2, s(−1) = −2: no more updates — 1 wrong prediction (t = 2: sign(0) = +1 ≠ −1).
    Shifted by u = 10 (x = 11, 9): t=1: s = 0 → w = 11, b = 1; t=2: s = 99 + 1 > 0 → mistake,
    w = 2, b = 0; t=3: s = 22 > 0 ok; t=4: s = 18 > 0 → mistake, w = −7, b = −1; t=5:
    s = −78 < 0 → mistake, w = 4, b = 0; t=6: s = 36 → mistake … (D̄/γ large): ≥ 4 mistakes
    in 6 rounds."""
    X = np.tile([[1.0], [-1.0]], (3, 1))
    y = np.tile([1, -1], 3)
    ra = olc.make("perceptron").predict_then_learn(X, y)
    rb = olc.make("perceptron").predict_then_learn(X + 10.0, y)
    assert np.count_nonzero(ra.pred != y) == 1
    assert list(ra.score[:3]) == [0.0, 0.0, 2.0]
    assert list(rb.score[:5]) == [0.0, 100.0, 22.0, 18.0, -78.0]
    assert np.count_nonzero(rb.pred != y) >= 4


# -- scaling by powers of two ----------------------------------------------------------------
# Multiplying the data by 2^k is exact in floating point, and the OMM rules are homogeneous
# (w is scale-free; scores, margins and b scale with the data), so a run on 2^k·X must be the
# run on X with every length multiplied by 2^k, bit for bit — unless the state overflows or
# underflows. olc 0.1.0's e-OMM and n-OMM kept squared lengths (‖v‖², v·x) in the data's
# units: they stopped with an overflow from k ≈ 500 and lost their predictions from
# k ≈ −515 (subnormal squares). The state is now kept in units fixed by the data.
SCALED = [("e-omm", {}), ("ce-omm", {}), ("n-omm", {}), ("n-omm", {"store": "all"}),
          ("e-omm-lp", {"p": 3.0}), ("ce-omm-lp", {"p": 1.5})]
EXPONENTS = [-1000, -999, -760, -540, -520, -500, -1, 1, 500, 520, 540, 760, 999, 1000]


@pytest.mark.parametrize("layout", ["dense", "csr"])
@pytest.mark.parametrize("name,params", SCALED, ids=[f"{n}{p}" for n, p in SCALED])
def test_omm_scale_invariant_under_powers_of_two(name, params, layout):
    X, y, direction = _data(5, n=150, d=4)
    X = X + 3.0 * direction  # a bias to learn: the intercept scales too
    conv = (lambda A: sp.csr_matrix(A)) if layout == "csr" else np.asarray
    a = olc.make(name, **params)
    ra = a.predict_then_learn(conv(X), y, classes=[-1, 1])
    assert ra.updated.sum() > 5 and a.margin_ > 0
    # Until the second label arrives the classifier is the constant +1, then y₁ (Algorithm 1,
    # lines 2–13): those scores do not scale.
    t = int(np.flatnonzero(y != y[0])[0]) + 1
    for k in EXPONENTS:
        f = 2.0 ** k
        b = olc.make(name, **params)
        rb = b.predict_then_learn(conv(X * f), y, classes=[-1, 1])  # no StreamStoppedError
        assert np.array_equal(rb.pred, ra.pred) and np.array_equal(rb.updated, ra.updated), k
        assert np.array_equal(rb.score[:t], ra.score[:t]), k
        assert np.array_equal(rb.score[t:], ra.score[t:] * f), k
        assert np.array_equal(rb.aux, ra.aux * f), k
        assert np.array_equal(b.coef_, a.coef_), k
        assert np.array_equal(b.intercept_, a.intercept_ * f), k
        assert b.margin_ == a.margin_ * f, k
        for vb, va in zip(b.certificates_, a.certificates_):
            assert np.array_equal(vb, va * f), k
        assert np.array_equal(b.decision_function(conv(X * f)), a.decision_function(conv(X)) * f)
