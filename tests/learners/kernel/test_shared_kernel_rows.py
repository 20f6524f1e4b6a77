"""One-vs-rest of the ``kernel`` family computes one kernel row per example for its K classes
(``_compiled/rules/kernel_shared.py``): bit for bit what K independent binary learners on
y == c compute, and what the per-class path (each class its own kernel row) computes —
every learner, kernel, with and without budget and intercept, dense rows, CSR rows into the
pool by feature and into the CSR pool, several ``partial_fit`` calls."""
import copy

import numpy as np
import pytest
import scipy.sparse as sp

import olc
import olc._compiled.driver.kernel_rows as kernel_rows
from olc._compiled.layouts.kernel import BORN, HEADER, ORDER, capacity
from olc._compiled.layouts.kernel import KernelScal as KS
from olc.learners._framework import kernel_model
from olc.learners._framework.multiclass import class_seed

# (name, params, budget): every rule of the family; None: unbudgeted
CASES = [
    ("kernel-perceptron", {}, None), ("kernel-perceptron", {}, 6),
    ("stoptron", {}, 5), ("randomized-budget-perceptron", {"seed": 3}, 5),
    ("kernel-pa", {}, None), ("kernel-pa-i", {"C": 0.3}, 7), ("kernel-pa-ii", {"C": 0.3}, None),
    ("kernel-regularized-pa", {"alpha": 0.05, "update": "hinge"}, None),
    ("kernel-regularized-pa", {"alpha": 0.05, "update": "hinge"}, 6),
    ("kernel-l2-constrained-pa", {"beta": 1.5, "update": "hinge"}, None),
    ("kernel-l2-constrained-pa", {"beta": 1.5, "update": "hinge"}, 5),
    ("forgetron", {}, 5),
    ("kernel-norma", {"eta": 0.3, "lam": 0.01, "tau": 25}, None),
    ("kernel-norma", {"eta": 0.3, "lam": 0.01}, 6),
]
KERNELS = [dict(kernel="linear"), dict(kernel="poly", gamma=0.5, degree=2, coef0=1.0),
           dict(kernel="rbf", gamma=0.7)]
CHUNKS = (0, 23, 61, 120)


def _stream(seed, n_classes, n=120, d=6):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < 0.6)
    labels = np.argmax(X[:, :n_classes] * X[:, 1:n_classes + 1]
                       + 0.3 * rng.normal(size=(n, n_classes)), axis=1)
    labels[:n_classes] = np.arange(n_classes)
    return X, labels


def _options(params, budget, kern, fit_intercept):
    options = dict(params, **kern, fit_intercept=fit_intercept)
    if budget is not None:
        options["budget"] = budget
    return options


def _chunked(name, options, X, y, classes, share):
    """Learn X in the chunks CHUNKS (a predict-then-learn record each), then score X.
    ``share``: "always" (every row shared), "adaptive" (where it pays: the default) or
    False (each class its own kernel row)."""
    previous = kernel_rows.SHARE, kernel_rows.SHARE_GAIN
    kernel_rows.SHARE = share is not False
    kernel_rows.SHARE_GAIN = 0.0 if share == "always" else previous[1]
    try:
        learner = olc.make(name, **options)
        records = [learner.predict_then_learn(X[a:b], y[a:b], classes=classes)
                   for a, b in zip(CHUNKS, CHUNKS[1:])]
        return learner, records, learner.decision_function(X)
    finally:
        kernel_rows.SHARE, kernel_rows.SHARE_GAIN = previous


def _pool(learner, c=None):
    """The arrays of one pool that do not depend on its capacity: the header, each block's
    n slots in use, the stored rows (``support_vectors_``, for either pool's storage)."""
    scal = learner._scal if c is None else learner._scal[c]
    cap, n = capacity(scal), int(scal[KS.N_STORED])
    blocks = [scal[HEADER + b * cap:HEADER + b * cap + n] for b in range(5)]
    rows = learner.support_vectors_
    rows = rows if c is None else rows[c]
    return [scal[:HEADER]] + blocks + [np.asarray(rows)]


def _rows(X, sparse):
    return sp.csr_matrix(X) if sparse else X


def _assert_same(a, b, what):
    for field in ("_vecs", "_ints", "_scal"):
        assert np.array_equal(getattr(a[0], field), getattr(b[0], field)), f"{what}: {field}"
    for ra, rb in zip(a[1], b[1]):
        for field in ("pred", "score", "updated", "aux"):
            assert np.array_equal(getattr(ra, field), getattr(rb, field)), f"{what}: {field}"
    assert np.array_equal(a[2], b[2]), f"{what}: decision_function"


@pytest.mark.parametrize("rows", ["dense", "csr", "csr-pool"])
@pytest.mark.parametrize("name, params, budget", CASES,
                         ids=[f"{n}-B{b}" for n, _, b in CASES])
