"""Group (a): the kernel perceptron, the kernel PA family and the stoptron, compiled, against
the NumPy reference (``reference.py``), step by step: every kernel, with and without
intercept, dense and CSR rows, binary and one-vs-rest."""
import zlib

import numpy as np
import pytest

from olc.learners._framework import kernel_model

from ._exact import KERNELS, compare, compare_one_vs_rest, stream

CASES = [
    ("kernel-perceptron", {}, None),
    ("kernel-pa", {}, None),
    ("kernel-pa-i", {"C": 0.2}, None),
    ("kernel-pa-ii", {"C": 0.2}, None),
    ("stoptron", {}, 7),
    ("stoptron", {}, 1),
]


@pytest.mark.parametrize("sparse", [False, True, "csr-pool"], ids=["dense", "csr", "csr-pool"])
@pytest.mark.parametrize("fit_intercept", [False, True], ids=["no-bias", "bias"])
@pytest.mark.parametrize("kernel", list(KERNELS))
@pytest.mark.parametrize("name, params, budget", CASES,
                         ids=[f"{n}-B{b}" for n, _, b in CASES])
def test_step_by_step(name, params, budget, kernel, fit_intercept, sparse, monkeypatch):
    """``csr-pool``: CSR rows into a CSR pool (narrow rows keep the pool by feature unless
    ``CSR_POOL_MIN_FEATURES`` says otherwise)."""
    if sparse == "csr-pool":
        monkeypatch.setattr(kernel_model, "CSR_POOL_MIN_FEATURES", 1)
    X, y = stream(seed=zlib.crc32(f"{name}/{kernel}".encode()) % 1000)
    learner, _ = compare(name, X, y, kern=KERNELS[kernel], fit_intercept=fit_intercept,
                         budget=budget, sparse=sparse, params=params)
    assert learner._ints.shape == ((1,) if sparse == "csr-pool" else (0,))


def test_zero_rows_and_the_pa_ii_step_at_k_zero():
    """x = 0 without intercept, linear kernel: k(x, x) = 0; PA and PA-I skip, PA-II stores."""
    X, y = stream(seed=5)
    X[[3, 10, 11]] = 0.0
    for name, params in (("kernel-pa", {}), ("kernel-pa-i", {"C": 0.5}),
                         ("kernel-pa-ii", {"C": 0.5}), ("kernel-perceptron", {})):
        for sparse in (False, True):
            compare(name, X, y, kern=KERNELS["linear"], fit_intercept=False, budget=None,
                    sparse=sparse, params=params)


@pytest.mark.parametrize("name, params, budget", CASES[:5],
                         ids=[f"{n}-B{b}" for n, _, b in CASES[:5]])
def test_one_vs_rest_columns_are_the_binary_reference(name, params, budget):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(70, 4)) * (rng.random((70, 4)) < 0.7)
    labels = np.argmax(X[:, :3] + 0.3 * rng.normal(size=(70, 3)), axis=1)
    compare_one_vs_rest(name, X, labels, kern=KERNELS["rbf"], fit_intercept=True,
                        budget=budget, params=params)
