"""The averaged states' storage (``_compiled/layouts/feature_major.py``): a wide averaged state is
stored feature-major (w_j next to avg_sum_j), a narrow one row by row. The storage must not
change a single bit of what the learners compute: each test runs a learner with every
averaged state feature-major (``MIN_FEATURES`` = 1) and compares it with the row-by-row
storage the small streams otherwise get, and with the plain learner where the two agree."""
import copy
import pickle

import numpy as np
import pytest
import scipy.sparse as sp

import olc
from olc._compiled.layouts import feature_major

from _cases import ALL, case_id, fit_args, is_classifier, stream, targets


@pytest.fixture
def wide(monkeypatch):
    """Every averaged state created inside ``with wide():`` is stored feature-major."""
    def storage(on):
        monkeypatch.setattr(feature_major, "MIN_FEATURES", 1 if on else 2 ** 17)
    return storage


def _run(name, params, X, t, args, average, layouts, strict):
    with olc.strict_mode(strict):
        learner = olc.make(name, average=average, **params)
        for (a, b), layout in zip([(0, 25), (25, 50), (50, None)], layouts):
            rows = X[a:b] if layout == "dense" else sp.csr_matrix(X[a:b])
            learner.partial_fit(rows, t[a:b], **args)
        values = (learner.decision_function(X) if is_classifier(name) else learner.predict(X))
        sparse_values = (learner.decision_function(sp.csr_matrix(X)) if is_classifier(name)
                         else learner.predict(sp.csr_matrix(X)))
    return learner, values, sparse_values


LAYOUTS = [("dense",) * 3, ("csr",) * 3, ("dense", "csr", "dense")]


# (case, n_classes, d): every learner on two classes (d = 6 and 1), the classifiers on three
SHAPES = [(case, n_classes, d) for case in ALL for n_classes, d in [(2, 6), (2, 1), (3, 6)]
          if n_classes == 2 or is_classifier(case[0])]


@pytest.mark.parametrize("strict", [False, True], ids=["fast", "strict"])
@pytest.mark.parametrize("case,n_classes,d", SHAPES,
                         ids=[f"{case_id(c)}-{k}-{d}" for c, k, d in SHAPES])
def test_feature_major_storage_is_bit_for_bit_the_row_storage(case, n_classes, d, strict,
                                                               wide):
    name, params = case
    X, y, target = stream(seed=11, d=d, n_classes=n_classes)
    t, args = targets(name, y, target), fit_args(name, n_classes)
    for layouts in LAYOUTS:
        for average in (True, 20):
            wide(False)
            rows, *want = _run(name, params, X, t, args, average, layouts, strict)
            assert not feature_major.is_interleaved(rows._vecs)
            wide(True)
            fm, *got = _run(name, params, X, t, args, average, layouts, strict)
            assert feature_major.is_interleaved(fm._vecs)
            for a, b in zip(got + [fm.coef_, fm.intercept_, fm._vecs, fm._scal],
                            want + [rows.coef_, rows.intercept_, rows._vecs, rows._scal]):
                np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("strict", [False, True], ids=["fast", "strict"])
@pytest.mark.parametrize("case", ALL, ids=[case_id(c) for c in ALL])
def test_before_its_start_a_feature_major_learner_is_the_plain_one(case, strict, wide):
    """The dense reassociated dot runs on a contiguous copy of w (``averaging.row_dot``): the
    plain learner's order, bit for bit."""
    name, params = case
    X, y, target = stream(seed=12, d=40)
    t, args = targets(name, y, target), fit_args(name, 2)
    wide(True)
    for layouts in LAYOUTS:
        fm, *got = _run(name, params, X, t, args, X.shape[0] + 1, layouts, strict)
        plain, *want = _run(name, params, X, t, args, False, layouts, strict)
        assert fm.average_count_ == 0
        for a, b in zip(got + [fm.coef_, fm.intercept_], want + [plain.coef_, plain.intercept_]):
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_a_feature_major_state_survives_files_pickles_and_copies(n_classes, wide, tmp_path):
    X, y, _ = stream(seed=13, n_classes=n_classes)
    args = fit_args("pa-i", n_classes)
    wide(True)
    whole = olc.make("pa-i", average=3).partial_fit(X, y, **args)
    first = olc.make("pa-i", average=3).partial_fit(X[:30], y[:30], **args)
    path = olc.save(first, tmp_path / "m")
    copies = [olc.load(path), pickle.loads(pickle.dumps(first)), copy.deepcopy(first)]
    for other in copies:
        assert feature_major.is_interleaved(other._vecs)
        np.testing.assert_array_equal(other._vecs, first._vecs)
        other.partial_fit(X[30:], y[30:])
        np.testing.assert_array_equal(other._vecs, whole._vecs)
        np.testing.assert_array_equal(other.coef_, whole.coef_)
    wide(False)  # a file read back by a learner with the narrow storage: row by row
    narrow = olc.load(path)
    assert not feature_major.is_interleaved(narrow._vecs)
    np.testing.assert_array_equal(narrow._vecs, first._vecs)


def test_the_compiled_code_gets_a_type_of_its_own_for_feature_major_states(wide):
    """Plain states and averaged ones stored row by row reach the loops as C arrays (the code
    they compiled before); a feature-major state as its strided view, an "A" array: a
    specialization of its own, compiled on first use (a binary learner's (2, d) view of a
    C (d, 2) array is F-contiguous, also a type of its own)."""
    from numba import typeof

    X, y, _ = stream(seed=14)
    X3, y3, _ = stream(seed=14, n_classes=3)
    found = {}
    for on, average in ((False, False), (False, True), (True, True)):
        wide(on)
        for rows, labels in ((X, y), (X3, y3)):
            learner = olc.make("perceptron", average=average).fit(rows, labels)
            found.setdefault(on, set()).add(typeof(learner._vecs))
    assert {(t.ndim, t.layout) for t in found[False]} == {(2, "C"), (3, "C")}
    assert {t.ndim for t in found[True]} == {2, 3}
    assert all(t.layout != "C" for t in found[True])
    assert len(found[False]) == 2  # plain and row by row: one type per number of classes


def test_river_grows_a_wide_averaged_state_exactly(wide):
    # River keeps it row by row (its one-example entries take C arrays): the same bits as
    # the feature-major batch learner
    pytest.importorskip("river")
    import olc.river

    wide(True)
    rng = np.random.default_rng(15)
    rows = [{f"f{j}": float(rng.normal()) for j in rng.choice(3 + i // 4, 3, replace=False)}
            for i in range(40)]
    ys = [bool(rng.random() < 0.5) for _ in rows]
    model = olc.river.Classifier(olc.make("perceptron", average=2))
    for x, label in zip(rows, ys):
        model.learn_one(x, label)
    restored = pickle.loads(pickle.dumps(model))
    names = model._columns.names
    X = np.zeros((len(rows), len(names)))
    for i, x in enumerate(rows):
        for key, value in x.items():
            X[i, names.index(key)] = value
    ref = olc.make("perceptron", average=2).partial_fit(sp.csr_matrix(X), np.array(ys),
                                                        classes=[False, True])
    fitted = model.to_olc()
    np.testing.assert_array_equal(fitted._vecs, ref._vecs)
    assert [restored.decision_one(x) for x in rows] == [model.decision_one(x) for x in rows]
