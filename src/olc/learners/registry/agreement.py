"""Whether the pieces of a learner agree: its catalogue entry, its class, its layout, its
compiled family and rule, its references and its test. Every check here reads declarations
(the catalogue, the layout, ``rule_ids`` and the families the layouts declare
(:func:`table_problems`), the rule module's source with ``ast``): nothing is
compiled, so the contract suite runs them on every learner in a second, and a user runs them
on a learner registered from outside olc (``olc.learners.registry.register``) before its
first fit.

:func:`problems` returns one message per disagreement, each naming the piece to fix; an
empty list means the pieces agree. The behavioural checks (dense = CSR, streaming, save and
load, finite data…) are the contract suite's parametrized tests, which every registered
learner runs as well.
"""
import ast
import inspect
import re
from pathlib import Path


def problems(entry, tests=None):
    """The disagreements among ``entry``'s pieces (messages; empty when they agree).

    tests: directories holding the learner's own tests (``test_*.py``); when given, one of
    them must name the class."""
    found = []
    found += _reference_problems(entry)
    family = _family(entry, found)
    try:
        cls = entry.cls
    except (ImportError, AttributeError) as error:
        found.append(f"{entry.name}: class {entry.target!r} cannot be imported ({error})")
        return found
    found += _class_problems(entry, cls)
    try:
        learner = cls(**dict(entry.preset))
    except Exception as error:  # noqa: BLE001 - reported, whatever the class raised
        found.append(f"{entry.name}: {entry.class_name}(**preset) fails: {error}")
        return found
    layout = getattr(learner, "_layout", None)
    found += _layout_problems(entry, learner, layout)
    if family is not None and layout is not None:
        found += _layout_family_problems(entry, layout)
        if layout.rule not in family.rules:
            found.append(f"{entry.name}: the rule {layout.rule} of its layout is not among "
                         f"family {family.name!r}'s rules {family.rules} (rule_ids)")
        found += dispatch_problems(family)
    if tests is not None and not _named_by_a_test(entry, tests):
        found.append(f"{entry.name}: no test file (test_*.py) names {cls.__name__} or "
                     f"{entry.name!r}")
    return found


def _reference_problems(entry):
    from ...references import REFERENCES

    if not entry.references:
        return [f"{entry.name}: the catalogue entry cites no reference"]
    return [f"{entry.name}: reference {key!r} is not in olc.references"
            for key in entry.references if key not in REFERENCES]


def _family(entry, found):
    from ..._compiled.rule_ids import FAMILIES

    if not entry.family:
        found.append(f"{entry.name}: the catalogue entry declares no family")
        return None
    if entry.family not in FAMILIES:
        found.append(f"{entry.name}: the catalogue entry declares family {entry.family!r}, "
                     f"which rule_ids does not know")
        return None
    return FAMILIES[entry.family]


def _class_problems(entry, cls):
    from .._framework.model import OnlineLinearModel

    if not (inspect.isclass(cls) and issubclass(cls, OnlineLinearModel)):
        return [f"{entry.name}: {entry.class_name} is not an OnlineLinearModel"]
    found = []
    params = [p for p in inspect.signature(cls.__init__).parameters if p != "self"]
    constraints = getattr(cls, "_parameter_constraints", {}) or {}
    for p in params:
        if p not in constraints:
            found.append(f"{entry.name}: parameter {p!r} of {cls.__name__} has no constraint")
    for key, _ in entry.preset:
        if key not in params:
            found.append(f"{entry.name}: preset {key!r} is not a parameter of {cls.__name__}")
    return found


def _layout_problems(entry, learner, layout):
    from ..._compiled.layouts.base import Growth, Layout

    if not isinstance(layout, Layout):
        return [f"{entry.name}: {entry.class_name} declares no _layout"]
    found = []
    if not isinstance(layout.growth, Growth):
        found.append(f"{entry.name}: the layout of rule {layout.rule} declares no growth "
                     f"(growth=grows(why) or refuses(why))")
    try:
        values = set(learner._hp_values())
    except Exception as error:  # noqa: BLE001 - reported
        return found + [f"{entry.name}: _hp_values() fails: {error}"]
    fields = set(layout.describe()["hp"])
    if fields - values:
        found.append(f"{entry.name}: _hp_values() misses the layout's fields "
                     f"{sorted(fields - values)}")
    if not layout.variable_hp and values - fields:
        found.append(f"{entry.name}: _hp_values() names fields the layout lacks "
                     f"{sorted(values - fields)}")
    return found


def _layout_family_problems(entry, layout):
    """olc's layouts declare their rule's family (``family=``: ``rule_ids`` collects a
    family's rules from them); a layout from outside olc may, its family listing its rules."""
    from ..._compiled.rule_ids import FIRST_EXTERNAL_ID

    if layout.family is None:
        if layout.rule < FIRST_EXTERNAL_ID:
            return [f"{entry.name}: the layout of rule {layout.rule} declares no family "
                    f"(Layout(..., family={entry.family!r}))"]
        return []
    if layout.family != entry.family:
        return [f"{entry.name}: the layout of rule {layout.rule} declares family "
                f"{layout.family!r}, the catalogue entry {entry.family!r}"]
    return []


