"""Each family's disk cache is keyed on a fingerprint of its source files: ``CORE_SOURCES``,
the files its rule module imports (collected by ``olc._compiled.sources`` from the import
lines, transitively: nobody lists them by hand) and the loop template's own files
(``loader.Template.sources``, declared). A compiled file missing from that set would let a
stale cache survive an edit of it."""
import textwrap

import pytest

from olc._compiled import loader, sources
from olc._compiled.rule_ids import CORE_SOURCES, FAMILIES

PACKAGE = "olc._compiled"


def _closure(rel):
    """The files (relative paths) ``rel`` imports, transitively, itself included."""
    name = f"{PACKAGE}." + rel[:-3].replace("/", ".")
    return {sources.key(m) for m in sources.closure(name)}


def _templates(spec):
    own = loader.MULTICLASS if spec.multiclass else loader.BINARY
    shared = [loader.KERNEL_OVR] if spec.name == "kernel" else []  # its shared kernel rows
    return [own, loader.ONE_VS_REST, loader.ONE_ROW] + shared


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_fingerprint_covers_every_imported_compiled_file(family):
    """Every template instance of the family (its loops, one-vs-rest, one example at a time)
    is cached by ``loader.fingerprint``: the core, the family's sources and the template's
    declared files, which must hold everything the template imports."""
    spec = FAMILIES[family]
    family_files = {sources.key(m) for m in loader.family_sources(family)}
    assert spec.module_name.rpartition(".")[2] + ".py" in {f.rpartition("/")[2]
                                                           for f in family_files}
    for template in _templates(spec):
        needed = _closure(spec.module_name[len(PACKAGE) + 1:].replace(".", "/") + ".py")
        needed |= _closure(f"loops/{template.name}.py")
        listed = set(CORE_SOURCES) | family_files | set(template.sources)
        assert needed - listed == set(), f"{family}, {template.name}: add these to its sources"
        assert f"loops/{template.name}.py" in listed
    fingerprints = {loader.fingerprint(t, family) for t in _templates(spec)}
    # an edit of one template leaves the others' caches alone
    assert len(fingerprints) == len(_templates(spec))


def test_the_walk_finds_known_imports():
    # Independent facts: the margin dispatcher reaches ROMMA, and ROMMA the scaled kernel;
    # n-OMM reaches the OMM geometry; the loader (not compiled code) is never entered.
    closure = _closure("rules/margin.py")
    assert {"rules/romma.py", "kernels/scaled.py", "kernels/vector.py",
            "layouts/margin.py"} <= closure
    assert "rules/omm_geometry/thin_qr.py" in _closure("rules/omm_variants.py")
    assert all("loader" not in f for f in _closure("loops/binary.py"))


def test_an_edit_of_an_imported_file_changes_the_fingerprint(tmp_path, monkeypatch):
    """The property the fingerprint exists for, on a rule module outside olc: a file it
    imports relatively (and the olc kernel it imports absolutely) are among its sources, so
    editing them moves the cache folder."""
    package = tmp_path / "fp_probe"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "helper.py").write_text("K = 1\n")
    (package / "unrelated.py").write_text("Z = 0\n")
    (package / "rule.py").write_text(textwrap.dedent("""
        from olc._compiled.kernels.vector import dot
        from .helper import K
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    sources.closure.cache_clear()
    try:
        found = sources.closure("fp_probe.rule")
        assert set(found) >= {"fp_probe.rule", "fp_probe.helper",
                              "olc._compiled.kernels.vector"}
        assert "fp_probe.unrelated" not in found
        keys = [sources.key(m) for m in found]
        before = loader.fingerprint_of(keys)
        (package / "helper.py").write_text("K = 2\n")
        assert loader.fingerprint_of(keys) != before
    finally:
        sources.closure.cache_clear()
