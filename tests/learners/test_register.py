"""``olc.learners.register``: a learner written outside olc made known by name. Bad arguments
are refused with the argument named, and a refused call registers nothing (a reference key
olc does not know is named by ``registry.agreement.problems``, as for olc's own entries)."""
import pytest

import olc
from olc.learners import register

GOOD = dict(name="outside-perceptron", target="outside_pkg.module:Learner", kind="classifier",
            summary="a learner from outside", citation="nobody 2026", references=[],
            family="linear")


@pytest.mark.parametrize("change, message", [
    ({"name": ""}, r"name must be a non-empty string"),
    ({"name": "perceptron"}, r"a learner named 'perceptron' is known already"),
    ({"target": "nomodule"}, r"target must be 'package.module:Class', got 'nomodule'"),
    ({"target": "pkg.mod:"}, r"target must be 'package.module:Class'"),
    ({"kind": "ranker"}, r"kind must be 'classifier' or 'regressor', got 'ranker'"),
    ({"family": "no-such-family"}, r"family 'no-such-family' is not a compiled family"),
])
def test_a_bad_argument_is_named_and_nothing_is_registered(change, message):
    before = [entry.name for entry in olc.algorithms()]
    with pytest.raises(ValueError, match=message):
        register(**{**GOOD, **change})
    assert [entry.name for entry in olc.algorithms()] == before
