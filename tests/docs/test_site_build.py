"""The documentation site builds with warnings as errors (nitpicky references to olc's own
names, so internal links resolve), its gallery runs, and every page it promises is there.

The build runs in a subprocess on a copy of ``docs/`` and ``examples/`` (the generated pages,
API stubs and gallery are written at build time; the working tree is left untouched). It
needs the documentation tools of the ``docs`` extra (in the ``test`` extra too).
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from _api_pages import documented

import olc

ROOT = Path(__file__).resolve().parents[2]
pytest.importorskip("sphinx")
pytest.importorskip("sphinx_gallery")


def test_site_builds_with_warnings_as_errors(tmp_path):
    shutil.copytree(ROOT / "docs", tmp_path / "docs",
                    ignore=shutil.ignore_patterns("_build", "generated", "auto_examples",
                                                  "learners"))
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    env = {**os.environ, "MPLBACKEND": "Agg", "OLC_COMPILE_NOTICE": "0",
           "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    out = tmp_path / "html"
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q",
                           "-b", "html", str(tmp_path / "docs"), str(out)],
                          capture_output=True, text=True, env=env, timeout=1200)
    assert done.returncode == 0, done.stderr[-6000:]

    # the landing page, the guide, the API reference
    for page in ["index", "getting-started", "guide/index", "api/index", "api/olc",
                 "development", "architecture", "references"]:
        assert (out / f"{page}.html").is_file(), page
    # one page per learner of the catalogue, each with its example
    for entry in olc.algorithms():
        name = entry.name.replace("+", "-p").replace("--p", "-pp")
        html = (out / "learners" / f"{name}.html").read_text(encoding="utf-8")
        assert f'olc.make(&quot;{entry.name}&quot;)' in html, entry.name
    # every API entry has its page
    for rst in (ROOT / "docs" / "api").glob("*.rst"):
        entries = documented(rst.read_text(encoding="utf-8"))
        assert entries or rst.name == "index.rst", rst.name
        for module, name in entries:
            assert (out / "api" / "generated" / f"{module}.{name}.html").is_file(), name
    # every gallery script ran and produced a figure
    scripts = sorted((ROOT / "examples").glob("plot_*.py"))
    assert 8 <= len(scripts) <= 12
    for script in scripts:
        assert (out / "auto_examples" / f"{script.stem}.html").is_file(), script.name
        images = list((out / "_images").glob(f"sphx_glr_{script.stem}_*.png"))
        assert images, f"{script.name} produced no figure"
