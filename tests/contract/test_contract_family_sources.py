"""Each family's disk cache is keyed on a fingerprint of its source files
(``rule_ids.Family.sources`` + ``CORE_SOURCES``): a compiled file missing from that list would
let a stale cache survive an edit of it. The list must hold every ``olc._compiled`` module the
family's rule module imports, transitively (read from the code with ``ast``)."""
import ast
from pathlib import Path

import pytest

from olc._compiled.rule_ids import CORE_SOURCES, FAMILIES

COMPILED = Path(__import__("olc._compiled", fromlist=["_"]).__file__).parent


def _imports(rel):
    """The olc._compiled files (relative paths) that ``rel`` imports directly."""
    path = COMPILED / rel
    package = Path(rel).parent
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom) or node.level == 0:
            continue
        base = package
        for _ in range(node.level - 1):
            base = base.parent
        parts = node.module.split(".") if node.module else []
        target = base.joinpath(*parts)
        candidates = [target.with_suffix(".py")] if parts else []
        candidates += [target / f"{alias.name}.py" for alias in node.names]
        for candidate in candidates:
            if (COMPILED / candidate).is_file():
                found.add(candidate.as_posix())
    return found


def _closure(rel):
    seen, todo = set(), [rel]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        todo.extend(_imports(current) - seen)
    return seen


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_fingerprint_covers_every_imported_compiled_file(family):
    spec = FAMILIES[family]
    module = spec.module.replace(".", "/") + ".py"
    needed = (_closure(module) | _closure("loops.py")) - {"families.py"}  # the loader
    listed = set(CORE_SOURCES) | set(spec.sources)
    assert needed - listed == set(), f"{family}: add these to its sources"


def test_the_closure_walks_relative_imports():
    # An independent fact: the margin dispatcher reaches ROMMA, and ROMMA the scaled kernel.
    closure = _closure("rules/margin.py")
    assert {"rules/romma.py", "scaled.py", "kernels.py", "layouts/margin.py"} <= closure


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_ovr_fingerprint_covers_every_imported_compiled_file(family):
    """The one-vs-rest loops (``loops_ovr.py``) are cached by ``ovr_fingerprint``: the
    family's sources, the core and ``loops_ovr.py`` itself."""
    from olc._compiled.families import OVR_SOURCES, fingerprint, ovr_fingerprint

    spec = FAMILIES[family]
    module = spec.module.replace(".", "/") + ".py"
    needed = (_closure(module) | _closure("loops_ovr.py")) - {"families.py"}
    listed = set(CORE_SOURCES) | set(spec.sources) | set(OVR_SOURCES)
    assert needed - listed == set(), f"{family}: add these to its sources"
    assert "loops_ovr.py" in needed
    assert ovr_fingerprint(family) != fingerprint(family)
