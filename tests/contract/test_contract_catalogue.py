"""Contract: the catalogue (``olc.learners.registry.catalogue``) agrees with the code it names.

Every entry's class resolves and is exported; its declared kind is the class's kind; presets
fix real parameters; every reference key exists; every public learner class is catalogued;
``docs/references.md`` is generated from ``olc.references`` and current; and no learner module
imports the registry to register itself (no import circle)."""
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest
from sklearn.base import is_regressor

import olc
from olc.learners._framework.model import OnlineLinearModel
from olc.learners.registry.catalogue import CATALOGUE, CLASSIFIER, REGRESSOR
from olc.references import REFERENCES, render_markdown

ROOT = Path(__file__).parents[2]
IDS = [e.name for e in CATALOGUE]


@pytest.mark.parametrize("entry", CATALOGUE, ids=IDS)
def test_entry_matches_its_class(entry):
    cls = entry.cls
    assert cls.__name__ == entry.class_name and cls.__module__ == entry.module
    assert issubclass(cls, OnlineLinearModel)
    assert entry.kind in (CLASSIFIER, REGRESSOR)
    assert (entry.kind == REGRESSOR) == is_regressor(cls())
    init = inspect.signature(cls.__init__).parameters
    for key, _ in entry.preset:
        assert key in init, f"preset {key!r} is not a parameter of {cls.__name__}"
    assert entry.summary and entry.citation and entry.references
    for key in entry.references:
        assert key in REFERENCES, f"{entry.name}: unknown reference key {key!r}"
    # a short citation names authors and a year, or the textbook chapter / lecture notes
    assert re.search(r"\b(19|20)\d\d\b|textbook ch\. 31|Kitani", entry.citation)
    assert not re.search(r"seed\s*0", entry.summary + entry.citation, re.IGNORECASE)


def test_every_public_learner_class_is_catalogued():
    catalogued = {(e.module, e.class_name) for e in CATALOGUE}
    package = Path(olc.learners.__file__).parent
    for module_info in pkgutil.iter_modules([str(package)]):
        module = importlib.import_module(f"olc.learners.{module_info.name}")
        for name, obj in vars(module).items():
            if (inspect.isclass(obj) and obj.__module__ == module.__name__
                    and issubclass(obj, OnlineLinearModel) and not name.startswith("_")
                    and not inspect.isabstract(obj)
                    and name not in ("OnlineLinearClassifier", "OnlineLinearRegressor",
                                     "OnlineLinearModel")):
                assert (module.__name__, name) in catalogued, f"{name} is not in the catalogue"


def test_presets_name_their_instances():
    for entry in CATALOGUE:
        assert olc.learners.name_of(olc.make(entry.name)) == entry.name


def test_docs_references_is_current():
    text = (ROOT / "docs" / "references.md").read_text(encoding="utf-8")
    assert text == render_markdown(), "regenerate: python -m olc.references > docs/references.md"
    for key in REFERENCES:
        assert f"**[{key}]**" in text


def test_learner_modules_do_not_register_themselves():
    """The catalogue is one list: a learner module neither decorates its classes nor imports
    the registry at import time to add itself (the old 13-file import circle)."""
    package = Path(olc.learners.__file__).parent
    for path in package.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "@register(" not in source and "add_variant(" not in source, path.name
        assert not re.search(r"from \.registry import .*\bregister\b", source), path.name


@pytest.mark.parametrize("entry", CATALOGUE, ids=lambda e: e.name)
def test_declared_family_matches_the_layout(entry):
    """The CLI announces compiles from the catalogue entry alone: its declared family must be
    the family the learner's rule really belongs to."""
    from olc._compiled.rule_ids import family_of

    learner = olc.make(entry.name)
    assert entry.family == family_of(learner._layout.rule).name