def test_shared_rows_are_the_binary_learners_bit_for_bit(name, params, budget, rows,
                                                         monkeypatch):
    monkeypatch.setattr(kernel_model, "CSR_POOL_MIN_FEATURES", 1 if rows == "csr-pool" else 10 ** 9)
    calls = []
    real = kernel_rows.runner
    monkeypatch.setattr(kernel_rows, "runner", lambda *a: calls.append(1) or real(*a))
    for k, kern in enumerate(KERNELS):
        for fit_intercept in (False, True):
            n_classes = 3 + 2 * ((k + fit_intercept) % 2)  # 3 or 5 classes
            X, labels = _stream(17 * k + fit_intercept, n_classes)
            Xr = _rows(X, rows != "dense")
            options = _options(params, budget, kern, fit_intercept)
            what = f"{kern['kernel']}, intercept {fit_intercept}, K={n_classes}"
            shared = _chunked(name, options, Xr, labels, np.arange(n_classes), "always")
            per_class = _chunked(name, options, Xr, labels, np.arange(n_classes), False)
            _assert_same(shared, per_class, what + " (per-class rows)")
            adaptive = _chunked(name, options, Xr, labels, np.arange(n_classes), "adaptive")
            _assert_same(adaptive, per_class, what + " (shared where it pays)")
            model = shared[0]
            assert model._ints.shape[-1] == (1 if rows == "csr-pool" else 0)
            for c in range(n_classes):
                binary_options = dict(options)
                if "seed" in binary_options:
                    binary_options["seed"] = class_seed(options["seed"], c)
                yc = np.where(labels == c, 1, -1)
                binary, records, scores = _chunked(name, binary_options, Xr, yc, [-1, 1],
                                                   False)
                for got, want in zip(_pool(model, c), _pool(binary)):
                    assert np.array_equal(got, want), f"{what}: class {c}'s pool"
                for r_k, r_b in zip(shared[1], records):  # class c's score is in the fold
                    assert np.all(r_k.score >= r_b.score), f"{what}: class {c}'s scores"
                assert np.array_equal(shared[2][:, c], scores), f"{what}: class {c} scores"
    assert len(calls) == 2 * 6 * (len(CHUNKS) - 1), "the shared loops ran for every call"


def _union_and_total(model):
    """(U, Σ n_c): the distinct BORN steps over the K pools, and the pools' sizes."""
    scal = model._scal
    cap = capacity(scal)
    borns = [scal[c, HEADER + BORN * cap:HEADER + BORN * cap + int(scal[c, KS.N_STORED])]
             for c in range(scal.shape[0])]
    return len(set(np.concatenate(borns).tolist())), sum(len(b) for b in borns)


@pytest.mark.parametrize("rows", ["dense", "csr", "csr-pool"])
def test_pools_that_overlap_in_part(rows, monkeypatch):
    """The merge meets hits and misses in every order: Forgetron pools of 4 classes whose
    removals differ hold overlapping, different rows (U strictly between max n_c and Σ n_c
    along the stream). A value taken from another row's slot, or another class's, changes
    the scores."""
    monkeypatch.setattr(kernel_model, "CSR_POOL_MIN_FEATURES", 1 if rows == "csr-pool" else 10 ** 9)
    X, labels = _stream(5, 4, n=200)
    Xr = _rows(X, rows != "dense")
    seen = []
    for budget in (4, 9, None):
        name = "forgetron" if budget else "kernel-perceptron"
        options = _options({}, budget, dict(kernel="rbf", gamma=0.5), False)
        shared = _chunked(name, options, Xr, labels, np.arange(4), "always")
        per_class = _chunked(name, options, Xr, labels, np.arange(4), False)
        _assert_same(shared, per_class, f"{name} B={budget}")
        union, total = _union_and_total(shared[0])
        sizes = shared[0]._scal[:, KS.N_STORED]
        seen.append(max(sizes) < union < total)
    assert all(seen), "the pools overlap in part"


def test_the_guard(monkeypatch):
    """Shared only when every class is at the same step and BORN increases along ORDER;
    else the per-class path, with the same results."""
    X, labels = _stream(8, 3)
    model = olc.make("kernel-perceptron", kernel="rbf", gamma=0.5).fit(X, labels)
    vecs, ints, scal = model._vecs, model._ints, model._scal
    assert kernel_rows.shares_rows(model._rule, vecs, ints, scal)
    steps = scal.copy()
    steps[1, KS.STEPS] += 1
    assert not kernel_rows.shares_rows(model._rule, vecs, ints, steps)
    swapped = scal.copy()  # the two oldest rows of class 0 in the wrong order
    cap = capacity(scal)
    o = HEADER + ORDER * cap
    swapped[0, [o, o + 1]] = swapped[0, [o + 1, o]]
    assert not kernel_rows.shares_rows(model._rule, vecs, ints, swapped)
    monkeypatch.setattr(kernel_rows, "SHARE", False)
    assert not kernel_rows.shares_rows(model._rule, vecs, ints, scal)
    extra = olc.make("projectron", kernel="rbf", gamma=0.5).fit(X, labels)
    assert not kernel_rows.shares_rows(extra._rule, extra._vecs, extra._ints, extra._scal)


def test_unequal_steps_fall_back_exactly(monkeypatch):
    """A state whose classes are not in step (here: set by hand) learns and scores through
    the per-class path, as it does with sharing off."""
    X, labels = _stream(9, 3)
    first = olc.make("forgetron", budget=6, kernel="rbf", gamma=0.5).fit(X[:60], labels[:60])
    first._scal[2, KS.STEPS] += 5  # class 2 "saw" five more rows (its BORN steps shift)
    calls = []
    real = kernel_rows.runner
    monkeypatch.setattr(kernel_rows, "runner", lambda *a: calls.append(1) or real(*a))
    results = []
    for share in (True, False):
        model = copy.deepcopy(first)
        monkeypatch.setattr(kernel_rows, "SHARE", share)
        model.partial_fit(X[60:], labels[60:])
        results.append((model._scal.copy(), model.decision_function(X)))
    assert calls == []
    assert np.array_equal(results[0][0], results[1][0])
    assert np.array_equal(results[0][1], results[1][1])
