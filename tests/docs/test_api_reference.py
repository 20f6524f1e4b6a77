"""The API reference lists every public name of the documented modules.

A module's public names are its ``__all__``; ``olc.experiments`` has none of its own: its
public names are the experiment engine's ``__all__`` and the reproductions' registry. Each
name must be an ``autosummary`` entry of the module's page in ``docs/api/`` (or, for the two
aliases of ``olc.evaluate`` names in ``olc``, be named on the page next to a link to them).
"""
import importlib
import re
from pathlib import Path

import pytest
from _api_pages import documented

API = Path(__file__).resolve().parents[2] / "docs" / "api"

MODULES = {  # module: (its page, the modules whose public names the page documents)
    "olc": ("olc.rst", ["olc"]),
    "olc.sklearn": ("sklearn.rst", ["olc.sklearn"]),
    "olc.river": ("river.rst", ["olc.river"]),
    "olc.distributed": ("distributed.rst", ["olc.distributed"]),
    "olc.data": ("data.rst", ["olc.data"]),
    "olc.evaluate": ("evaluate.rst", ["olc.evaluate"]),
    "olc.experiments": ("experiments.rst",
                        ["olc.experiments.engine", "olc.experiments.registry"]),
}


def public_names(module_name):
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None)
    if names is None:  # no __all__: what the module defines and does not mark private
        names = [n for n, v in vars(module).items() if not n.startswith("_")
                 and getattr(v, "__module__", module_name) == module_name
                 and not isinstance(v, type(importlib))]
    return sorted(names)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_public_name_is_in_the_api_reference(module):
    page, sources = MODULES[module]
    text = (API / page).read_text(encoding="utf-8")
    entries = documented(text)
    missing = []
    for source in sources:
        for name in public_names(source):
            if (source, name) in entries:
                continue
            aliased = re.search(rf"``{re.escape(source)}\.{re.escape(name)}``", text)
            if not aliased:
                missing.append(f"{source}.{name}")
    assert not missing, f"not in docs/api/{page}: {missing}"


def test_aliases_link_to_their_documented_objects():
    """``olc.progressive`` and ``olc.ProgressiveResult`` are ``olc.evaluate``'s objects; the
    page that names them links to where they are documented."""
    import olc
    import olc.evaluate

    assert olc.progressive is olc.evaluate.progressive
    assert olc.ProgressiveResult is olc.evaluate.ProgressiveResult
    evaluate = documented((API / "evaluate.rst").read_text(encoding="utf-8"))
    assert {("olc.evaluate", "progressive"), ("olc.evaluate", "ProgressiveResult")} <= evaluate


def test_the_page_parser_sees_entries():
    """The parser finds the entries it must (so the test above cannot pass vacuously)."""
    text = ".. currentmodule:: m\n\n.. autosummary::\n   :toctree: g/\n\n   a\n   b\n\nText\n"
    assert documented(text) == {("m", "a"), ("m", "b")}
