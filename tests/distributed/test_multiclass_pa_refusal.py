"""Iterative parameter mixing is binary (one weight vector and a bias): the multiclass PA
learners (K prototypes) are refused with the reason and the route that works, dask-ml's
Incremental (one sequential pass, checked here against partial_fit)."""
import numpy as np
import pytest

import olc
from olc.distributed import iterative_parameter_mixing, mixable_learners
from olc.learners import InputError

da = pytest.importorskip("dask.array")


def _data(n=64, d=5, k=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    return X, np.argmax(X @ rng.standard_normal((d, k)), axis=1)


@pytest.mark.parametrize("name", ["multiclass-pa", "multiclass-pa-i", "multiclass-pa-ii"])
def test_multiclass_pa_is_refused_with_the_reason(name):
    X, y = _data(k=2)
    with pytest.raises(InputError, match=rf"{name}: .* binary .* K prototypes.*Incremental"):
        iterative_parameter_mixing(olc.make(name), da.from_array(X, chunks=(32, -1)),
                                   da.from_array(y, chunks=32))
    assert name not in mixable_learners()


def test_dask_ml_incremental_trains_it_sequentially():
    wrappers = pytest.importorskip("dask_ml.wrappers")
    X, y = _data()
    inc = wrappers.Incremental(olc.make("multiclass-pa-i"), shuffle_blocks=False)
    inc.fit(da.from_array(X, chunks=(16, -1)), da.from_array(y, chunks=16), classes=[0, 1, 2])
    sequential = olc.make("multiclass-pa-i").partial_fit(X, y, classes=[0, 1, 2])
    np.testing.assert_array_equal(inc.estimator_.coef_, sequential.coef_)
