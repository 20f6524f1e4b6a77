"""The examples of the documentation run: the guide's and the getting-started page's
``>>>`` blocks, every generated learner page's example, and the docstrings' examples of the
modules that carry them."""
import doctest
import importlib
import re
import sys
from pathlib import Path

import pytest

import olc

DOCS = Path(__file__).resolve().parents[2] / "docs"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
PAGES = sorted([DOCS / "getting-started.md", *(DOCS / "guide").glob("*.md")])
MODULES = ["olc.learners.registry.lookup", "olc.evaluate.protocol", "olc.river",
           "olc.features.basis"]


def _catalogue_extension():
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        return importlib.import_module("olc_catalogue")
    finally:
        sys.path.remove(str(DOCS / "_ext"))


def _run(test):
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    return runner.summarize(verbose=False)


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_page_examples(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # an example that writes a file writes it here
    # a code fence closing right after an example is not its expected output
    text = re.sub(r"^```.*$", "", page.read_text(encoding="utf-8"), flags=re.MULTILINE)
    test = doctest.DocTestParser().get_doctest(text, {}, page.name, str(page), 0)
    failed, attempted = _run(test)
    assert failed == 0, f"{failed} of {attempted} examples of {page.name} failed"


def test_pages_with_examples_have_them():
    """The pages that teach by example do have ``>>>`` examples (so the test above tests)."""
    with_examples = {p.name for p in PAGES if ">>> " in p.read_text(encoding="utf-8")}
    assert {"getting-started.md", "protocol.md", "averaging.md", "persistence.md",
            "multiclass.md", "kernels.md"} <= with_examples


ENTRIES = olc.algorithms()


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_learner_page_example(entry):
    source = "\n".join(_catalogue_extension().example_lines(entry)) + "\n"
    test = doctest.DocTestParser().get_doctest(source, {}, entry.name, None, 0)
    assert len(test.examples) >= 5
    failed, attempted = _run(test)
    assert failed == 0, f"{failed} of {attempted} lines of {entry.name}'s example failed"


@pytest.mark.parametrize("module", MODULES)
def test_docstring_examples(module):
    failed, attempted = doctest.testmod(importlib.import_module(module), optionflags=FLAGS,
                                        verbose=False)
    assert attempted > 0 and failed == 0


@pytest.mark.parametrize("page", ["README.md", "docs/index.md"])
def test_first_example_runs(page, tmp_path, monkeypatch):
    """The README's and the landing page's example (a plain code block) runs as written."""
    monkeypatch.chdir(tmp_path)  # it saves a model file
    text = (DOCS.parent / page).read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)
    assert blocks, f"{page} has no Python example"
    exec(compile(blocks[0], page, "exec"), {"__name__": "__example__"})
