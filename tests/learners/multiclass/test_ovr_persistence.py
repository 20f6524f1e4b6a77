"""One-vs-rest classifiers saved and loaded: the K stacked states come back bit for bit, and
files whose state does not have K × the binary shapes are refused naming the field."""
import warnings

import numpy as np
import pytest

import olc
from olc.persistence import PersistenceError

from ._streams import stream

NAMES = ["perceptron", "obpm", "arow", "winnow", "e-omm", "randomized-weighted-majority"]


@pytest.mark.parametrize("name", NAMES)
def test_save_load_round_trip(name, tmp_path):
    X, y = stream(olc.make(name), n=40, k=4)
    labels = np.array(["ant", "bee", "cat", "dog"])[y]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = olc.make(name).fit(X[:30], labels[:30])
    path = olc.save(model, tmp_path / "m.npz")
    loaded = olc.load(path)
    assert list(loaded.classes_) == ["ant", "bee", "cat", "dog"]
    for attr in ("_vecs", "_ints", "_scal"):
        np.testing.assert_array_equal(getattr(loaded, attr), getattr(model, attr))
    np.testing.assert_array_equal(loaded.decision_function(X), model.decision_function(X))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.partial_fit(X[30:], labels[30:])
        loaded.partial_fit(X[30:], labels[30:])  # learning continues identically
    np.testing.assert_array_equal(loaded.coef_, model.coef_)


def _edited(tmp_path, edit):
    X, y = stream(olc.make("perceptron"), n=30, k=3)
    path = olc.save(olc.make("perceptron").fit(X, y), tmp_path / "m.npz")
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    edit(arrays)
    out = tmp_path / "edited.npz"
    np.savez(out, **arrays)
    return out


@pytest.mark.parametrize("edit, pattern", [
    (lambda a: a.update(vecs=a["vecs"][:2]),
     r"vecs: expected 3 class states along the first axis .*shape \(2, 1, 5\)"),
    (lambda a: a.update(scal=a["scal"][:, :0]),
     r"scal of the learner of class 0: expected 1 slots, found 0"),
    (lambda a: a.update(vecs=a["vecs"][0]), r"vecs: expected 3-D, found shape \(1, 5\)"),
    (lambda a: a.update(classes=np.array([0, 2, 1])), r"classes: expected distinct labels in "
                                                       r"sorted order"),
    (lambda a: a["vecs"].__setitem__((2, 0, 1), np.nan),
     r"vecs of the learner of class 2: expected finite values, found nan"),
])
def test_bad_stacked_state_is_refused(tmp_path, edit, pattern):
    with pytest.raises(PersistenceError, match=pattern):
        olc.load(_edited(tmp_path, edit))


def test_naive_omm_file_with_three_classes_is_refused(tmp_path):
    X, y = stream(olc.make("perceptron"), n=20, k=2)
    path = olc.save(olc.make("n-omm").fit(X, y), tmp_path / "m.npz")
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["classes"] = np.array([0, 1, 2])
    np.savez(tmp_path / "e.npz", **arrays)
    with pytest.raises(PersistenceError, match="cannot learn more"):
        olc.load(tmp_path / "e.npz")
