"""``average=``: the lazy sum kept by the compiled rules equals the explicit average of the
iterates, computed here by a plain NumPy loop over the weights the learner *without*
averaging goes through, row after row (its iterates; the update rule is the same, and that
learner is itself tested against scikit-learn and closed forms elsewhere).

The iterate after row t is (coef_, intercept_) of the plain learner after t rows; the average
from row k on is their mean over t = k..n (scikit-learn's definition, ``_plain_sgd``:
``average <= t``). Every learner with ``average``, dense and CSR rows, two classes and K = 3
one-vs-rest, ``average=True`` and an int start, several ``partial_fit`` calls equal to one.
Agreement to 1e-12 relative to the largest weight (the two sums round differently).
"""
import math

import numpy as np
import pytest

import olc

from _cases import ALL, case_id, csr, fit_args, is_classifier, stream, targets

STARTS = [True, 1, 9, 40]


def _iterates(name, params, X, t, n_classes):
    """(coef after each row, intercept after each row) of the learner without averaging."""
    plain = olc.make(name, **params)
    coefs, intercepts = [], []
    for i in range(X.shape[0]):
        plain.partial_fit(X[i:i + 1], t[i:i + 1], **fit_args(name, n_classes))
        if is_classifier(name):
            coefs.append(np.array(plain.coef_))
            intercepts.append(np.array(plain.intercept_))
        else:
            coefs.append(np.array(plain.coef_))
            intercepts.append(np.atleast_1d(plain.intercept_))
    return np.array(coefs), np.array(intercepts)


def _explicit_average(coefs, intercepts, start):
    """Mean of the iterates from row ``start`` (1-based) on, by a plain loop."""
    first = 1 if start is True else int(start)
    sum_w = np.zeros_like(coefs[0])
    sum_b = np.zeros_like(intercepts[0])
    count = 0
    for t in range(first, coefs.shape[0] + 1):
        sum_w = sum_w + coefs[t - 1]
        sum_b = sum_b + intercepts[t - 1]
        count += 1
    if count == 0:  # averaging has not begun: the current weights
        return coefs[-1], intercepts[-1]
    return sum_w / count, sum_b / count


def _close(a, b, what, rtol=1e-12):
    a, b = np.asarray(a, float), np.asarray(b, float)
    scale = max(np.abs(a).max(initial=0.0), np.abs(b).max(initial=0.0), 1e-300)
    np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol * scale, err_msg=what)


def _model(learner):
    return np.atleast_2d(learner.coef_), np.atleast_1d(learner.intercept_)


