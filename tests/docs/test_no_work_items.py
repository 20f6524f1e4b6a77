"""The README and the site speak to users: no internal work item ("issue 11", "item 3") is
named in them."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORK_ITEM = re.compile(r"\b(issue|item|ticket)\s+#?\d+", re.IGNORECASE)


def _pages():
    yield ROOT / "README.md"
    for pattern in ("docs/**/*.md", "docs/**/*.rst", "examples/*.py", "examples/*.rst"):
        for path in ROOT.glob(pattern):
            if "_build" not in path.parts and "auto_examples" not in path.parts:
                yield path


def test_no_page_names_a_work_item():
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
             for p in _pages()
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if WORK_ITEM.search(line)]
    assert not found, "\n".join(found)


def test_the_pattern_finds_work_items():
    assert WORK_ITEM.search("passed to the averaged learners (issue 11, item 3)")
    assert not WORK_ITEM.search("Items are sorted; see the issue tracker")
