"""Shared helpers of the learner contract suite (DESIGN.md, "Testing").

Every test in this package is parametrized over ``olc.algorithms()``, so a learner that is
registered later gets every check without touching these files. ``ALGORITHMS`` holds the
classifiers (the checks here assume labels); the regressors (real-valued targets) have their
own equivalent checks in ``test_contract_regressors.py``, over ``REGRESSORS``.
"""
import numpy as np
import pytest
import scipy.sparse as sp

import olc

#: Classifiers defined on a restricted input domain (``input_domain``: Winnow {0,1}; Weighted
#: Majority and RWM {−1,+1}) reject this suite's real-valued streams by design; the same
#: checks run on in-domain streams in tests/learners/test_experts.py.
DOMAIN_RESTRICTED = [e.name for e in olc.algorithms() if getattr(e.cls, "input_domain", None)]
ALGORITHMS = [entry.name for entry in olc.algorithms()
              if entry.kind == "classifier" and entry.name not in DOMAIN_RESTRICTED]
REGRESSORS = [entry.name for entry in olc.algorithms() if entry.kind == "regressor"]
ENTRIES = {entry.name: entry for entry in olc.algorithms()}

#: ``@each_algorithm`` parametrizes a test by canonical algorithm name.
each_algorithm = pytest.mark.parametrize("name", ALGORITHMS)

#: Classifiers whose model is a pool of stored rows (``KernelClassifier``): no linear model
#: (``coef_`` only for kernel="linear", as scikit-learn's SVC); the checks compare their
#: pools instead (:func:`model_arrays`), and the checks about the linear model's intercept do
#: not apply to them (f(0) = Σ c_s k(x_s, 0) is not an intercept).
KERNEL_MODELS = [name for name in ALGORITHMS if hasattr(ENTRIES[name].cls, "dual_coef_")]
each_linear_model_algorithm = pytest.mark.parametrize(
    "name", [name for name in ALGORITHMS if name not in KERNEL_MODELS])

#: Classifiers whose record holds class indices for every number of classes K ≥ 2 (the
#: multiclass rules with K prototypes, ``olc.learners._framework.multiclass.stacked``: pred = the
#: argmax class, first on ties; score = its score). The checks of the binary record (±1
#: predictions, sign(0) = +1, score = the decision value, τ) do not apply to them; the same
#: properties for their class-index records are tested in
#: tests/learners/multiclass/test_multiclass_pa_contract.py.
CLASS_INDEX_RECORDS = [name for name in ALGORITHMS
                       if getattr(ENTRIES[name].cls, "_prototypes", False)]
#: ``@each_binary_record_algorithm``: the classifiers whose two-class record is ±1.
BINARY_RECORD_ALGORITHMS = [name for name in ALGORITHMS if name not in CLASS_INDEX_RECORDS]
each_binary_record_algorithm = pytest.mark.parametrize("name", BINARY_RECORD_ALGORITHMS)


def stream(seed, n=60, d=7, density=0.5, noise=0.1, zero_rows=2, duplicates=2):
    """A small adversarial-but-ordinary stream: sparse-ish Gaussian rows, labels from a random
    hyperplane with some flipped, a few all-zero rows and a few duplicated rows (sometimes with
    the other label), so that every learner both updates and skips."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * (rng.random((n, d)) < density)
    w = rng.standard_normal(d)
    y = np.where(X @ w + 0.1 >= 0, 1, 0)
    flip = rng.random(n) < noise
    y[flip] = 1 - y[flip]
    for i in rng.choice(np.arange(1, n), size=zero_rows, replace=False):
        X[i] = 0.0
    for _ in range(duplicates):
        i, j = rng.choice(n, size=2, replace=False)
        X[j] = X[i]
        y[j] = rng.integers(0, 2)
    y[0], y[1] = 0, 1  # both labels early, whatever the rng drew
    return X, y


def assert_same_bits(a, b, what=""):
    """Bit-for-bit equality (dtype, shape and every byte; NaN == NaN, but 0.0 != -0.0)."""
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype, f"{what}: dtype {a.dtype} != {b.dtype}"
    assert a.shape == b.shape, f"{what}: shape {a.shape} != {b.shape}"
    if a.tobytes() != b.tobytes():
        diff = np.flatnonzero(a.ravel() != b.ravel())
        k = int(diff[0]) if diff.size else 0
        raise AssertionError(f"{what}: not bit-identical; first difference at flat index {k}: "
                             f"{a.ravel()[k]!r} != {b.ravel()[k]!r}")


def assert_same_records(r1, r2, what="record"):
    for field in ("pred", "score", "updated", "aux"):
        assert_same_bits(getattr(r1, field), getattr(r2, field), f"{what}.{field}")
    assert r1.tau == r2.tau, f"{what}.tau: {r1.tau} != {r2.tau}"


def model_arrays(learner):
    """(coef_, intercept_) of a linear model; (dual_coef_, support_vectors_) of a kernel
    learner's pool (one-vs-rest: its K pools concatenated)."""
    if not hasattr(type(learner), "dual_coef_") or getattr(learner, "_feature_map", False):
        return learner.coef_, learner.intercept_  # a feature map's: weights over features
    coef, rows = learner.dual_coef_, learner.support_vectors_
    if isinstance(coef, list):
        coef = np.concatenate([c.ravel() for c in coef])
        rows = np.concatenate(rows, axis=0)
    return coef, rows


def assert_same_model(l1, l2, what="model"):
    (a1, b1), (a2, b2) = model_arrays(l1), model_arrays(l2)
    assert_same_bits(a1, a2, f"{what}.coef_ (dual_coef_)")
    assert_same_bits(b1, b2, f"{what}.intercept_ (support_vectors_)")


def assert_close(a, b, what, rtol=1e-12):
    """Equal up to ``rtol`` relative to the largest magnitude involved (reassociated sums)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    assert a.shape == b.shape, what
    scale_ = max(float(np.max(np.abs(a), initial=0.0)), float(np.max(np.abs(b), initial=0.0)))
    np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol * scale_, err_msg=what)


def assert_same_state(l1, l2, what="learner"):
    """Everything the learner object holds (hyper-parameters, fitted attributes and private
    state arrays) is identical. Compared through ``vars`` so that state added by a future
    learner is covered too."""
    v1, v2 = vars(l1), vars(l2)
    assert sorted(v1) == sorted(v2), f"{what}: attributes {sorted(v1)} != {sorted(v2)}"
    for key, a in v1.items():
        b = v2[key]
        if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
            assert_same_bits(a, b, f"{what}.{key}")
        else:
            same_nan = isinstance(a, float) and isinstance(b, float) and a != a and b != b
            assert type(a) is type(b) and (a == b or same_nan), f"{what}.{key}: {a!r} != {b!r}"


def csr(X):
    return sp.csr_matrix(X)


def sign_pm(score):
    """The package's sign: sign(0) = +1."""
    return np.where(np.asarray(score) >= 0.0, 1, -1).astype(np.int8)
