"""Synthetic generators: guaranteed margins, seeds, Example 5.1 and its float pitfalls."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.svm import SVC

from olc.data import (
    example_5_1,
    example_5_1_params,
    example_5_1_perceptron_mistake_lower_bound,
    noisy,
    separable,
    stream_of,
)


def _margins(X, y, truth):
    return y * (X @ truth.w + truth.b) / np.linalg.norm(truth.w)


# --------------------------------------------------------------------------- separable


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(1, 200),
    d=st.integers(1, 30),
    margin=st.floats(0.0, 0.9),
    scale=st.floats(0.0, 1e4),
    seed=st.integers(0, 2**32 - 1),
)
def test_separable_margin_is_guaranteed(n, d, margin, scale, seed):
    offset = np.random.default_rng(seed).normal(size=d) * scale
    X, y, truth = separable(n, d, margin, offset=offset, seed=seed, return_truth=True)
    assert X.shape == (n, d) and X.dtype == np.float64 and y.dtype == np.float64
    assert set(np.unique(y)) <= {-1.0, 1.0}
    assert np.isclose(np.linalg.norm(truth.w), 1.0)
    assert _margins(X, y, truth).min() >= margin
    assert np.linalg.norm(X - offset, axis=1).max() <= 1.0 + 1e-6


@pytest.mark.parametrize("d", [1, 2, 5, 50, 500])
def test_separable_has_a_nonzero_bias_and_both_classes(d):
    for seed in range(5):
        X, y, truth = separable(400, d, 0.1, seed=seed, return_truth=True)
        assert abs(truth.b) >= 0.25 * 0.9 / np.sqrt(d + 2) - 1e-12
        assert 0.1 < (y == 1).mean() < 0.9


def test_margin_is_nearly_tight_according_to_an_svm():
    X, y, truth = separable(400, 3, 0.2, seed=7, return_truth=True)
    svm = SVC(kernel="linear", C=1e6).fit(X, y)
    w, b = svm.coef_.ravel(), svm.intercept_[0]
    svm_margin = (y * (X @ w + b)).min() / np.linalg.norm(w)
    true_margin = _margins(X, y, truth).min()
    assert svm_margin >= true_margin - 1e-6  # the max margin is at least the guarantee
    assert true_margin >= 0.2 and svm_margin < 0.2 * 1.5  # and the guarantee is not loose


def test_seeds_are_reproducible():
    a = separable(50, 4, 0.1, seed=3)
    b = separable(50, 4, 0.1, seed=3)
    c = separable(50, 4, 0.1, seed=4)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert not np.array_equal(a[0], c[0])
    rng_seed = np.random.default_rng(3)
    assert separable(5, 2, seed=rng_seed)[0].shape == (5, 2)  # a Generator is accepted


def test_offset_translates_only():
    X0, y0, t0 = separable(100, 6, 0.1, seed=11, return_truth=True)
    v = np.arange(6.0) * 100
    X1, y1, t1 = separable(100, 6, 0.1, offset=v, seed=11, return_truth=True)
    np.testing.assert_array_equal(X1, X0 + v)
    assert np.array_equal(y0, y1) and np.array_equal(t0.w, t1.w)
    assert np.isclose(t1.b, t0.b - t0.w @ v)
    X2, _ = separable(100, 6, 0.1, offset=5.0, seed=11)
    np.testing.assert_array_equal(X2, X0 + 5.0)


def test_separable_rejects_bad_arguments():
    with pytest.raises(ValueError, match="margin < radius"):
        separable(10, 2, margin=1.0)
    with pytest.raises(ValueError, match="bias"):
        separable(10, 2, margin=0.5, bias=0.6)
    with pytest.raises(ValueError, match="offset"):
        separable(10, 2, offset=[1.0, 2.0, 3.0])


# --------------------------------------------------------------------------- noisy


@pytest.mark.parametrize("flip", [0.0, 0.1, 0.37, 1.0])
def test_noisy_flips_exactly_the_requested_fraction(flip):
    X, y, truth = noisy(300, 5, flip, margin=0.05, seed=1, return_truth=True)
    m = _margins(X, y, truth)
    assert truth.flipped.sum() == round(flip * 300)
    assert (m[~truth.flipped] >= 0.05).all() and (m[truth.flipped] <= -0.05).all()
    assert np.array_equal(noisy(300, 5, flip, margin=0.05, seed=1)[1], y)


# --------------------------------------------------------------------------- Example 5.1


def _perceptron_mistakes(X, y):
    """Bias-free perceptron of Example 5.1: update when y w.x <= 0 (in float64)."""
    w = np.zeros(X.shape[1])
    mistakes = 0
    for x, label in zip(X, y):
        if label * (w @ x) <= 0:
            w = w + label * x
            mistakes += 1
    return mistakes


@pytest.mark.parametrize("c", [2.5, 3, 4, 6, 7.5, 10, 16, 20, 33])
def test_robust_c_is_exact(c):
    c2, r = example_5_1_params(c, robust=True)
    assert c2 >= c and c2 * r == 2.0 and (c2 + r) - c2 == r
    assert np.log2(c2).is_integer()
    m = example_5_1_perceptron_mistake_lower_bound(c2)
    X, y = example_5_1(c, m, robust=True)
    assert X[0, 0] == c2
    assert _perceptron_mistakes(X, y) == m  # an error at every step t <= m, as in the paper


def test_non_robust_c_shows_the_float_pitfall():
    # documented in example_5_1: c = 3 has c * r == 2 in float64, yet the scores on
    # z1 become tiny positive numbers instead of 0 and the perceptron stops erring
    c, r = example_5_1_params(3)
    assert c * r == 2.0
    X, y = example_5_1(3, example_5_1_perceptron_mistake_lower_bound(3))
    assert _perceptron_mistakes(X, y) < example_5_1_perceptron_mistake_lower_bound(3)


def test_example_5_1_points_and_orders():
    X, y = example_5_1(4, 5)
    np.testing.assert_array_equal(X, [[4, 1], [4.5, -1], [4, 1], [4.5, -1], [4, 1]])
    np.testing.assert_array_equal(y, [1, -1, 1, -1, 1])
    Xr, yr = example_5_1(4, 600, order="random", seed=0)
    rows = {tuple(r) + (lab,) for r, lab in zip(Xr, yr)}
    assert rows == {(4.0, 1.0, 1.0), (4.0, -1.0, -1.0), (4.5, -1.0, -1.0)}
    assert np.array_equal(example_5_1(4, 600, order="random", seed=0)[0], Xr)
    # w* = (0, 1), b* = 0 separates with margin exactly 1
    assert (yr * Xr[:, 1]).min() == 1.0
    with pytest.raises(ValueError, match="order"):
        example_5_1(4, 3, order="zigzag")


def test_mistake_lower_bound_formula():
    for c in [2.5, 3, 4, 7.5, 10, 64, 1000]:
        q = Fraction(c)
        expected = (q**2 + 4 / q**2 + 5) / (2 * (1 + 1 / q**2))
        assert example_5_1_perceptron_mistake_lower_bound(c) == int(expected)  # floor, positive
    assert example_5_1_perceptron_mistake_lower_bound(4) == 10
    assert example_5_1_perceptron_mistake_lower_bound(3) == 6


# --------------------------------------------------------------------------- stream_of


@pytest.mark.parametrize("sparse", [False, True])
def test_stream_of(sparse):
    X, y = separable(23, 3, seed=0)
    Xs = sp.csr_matrix(X) if sparse else X
    chunks = list(stream_of(Xs, y, 5))
    assert [c.shape[0] for c, _ in chunks] == [5, 5, 5, 5, 3]
    assert all(sp.isspmatrix_csr(c) == sparse for c, _ in chunks)
    back = sp.vstack([c for c, _ in chunks]).toarray() if sparse else np.vstack([c for c, _ in chunks])
    np.testing.assert_array_equal(back, X)
    np.testing.assert_array_equal(np.concatenate([yc for _, yc in chunks]), y)
    with pytest.raises(ValueError):
        stream_of(X, y[:-1], 5)
    with pytest.raises(ValueError):
        stream_of(X, y, 0)


def test_noisy_points_do_not_depend_on_flip():
    a = noisy(100, 3, 0.0, seed=5)
    b = noisy(100, 3, 0.3, seed=5)
    assert np.array_equal(a[0], b[0]) and (a[1] != b[1]).sum() == 30
