"""Iterative parameter mixing on Dask (McDonald, Hall & Mann 2010, §3, Figure 3).

The reference is the paper's algorithm written out with a plain NumPy perceptron (the rule of
``olc.Perceptron``'s docstring: update when y(w·x + b) ≤ 0). Integer features keep every
sum exact, and two shards make the uniform weights dyadic, so the comparisons are exact.
"""
import numpy as np
import pytest

import olc
from olc.distributed import iterative_parameter_mixing, mixable_learners
from olc.learners import InputError

da = pytest.importorskip("dask.array")


def _data(n=64, d=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, d)).astype(float)
    y = np.where(X @ rng.integers(-2, 3, size=d) + 1 > 0, 1, -1)
    y[:2] = [-1, 1]
    return X, y


def _perceptron_pass(w, b, X, y):
    w, b, updates = w.copy(), b, 0
    for x, label in zip(X, y):
        if label * (w @ x + b) <= 0:
            w, b, updates = w + label * x, b + label, updates + 1
    return w, b, updates


def _reference(X, y, shards, epochs, weighting):
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(epochs):
        runs = [_perceptron_pass(w, b, X[s], y[s]) for s in shards]
        k = np.array([r[2] for r in runs], dtype=float)
        mu = k / k.sum() if weighting == "updates" and k.sum() > 0 else \
            np.full(len(runs), 1 / len(runs))
        w = sum(m * r[0] for m, r in zip(mu, runs))
        b = sum(m * r[1] for m, r in zip(mu, runs))
    return w, b


@pytest.mark.parametrize("epochs", [1, 3])
def test_two_shards_uniform_mixing_is_the_papers_algorithm(epochs):
    X, y = _data()
    learner = iterative_parameter_mixing(
        olc.make("perceptron"), da.from_array(X, chunks=(32, -1)), da.from_array(y, chunks=32),
        epochs=epochs)
    w, b = _reference(X, y, [slice(0, 32), slice(32, 64)], epochs, "uniform")
    np.testing.assert_array_equal(learner.coef_[0], w)
    assert learner.intercept_[0] == b
    assert learner.n_steps_ == 64 * epochs
    assert learner.mixing_history_.weights == [[0.5, 0.5]] * epochs


def test_update_weighted_mixing():
    X, y = _data(n=90, seed=3)
    shards = [slice(0, 30), slice(30, 60), slice(60, 90)]
    learner = iterative_parameter_mixing(
        olc.make("perceptron"), da.from_array(X, chunks=(30, -1)), da.from_array(y, chunks=30),
        epochs=4, weighting="updates")
    w, b = _reference(X, y, shards, 4, "updates")
    np.testing.assert_allclose(learner.coef_[0], w, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(learner.intercept_[0], b, rtol=1e-12, atol=1e-12)
    first = learner.mixing_history_
    assert sum(first.updates[0]) > 0 and abs(sum(first.weights[0]) - 1) < 1e-15


@pytest.mark.parametrize("name", ["pa-i", "pa-regression"])
def test_one_block_is_sequential_training(name):
    """With one shard, mixing is the identity: E epochs = E passes of partial_fit."""
    X, y = _data(seed=5)
    target = y if name == "pa-i" else X @ np.arange(5.0)
    mixed = iterative_parameter_mixing(olc.make(name), da.from_array(X, chunks=(64, -1)),
                                       da.from_array(target, chunks=64), epochs=3)
    sequential = olc.make(name)
    for _ in range(3):
        sequential.partial_fit(X, target)
    np.testing.assert_array_equal(mixed.coef_, sequential.coef_)
    np.testing.assert_array_equal(mixed.intercept_, sequential.intercept_)
    assert mixed.n_updates_ == sequential.n_updates_


def test_sparse_blocks_and_column_chunks():
    sp = pytest.importorskip("scipy.sparse")
    X, y = _data()
    dense = iterative_parameter_mixing(olc.make("perceptron"),
                                       da.from_array(X, chunks=(32, 2)),  # rechunked to rows
                                       da.from_array(y, chunks=16), epochs=2)
    sparse_blocks = da.from_array(sp.csr_matrix(X), chunks=(32, -1), asarray=False)
    sparse = iterative_parameter_mixing(olc.make("perceptron"), sparse_blocks,
                                        da.from_array(y, chunks=32), epochs=2)
    np.testing.assert_array_equal(dense.coef_, sparse.coef_)


def test_dask_dataframe_keeps_feature_names():
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    X, y = _data()
    frame = pd.DataFrame(X, columns=list("abcde"))
    learner = iterative_parameter_mixing(olc.make("pa"), dd.from_pandas(frame, npartitions=2),
                                         dd.from_pandas(pd.Series(y), npartitions=2))
    assert list(learner.feature_names_in_) == list("abcde")
    with pytest.raises(ValueError, match="feature names should match"):
        learner.predict(frame[list("edcba")])


def test_on_a_local_cluster_it_matches_the_local_scheduler():
    distributed = pytest.importorskip("distributed")
    X, y = _data(n=128, seed=7)
    dX, dy = da.from_array(X, chunks=(32, -1)), da.from_array(y, chunks=32)
    local = iterative_parameter_mixing(olc.make("perceptron"), dX, dy, epochs=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster):
        remote = iterative_parameter_mixing(olc.make("perceptron"), dX, dy, epochs=2)
    np.testing.assert_array_equal(remote.coef_, local.coef_)


def test_learners_whose_state_is_not_one_weight_vector_are_refused():
    X, y = _data()
    dX, dy = da.from_array(X, chunks=(32, -1)), da.from_array(y, chunks=32)
    with pytest.raises(InputError, match=r"alma2: iterative parameter mixing averages models.*"
                                         r"perceptron, pa, pa-i"):
        iterative_parameter_mixing(olc.make("alma2"), dX, dy)
    assert "arow" not in mixable_learners() and "sgd" not in mixable_learners()


@pytest.mark.parametrize("kwargs, message", [
    ({"epochs": 0}, "epochs must be an integer ≥ 1"),
    ({"weighting": "errors"}, "weighting must be one of uniform, updates"),
])
def test_bad_options(kwargs, message):
    X, y = _data()
    with pytest.raises(InputError, match=message):
        iterative_parameter_mixing(olc.make("perceptron"), da.from_array(X, chunks=(32, -1)),
                                   da.from_array(y, chunks=32), **kwargs)


def test_in_memory_input_is_refused_with_the_way_to_wrap_it():
    X, y = _data()
    with pytest.raises(InputError, match=r"X must be a dask array.*dask.array.from_array"):
        iterative_parameter_mixing(olc.make("perceptron"), X, y)


def test_more_than_two_classes_is_refused():
    X, _ = _data()
    y = np.arange(64) % 3
    with pytest.raises(InputError, match="Only binary classification"):
        iterative_parameter_mixing(olc.make("perceptron"), da.from_array(X, chunks=(32, -1)),
                                   da.from_array(y, chunks=32))


def test_dask_ml_incremental_is_the_sequential_route():
    """dask-ml's Incremental calls partial_fit block after block: one sequential pass."""
    wrappers = pytest.importorskip("dask_ml.wrappers")
    X, y = _data()
    inc = wrappers.Incremental(olc.make("pa-i"), shuffle_blocks=False)
    inc.fit(da.from_array(X, chunks=(16, -1)), da.from_array(y, chunks=16), classes=[-1, 1])
    sequential = olc.make("pa-i").partial_fit(X, y)
    np.testing.assert_array_equal(inc.estimator_.coef_, sequential.coef_)
