"""What the step-by-step comparisons with the NumPy reference (``reference.run``) share: the
streams, the kernels, and one comparison of a compiled learner with a reference trace."""
import numpy as np
import scipy.sparse as sp

import olc

from . import reference

# (kernel parameters) every comparison runs over: scikit-learn's names; gamma None = 1/d.
KERNELS = {
    "linear": dict(kernel="linear", gamma=None, degree=3, coef0=1.0),
    "poly": dict(kernel="poly", gamma=0.5, degree=2, coef0=1.0),
    "rbf": dict(kernel="rbf", gamma=0.7, degree=3, coef0=1.0),
    "rbf-default-gamma": dict(kernel="rbf", gamma=None, degree=3, coef0=1.0),
}


def stream(seed, n=90, d=5, density=0.6):
    """Rows with zeros in them (so CSR rows differ from dense ones), a label no hyperplane
    gives (x₀·x₁ > 0 with noise), labels ±1."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < density)
    y = np.where(X[:, 0] * X[:, 1] + 0.2 * rng.normal(size=n) > 0, 1.0, -1.0)
    y[:2] = [1.0, -1.0]
    return X, y


def compare(name, X, y, *, kern, fit_intercept, budget, sparse, params=(), seed=0,
            olc_seed=None):
    """Run ``name`` compiled (dense or CSR rows) and in the reference on (X, y ±1); assert
    the scores before each update (relative 1e-9 of the largest), the updates, the final
    pool's stream rows (oldest first) and coefficients."""
    params = dict(params)
    ref = reference.run(name, X, y, budget=budget, fit_intercept=fit_intercept, seed=seed,
                        **kern, **params)
    options = dict(kern, fit_intercept=fit_intercept, **params)
    if budget is not None or name in ("forgetron", "stoptron", "randomized-budget-perceptron"):
        options["budget"] = budget
    if name == "randomized-budget-perceptron":
        options["seed"] = seed if olc_seed is None else olc_seed
    learner = olc.make(name, **options)
    record = learner.predict_then_learn(sp.csr_matrix(X) if sparse else X, y,
                                        classes=[-1.0, 1.0])
    assert_trace(record.score, record.updated, learner.support_, learner.dual_coef_[0], ref)
    return learner, ref


def assert_trace(scores, updated, support, alphas, ref, what=""):
    scale = max(1.0, float(np.max(np.abs(ref.scores))))
    np.testing.assert_allclose(scores, ref.scores, rtol=1e-9, atol=1e-9 * scale,
                               err_msg=f"{what} scores f_t(x_t)")
    np.testing.assert_array_equal(updated, ref.updated, err_msg=f"{what} updated")
    assert list(support) == list(ref.support), f"{what} support: {list(support)} != " \
        f"{list(ref.support)}"
    a_scale = max(1.0, float(np.max(np.abs(ref.alphas)))) if len(ref.alphas) else 1.0
    np.testing.assert_allclose(alphas, ref.alphas, rtol=1e-9, atol=1e-9 * a_scale,
                               err_msg=f"{what} alphas")


def compare_one_vs_rest(name, X, labels, *, kern, fit_intercept, budget, params=(), seed=0):
    """K ≥ 3 classes: class c's column (scores, pool) against the reference run on the
    labels y == c (±1); randomized rules draw with the class's seed (``class_seed``)."""
    from olc.learners._framework.multiclass import class_seed

    params = dict(params)
    options = dict(kern, fit_intercept=fit_intercept, **params)
    if budget is not None or name in ("forgetron", "stoptron", "randomized-budget-perceptron"):
        options["budget"] = budget
    if name == "randomized-budget-perceptron":
        options["seed"] = seed
    learner = olc.make(name, **options)
    learner.fit(X, labels)
    classes = learner.classes_
    scores = learner.decision_function(X)
    for c, label in enumerate(classes):
        yc = np.where(labels == label, 1.0, -1.0)
        ref_seed = class_seed(seed, c) if name == "randomized-budget-perceptron" else seed
        ref = reference.run(name, X, yc, budget=budget, fit_intercept=fit_intercept,
                            seed=ref_seed, **kern, **params)
        assert list(learner.support_[c]) == list(ref.support), f"class {label} support"
        np.testing.assert_allclose(learner.dual_coef_[c][0], ref.alphas, rtol=1e-9,
                                   atol=1e-12, err_msg=f"class {label} alphas")
        # The final model scores every row as the reference's final pool does.
        K = reference.kernel_matrix(X, X[ref.support], **kern) + float(fit_intercept)
        np.testing.assert_allclose(scores[:, c], K @ ref.alphas, rtol=1e-9, atol=1e-9,
                                   err_msg=f"class {label} decision_function")
