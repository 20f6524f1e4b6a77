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
from olc.learners.registry.agreement import dispatch_problems, problems, table_problems

TESTS = Path(__file__).parents[1]
OWN_TESTS = [p for p in TESTS.iterdir() if p.is_dir() and p.name != "contract"]


@pytest.mark.parametrize("entry", olc.algorithms(), ids=lambda e: e.name)
def test_the_pieces_agree(entry):
    assert problems(entry, tests=OWN_TESTS) == []


def test_every_rule_id_is_declared_by_a_layout_with_its_family():
    assert table_problems() == []


def test_a_rule_id_no_layout_declares_is_reported(monkeypatch):
    """A rule id written in rule_ids but declared by no layout belongs to no family (its
    family's rules are collected from the layouts): the table check names it; and a family
    left without rules is named too."""
    from olc._compiled import rule_ids

    collected = {rule: name for rule, name in rule_ids.collect().items()
                 if rule != rule_ids.NORMA and name != "omm"}
    monkeypatch.setattr(rule_ids, "_collected", collected)
    found = table_problems()
    assert any("NORMA = 13" in message for message in found), found
    assert any("EFFICIENT_OMM_L2 = 3" in message for message in found), found
    assert any("family 'omm': no layout" in message for message in found), found
    assert rule_ids.NORMA not in FAMILIES["regularized"].rules


def test_a_layout_without_or_with_another_family_is_reported():
    """olc's learners' layouts declare their family; the entry's and the layout's agree."""
    import dataclasses

    from olc._compiled.layouts.base import Layout
    from olc.learners.registry.agreement import _layout_family_problems

    entry = olc.learners.info("norma")
    layout = olc.make("norma")._layout
    bare = Layout(layout.rule, hp=layout.hp, scalars=layout.scalars, vectors=layout.vectors,
                  growth=layout.growth)
    assert "declares no family" in _layout_family_problems(entry, bare)[0]
    other = dataclasses.replace(entry, family="linear")
    assert "declares family 'regularized', the catalogue entry 'linear'" in (
        _layout_family_problems(other, layout)[0])
    assert _layout_family_problems(entry, layout) == []
    assert bare.fingerprint == layout.fingerprint  # the family is not part of the file format


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
