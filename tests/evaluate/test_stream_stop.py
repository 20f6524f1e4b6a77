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


@pytest.mark.parametrize("name", NAMES)
def test_state_after_an_overflow_stop_is_the_state_before_the_row(name):
    """A finite row so large that the update overflows: if the learner stops, nothing of that
    row is left in the state."""
    X, y = in_domain(name, n=40)
    stopped, reference = olc.make(name), olc.make(name)
    stopped.partial_fit(X[:20], y[:20], **fit_kwargs(name))
    reference.partial_fit(X[:20], y[:20], **fit_kwargs(name))
    huge = X[20:].copy()
    huge[3] *= 1e308 if np.abs(huge[3]).max() <= 1 else 1e300
    try:
        stopped.partial_fit(huge, y[20:])
    except StreamStoppedError as exc:
        reference.partial_fit(X[20:20 + exc.rows_learned], y[20:20 + exc.rows_learned])
        assert_same_state(stopped, reference, f"{name}: overflow at row {exc.row}")
    except ValueError:
        pass  # a learner may refuse such a row up front (input domain): nothing learned
    else:
        assert all(np.isfinite(np.asarray(getattr(stopped, a), dtype=float)).all()
                   for a in ("_vecs", "_scal"))
