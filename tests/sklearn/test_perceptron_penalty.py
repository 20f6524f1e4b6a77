"""``olc.sklearn.Perceptron(penalty="l2" | "l1" | "elasticnet")`` against scikit-learn's
``Perceptron`` (and ``SGDClassifier(loss="perceptron", learning_rate="constant")`` for the
averaged model, which scikit-learn's Perceptron does not expose): the same coef_,
intercept_, n_iter_ and t_, bit for bit in ``olc.strict_mode()`` on float64 data — olc's SGD
rule with the scikit-learn extension does ``_plain_sgd``'s operations in its order (the
shrink on the scaled vector and its 1e-9 fold, the weighted step, the intercept decay, the
lazy average, Tsuruoka et al.'s cumulative L1 penalty, the penalised epoch objective).

scikit-learn's results are an independent implementation (Cython ``_plain_sgd``), not ours;
``test_cumulative_penalty_by_hand`` derives its values from Tsuruoka, Tsujii & Ananiadou
(2009), §3 (the APPLYPENALTY procedure)."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import linear_model as sk
from sklearn.datasets import load_iris, make_classification

import olc
from olc import sklearn as ours
from olc.sklearn._penalized import PenalizedPerceptron

from test_dropin_equivalence import NEWS, _same  # noqa: E402 (rootdir-less test dir)

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")

IRIS = load_iris(return_X_y=True)
BINARY = make_classification(300, 12, n_informative=6, random_state=1)
PENALTIES = ["l2", "l1", "elasticnet"]


def _data(name, sparse):
    X, y = {"iris": IRIS, "binary": BINARY}[name]
    return (sp.csr_matrix(X) if sparse else X), y


SETTINGS = [
    dict(),
    dict(alpha=0.01, l1_ratio=0.5, shuffle=False, eta0=0.3),
    dict(random_state=3, tol=None, max_iter=20, class_weight="balanced"),
    dict(random_state=2, alpha=1e-3, class_weight={0: 0.25, 1: 3.0}),
    dict(random_state=4, early_stopping=True, validation_fraction=0.2, n_iter_no_change=3),
    dict(random_state=5, fit_intercept=False, n_iter_no_change=2, tol=1e-2, l1_ratio=0.9),
    # η₀α ≥ 1: the shrink clamps at 0 and clears w every row
    dict(alpha=2.0, max_iter=5, tol=None),
    # the weight scale falls far below 1e-9: scikit-learn's fold, many times over
    dict(alpha=0.05, max_iter=60, tol=None),
]


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("data", ["iris", "binary"])
@pytest.mark.parametrize("penalty", PENALTIES)
@pytest.mark.parametrize("params", SETTINGS, ids=str)
def test_penalised_perceptron_is_scikit_learns(params, penalty, data, sparse):
    X, y = _data(data, sparse)
    if isinstance(params.get("class_weight"), dict) and data == "iris":
        params = {**params, "class_weight": {0: 0.25, 1: 3.0, 2: 1.0}}
    with olc.strict_mode():
        a = ours.Perceptron(penalty=penalty, **params).fit(X, y)
    _same(a, sk.Perceptron(penalty=penalty, **params).fit(X, y))


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("penalty", PENALTIES)
def test_sample_weight(penalty, sparse):
    """class weight × sample weight multiply the step; rows of weight 0 still shrink and
    take the L1 penalty (scikit-learn applies both on every row)."""
    X, y = _data("iris", sparse)
    sw = np.random.default_rng(0).uniform(0.0, 2.0, len(y))
    sw[::17] = 0.0
    params = dict(penalty=penalty, alpha=1e-3, l1_ratio=0.4, random_state=9,
                  class_weight={0: 0.5, 1: 2.0, 2: 1.5})
    with olc.strict_mode():
        a = ours.Perceptron(**params).fit(X, y, sample_weight=sw)
    _same(a, sk.Perceptron(**params).fit(X, y, sample_weight=sw))


@pytest.mark.parametrize("penalty", PENALTIES)
def test_many_sparse_classes(penalty):
    """20 classes one-vs-rest on sparse text-like data (the 0.01 intercept decay, each
    class's own seed and stopping epoch)."""
    X, y = NEWS
    params = dict(penalty=penalty, alpha=1e-4, l1_ratio=0.3, random_state=1)
    with olc.strict_mode():
        a = ours.Perceptron(**params).fit(X, y)
    _same(a, sk.Perceptron(**params).fit(X, y))


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("penalty", PENALTIES)
def test_partial_fit_and_warm_start(penalty, sparse):
    """Each call starts scikit-learn's ``_plain_sgd`` afresh (scale 1, u = q = 0, the norms
    of the current weights) and folds the scale at its end."""
    X, y = _data("iris", sparse)
    params = dict(penalty=penalty, alpha=1e-3, l1_ratio=0.3)
    with olc.strict_mode():
        a = ours.Perceptron(**params)
        for k in range(3):
            a.partial_fit(X[50 * k:50 * (k + 1)], y[50 * k:50 * (k + 1)], classes=[0, 1, 2])
    b = sk.Perceptron(**params)
    for k in range(3):
        b.partial_fit(X[50 * k:50 * (k + 1)], y[50 * k:50 * (k + 1)], classes=[0, 1, 2])
    _same(a, b)
    with olc.strict_mode():
        a = ours.Perceptron(warm_start=True, max_iter=3, tol=None, **params).fit(X, y)
        a.fit(X, y)
    b = sk.Perceptron(warm_start=True, max_iter=3, tol=None, **params).fit(X, y)
    b.fit(X, y)
    _same(a, b)


class _AveragedPerceptron(ours.Perceptron):
    """The drop-in with averaging on (scikit-learn's Perceptron has no ``average``; its
    SGDClassifier(loss="perceptron") has)."""
    average = True


def _averaged_reference(penalty, **params):
    return sk.SGDClassifier(loss="perceptron", learning_rate="constant", eta0=1.0,
                            penalty=penalty, average=True, **params)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("data", ["iris", "binary"])
@pytest.mark.parametrize("penalty", PENALTIES)
def test_averaged(penalty, data, sparse):
    """Averaged, bit for bit while scikit-learn's weight scale stays above 1e-9 (here:
    η₀α(1 − ρ)·rows < 20.7); the L1 truncation, after the averaging step and not
    accounted in the lazy sum, is scikit-learn's too."""
    X, y = _data(data, sparse)
    params = dict(alpha=1e-3, l1_ratio=0.3, random_state=0, max_iter=10, tol=None)
    with olc.strict_mode():
        a = _AveragedPerceptron(penalty=penalty, **params).fit(X, y)
    _same(a, _averaged_reference(penalty, **params).fit(X, y))


@pytest.mark.parametrize("penalty", ["l2", "elasticnet"])
def test_averaged_long_run(penalty):
    """Past scikit-learn's 1e-9 fold of the weight scale the lazy average is rebased, as
    scikit-learn rebases it (with the extension olc keeps scikit-learn's schedule, not its
    own 2⁻¹⁰ one: the L1 truncation is not accounted in the lazy sum — scikit-learn's
    arithmetic — so the averaged model depends on when the sum is rebased). There
    scikit-learn forms aw + a·w by BLAS daxpy (fused multiply-add on FMA machines) and the
    compiled rule without fusion: an ulp apart, amplified by the cancellation between aw
    and a·w (a ~ 1/scale), so the averaged model agrees to 1e-7 relative, not bit for bit.
    The iterates stay bit for bit (their intercept is not compared: scikit-learn's binary
    ``_standard_intercept`` is not updated once averaging has begun,
    ``tests/learners/averaging/test_averaging_sklearn.py``)."""
    X, y = _data("binary", False)
    params = dict(alpha=0.01, l1_ratio=0.3, random_state=0, max_iter=40, tol=None)
    with olc.strict_mode():
        a = _AveragedPerceptron(penalty=penalty, **params).fit(X, y)
    b = _averaged_reference(penalty, **params).fit(X, y)
    np.testing.assert_array_equal(a._standard_coef.ravel(), b._standard_coef.ravel())
    scale = np.abs(b.coef_).max()
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-7, atol=1e-7 * scale)
    np.testing.assert_allclose(a.intercept_, b.intercept_, rtol=1e-7, atol=1e-7 * scale)
    assert a.n_iter_ == b.n_iter_


