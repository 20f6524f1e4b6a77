"""Each family's disk cache is keyed on a fingerprint of its source files
(``rule_ids.Family.sources`` + ``CORE_SOURCES`` + the loop template's own files): a compiled
file missing from that list would let a stale cache survive an edit of it. The list must hold every ``olc._compiled`` module the
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


# The loader executes the templates, which ask it for the family being loaded: it is not
# compiled code, and what it imports is not the templates' either.
LOADER = "loader.py"


def _closure(rel):
    seen, todo = set(), [rel]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        if current != LOADER:
            todo.extend(_imports(current) - seen)
    return seen - {LOADER}


def _templates(spec):
    from olc._compiled import loader

    own = loader.MULTICLASS if spec.multiclass else loader.BINARY
    return [own, loader.ONE_VS_REST, loader.ONE_ROW]


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_fingerprint_covers_every_imported_compiled_file(family):
    """Every template instance of the family (its loops, one-vs-rest, one example at a time)
    is cached by ``loader.fingerprint``: the core, the family's sources and the template's."""
    from olc._compiled import loader

    spec = FAMILIES[family]
    module = spec.module.replace(".", "/") + ".py"
    for template in _templates(spec):
        needed = _closure(module) | _closure(f"loops/{template.name}.py")
        listed = set(CORE_SOURCES) | set(spec.sources) | set(template.sources)
        assert needed - listed == set(), f"{family}, {template.name}: add these to its sources"
        assert f"loops/{template.name}.py" in listed
    fingerprints = {loader.fingerprint(t, family) for t in _templates(spec)}
    assert len(fingerprints) == 3  # an edit of one template leaves the others' caches alone


def test_the_closure_walks_relative_imports():
    # An independent fact: the margin dispatcher reaches ROMMA, and ROMMA the scaled kernel;
    # n-OMM reaches the OMM geometry.
    closure = _closure("rules/margin.py")
    assert {"rules/romma.py", "kernels/scaled.py", "kernels/vector.py",
            "layouts/margin.py"} <= closure
    assert "rules/omm_geometry/thin_qr.py" in _closure("rules/omm_variants.py")


def test_a_missing_source_is_caught():
    """The check above can fail: without its geometry files, omm_variants' list falls short."""
    spec = FAMILIES["omm_variants"]
    listed = set(CORE_SOURCES) | {s for s in spec.sources if "omm_geometry" not in s}
    needed = _closure(spec.module.replace(".", "/") + ".py")
    assert needed - listed == {"rules/omm_geometry/nearest_point.py",
                               "rules/omm_geometry/thin_qr.py"}
