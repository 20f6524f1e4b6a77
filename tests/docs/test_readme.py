"""The README stays one page: under 120 lines, its links to the documentation's pages point
at files that exist, and the test command that CI runs (``.ci/run`` reads the first line
starting with ``python3`` after the marker) is still where CI looks for it."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_is_short():
    assert len(README.splitlines()) < 120


def test_readme_links_resolve():
    links = re.findall(r"\]\(([^)#\s]+)\)", README)
    local = [link for link in links if "://" not in link]
    assert local, "the README links to the documentation's pages"
    missing = [link for link in local if not (ROOT / link).is_file()]
    assert not missing, missing


def test_test_command_is_where_ci_reads_it():
    after = README.split("<!-- test-command -->", 1)[1]
    command = next(line for line in after.splitlines() if line.startswith("python3 "))
    assert "pip install -e \".[test]\"" in command and "pytest" in command
