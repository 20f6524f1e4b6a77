"""olc.sklearn as scikit-learn estimators (``check_estimator``), their bad-input messages,
and the import boundary (``import olc`` loads neither olc.sklearn nor scikit-learn)."""
import re
import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.utils.estimator_checks import check_estimator

from olc.sklearn import PassiveAggressiveClassifier, PassiveAggressiveRegressor, Perceptron

X = np.array([[-1.0, -1.0], [-1.0, 0.0], [-0.8, -1.0], [1.0, 1.0], [1.0, 0.0], [0.9, 0.4]])
Y = np.array([1, 1, 1, -1, -1, -1])

# scikit-learn's own reason for its Perceptron (sklearn/utils/_test_common/
# instance_generator.py): a weight multiplies the update, a repeated row updates twice.
_PERCEPTRON_XFAIL = {
    "check_sample_weight_equivalence_on_dense_data":
        "sample_weight is not equivalent to removing/repeating samples.",
    "check_sample_weight_equivalence_on_sparse_data":
        "sample_weight is not equivalent to removing/repeating samples.",
}


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("estimator, expected_failures", [
    (PassiveAggressiveClassifier(max_iter=5), {}),
    (PassiveAggressiveRegressor(max_iter=5), {}),
    (Perceptron(max_iter=5), _PERCEPTRON_XFAIL),
], ids=lambda e: type(e).__name__ if not isinstance(e, dict) else "")
def test_check_estimator(estimator, expected_failures):
    results = check_estimator(estimator, on_fail=None,
                              expected_failed_checks=expected_failures)
    failed = [(r["check_name"], str(r["exception"])[:200]) for r in results
              if r["status"] == "failed"]
    assert not failed
    assert len(results) > 40


def test_unknown_class_in_class_weight_is_named():
    clf = PassiveAggressiveClassifier(class_weight={0: 0.5, 1: 2.0})
    with pytest.raises(ValueError, match=r"class_weight has a weight for class 0, which is "
                                         r"not one of the classes \[-1, 1\]"):
        clf.fit(X, Y)
    assert not hasattr(clf, "coef_") or clf.coef_ is None


def test_string_classes_in_class_weight():
    labels = np.array(["spam", "ham", "ham", "spam", "eggs", "ham"])
    clf = Perceptron(class_weight={"spam": 2.0, "bacon": 1.0})
    with pytest.raises(ValueError, match=r"class 'bacon', which is not one of the classes"):
        clf.fit(X, labels)
    Perceptron(class_weight={"spam": 2.0}).fit(X, labels)  # a known subset is fine


def test_partial_fit_needs_classes_on_the_first_call():
    with pytest.raises(ValueError, match="classes must be passed on the first call to "
                                         "partial_fit"):
        Perceptron().partial_fit(X, Y)


def test_label_outside_classes_is_named():
    clf = PassiveAggressiveClassifier()
    with pytest.raises(ValueError, match=r"y contains label\(s\) \[7\] that are not in "
                                         r"classes_ \[-1, 1\]"):
        clf.partial_fit(X, np.array([1, 1, 7, -1, -1, -1]), classes=[-1, 1])


@pytest.mark.parametrize("labels, classes, named", [
    (["a", "b", "a", "b", "a", "c"], ["a", "b"], "['c']"),       # strings, one unknown
    (["a", "b", "a", "b", "a", "b"], [0, 1], "['a', 'b']"),      # strings against integers
    ([0, 1, 0, 1, 2, 1], [0, 1], "[2]"),                         # past the last class
    ([0.0, 1.0, 0.0, 1.0, 0.5, 1.0], [0, 1], "[0.5]"),           # between two classes
    ([-3, 1, 0, 1, 0, 1], [0, 1], "[-3]"),                       # before the first class
])
def test_every_unknown_label_is_named(labels, classes, named):
    """The binary-search check of y against classes_ (and its fallback for labels that do
    not compare with the classes) names exactly the unknown labels."""
    with pytest.raises(ValueError, match=re.escape(f"y contains label(s) {named} that are "
                                                   "not in classes_")):
        Perceptron().partial_fit(X, np.array(labels), classes=classes)


def test_classes_must_not_change():
    clf = Perceptron().partial_fit(X, Y, classes=[-1, 1])
    with pytest.raises(ValueError, match="is not the same as on last call to partial_fit"):
        clf.partial_fit(X, Y, classes=[-1, 1, 2])


def test_balanced_in_partial_fit_and_early_stopping_in_partial_fit():
    with pytest.raises(ValueError, match="class_weight 'balanced' is not supported for "
                                         "partial_fit"):
        PassiveAggressiveClassifier(class_weight="balanced").partial_fit(X, Y, classes=[-1, 1])
    with pytest.raises(ValueError, match="early_stopping should be False with partial_fit"):
        Perceptron(early_stopping=True).partial_fit(X, Y, classes=[-1, 1])
    with pytest.raises(ValueError, match="early_stopping should be False with partial_fit"):
        PassiveAggressiveRegressor(early_stopping=True).partial_fit(X, Y.astype(float))


def test_one_class_and_feature_count():
    with pytest.raises(ValueError, match="The number of classes has to be greater than one"):
        Perceptron().fit(X, np.ones(6))
    clf = Perceptron().fit(X, Y)
    with pytest.raises(ValueError, match="X has 3 features"):
        clf.partial_fit(np.ones((2, 3)), [1, -1])


