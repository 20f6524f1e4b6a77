"""Contract 4: ``olc.save``/``olc.load`` round-trip exactly (safe .npz, no pickle)."""
import json
import pickle

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

import olc
from olc.persistence import PersistenceError

from ._support import (assert_same_bits, assert_same_model, assert_same_records,
                       assert_same_state, csr, each_algorithm, stream)


def _roundtrip(learner, tmp_path):
    path = olc.save(learner, tmp_path / "model")
    return olc.load(path)


@each_algorithm
@pytest.mark.parametrize("layout", ["dense", "csr"])
def test_fitted_roundtrip_is_exact_and_learning_continues_identically(name, layout, tmp_path):
    X, y = stream(21)
    conv = csr if layout == "csr" else np.asarray
    learner = olc.make(name)
    learner.partial_fit(conv(X[:30]), y[:30], classes=[0, 1])
    loaded = _roundtrip(learner, tmp_path)

    assert type(loaded) is type(learner)
    assert loaded.get_params() == learner.get_params()
    assert_same_state(learner, loaded, "loaded")
    assert_same_bits(loaded.decision_function(conv(X)), learner.decision_function(conv(X)),
                     "decision_function after load")
    np.testing.assert_array_equal(loaded.predict(conv(X)), learner.predict(conv(X)))
    assert_same_model(learner, loaded)

    r_cont = learner.predict_then_learn(conv(X[30:]), y[30:])
    r_load = loaded.predict_then_learn(conv(X[30:]), y[30:])
    assert_same_records(r_cont, r_load, "continued after load")
    assert_same_state(learner, loaded, "after continuing")


@each_algorithm
def test_roundtrip_equals_uninterrupted_stream(name, tmp_path):
    X, y = stream(22)
    whole = olc.make(name)
    r_whole = whole.predict_then_learn(X, y, classes=[0, 1])
    first = olc.make(name)
    r1 = first.predict_then_learn(X[:25], y[:25], classes=[0, 1])
    second = _roundtrip(first, tmp_path)
    r2 = second.predict_then_learn(X[25:], y[25:])
    assert_same_bits(np.concatenate([r1.score, r2.score]), r_whole.score, "score")
    assert_same_bits(np.concatenate([r1.updated, r2.updated]), r_whole.updated, "updated")
    assert_same_state(whole, second)


@each_algorithm
def test_unfitted_roundtrip(name, tmp_path):
    learner = olc.make(name)
    loaded = _roundtrip(learner, tmp_path)
    assert type(loaded) is type(learner)
    assert loaded.get_params() == learner.get_params()
    assert_same_state(learner, loaded)
    with pytest.raises(NotFittedError):
        loaded.predict(np.zeros((1, 3)))
    X, y = stream(23)
    assert_same_model(loaded.fit(X, y), olc.make(name).fit(X, y))


@each_algorithm
def test_save_appends_npz_and_load_accepts_returned_path(name, tmp_path):
    learner = olc.make(name).fit(*stream(24))
    path = olc.save(learner, tmp_path / "m")
    assert str(path).endswith(".npz") and path.exists()
    assert_same_state(learner, olc.load(str(path)))
    # No pickle anywhere: the file loads with allow_pickle=False, metadata is JSON.
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
    assert meta["algorithm"] == name


@each_algorithm
@pytest.mark.parametrize("labels", [
    pytest.param(np.array(["ham", "spam"]), id="str-unicode"),
    pytest.param(np.array(["ham", "spam"], dtype=object), id="str-object"),
    pytest.param(np.array([-1, 1]), id="int"),
    pytest.param(np.array([False, True]), id="bool"),
])
def test_class_labels_roundtrip(name, labels, tmp_path):
    """String labels round-trip, also when they arrive as an object array (what pandas gives);
    they may come back as a NumPy unicode array, but must compare, predict and continue
    learning exactly as before."""
    X, y01 = stream(25)
    y = labels[y01]
    learner = olc.make(name).fit(X, y)
    loaded = _roundtrip(learner, tmp_path)
    assert list(loaded.classes_) == list(learner.classes_)
    assert list(loaded.predict(X)) == list(learner.predict(X))
    r1 = learner.predict_then_learn(X[:10], y[:10])
    r2 = loaded.predict_then_learn(X[:10], y[:10])
    assert_same_records(r1, r2)


def _text(path):
    path.write_text("hello, I am not a model")


def _other_arrays(path):
    np.savez(path, a=np.arange(3))


def _wrong_format(path):
    np.savez(path, meta=np.array(json.dumps({"format": "something-else/9"})))


def _meta_not_json(path):
    np.savez(path, meta=np.array("not json {"))


def _pickle(path):
    with open(path, "wb") as fh:
        pickle.dump({"coef": [1, 2]}, fh)


def _npy(path):
    with open(path, "wb") as fh:  # a plain .npy payload (np.load returns an array, not a zip)
        np.save(fh, np.arange(3))


def _missing(path):
    pass


@pytest.mark.parametrize("writer", [_text, _other_arrays, _wrong_format, _meta_not_json,
                                    _pickle, _npy, _missing],
                         ids=lambda f: f.__name__.strip("_"))
def test_load_rejects_files_that_are_not_olc_learners(writer, tmp_path):
    path = tmp_path / "candidate.npz"
    writer(path)
    expected = (r"cannot be read \(FileNotFoundError" if writer is _missing
                else r"not an olc learner|unknown format")
    with pytest.raises(PersistenceError, match=expected) as info:
        olc.load(path)
    assert str(path) in str(info.value), "the message names the file"
