"""Group (b): Shen & Dietterich's regularized and L2-constrained kernel PAs (with and without
the oldest-removal budget), the self-tuned Forgetron, the randomized budget perceptron and
kernel NORMA (truncation by age and by budget), compiled, against the NumPy reference
(``reference.py``), step by step: every kernel, with and without intercept, dense and CSR
rows, binary and one-vs-rest."""
import zlib

import numpy as np
import pytest

from olc.learners._framework import kernel_model

from ._exact import KERNELS, compare, compare_one_vs_rest, stream

CASES = [
    ("kernel-regularized-pa", {"alpha": 0.05, "update": "mistake"}, None),
    ("kernel-regularized-pa", {"alpha": 0.05, "update": "hinge"}, 6),
    ("kernel-regularized-pa", {"alpha": 0.2, "update": "always"}, 4),
    ("kernel-l2-constrained-pa", {"beta": 1.5, "update": "hinge"}, None),
    ("kernel-l2-constrained-pa", {"beta": 1.5, "update": "hinge"}, 5),
    ("kernel-l2-constrained-pa", {"beta": 3.0, "update": "always"}, 3),
    ("kernel-l2-constrained-pa", {"beta": 0.8, "update": "mistake"}, 6),
    ("forgetron", {}, 5),
    ("forgetron", {}, 1),
    ("randomized-budget-perceptron", {}, 5),
    ("randomized-budget-perceptron", {}, 1),
    ("kernel-norma", {"eta": 0.3, "lam": 0.1, "rho": 1.0}, None),
    ("kernel-norma", {"eta": 0.5, "lam": 0.05, "rho": 0.5, "schedule": "sqrt"}, 6),
    ("kernel-norma", {"eta": 0.3, "lam": 0.1, "rho": 1.0, "tau": 8}, None),
    ("kernel-norma", {"eta": 0.3, "lam": 0.1, "rho": 1.0, "tau": 8}, 5),
]
IDS = [f"{n}-{'-'.join(f'{k}{v}' for k, v in p.items())}-B{b}" for n, p, b in CASES]


@pytest.mark.parametrize("sparse", [False, True, "csr-pool"], ids=["dense", "csr", "csr-pool"])
@pytest.mark.parametrize("fit_intercept", [False, True], ids=["no-bias", "bias"])
@pytest.mark.parametrize("kernel", list(KERNELS))
@pytest.mark.parametrize("name, params, budget", CASES, ids=IDS)
def test_step_by_step(name, params, budget, kernel, fit_intercept, sparse, monkeypatch):
    """``csr-pool``: CSR rows into a CSR pool (narrow rows keep the pool by feature unless
    ``CSR_POOL_MIN_FEATURES`` says otherwise)."""
    if sparse == "csr-pool":
        monkeypatch.setattr(kernel_model, "CSR_POOL_MIN_FEATURES", 1)
    X, y = stream(seed=zlib.crc32(f"{name}/{kernel}".encode()) % 1000)
    learner, ref = compare(name, X, y, kern=KERNELS[kernel], fit_intercept=fit_intercept,
                           budget=budget, sparse=sparse, params=params, seed=11)
    assert learner._ints.shape == ((1,) if sparse == "csr-pool" else (0,))
    if name == "forgetron":  # Q and M after the last step
        from olc._compiled.layouts.kernel import KernelScal as KS

        assert learner._scal[KS.MISTAKES] == ref.extra["M"][-1]
        assert learner._scal[KS.Q] == pytest.approx(ref.extra["Q"][-1], rel=1e-9, abs=1e-12)
    if "removed" in ref.extra and budget is not None:
        from olc._compiled.layouts.kernel import KernelScal as KS

        assert learner._scal[KS.REMOVED] == len(ref.extra["removed"])


@pytest.mark.parametrize("name, params, budget", [CASES[1], CASES[4], CASES[7], CASES[9],
                                                  CASES[14]],
                         ids=[IDS[1], IDS[4], IDS[7], IDS[9], IDS[14]])
def test_one_vs_rest_columns_are_the_binary_reference(name, params, budget):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(70, 4)) * (rng.random((70, 4)) < 0.7)
    labels = np.argmax(X[:, :3] + 0.3 * rng.normal(size=(70, 3)), axis=1)
    compare_one_vs_rest(name, X, labels, kern=KERNELS["rbf"], fit_intercept=True,
                        budget=budget, params=params, seed=11)


def test_chunks_and_save_load_do_not_change_the_draws(tmp_path):
    """The randomized budget perceptron's draw at step t is uniform(seed, 0, t): cutting the
    stream and saving/loading in the middle gives the reference's pool."""
    import olc
    from . import reference

    X, y = stream(seed=21)
    ref = reference.run("randomized-budget-perceptron", X, y, budget=4, seed=5,
                        **KERNELS["rbf"])
    learner = olc.make("randomized-budget-perceptron", budget=4, seed=5, **KERNELS["rbf"])
    learner.partial_fit(X[:33], y[:33], classes=[-1.0, 1.0])
    olc.save(learner, tmp_path / "rbp.npz")
    learner = olc.load(tmp_path / "rbp.npz")
    for a in range(33, 90, 10):
        learner.partial_fit(X[a:a + 10], y[a:a + 10])
    assert list(learner.support_) == ref.support
    np.testing.assert_allclose(learner.dual_coef_[0], ref.alphas, rtol=1e-12)
