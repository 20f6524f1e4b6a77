"""Contract 0: every registered learner is reachable from the top-level package, by its class
(``olc.<Class>``, listed in ``olc.__all__``) and by its canonical name (``olc.make``)."""
import pytest

import olc

ENTRIES = olc.algorithms()


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_learner_class_is_exported(entry):
    cls_name = entry.cls.__name__
    assert getattr(olc, cls_name) is entry.cls
    assert cls_name in olc.__all__
    assert type(olc.make(entry.name)) is entry.cls
    assert entry.citation and entry.summary


def test_exported_names_resolve():
    for name in olc.__all__:
        assert hasattr(olc, name), name
