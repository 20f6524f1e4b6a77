"""What the API pages of ``docs/api/`` list: shared by the tests of this folder."""
import re


def documented(page_text):
    """(current module, name) of every autosummary entry of an API page."""
    entries, module, in_summary = set(), None, False
    for line in page_text.splitlines():
        m = re.match(r"\.\. currentmodule:: (\S+)", line)
        if m:
            module = m.group(1)
        if line.startswith(".. autosummary::"):
            in_summary = True
            continue
        if in_summary:
            if line.strip() and not line.startswith("   "):
                in_summary = False
            elif line.strip() and not line.strip().startswith(":"):
                entries.add((module, line.strip()))
    return entries
