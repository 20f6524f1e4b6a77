"""A model loaded read-only (joblib's ``load(..., mmap_mode="r")``, the way scikit-learn users
load large models and the way joblib hands arrays to worker processes) predicts and keeps
learning exactly as the same model loaded into memory, and compiles nothing of its own.

It used to fail deep inside numba (``setitem(readonly array...)``) on ``partial_fit``, and
to compile a read-only specialization of every score loop on ``predict``.
"""
import joblib
import numpy as np
import pytest
import scipy.sparse as sp

import olc
from numba.core import event

CASES = [
    ("pa-i", {}, 2, False),
    ("perceptron", {"average": True}, 2, False),
    ("e-omm", {}, 2, False),
    ("regularized-pa", {}, 2, True),
    ("pa-i", {}, 3, False),               # one-vs-rest
    ("alma2", {}, 4, True),               # one-vs-rest, sparse rows
    ("multiclass-pa-i", {}, 3, False),    # K prototypes
]


def _data(n_classes, sparse, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((120, 6))
    y = np.argmax(X[:, :n_classes] + 0.3 * rng.standard_normal((120, n_classes)), axis=1)
    return (sp.csr_matrix(X) if sparse else X), y


class _CompileCounter(event.Listener):
    def __init__(self):
        self.count = 0

    def on_start(self, ev):
        self.count += 1

    def on_end(self, ev):
        pass


@pytest.mark.parametrize("name, params, n_classes, sparse", CASES)
def test_a_read_only_model_predicts_and_learns_like_the_loaded_copy(tmp_path, name, params,
                                                                    n_classes, sparse):
    X, y = _data(n_classes, sparse)
    X2, y2 = _data(n_classes, sparse, seed=1)
    model = olc.make(name, **params).fit(X, y)
    path = tmp_path / "model.joblib"
    joblib.dump(model, path)
    in_memory = joblib.load(path)
    mapped = joblib.load(path, mmap_mode="r")
    assert any(isinstance(a, np.ndarray) and not a.flags.writeable
               for a in vars(mapped).values()), "the test needs a read-only state"

    expected = [in_memory.decision_function(X2)]
    in_memory.partial_fit(X2, y2)
    expected += [in_memory.decision_function(X), in_memory.coef_]

    compiles = _CompileCounter()
    with event.install_listener("numba:compile", compiles):
        got = [mapped.decision_function(X2)]
        mapped.partial_fit(X2, y2)
        got += [mapped.decision_function(X), mapped.coef_]
    for a, b in zip(got, expected):
        np.testing.assert_array_equal(a, b)
    assert compiles.count == 0, "a read-only state compiled loops of its own"
    # the file itself is untouched: learning copied the mapped state
    np.testing.assert_array_equal(joblib.load(path).decision_function(X2),
                                  model.decision_function(X2))