@pytest.mark.parametrize("penalty", PENALTIES)
def test_default_mode_agrees_to_rounding(penalty):
    """Outside strict mode the dots are reassociated (a few ulps): the same epochs, weights
    within 1e-9 relative."""
    X, y = _data("binary", True)
    params = dict(penalty=penalty, alpha=1e-3, random_state=0)
    a = ours.Perceptron(**params).fit(X, y)
    b = sk.Perceptron(**params).fit(X, y)
    assert a.n_iter_ == b.n_iter_
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-9, atol=1e-9 * np.abs(b.coef_).max())


def test_cumulative_penalty_by_hand():
    """Tsuruoka et al. (2009), §3 (APPLYPENALTY), on one feature, η₀ = 1, α = 0.1, L1, no
    intercept:
    row 1 (x = 1, y = +1, p = 0 ≤ 0): w = 1, u = 0.1, w = max(0, 1 − (0.1 + 0)) = 0.9,
    q = −0.1; row 2 (x = 1, y = −1, p = 0.9): w = −0.1, u = 0.2,
    w = min(0, −0.1 + (0.2 − (−0.1))) = 0 — clipped at zero, where a plain subgradient
    step would have crossed to +0.1."""
    X = np.array([[1.0], [1.0]])
    clf = ours.Perceptron(penalty="l1", alpha=0.1, fit_intercept=False, shuffle=False)
    clf.partial_fit(X[:1], [1], classes=[-1, 1])
    np.testing.assert_allclose(clf.coef_, [[0.9]], rtol=1e-15)
    clf.partial_fit(X, [1, -1])  # a new call: u and q restart (scikit-learn's)
    # call 2, row 1: p = 0.9 > 0, no step; u = 0.1: w = 0.9 − 0.1 = 0.8, q = −0.1;
    # row 2: w = 0.8 − 1 = −0.2, u = 0.2: w = min(0, −0.2 + 0.3) = 0
    np.testing.assert_array_equal(clf.coef_, [[0.0]])


