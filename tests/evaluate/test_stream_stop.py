"""No NaN left behind: after any StreamStoppedError the
learner's state is exactly the state of a learner that learned only the rows before the bad
row — for every learner, whether the bad row is in the first batch or a later one."""
import numpy as np
import pytest

import olc
from olc.learners import StreamStoppedError

from _in_domain import NAMES, fit_kwargs, in_domain

STATE = ("_vecs", "_ints", "_scal", "n_steps_", "n_updates_", "classes_")


def assert_same_state(stopped, reference, what):
    for attr in STATE:
        assert hasattr(stopped, attr) == hasattr(reference, attr), f"{what}: {attr}"
        if hasattr(reference, attr):
            a, b = np.asarray(getattr(stopped, attr)), np.asarray(getattr(reference, attr))
            assert a.dtype == b.dtype and a.shape == b.shape, f"{what}: {attr}"
            assert a.tobytes() == b.tobytes(), f"{what}: {attr} differs"


def _bad(X, row, value):
    X = X.copy()
    X[row, 1] = value
    return X


@pytest.mark.parametrize("value", [np.nan, np.inf], ids=["nan", "inf"])
@pytest.mark.parametrize("name", NAMES)
def test_state_after_a_stopped_stream_is_the_state_before_the_bad_row(name, value):
    X, y = in_domain(name, n=60)
    for before, bad_row in ((0, 23), (30, 47), (0, 0), (30, 30)):
        # ``before`` rows learned in an earlier call, then a batch with a bad row.
        stopped, reference = olc.make(name), olc.make(name)
        if before:
            stopped.partial_fit(X[:before], y[:before], **fit_kwargs(name))
            reference.partial_fit(X[:before], y[:before], **fit_kwargs(name))
        with pytest.raises(StreamStoppedError) as info:
            stopped.partial_fit(_bad(X, bad_row, value)[before:], y[before:],
                                **fit_kwargs(name))
        assert info.value.rows_learned == bad_row - before
        if bad_row > before:
            reference.partial_fit(X[before:bad_row], y[before:bad_row], **fit_kwargs(name))
        assert_same_state(stopped, reference, f"{name}, rows {before}.., bad row {bad_row}")
        # and learning goes on from there exactly as for the reference
        if hasattr(reference, "n_steps_"):
            stopped.partial_fit(X[bad_row + 1:], y[bad_row + 1:])
            reference.partial_fit(X[bad_row + 1:], y[bad_row + 1:])
            assert_same_state(stopped, reference, f"{name}: continued")


def _overflowing_row(learner):
    """A finite row whose score or update is beyond the largest double: every entry
    ±1.7e308 with the sign of the learner's weight there (+ where it is 0), so that
    |w·x| = 1.7e308·‖w‖₁ (the dot products are scaled when a sum overflows: ±inf, not NaN),
    and ‖x‖² overflows for the updates. Multiclass learners: the weights of their first
    class. A kernel learner (no weights over the inputs): every entry 1.7e308, whose
    squared norm overflows in every kernel."""
    if hasattr(type(learner), "dual_coef_") and getattr(learner, "kernel", None) != "linear":
        return np.full(learner.n_features_in_, 1.7e308)
    w = np.atleast_2d(np.asarray(learner.coef_, dtype=float))[0]
    return np.where(w < 0, -1.7e308, 1.7e308)


@pytest.mark.parametrize("name", NAMES)
def test_state_after_an_overflow_stop_is_the_state_before_the_row(name):
    """A finite row so large that the score or the update overflows stops every learner,
    naming the row and suggesting scaling, and nothing of that row is left in the state;
    the experts, whose input domain excludes such a row, stop there naming the row and
    their domain. Either way the rows before it are learned, exactly as a learner given
    only them."""
    X, y = in_domain(name, n=40)
    stopped, reference = olc.make(name), olc.make(name)
    stopped.partial_fit(X[:20], y[:20], **fit_kwargs(name))
    reference.partial_fit(X[:20], y[:20], **fit_kwargs(name))
    domain = getattr(type(stopped), "input_domain", None)
    huge = X[20:].copy()
    if domain is not None:
        huge[3] *= 1e308
        message = r"row 3\b.*outside .*input domain " + {"binary": r"\{0, 1\}",
                                                         "sign": r"\{-1, \+1\}"}[domain]
    else:
        huge[3] = _overflowing_row(stopped)
        message = r"(?s)overflow occurred at row 3\b.*consider scaling"
    with pytest.raises(StreamStoppedError, match=message) as info:
        stopped.partial_fit(huge, y[20:])
    assert info.value.row == 3 and info.value.rows_learned == 3
    reference.partial_fit(X[20:23], y[20:23])
    assert_same_state(stopped, reference, f"{name}: overflow at row 3")
