"""A family's compiled sources, collected from its rule module's imports (plain Python: the
files are read as text, nothing is imported or compiled).

A family's disk cache must be keyed by exactly the files its compiled code depends on
(``loader``): numba checks only a function's own file, so a cached loop that inlines a rule
from another file would survive an edit of that file. Those files are the ones the family's
rule module imports, transitively; the rule module's import lines are therefore its
declaration of sources, and nobody lists them again by hand.

The walk follows relative imports and absolute imports of ``olc._compiled`` or of the rule
module's own top-level package (a family registered from outside olc, ``rule_ids.register``).
It does not go through ``loader`` (not compiled code; the templates ask it for the family
being loaded). A source is named by its path relative to this package when it is inside
it (``rules/norma.py``) and by its module name otherwise (``toy_package.rule``).
"""
import importlib.util
import re
from functools import lru_cache
from pathlib import Path

_HERE = Path(__file__).parent
_PACKAGE = __name__.rpartition(".")[0]  # olc._compiled
#: Not compiled code: the walk does not enter it.
NOT_COMPILED = frozenset({f"{_PACKAGE}.loader"})


def _top_dir(top):
    spec = importlib.util.find_spec(top)  # a top-level name: found, not executed
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def module_file(name):
    """The source file of module ``name`` (a package's ``__init__.py``), or None."""
    if name == _PACKAGE or name.startswith(_PACKAGE + "."):
        base, parts = _HERE, name[len(_PACKAGE) + 1:].split(".") if name != _PACKAGE else []
    else:
        top, *parts = name.split(".")
        base = _top_dir(top)
        if base is None:
            return None
    target = base.joinpath(*parts)
    for candidate in (target.with_suffix(".py"), target / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def key(name):
    """How source ``name`` (a module) enters a fingerprint: its path relative to
    ``olc._compiled``, or its module name when outside it."""
    path = module_file(name)
    if name.startswith(_PACKAGE + "."):
        return path.relative_to(_HERE).as_posix()
    return name


def _followed(name, origin):
    return (name.startswith(_PACKAGE + ".")
            or name.split(".")[0] == origin.split(".")[0]) and name not in NOT_COMPILED


# An import statement, at any indentation (a docstring that shows one only adds a file to the
# key, which is safe). Read with a pattern rather than ``ast``: the walk runs before a command
# announces a compile, and parsing every file costs ~20 ms a family.
_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w.]+(?:[ \t]*,[ \t]*[\w.]+)*)", re.M)


def imports(name):
    """The modules ``name`` imports directly that the walk follows (see the module doc)."""
    path = module_file(name)
    if path is None:  # a missing module: importing it will say so
        return set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    text = path.read_text(encoding="utf-8")
    candidates = [m.strip() for match in _IMPORT.finditer(text)
                  for m in match.group(1).split(",")]
    for match in _FROM.finditer(text):
        dots, module, names = match.groups()
        if dots:
            parts = package.split(".")
            base = ".".join(parts[:len(parts) - len(dots) + 1])
            module = f"{base}.{module}" if module else base
        candidates.append(module)
        for alias in names.strip("() \t\n").split(","):
            alias = alias.split(" as ")[0].strip()
            if alias and alias != "*":
                candidates.append(f"{module}.{alias}")
    return {c for c in candidates
            if _followed(c, name) and module_file(c) is not None}


@lru_cache(maxsize=None)
def closure(name):
    """``name`` and every module it imports, transitively (module names, sorted)."""
    seen, todo = set(), [name]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        todo.extend(imports(current) - seen)
    # a package's __init__ on the way is not compiled code
    files = {m: module_file(m) for m in seen}
    return tuple(sorted(m for m, f in files.items() if f is not None and f.name != "__init__.py"))
