"""``n_jobs``: one-vs-rest learns contiguous groups of classes on threads
(``_compiled/driver/k_class.py``), and every result is bit for bit that of one thread —
states, coefficients, decision values, records — for every one-vs-rest learner, dense and
CSR rows, fit, chunked partial_fit and averaging; NaN rows stop every group at the same row.
Two classes (one learner) and the multiclass PA (one joint step) do not split."""
import numpy as np
import pytest

import olc
import olc._compiled.driver.k_class as k_class
from olc._util.jobs import available_cores, effective_n_jobs, groups
from olc.learners import StreamStoppedError
from olc.learners._framework.estimator import ParameterError

from ._streams import OVR_NAMES, as_csr, stream

AVERAGED = [name for name in OVR_NAMES if "average" in olc.make(name).get_params()]


@pytest.fixture
def threads_always(monkeypatch):
    """Threads even for the tests' short streams, counting the thread pools started."""
    monkeypatch.setattr(k_class, "MIN_STEPS_PER_THREAD", 1)
    pools = []
    real = k_class.ThreadPoolExecutor

    def counting(*args, **kwargs):
        pool = real(*args, **kwargs)
        pools.append(kwargs.get("max_workers", args[0] if args else None))
        return pool

    monkeypatch.setattr(k_class, "ThreadPoolExecutor", counting)
    return pools


