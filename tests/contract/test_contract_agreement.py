"""Contract: a learner's pieces agree (``olc.learners.registry.agreement``): its catalogue
entry declares a known family and known references; its class resolves, constrains every
parameter and has a layout; the layout declares its growth, its hyper-parameters are the
ones the class packs and its rule belongs to the declared family; that family's rule module
dispatches every one of its rules; and a test outside the contract suite names the class.
Every check reads declarations only (nothing compiles). ``test_toy_learner.py`` shows that
each check fails, naming the piece, when that piece is missing."""
from pathlib import Path

import pytest

import olc
from olc._compiled.rule_ids import FAMILIES
from olc.learners.registry.agreement import dispatch_problems, problems

TESTS = Path(__file__).parents[1]
OWN_TESTS = [p for p in TESTS.iterdir() if p.is_dir() and p.name != "contract"]


@pytest.mark.parametrize("entry", olc.algorithms(), ids=lambda e: e.name)
def test_the_pieces_agree(entry):
    assert problems(entry, tests=OWN_TESTS) == []


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_rule_of_a_family_is_dispatched(family):
    assert dispatch_problems(FAMILIES[family]) == []


def test_every_layout_declares_its_growth():
    """Layouts no catalogue entry reaches directly (averaged, penalized) declare it too."""
    import importlib
    import pkgutil

    from olc._compiled import layouts
    from olc._compiled.layouts.base import Growth, Layout

    seen = 0
    for info in pkgutil.iter_modules(layouts.__path__):
        module = importlib.import_module(f"olc._compiled.layouts.{info.name}")
        for name, value in vars(module).items():
            found = value.values() if isinstance(value, dict) else [value]
            for layout in (v for v in found if isinstance(v, Layout)):
                seen += 1
                assert isinstance(layout.growth, Growth), f"{info.name}.{name}"
    assert seen > 30
