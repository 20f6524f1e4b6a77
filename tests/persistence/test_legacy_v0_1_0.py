"""Files saved by olc 0.1.0 (``tests/persistence/fixtures/v0_1_0``), upgraded to the named
layouts by each learner's upgrade in ``olc.persistence.v0_1_0``, score the probe set exactly as the
0.1.0 model did, and learning goes on from them.

Learners whose 0.1.0 state differs from their named layout (scalars trimmed from the old 16
slots, OBPM's rows and blocks regrouped): the generalised perceptron, OBPM and AROW's three
covariances.
"""

import numpy as np
import pytest

from olc.learners.registry import info
from _legacy_fixtures import expected as legacy_expected, legacy_file, upgraded

NAMES = ["generalized-perceptron", "obpm", "arow", "arow-diagonal", "arow-diagonal-precision"]


@pytest.mark.usefixtures("default_arithmetic")
@pytest.mark.parametrize("name", NAMES)
def test_upgrade_of_v0_1_0_files_gives_the_same_decision_values(name):
    meta, vecs, scal, classes = legacy_file(name)
    expected = legacy_expected(name)
    probe = np.array(expected["probe"])
    learner = upgraded(name)
    np.testing.assert_array_equal(learner.decision_function(probe), expected["values"])
    if name == "obpm":  # 0.1.0: vecs = [sum, members…, scratch]; 4-slot blocks after 8
        np.testing.assert_array_equal(learner.member_coefs_, vecs[1:-1])
        np.testing.assert_array_equal(learner.member_intercepts_, scal[8::4])
    # The upgraded state has a fresh learner's shapes, and learning goes on from it.
    labels = classes[np.arange(len(probe)) % 2]
    fresh = info(name).cls(**meta["params"]).fit(probe, labels)
    for got, want in zip((learner._vecs, learner._ints, learner._scal),
                         (fresh._vecs, fresh._ints, fresh._scal)):
        assert got.shape == want.shape and got.dtype == want.dtype
    learner.partial_fit(probe, labels)
    assert learner.n_steps_ == meta["n_steps"] + len(probe)