def _same_state(a, b):
    for name in ("_vecs", "_ints", "_scal"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    assert a.n_steps_ == b.n_steps_ and a.n_updates_ == b.n_updates_


def _same_records(r, s):
    for field in ("pred", "score", "updated", "aux"):
        np.testing.assert_array_equal(getattr(r, field), getattr(s, field), err_msg=field)
        assert getattr(r, field).dtype == getattr(s, field).dtype


def _runs(name, X, y, n_jobs, **params):
    """(fit learner, record of predict_then_learn, learner of a chunked partial_fit)."""
    fitted = olc.make(name, n_jobs=n_jobs, **params).fit(X, y)
    recorded = olc.make(name, n_jobs=n_jobs, **params)
    record = recorded.predict_then_learn(X, y)
    chunked = olc.make(name, n_jobs=n_jobs, **params)
    for a in range(0, X.shape[0], 23):
        chunked.partial_fit(X[a:a + 23], y[a:a + 23], classes=np.unique(y))
    return fitted, record, chunked


@pytest.mark.parametrize("k", [3, 20])
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("name", OVR_NAMES)
def test_threads_change_no_result(name, sparse, k, threads_always):
    X, y = stream(olc.make(name), n=70, d=6, k=k)
    X = as_csr(X) if sparse else X
    fitted1, record1, chunked1 = _runs(name, X, y, 1)
    assert threads_always == []  # n_jobs=1: no pool
    for n_jobs in (2, -1, 3, 7):
        fitted, record, chunked = _runs(name, X, y, n_jobs)
        _same_state(fitted, fitted1)
        _same_state(chunked, chunked1)
        _same_records(record, record1)
        np.testing.assert_array_equal(fitted.coef_, fitted1.coef_)
        np.testing.assert_array_equal(fitted.intercept_, fitted1.intercept_)
        np.testing.assert_array_equal(fitted.decision_function(X), fitted1.decision_function(X))
        np.testing.assert_array_equal(fitted.predict(X), fitted1.predict(X))
    # threads did run: 2 (or every core), 3 and 7 groups (capped by K)
    assert len(threads_always) >= 3 * 3
    assert max(threads_always) == min(7, k) - 1  # the first group runs in the calling thread


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("name", AVERAGED)
def test_threads_change_no_averaged_result(name, sparse, threads_always):
    X, y = stream(olc.make(name), n=70, d=6, k=5, seed=1)
    X = as_csr(X) if sparse else X
    fitted1, record1, chunked1 = _runs(name, X, y, 1, average=3)
    for n_jobs in (2, -1):
        fitted, record, chunked = _runs(name, X, y, n_jobs, average=3)
        _same_state(fitted, fitted1)
        _same_state(chunked, chunked1)
        _same_records(record, record1)
        np.testing.assert_array_equal(fitted.coef_, fitted1.coef_)
        np.testing.assert_array_equal(fitted.decision_function(X), fitted1.decision_function(X))
    assert threads_always


@pytest.mark.parametrize("name", ["perceptron", "pa-i", "multiclass-pa-i"])
def test_two_classes_and_joint_steps_do_not_split(name, threads_always):
    for k in (2, 4):
        X, y = stream(olc.make(name), n=60, d=5, k=k, seed=2)
        one = olc.make(name, n_jobs=1)
        two = olc.make(name, n_jobs=2)
        _same_records(one.predict_then_learn(X, y), two.predict_then_learn(X, y))
        _same_state(one, two)
    assert len(threads_always) == (0 if name == "multiclass-pa-i" else 1)  # only K = 4 OvR


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
def test_nan_row_stops_every_group_at_that_row(sparse, threads_always, monkeypatch):
    monkeypatch.setattr(k_class, "OVR_BLOCK_ROWS", 7)
    X, y = stream(olc.make("pa"), n=40, d=4, k=6, seed=3)
    X[17, 1] = np.nan
    X = as_csr(X) if sparse else X
    outcomes = []
    for n_jobs in (1, 2, 4):
        learner = olc.make("pa", n_jobs=n_jobs)
        with pytest.raises(StreamStoppedError, match=r"NaN at row 17, column 1.*The 17 "
                                                     r"row\(s\) before it") as info:
            learner.partial_fit(X, y, classes=np.arange(6))
        outcomes.append((learner, info.value))
    (first, error1), rest = outcomes[0], outcomes[1:]
    for learner, error in rest:
        assert error.rows_learned == error1.rows_learned == 17
        _same_state(learner, first)
        _same_records(error.record, error1.record)


def test_overflow_with_threads_is_one_clear_error(threads_always):
    # Perceptron without a bias, η = 1e308: class 0's weights overflow at row 1 (as in
    # test_ovr_blocks); with threads the other group stops there too or later, and the
    # error names the row and what each class learned.
    X = np.array([[1.0, 1.0], [1.0, 1.0], [1.0, 1.0], [1.0, 1.0]])
    y = np.array([0, 1, 2, 3])
    for n_jobs in (1, 2):
        learner = olc.make("perceptron", eta=1e308, fit_intercept=False, n_jobs=n_jobs)
        with pytest.raises(StreamStoppedError, match="overflow occurred at row") as info:
            learner.partial_fit(X, y, classes=[0, 1, 2, 3])
        assert info.value.rows_learned == learner.n_steps_


def test_short_streams_stay_on_one_thread(monkeypatch):
    pools = []
    monkeypatch.setattr(k_class, "ThreadPoolExecutor",
                        lambda *a, **k: pools.append(1) or (_ for _ in ()).throw(AssertionError))
    X, y = stream(olc.make("pa-i"), n=50, d=4, k=3)
    olc.make("pa-i", n_jobs=2).fit(X, y)  # 150 row-class steps: below the floor
    assert pools == []
    assert k_class.ovr_threads(2, 20, 10) == 1
    assert k_class.ovr_threads(2, 20, k_class.MIN_STEPS_PER_THREAD) == 2
    assert k_class.ovr_threads(8, 3, 10 ** 9) == 3  # one thread per class at most


def test_effective_n_jobs_follows_joblib():
    cores = available_cores()
    expected = {None: 1, 1: 1, 2: 2, 5: 5, -1: cores, -2: max(1, cores - 1),
                -cores - 5: 1}
    for n_jobs, threads in expected.items():
        assert effective_n_jobs(n_jobs) == threads
    for bad in (0, 1.5, True, "2"):
        with pytest.raises(ValueError, match="n_jobs"):
            effective_n_jobs(bad)


def test_groups_are_contiguous_balanced_and_cover_every_class():
    for n_items in (1, 2, 3, 7, 20):
        for n_threads in (1, 2, 3, 8, 40):
            parts = groups(n_items, n_threads)
            assert parts[0][0] == 0 and parts[-1][1] == n_items
            assert all(a[1] == b[0] for a, b in zip(parts, parts[1:]))
            sizes = [b - a for a, b in parts]
            assert min(sizes) >= 1 and max(sizes) - min(sizes) <= 1
            assert len(parts) == min(n_items, n_threads)


@pytest.mark.parametrize("bad", [0, 1.5, "2"])
def test_a_bad_n_jobs_is_refused_naming_it(bad):
    X, y = stream(olc.make("pa-i"), n=20, d=3, k=3)
    with pytest.raises(ParameterError, match="'n_jobs' parameter"):
        olc.make("pa-i", n_jobs=bad).fit(X, y)


def test_make_and_get_params_carry_n_jobs():
    learner = olc.make("perceptron", n_jobs=-1)
    assert learner.get_params()["n_jobs"] == -1
    assert olc.learners.info("perceptron").parameters["n_jobs"] is None
    from sklearn.base import clone

    assert clone(learner).n_jobs == -1
