"""Sphinx extension: read olc's docstrings as they are written, plain text for ``help()`` and
``olc algorithms NAME``, before numpydoc and reST see them.

Three plain-text conventions of these docstrings mean something else in reST; outside inline
literals and roles they are escaped:

- ``|r|``, ``|y − ŷ|``: absolute values, not substitution references;
- ``coef_``, ``intercept_``: scikit-learn's fitted attributes, not hyperlink references;
- a list that starts right under its heading line ("Decisions ...:" then "- ...") or is
  followed directly by text: a blank line is put before and after it, as reST needs.
"""
import re

_LITERAL = re.compile(r"(``.+?``|:[a-z:]+:`[^`]+`|`[^`]+`)")
_ABS = re.compile(r"(?<![|\\])\|(?=\S)([^|\n]*?\S)\|(?!\|)")
_TRAILING_UNDERSCORE = re.compile(r"\b([A-Za-z][A-Za-z0-9_]*[A-Za-z0-9]_)(?![A-Za-z0-9_`])")
_ITEM = re.compile(r"^(\s*)[-•] ")


def _escape_text(text):
    text = _ABS.sub(lambda m: "\\|" + m.group(1) + "\\|", text)
    return _TRAILING_UNDERSCORE.sub(lambda m: m.group(1)[:-1] + "\\_", text)


def escape_line(line):
    """Escape ``|…|`` and ``name_`` outside inline literals and roles."""
    parts = _LITERAL.split(line)
    return "".join(p if i % 2 else _escape_text(p) for i, p in enumerate(parts))


def _indent(line):
    return len(line) - len(line.lstrip())


def separate_lists(lines):
    """Blank lines around plain-text bullet lists (reST needs them)."""
    out = []
    list_indent = None  # indentation of the current list's bullets
    for line in lines:
        blank = not line.strip()
        item = _ITEM.match(line)
        if blank:
            out.append(line)
            continue
        if item:
            indent = len(item.group(1))
            if list_indent != indent and out and out[-1].strip():
                out.append("")
            list_indent = indent
        elif list_indent is not None and _indent(line) <= list_indent:
            if out and out[-1].strip():
                out.append("")
            list_indent = None
        out.append(line)
    return out


def process(lines):
    """The docstring's lines, made reST (in place, as autodoc expects)."""
    fixed, literal_indent = [], None
    for line in lines:
        # literal blocks (after "::") and doctest lines are left as written
        if literal_indent is not None:
            if line.strip() and _indent(line) <= literal_indent:
                literal_indent = None
            else:
                fixed.append(line)
                continue
        stripped = line.strip()
        if stripped.startswith(">>>") or stripped.startswith("..."):
            fixed.append(line)
            continue
        fixed.append(escape_line(line))
        if stripped.endswith("::"):
            literal_indent = _indent(line)
    lines[:] = separate_lists(fixed)


def _on_docstring(app, what, name, obj, options, lines):
    process(lines)


def setup(app):
    # before numpydoc (priority 500), which parses the sections
    app.connect("autodoc-process-docstring", _on_docstring, priority=100)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
