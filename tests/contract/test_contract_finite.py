"""Contract 5: finite data never yields NaN or infinite weights, scores or decision values.

Guaranteed range (what this test generates, and what the learners promise): every feature is
0 or has magnitude in [1e-150, 1e100]; at most 40 rows of at most 6 features; default
hyper-parameters. In that range the exact values of every quantity stay far inside float64:
‖x‖² ∈ [1e-300, 6e200]; Perceptron and PA-I steps are bounded (η, C); PA and PA-II are
(relaxed) projections onto {y(w·x + b) ≥ 1}, which move (w, b) by at most ~1/‖x‖ ≤ 1e150 per
row (a bias step that is not counted in the norm breaks this: ℓ/‖x‖² overshoots the margin by
a factor 1/‖x‖² per row); e-OMM's certificates are convex combinations of rows. So a NaN/inf
there — or an "overflow" error — is a bug, not a limitation. Beyond the range (|x| ≳ 1e154
squares overflow; |x| ≲ 1e-154 squares are subnormal or 0) nothing is promised here.

The inputs are adversarial within the range: magnitudes mixed within one row, all-zero rows,
duplicate rows carrying both labels (non-separable streams), constant columns, one feature.
"""
import numpy as np
import scipy.sparse as sp
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import olc

from ._support import each_algorithm, model_arrays

MAX_ABS = 1e100
MIN_ABS = 1e-150

magnitudes = st.one_of(
    st.just(0.0),
    st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False, allow_subnormal=False)
    .map(lambda v: 0.0 if 0 < abs(v) < MIN_ABS else v),
    st.builds(lambda s, e, m: s * m * 10.0 ** e, st.sampled_from([-1.0, 1.0]),
              st.integers(-150, 99), st.floats(1.0, 9.99)),
    st.sampled_from([MAX_ABS, -MAX_ABS, MIN_ABS, -MIN_ABS]),
)


@st.composite
def adversarial_streams(draw):
    d = draw(st.integers(1, 6))
    pool_size = draw(st.integers(1, 6))
    pool = [[draw(magnitudes) for _ in range(d)] for _ in range(pool_size)]
    if draw(st.booleans()):
        pool.append([0.0] * d)
    n = draw(st.integers(2, 40))
    rows = draw(st.lists(st.integers(0, len(pool) - 1), min_size=n, max_size=n))
    X = np.array([pool[r] for r in rows], dtype=float).reshape(n, d)
    if d > 1 and draw(st.booleans()):
        X[:, draw(st.integers(0, d - 1))] = draw(magnitudes)  # a constant column
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    assert np.isfinite(X).all() and np.all((X == 0) | ((np.abs(X) >= MIN_ABS) &
                                                        (np.abs(X) <= MAX_ABS)))
    return X, y


def _assert_finite_run(name, X, y):
    for Xin in (X, sp.csr_matrix(X)):
        learner = olc.make(name)
        with np.errstate(all="ignore"):  # report a non-finite result, not a warning
            record = learner.predict_then_learn(Xin, y, classes=[0, 1])
            coef, intercept = model_arrays(learner)
            scores = learner.decision_function(Xin)
        where = f"{name} on {type(Xin).__name__} X={X.tolist()!r} y={y.tolist()!r}"
        assert np.isfinite(record.score).all(), f"non-finite record.score {record.score}; {where}"
        assert np.isfinite(record.aux).all(), f"non-finite record.aux; {where}"
        assert np.isfinite(coef).all(), f"non-finite coef_ {coef}; {where}"
        assert np.isfinite(intercept).all(), f"non-finite intercept_ {intercept}; {where}"
        assert np.isfinite(scores).all(), f"non-finite decision_function; {where}"
        assert np.isfinite(learner._vecs).all() and np.isfinite(learner._scal).all(), \
            f"non-finite state arrays; {where}"


@each_algorithm
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=adversarial_streams())
# One tiny row seen with both labels (PA's bias step τ = ℓ/‖x‖² ≈ 1e300, then τ = inf).
@example(data=(np.full((2, 1), 1e-150), np.array([1, 0])))
@example(data=(np.full((4, 1), 1e-150), np.array([1, 0, 1, 0])))
# The same moderate row with alternating labels (a step that overshoots grows geometrically).
@example(data=(np.full((60, 1), 0.5), np.array([1, 0] * 30)))
# Huge and tiny magnitudes in one row, the origin, and a duplicate with the other label.
@example(data=(np.array([[1e100, 1e-150], [0.0, 0.0], [1e100, 1e-150], [-1e-150, 1e100]]),
               np.array([1, 0, 0, 1])))
# Certificates 1e-150 apart, then a huge point (e-OMM divides by ‖v₊ − v₋‖).
@example(data=(np.array([[1e-150, 0.0], [0.0, 0.0], [1e100, 1e100], [-1e100, 1e100]]),
               np.array([1, 0, 1, 0])))
# One feature, constant column, all rows identical, both labels.
@example(data=(np.full((8, 1), 3.0), np.array([0, 1, 1, 0, 1, 0, 0, 1])))
def test_finite_data_gives_finite_model(name, data):
    X, y = data
    _assert_finite_run(name, X, y)
