"""olc.river wraps binary classifiers and regressors: the multiclass learners with K
prototypes (one step over every class) are refused at construction, with the reason."""
import pytest

import olc
import olc.river
from _support import MULTICLASS
from olc.learners import InputError


@pytest.mark.parametrize("name", MULTICLASS)
def test_multiclass_prototype_learners_are_refused(name):
    assert name.startswith("multiclass-pa")
    with pytest.raises(InputError, match="multiclass learner with K prototypes.*partial_fit"):
        olc.river.Classifier(olc.make(name))
    with pytest.raises(InputError, match="multiclass learner with K prototypes"):
        olc.river.make(name)