@pytest.mark.parametrize("make", [lambda: PassiveAggressiveClassifier(),
                                  lambda: Perceptron()])
def test_coef_init_shapes(make):
    with pytest.raises(ValueError, match="Provided coef_init does not match dataset"):
        make().fit(X, Y, coef_init=np.zeros(3))
    with pytest.raises(ValueError, match="Provided intercept_init does not match dataset"):
        make().fit(X, Y, intercept_init=np.zeros(2))


def test_bad_parameters_are_named():
    with pytest.raises(ValueError, match="The 'C' parameter of PassiveAggressiveClassifier"):
        PassiveAggressiveClassifier(C=-1.0).fit(X, Y)
    with pytest.raises(ValueError, match="The 'loss' parameter of PassiveAggressiveRegressor"):
        PassiveAggressiveRegressor(loss="hinge").fit(X, Y.astype(float))
    with pytest.raises(ValueError, match="The 'penalty' parameter of Perceptron"):
        Perceptron(penalty="l3").fit(X, Y)
    with pytest.raises(ValueError, match="The 'l1_ratio' parameter of Perceptron"):
        Perceptron(penalty="elasticnet", l1_ratio=1.5).fit(X, Y)


def test_average_is_forwarded_to_the_learner():
    """average goes to olc's averaged learner: the model is scikit-learn's averaged model,
    not the last iterate."""
    import warnings

    import _sklearn_reference as reference
    import olc
    with olc.strict_mode():
        ours = PassiveAggressiveClassifier(average=True, max_iter=3, tol=None,
                                           random_state=0).fit(X, Y)
        last = PassiveAggressiveClassifier(max_iter=3, tol=None, random_state=0).fit(X, Y)
    assert not np.allclose(ours.coef_, last.coef_)   # the average is not the last iterate
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        ref = reference.passive_aggressive_classifier(average=True, max_iter=3, tol=None,
                                                      random_state=0).fit(X, Y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-12)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=1e-12)


def test_non_finite_input_is_refused_before_learning():
    bad = X.copy()
    bad[2, 1] = np.nan
    clf = PassiveAggressiveClassifier()
    with pytest.raises(ValueError, match="Input X contains NaN"):
        clf.fit(bad, Y)
    with pytest.raises(ValueError, match="Input X contains NaN"):
        PassiveAggressiveRegressor().fit(sp.csr_matrix(bad), Y.astype(float))


def test_overflow_is_scikit_learns_error():
    huge = X * 1e200
    with pytest.raises(ValueError, match=r"Floating-point under-/overflow occurred at epoch "
                                         r"#1"):
        PassiveAggressiveRegressor(C=1e300, epsilon=0.0).fit(huge, np.full(6, 1e300))


def test_import_olc_does_not_import_the_drop_ins():
    code = ("import sys, olc; olc.make('perceptron'); "
            "print('olc.sklearn' in sys.modules, 'sklearn' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False"]


def test_sparsified_model_keeps_learning():
    """sparsify() makes coef_ a scipy matrix; the next partial_fit learns on its dense
    values, as after densify()."""
    import olc
    a = Perceptron(random_state=0).partial_fit(X, Y, classes=[-1, 1])
    b = Perceptron(random_state=0).partial_fit(X, Y, classes=[-1, 1])
    a.sparsify()
    with olc.strict_mode():
        a.partial_fit(X, Y)
        b.partial_fit(X, Y)
    np.testing.assert_array_equal(np.asarray(a.coef_), b.coef_)


@pytest.mark.parametrize("estimator", [Perceptron(random_state=0),
                                       PassiveAggressiveClassifier(random_state=0),
                                       Perceptron(penalty="l1", random_state=0)])
def test_csr_input_is_read_not_written(estimator):
    """A float64 CSR matrix is learned from as it is (no copy) when canonical, and from a
    canonical copy when not (each entry stored twice, as halves): either way the caller's
    arrays are left as they were, and both give the same model (the CSR one: on sparse
    input the intercept's steps are damped, so not the dense rows' model). scikit-learn
    learns from the stored entries as they are, so its PA classifier, which divides by the
    stored entries' ‖x‖², gives another model on the duplicated matrix."""
    rng = np.random.default_rng(3)
    dense = np.where(rng.random((30, 8)) < 0.4, rng.normal(size=(30, 8)), 0.0)
    dense[:, 0] = 1.0  # no empty row
    y = np.where(dense[:, 1:].sum(axis=1) > 0, 1, -1)
    canonical = sp.csr_matrix(dense)
    counts = np.diff(canonical.indptr)
    data = np.repeat(canonical.data / 2, 2)  # halves 0.5·x exactly (a power of two)
    indices = np.repeat(canonical.indices, 2)
    indptr = np.concatenate([[0], np.cumsum(2 * counts)])
    duplicated = sp.csr_matrix((data, indices, indptr), shape=dense.shape)
    assert not duplicated.has_canonical_format
    expected = estimator.__class__(**estimator.get_params()).fit(
        sp.csr_matrix(dense), y).coef_
    for X in (canonical, duplicated):
        before = [X.data.copy(), X.indices.copy(), X.indptr.copy()]
        model = estimator.__class__(**estimator.get_params()).fit(X, y)
        np.testing.assert_allclose(model.coef_, expected, rtol=1e-12, atol=1e-12)
        for now, then in zip((X.data, X.indices, X.indptr), before):
            np.testing.assert_array_equal(now, then)
