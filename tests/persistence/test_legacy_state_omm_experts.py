"""Model files of olc 0.1.0 (tests/persistence/fixtures/v0_1_0, written by
``make_v0_1_0.py``) for the OMM and experts learners, read through each learner's
upgrade in ``olc.persistence.v0_1_0``: the upgraded learner gives the decision values olc
0.1.0 gave, bit for bit, and keeps learning exactly as a learner trained by this version on the same
rows (the fixture's training stream is rebuilt from the generator's seed)."""

import numpy as np
import pytest

import olc
from _legacy_fixtures import expected as legacy_expected, upgraded

NAMES = ["e-omm", "ce-omm", "n-omm", "e-omm-lp", "ce-omm-lp", "winnow", "weighted-majority",
         "randomized-weighted-majority"]


def _training_streams():
    """The streams ``make_v0_1_0.py`` drew (same generator, same order of draws)."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(40, 6))
    y = np.where(X[:, 0] - 0.5 * X[:, 1] + 0.1 > 0, 1, -1)
    rng.normal(size=(8, 6))  # the probe set (kept in expected.json)
    Xb = (rng.random((40, 6)) < 0.4).astype(float)
    yb = np.where(Xb[:, 0] + Xb[:, 2] > 0, 1, -1)
    rng.random((8, 6))  # the experts' probe set
    Xm = np.where(rng.random((40, 6)) < 0.5, 1.0, -1.0)
    ym = Xm[:, 1].astype(int)
    return {"winnow": (Xb, yb), "weighted-majority": (Xm, ym),
            "randomized-weighted-majority": (Xm, ym)}, (X, y)


@pytest.mark.usefixtures("default_arithmetic")
@pytest.mark.parametrize("name", NAMES)
def test_upgraded_state_reproduces_the_saved_decision_values(name):
    expected = legacy_expected(name)
    learner = upgraded(name)
    assert learner._vecs.dtype == np.float64 and learner._ints.dtype == np.int64
    assert learner._scal.dtype == np.float64
    values = learner.decision_function(np.array(expected["probe"]))
    np.testing.assert_array_equal(values, np.array(expected["values"]))


@pytest.mark.usefixtures("default_arithmetic")
@pytest.mark.parametrize("name", NAMES)
def test_upgraded_state_keeps_learning_as_this_version(name):
    """The fixture learned the rows of its stream in two calls (25 + 15); a learner of this
    version trained on the same rows scores and continues identically."""
    domain_streams, default = _training_streams()
    X, y = domain_streams.get(name, default)
    learner = upgraded(name)
    ref = olc.make(name)
    ref.partial_fit(X[:25], y[:25], classes=[-1, 1])
    ref.partial_fit(X[25:], y[25:])
    assert learner.n_steps_ == ref.n_steps_ and learner.n_updates_ == ref.n_updates_
    np.testing.assert_array_equal(learner.coef_, ref.coef_)
    np.testing.assert_array_equal(learner.intercept_, ref.intercept_)
    rng = np.random.default_rng(11)
    if name in domain_streams:  # the rows again, in another order, with other labels
        more = X[rng.permutation(len(y))]
        more_y = np.where(rng.random(len(y)) < 0.5, -1, 1)
    else:  # new rows of the same separable problem
        more = rng.normal(size=(60, 6))
        more_y = np.where(more[:, 0] - 0.5 * more[:, 1] + 0.1 > 0, 1, -1)
    got = learner.predict_then_learn(more, more_y)
    want = ref.predict_then_learn(more, more_y)
    assert want.updated.any()
    for field in ("pred", "score", "updated", "aux"):
        np.testing.assert_array_equal(getattr(got, field), getattr(want, field), field)
    np.testing.assert_array_equal(learner.decision_function(X), ref.decision_function(X))
