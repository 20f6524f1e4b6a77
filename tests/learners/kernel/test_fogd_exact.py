"""FOGD (``olc.learners.feature_map.FOGD``) against the NumPy reference
(``reference_sgd.fogd``, given scikit-learn's RBFSampler draws), step by step: dense and CSR,
with and without intercept, binary and one-vs-rest; the map is RBFSampler's; files whose
map disagrees with the seed are refused; bad parameters."""
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.kernel_approximation import RBFSampler

import olc
from . import reference as R
from ._stepwise import stream

D = 24


def _sampler(X, gamma, seed):
    return RBFSampler(gamma=gamma, n_components=D, random_state=seed).fit(X)


@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("gamma", [0.5, None])
def test_steps_match_the_reference(fit_intercept, sparse, gamma):
    X, y = stream(31, n=90)
    learner = olc.make("fogd", eta=0.3, n_components=D, gamma=gamma,
                       fit_intercept=fit_intercept, seed=7)
    record = learner.predict_then_learn(sp.csr_matrix(X) if sparse else X, y)
    g = 1.0 / X.shape[1] if gamma is None else gamma
    s = _sampler(X, g, 7)
    ys = np.where(y == 1, 1.0, -1.0)
    trace = R.run("fogd", X, ys, gamma=g, fit_intercept=fit_intercept, eta=0.3,
                  omega=s.random_weights_, offset=s.random_offset_)
    np.testing.assert_allclose(record.score, trace.scores, rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(record.updated, trace.updated)
    assert record.updated.any() and not record.updated.all()
    w = trace.extra["w"]
    np.testing.assert_allclose(learner.coef_[0], w[:D], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(learner.intercept_[0], w[D] if fit_intercept else 0.0,
                               rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(learner.random_weights_, s.random_weights_)
    np.testing.assert_array_equal(learner.random_offset_, s.random_offset_)
    assert learner.n_support_[0] == 0


def test_one_vs_rest_is_the_binary_algorithm_per_class():
    X, y = stream(32, n=70, classes=3)
    learner = olc.make("fogd", eta=0.2, n_components=D, gamma=0.5, fit_intercept=True,
                       seed=2).fit(X, y)
    s = _sampler(X, 0.5, 2)
    for c in range(3):
        ys = np.where(y == c, 1.0, -1.0)
        trace = R.run("fogd", X, ys, gamma=0.5, fit_intercept=True, eta=0.2,
                      omega=s.random_weights_, offset=s.random_offset_)
        w = trace.extra["w"]
        np.testing.assert_allclose(learner.coef_[c], w[:D], rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(learner.decision_function(X)[:, c],
                                   trace.extra["Z"] @ w, rtol=1e-9, atol=1e-12)


def test_a_file_whose_map_disagrees_with_its_seed_is_refused(tmp_path):
    X, y = stream(33)
    learner = olc.make("fogd", n_components=D, seed=4).fit(X, y)
    path = tmp_path / "f.npz"
    olc.save(learner, path)
    back = olc.load(path)
    np.testing.assert_array_equal(back.decision_function(X), learner.decision_function(X))
    learner._vecs[0, 0] += 1.0
    olc.save(learner, path)
    with pytest.raises(ValueError, match="random_weights"):
        olc.load(path)


@pytest.mark.parametrize("params, message", [
    ({"eta": 0.0}, "eta"), ({"n_components": 0}, "n_components"), ({"gamma": -1.0}, "gamma"),
    ({"seed": -1}, "seed"), ({"n_components": 2.5}, "n_components")])
def test_bad_parameters_are_refused_naming_them(params, message):
    X, y = stream(34)
    learner = olc.make("fogd", **params)
    with pytest.raises(ValueError, match=message):
        learner.fit(X, y)
    assert not hasattr(learner, "n_steps_")
