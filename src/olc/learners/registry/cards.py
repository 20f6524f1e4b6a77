"""The catalogue as text: one line per learner, and a learner's card (what ``olc algorithms``
and ``olc algorithms NAME`` print).

The listing needs only the catalogue (no learner is imported); a card imports its learner's
class for the description (the docstring's first paragraph), the parameters' defaults and
their declared constraints (``_parameter_constraints``).
"""
import inspect
import textwrap

from ...references import reference
from .catalogue import CATALOGUE
from .lookup import info

_NAME_WIDTH = max(len(entry.name) for entry in CATALOGUE)
_KIND_WIDTH = len("classifier")


def listing_lines():
    """One line per learner: name, kind and short citation, in aligned columns (at most 80
    columns: a test holds the catalogue's citations to that)."""
    return [f"{e.name:<{_NAME_WIDTH}}  {e.kind:<{_KIND_WIDTH}}  {e.citation}" for e in CATALOGUE]


# -- constraints -------------------------------------------------------------------------------

def _number(value):
    if value is None:
        return "inf"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _describe_interval(c):
    from numbers import Integral

    kind = "int" if c.type is Integral else "float"
    left_open = c.closed in ("right", "neither")
    right_open = c.closed in ("left", "neither")
    if c.left is not None and c.right is None:
        return f"{kind} {'>' if left_open else '≥'} {_number(c.left)}"
    if c.left is None and c.right is not None:
        return f"{kind} {'<' if right_open else '≤'} {_number(c.right)}"
    if c.left is None and c.right is None:
        return kind
    return (f"{kind} in {'(' if left_open else '['}{_number(c.left)}, "
            f"{_number(c.right)}{')' if right_open else ']'}")


def describe_constraint(constraint):
    """One declared constraint in a few words: ``float > 0``, ``bool``, ``one of 'a', 'b'``."""
    from .._framework.constraints import Interval, Options, describe

    if constraint == "boolean":
        return "bool"
    if constraint is None:
        return "None"
    if isinstance(constraint, type):
        return constraint.__name__
    if isinstance(constraint, Interval):
        return _describe_interval(constraint)
    if isinstance(constraint, Options):  # StrOptions too
        shown = sorted(o for o in constraint.options if o not in constraint.deprecated)
        return "one of " + ", ".join(repr(o) for o in shown)
    return describe(constraint)


def describe_constraints(constraints):
    """A parameter's list of constraints, hidden ones left out, joined by "or"."""
    from .._framework.constraints import Hidden

    shown = [describe_constraint(c) for c in constraints if not isinstance(c, Hidden)]
    return " or ".join(shown) if shown else "—"


# -- the card ----------------------------------------------------------------------------------

def description(cls):
    """The first paragraph of the class docstring, on one line, without reST markup."""
    doc = inspect.getdoc(cls) or ""
    first = doc.split("\n\n", 1)[0]
    return " ".join(first.split()).replace("``", "")


def card_data(name):
    """Everything a card shows, as plain data (also the ``--json`` form of a card)."""
    entry = info(name)
    cls = entry.cls
    constraints = getattr(cls, "_olc_constraints", {}) or {}
    parameters = [{"name": key, "default": default,
                   "constraint": (describe_constraints(constraints[key])
                                  if key in constraints else None)}
                  for key, default in entry.parameters.items()]
    return {
        "name": entry.name, "class": f"olc.{entry.class_name}", "kind": entry.kind,
        "summary": entry.summary, "citation": entry.citation,
        "description": description(cls), "parameters": parameters,
        "fixed": dict(entry.preset),
        "references": [{"key": key, "text": reference(key).text} for key in entry.references],
    }


def card_lines(name, width=80):
    """The card of ``name`` as lines of at most ``width`` columns (long words excepted)."""
    data = card_data(name)
    width = max(width, 40)
    out = []

    def para(text, indent="", hang=None):
        out.extend(textwrap.wrap(text, width, initial_indent=indent,
                                 subsequent_indent=indent if hang is None else hang,
                                 break_on_hyphens=False) or [indent])

    para(f"{data['name']} — {data['summary']}", hang="  ")
    out.append("")
    para(f"class:    {data['class']} ({data['kind']})", hang=" " * 10)
    para(f"citation: {data['citation']}", hang=" " * 10)
    out.append("")
    para(data["description"])
    out.append("")
    call = f'olc.make("{data["name"]}", ...)'
    out.append(f"Parameters of {call}:" if data["parameters"] else f"{call} takes no parameter.")
    if data["parameters"]:
        shown = [(f"{p['name']} = {p['default']!r}", p["constraint"] or "(not declared)")
                 for p in data["parameters"]]
        left = min(max(len(a) for a, _ in shown), width // 2)
        for head, constraint in shown:
            if len(head) > left:
                out.append(f"  {head}")
                para(constraint, indent=" " * (left + 4))
            else:
                para(f"  {head:<{left}}  {constraint}", hang=" " * (left + 4))
    if data["fixed"]:
        fixed = ", ".join(f"{k} = {v!r}" for k, v in data["fixed"].items())
        out.append("")
        para(f"Fixed by this preset: {fixed}", hang="  ")
    out.append("")
    out.append("References (docs/references.md):")
    for ref in data["references"]:
        para(f"[{ref['key']}] {ref['text']}", indent="  ", hang="    ")
    return out