def table_problems():
    """Whether ``rule_ids`` agrees with olc's layouts: every rule id constant (below
    ``FIRST_EXTERNAL_ID``) is declared by a layout, which names its family (``family=``;
    a family's rules are collected from those declarations), and every family of olc has a
    rule."""
    from ..._compiled import rule_ids

    collected = rule_ids.collect()
    ids = {name: value for name, value in vars(rule_ids).items()
           if name.isupper() and type(value) is int and value < rule_ids.FIRST_EXTERNAL_ID}
    found = [f"rule id {name} = {value} (rule_ids): no layout declares it with its family "
             f"(Layout({name}, ..., family=...) in layouts/<family>.py)"
             for name, value in sorted(ids.items(), key=lambda item: item[1])
             if value not in collected]
    unnamed = sorted(set(collected) - set(ids.values()))
    if unnamed:
        found.append(f"rule ids {unnamed}: declared by layouts but not named in rule_ids")
    found += [f"family {family.name!r}: no layout declares a rule of it (family=)"
              for family in rule_ids.FAMILIES.values()
              if family.listed_rules is None and not family.rules]
    return found


# -- the dispatchers, read from the rule module's source ------------------------------------------

def _int_names(modules):
    """NAME -> int of every module-level ``NAME = <expression>`` in ``modules``' files whose
    expression is an int, a name of one, or a sum or difference of those."""
    from ..._compiled import sources

    pending = []
    for module in modules:
        tree = ast.parse(sources.module_file(module).read_text(encoding="utf-8"))
        pending += [(target.id, node.value) for node in tree.body
                    if isinstance(node, ast.Assign) for target in node.targets
                    if isinstance(target, ast.Name)]
    names = {}
    while True:  # a name may be defined from one defined later, or in another module
        solved = {name: v for name, node in pending if name not in names
                  for v in [_value(node, names)] if v is not None}
        if not solved:
            return names
        names.update(solved)


def _value(node, names):
    if isinstance(node, ast.Constant):
        return node.value if type(node.value) is int else None
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        left, right = _value(node.left, names), _value(node.right, names)
        if left is None or right is None:
            return None
        return left + right if isinstance(node.op, ast.Add) else left - right
    return None


def _covered(function, names):
    """The rule ids ``function`` tests ``rule`` against (``rule == X``, ``A <= rule <= B``)."""
    covered = set()
    for node in ast.walk(function):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        for i, op in enumerate(node.ops):
            left, right = operands[i], operands[i + 1]
            if isinstance(op, ast.Eq):
                for a, b in ((left, right), (right, left)):
                    if isinstance(a, ast.Name) and a.id == "rule" and _value(b, names):
                        covered.add(_value(b, names))
        if ([type(op) for op in node.ops] in ([ast.LtE, ast.LtE], [ast.Lt, ast.Lt])
                and isinstance(node.comparators[0], ast.Name)
                and node.comparators[0].id == "rule"):
            low, high = _value(node.left, names), _value(node.comparators[1], names)
            if low is not None and high is not None:
                strict = isinstance(node.ops[0], ast.Lt)
                covered.update(range(low + strict, high + 1 - strict))
    return covered


def dispatch_problems(family):
    """Whether ``family``'s rule module dispatches every rule of the family: each rule id is
    tested in ``family_step``, except at most one reached by falling through to the end (a
    dispatcher that ends with ``raise`` has no such fall-through). ``family_score`` may serve
    several rules by its fall-through (rules that share a score); one that ends with ``raise``
    must test every rule."""
    from ..._compiled import sources

    module = family.module_name
    path = sources.module_file(module)
    if path is None:
        return [f"family {family.name!r}: its rule module {module} does not exist"]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    names = _int_names(sources.closure(module))
    found = []
    for dispatcher in ("family_step", "family_score"):
        function = functions.get(dispatcher)
        if function is None:
            found.append(f"family {family.name!r}: {module} defines no {dispatcher}")
            continue
        missing = sorted(set(family.rules) - _covered(function, names))
        falls_through = not isinstance(function.body[-1], ast.Raise)
        allowed = 0 if not falls_through else 1 if dispatcher == "family_step" else len(missing)
        if len(missing) > allowed:
            found.append(f"family {family.name!r}: {dispatcher} in {module} has no branch for "
                         f"rule(s) {missing}" + (" (one rule at most may fall through)"
                                                 if falls_through else ""))
    return found


def _named_by_a_test(entry, directories):
    word = re.compile(rf"\b{re.escape(entry.class_name)}\b|[\"']{re.escape(entry.name)}[\"']")
    return any(word.search(path.read_text(encoding="utf-8"))
               for directory in directories for path in Path(directory).rglob("test_*.py"))