@pytest.mark.parametrize("n_classes", [2, 3], ids=["binary", "ovr-3"])
@pytest.mark.parametrize("start", STARTS, ids=[f"average={s}" for s in STARTS])
@pytest.mark.parametrize("case", ALL, ids=[case_id(c) for c in ALL])
def test_lazy_sum_is_the_explicit_average(case, start, n_classes):
    name, params = case
    if n_classes > 2 and not is_classifier(name):
        pytest.skip("regressors have no classes")
    X, y, target = stream(seed=7, n_classes=n_classes)
    t = targets(name, y, target)
    coefs, intercepts = _iterates(name, params, X, t, n_classes)
    want_w, want_b = _explicit_average(coefs, intercepts, start)
    want_w = np.atleast_2d(want_w)
    for layout, data in (("dense", X), ("csr", csr(X))):
        learner = olc.make(name, average=start, **params)
        learner.partial_fit(data, t, **fit_args(name, n_classes))
        got_w, got_b = _model(learner)
        _close(got_w, want_w, f"{layout} coef_")
        _close(got_b, np.atleast_1d(want_b).ravel(), f"{layout} intercept_")
        # decision_function / predict use the averaged model
        scores = learner.decision_function(X) if is_classifier(name) else learner.predict(X)
        expected = X @ got_w.T + got_b
        _close(scores, expected.ravel() if expected.shape[1] == 1 else expected,
               f"{layout} decision values")
    assert np.abs(coefs[-1] - coefs[len(coefs) // 2]).max() > 0, "the stream kept learning"


@pytest.mark.parametrize("case", ALL, ids=[case_id(c) for c in ALL])
def test_before_the_start_the_model_is_the_current_one(case):
    """Fewer rows than ``average``: coef_ is the current weights (scikit-learn's
    ``average <= t_ - 1`` test), bit for bit those of the learner without averaging."""
    name, params = case
    X, y, target = stream(seed=3)
    t = targets(name, y, target)
    averaged = olc.make(name, average=X.shape[0] + 1, **params).partial_fit(
        X, t, **fit_args(name, 2))
    plain = olc.make(name, **params).partial_fit(X, t, **fit_args(name, 2))
    assert averaged.average_count_ == 0
    np.testing.assert_array_equal(averaged.coef_, plain.coef_)
    np.testing.assert_array_equal(averaged.intercept_, plain.intercept_)
    np.testing.assert_array_equal(
        *(m.decision_function(X) if is_classifier(name) else m.predict(X)
          for m in (averaged, plain)))


@pytest.mark.parametrize("n_classes", [2, 3], ids=["binary", "ovr-3"])
@pytest.mark.parametrize("case", ALL, ids=[case_id(c) for c in ALL])
def test_updates_and_record_are_those_without_averaging(case, n_classes):
    """Averaging never changes what is learned: the per-step record and the iterate (the
    state's own rows and slots) are bit for bit the learner's without averaging."""
    name, params = case
    if n_classes > 2 and not is_classifier(name):
        pytest.skip("regressors have no classes")
    X, y, target = stream(seed=11, n_classes=n_classes)
    t = targets(name, y, target)
    with olc.strict_mode():
        a = olc.make(name, average=5, **params)
        p = olc.make(name, **params)
        ra = a.predict_then_learn(X, t, **fit_args(name, n_classes))
        rp = p.predict_then_learn(X, t, **fit_args(name, n_classes))
    for field in ("pred", "score", "updated", "aux"):
        np.testing.assert_array_equal(getattr(ra, field), getattr(rp, field), err_msg=field)
    n_vec, n_scal = p._vecs.shape[-2], p._scal.shape[-1]
    np.testing.assert_array_equal(a._vecs[..., :n_vec, :], p._vecs)
    np.testing.assert_array_equal(a._scal[..., :n_scal], p._scal)


@pytest.mark.parametrize("n_classes", [2, 3], ids=["binary", "ovr-3"])
@pytest.mark.parametrize("case", ALL, ids=[case_id(c) for c in ALL])
def test_chunks_dense_csr_and_binary_rows_give_the_same_bits(case, n_classes):
    """Several ``partial_fit`` calls equal one call; dense and CSR rows, and binary CSR rows
    (values all 1) and the same rows with values, give the same bits in strict mode."""
    name, params = case
    if n_classes > 2 and not is_classifier(name):
        pytest.skip("regressors have no classes")
    X, y, target = stream(seed=5, n_classes=n_classes)
    t = targets(name, y, target)
    args = fit_args(name, n_classes)
    with olc.strict_mode():
        one = olc.make(name, average=3, **params).partial_fit(X, t, **args)
        chunked = olc.make(name, average=3, **params)
        for a, b in [(0, 1), (1, 2), (2, 17), (17, 40), (40, X.shape[0])]:
            chunked.partial_fit(csr(X[a:b]), t[a:b], **args)
        for other, what in ((chunked, "chunked CSR"),):
            for attr in ("_vecs", "_ints", "_scal"):
                np.testing.assert_array_equal(getattr(one, attr), getattr(other, attr),
                                              err_msg=f"{what} {attr}")
        B = (X != 0).astype(float)
        binary = olc.make(name, average=True, **params).partial_fit(csr(B), t, **args)
        values = olc.make(name, average=True, **params).partial_fit(B, t, **args)
        np.testing.assert_array_equal(binary._vecs, values._vecs)
        np.testing.assert_array_equal(binary._scal, values._scal)


def test_fit_starts_the_average_over():
    X, y, _ = stream(seed=2)
    learner = olc.make("perceptron", average=True)
    learner.partial_fit(X[:30], y[:30], classes=[0, 1])
    learner.fit(X, y)
    fresh = olc.make("perceptron", average=True).fit(X, y)
    np.testing.assert_array_equal(learner.coef_, fresh.coef_)
    assert learner.average_count_ == X.shape[0]


# -- long streams: the lazy sum against an exactly rounded sum ---------------------------------

def _perceptron_iterates(X, y):
    """Rosenblatt's perceptron with a bias, plain Python in strict left-to-right order (the
    arithmetic of olc's strict mode): the iterate after each row."""
    n, d = X.shape
    w = [0.0] * d
    b = 0.0
    out = np.empty((n, d + 1))
    for i in range(n):
        row = X[i].tolist()
        s = 0.0
        for j in range(d):
            s += w[j] * row[j]
        s += b
        if y[i] * s <= 0.0:
            for j in range(d):
                w[j] += y[i] * row[j]
            b += y[i]
        out[i, :d] = w
        out[i, d] = b
    return out


def _sgd_l2_iterates(X, y, eta, lam):
    """SGD, hinge loss, constant step, L2 penalty, on the explicit w (no scale):
    w ← (1 − ηλ)w + η·y·x when y(w·x + b) < 1, b ← b + η·y."""
    n, d = X.shape
    w = np.zeros(d)
    b = 0.0
    out = np.empty((n, d + 1))
    for i in range(n):
        s = float(w @ X[i]) + b
        w *= 1.0 - eta * lam
        if y[i] * s < 1.0:
            w += eta * y[i] * X[i]
            b += eta * y[i]
        out[i, :d] = w
        out[i, d] = b
    return out


def _exact_mean(iterates):
    """Column means with a correctly rounded sum (math.fsum)."""
    n = iterates.shape[0]
    return np.array([math.fsum(iterates[:, j]) / n for j in range(iterates.shape[1])])


def _long_stream(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) + 0.5
    w = rng.standard_normal(d)
    y = np.where(X @ w + 0.2 * rng.standard_normal(n) > 0.3, 1, -1)
    return X, y


def test_long_stream_perceptron_against_the_exact_average():
    """200,000 rows of a noisy (never separable) stream: the weights keep moving, so the
    lazy sum's two terms (u and a·w) grow like n·|w| and cancel to n·|mean|."""
    X, y = _long_stream(200_000, 5, seed=0)
    iterates = _perceptron_iterates(X, y)
    with olc.strict_mode():
        learner = olc.make("perceptron", average=True).partial_fit(X, y, classes=[-1, 1])
        plain = olc.make("perceptron").partial_fit(X, y, classes=[-1, 1])
    # the reference perceptron is olc's, bit for bit
    np.testing.assert_array_equal(plain.coef_[0], iterates[-1, :5])
    assert plain.n_updates_ > 5_000
    exact = _exact_mean(iterates)
    got = np.append(learner.coef_[0], learner.intercept_[0])
    error = np.abs(got - exact).max() / np.abs(exact).max()
    assert error < 1e-12, error
    # the counters of the lazy sum stay exact (b within an ulp of n, a = n)
    slot = learner._layout.scalars
    n = learner._scal[slot.AVG_COUNT]
    assert n == 200_000 and learner._scal[slot.AVG_A] == n
    assert abs(learner._scal[slot.AVG_B] / n - 1.0) <= 2.3e-16


def test_long_stream_sgd_with_l2_against_the_exact_average():
    """SGD with an L2 shrink: the scale decays by (1 − ηλ) per row (by 2¹⁰ every ~14,000
    rows here), so the lazy sum is rebased ~14 times; the average stays within 1e-11 of the
    exactly rounded mean of the explicit iterates (computed without any scale)."""
    eta, lam = 0.05, 0.01
    X, y = _long_stream(200_000, 5, seed=1)
    iterates = _sgd_l2_iterates(X, y, eta, lam)
    learner = olc.make("sgd", average=True, eta0=eta, lam=lam, schedule="constant")
    learner.partial_fit(X, y, classes=[-1, 1])
    exact = _exact_mean(iterates)
    got = np.append(learner.coef_[0], learner.intercept_[0])
    error = np.abs(got - exact).max() / np.abs(exact).max()
    assert error < 1e-11, error
    # the current weights agree too (the reference keeps no scale: rounding only)
    plain_w = learner._scal[learner._layout.scalars.SCALE] * learner._vecs[0]
    np.testing.assert_allclose(plain_w, iterates[-1, :5], rtol=1e-9)