def test_penalty_none_keeps_the_perceptron_rule():
    """penalty=None runs olc's perceptron rule (unchanged); a penalty the SGD rule."""
    from olc.learners.perceptron import Perceptron as OlcPerceptron
    X, y = _data("binary", False)
    assert isinstance(ours.Perceptron().fit(X, y)._olc_learners[0], OlcPerceptron)
    assert isinstance(ours.Perceptron(penalty="l2").fit(X, y)._olc_learners[0],
                      PenalizedPerceptron)


def test_sgd_learner_perceptron_loss():
    """olc's own SGD learner with loss="perceptron" is SGDClassifier(loss="perceptron",
    learning_rate="constant", penalty="l2") trained by partial_fit (no shuffle)."""
    from olc.learners.sgd import SGD
    X, y = _data("binary", False)
    labels = np.where(y == 1, 1, -1)
    with olc.strict_mode():
        ours_ = SGD(eta0=0.5, schedule="constant", loss="perceptron", lam=1e-3).fit(X, labels)
    ref = sk.SGDClassifier(loss="perceptron", learning_rate="constant", eta0=0.5,
                           penalty="l2", alpha=1e-3, shuffle=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref.partial_fit(X, labels, classes=[-1, 1])
    np.testing.assert_array_equal(ours_.coef_.ravel(), ref.coef_.ravel())
    np.testing.assert_array_equal(ours_.intercept_, ref.intercept_)
