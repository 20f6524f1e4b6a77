"""The River model object: pickling mid-stream, the row cache, the fitted olc learner it
hands back (``to_olc``), and n-OMM's store of points growing on the one-example path."""
import copy
import pickle

import numpy as np
import pytest

import olc
import olc.river
from _support import (assert_same_bits, assert_same_state, csr_of, dict_stream, learn,
                      learner, wrap)
from olc.learners import NotFittedError
from olc.river.columns import CACHE_LIMIT


@pytest.mark.parametrize("name", ["pa-i", "arow", "pumma", "obpm"])
@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_copy_mid_stream_continues_identically(name, how):
    stream, order = dict_stream(name, seed=5)
    model = wrap(name, features=order if name in ("pumma", "obpm") else None)
    learn(model, stream[:45])
    twin = pickle.loads(pickle.dumps(model)) if how == "pickle" else copy.deepcopy(model)
    assert_same_bits(learn(model, stream[45:]), learn(twin, stream[45:]), name)
    assert_same_state(model.to_olc(), twin.to_olc(), name)


@pytest.mark.parametrize("name", ["pa-i", "arow"])
def test_a_model_loaded_read_only_continues_identically(tmp_path, name):
    # joblib's mmap_mode="r" hands back read-only state arrays; the one-example entries
    # write the state through its address, so the model must learn on copies (it crashed
    # with a segmentation fault before)
    joblib = pytest.importorskip("joblib")
    stream, _ = dict_stream(name, seed=7)
    model = wrap(name)
    learn(model, stream[:45])
    joblib.dump(model, tmp_path / "model.joblib")
    mapped = joblib.load(tmp_path / "model.joblib", mmap_mode="r")
    assert_same_bits(learn(model, stream[45:]), learn(mapped, stream[45:]), name)
    assert_same_state(model.to_olc(), mapped.to_olc(), name)


def test_the_row_cache_changes_nothing_and_switches_itself_off():
    rng = np.random.default_rng(0)
    names = [f"x{j}" for j in range(30)]
    tabular = [(dict(zip(names, rng.standard_normal(30).tolist())), bool(i % 3))
               for i in range(200)]
    cached, uncached = olc.river.make("pa-ii"), olc.river.make("pa-ii")
    uncached._rows = None
    assert_same_bits(learn(cached, tabular), learn(uncached, tabular), "scores")
    assert_same_state(cached.to_olc(), uncached.to_olc())
    assert len(cached._rows) == 1 and cached._misses == 1
    # Every row its own key tuple (a shuffled order): the cache gives up.
    shuffled = [({k: x[k] for k in rng.permutation(names)}, y) for x, y in tabular]
    model = olc.river.make("pa-ii")
    learn(model, shuffled)
    assert model._rows is None
    # Off at the first miss k with k > k // 2 + CACHE_LIMIT: k = 2·CACHE_LIMIT + 1.
    assert model._misses == 2 * CACHE_LIMIT + 1


@pytest.mark.filterwarnings("ignore:X does not have valid feature names")
def test_to_olc_is_a_fitted_olc_learner():
    stream, order = dict_stream("arow", seed=6)
    model = olc.river.make("arow")
    with pytest.raises(NotFittedError):
        model.to_olc()
    learn(model, stream)
    fitted = model.to_olc()
    assert list(fitted.feature_names_in_) == order
    assert fitted.n_features_in_ == len(order) and list(fitted.classes_) == [False, True]
    X = csr_of(stream, model._columns)
    assert_same_bits(fitted.decision_function(X),
                     np.array([model.decision_one(x) for x, _ in stream]), "decisions")
    coef = fitted.coef_[0]
    x = stream[3][0]
    assert model.decision_one(x) == pytest.approx(
        sum(coef[order.index(k)] * v for k, v in x.items()) + fitted.intercept_[0], rel=1e-12)


def test_to_olc_round_trips_through_a_model_file(tmp_path):
    stream, _ = dict_stream("pa-regression", seed=7)
    model = olc.river.make("pa-regression")
    learn(model, stream)
    path = tmp_path / "model.npz"
    olc.save(model.to_olc(), path)
    loaded = olc.load(path)
    assert_same_state(loaded, model.to_olc())


def test_naive_omm_grows_its_store_of_points_one_example_at_a_time():
    stream, order = dict_stream("n-omm", seed=8, n=150)
    model = wrap("n-omm", features=order)
    scores = learn(model, stream)
    ref = learner("n-omm")
    record = ref.predict_then_learn(csr_of(stream, model._columns),
                                    np.array([y for _, y in stream]), classes=[False, True])
    assert model.to_olc()._scal.shape[0] > olc.make("n-omm")._initial_state(3)[1].shape[0]
    assert_same_bits(scores, record.score, "n-omm")
    assert_same_state(model.to_olc(), ref, "n-omm")


def test_memory_usage_counts_the_model_not_the_shared_compiled_code():
    """River's ``_raw_memory_usage`` walks the object graph; the compiled entry points (numba's
    code and environment, shared by every model of the family) stay out of it: a perceptron
    over 50 features is its arrays and dicts, a few KiB."""
    model = olc.river.make("perceptron")
    model.learn_one({f"x{j}": 1.0 for j in range(50)}, True)
    assert model._raw_memory_usage < 64 * 1024
    assert model._vecs.nbytes == 8 * model._width
    # Also when River walks from a pipeline that holds the model (its own walk, not ours):
    # the entry points sit in a class, which the walk does not enter.
    from river import compose, preprocessing

    pipeline = compose.Pipeline(preprocessing.StandardScaler(), olc.river.make("perceptron"))
    pipeline.learn_one({f"x{j}": float(j) for j in range(50)}, True)
    assert pipeline._raw_memory_usage < 64 * 1024


def test_warmup_compiles_the_one_example_entry_points_too(tmp_path):
    """In an empty disk cache (the suite's own is filled by CI's warm-up): not cached before
    ``warmup``, cached after, as a new process sees it."""
    from _fresh_cache import in_fresh_cache

    look = ("from olc._compiled import families; "
            "print(families.is_cached('linear', 'learn_one'))")
    assert in_fresh_cache(tmp_path, look) == "False"
    in_fresh_cache(tmp_path, "from olc.warmup import warmup; warmup(['perceptron']); "
                             "print('done')")
    assert in_fresh_cache(tmp_path, look) == "True"


def test_memory_walk_skips_dead_weak_proxies():
    """A weak proxy whose referent is gone is not followed (River's own walk raises
    ReferenceError on it); arrays count their buffers, as in River."""
    import sys
    import weakref

    import numpy as np

    from olc.river.memory import reachable_bytes

    class Referent:
        pass

    target = Referent()
    dead = weakref.proxy(target)
    del target
    array = np.zeros(1000)
    root = [dead, array]
    walked = reachable_bytes([root])
    assert walked == sys.getsizeof(root) + sys.getsizeof(array) + array.nbytes

    class Holder(Referent):
        pass

    holder = Holder()
    holder.items = root
    from river.base import Base

    with pytest.raises(ReferenceError):  # what the walk avoids
        Base._raw_memory_usage.fget(holder)
