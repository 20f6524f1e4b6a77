"""Start-up cost: ``import olc``, ``olc --help`` and ``olc algorithms`` import neither
scikit-learn nor numba nor matplotlib (each checked in a fresh interpreter); the lazy names
still work; the version has one source (pyproject.toml)."""
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import olc

ROOT = Path(__file__).parents[2]
HEAVY = ("sklearn", "numba", "matplotlib", "pandas", "scipy")


def run_python(code):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


LOADED = f"[m for m in {HEAVY!r} if m in sys.modules]"


def test_import_olc_imports_no_heavy_dependency():
    assert run_python(f"import sys, json, olc; print(json.dumps({LOADED}))") == []


def test_catalogue_and_lookups_import_no_learner():
    loaded = run_python(
        "import sys, json, olc\n"
        "names = [e.name for e in olc.algorithms()]\n"
        "olc.learners.info('pa-i'); dir(olc)\n"
        "learners = [m for m in sys.modules if m.startswith('olc.learners.') and m.split('.')[-1]"
        " not in ('catalogue', 'registry', 'lookup')]\n"
        f"print(json.dumps({LOADED} + learners))")
    assert loaded == []


@pytest.mark.parametrize("args", [["--help"], ["algorithms"], ["algorithms", "--help"],
                                  ["warmup", "--help"]])
def test_cli_starts_without_heavy_imports(args):
    code = ("import sys, json\nfrom olc.cli import app\n"
            f"try:\n    app({args!r}, prog_name='olc')\nexcept SystemExit:\n    pass\n"
            f"print(json.dumps({LOADED}))")
    assert run_python(code) == []


def test_lazy_names_resolve():
    from olc import Perceptron, load, make, progressive  # noqa: F401

    assert olc.make("pa-i").__class__ is olc.PassiveAggressiveI
    assert olc.progressive.__module__ == "olc.evaluate.protocol"
    assert olc.load.__module__ == "olc.persistence"
    assert callable(olc.learners.max_margin)
    assert olc.learners._framework.model.OnlineLinearModel is olc.learners.OnlineLinearModel
    assert set(olc.__all__) <= set(dir(olc))
    with pytest.raises(AttributeError, match="no_such_name"):
        olc.no_such_name


def test_a_learner_loads_its_dependencies_on_first_use():
    touched = run_python("import sys, json, olc\nolc.Perceptron\n"
                         f"print(json.dumps({LOADED}))")
    # the estimator protocol is olc's own (learners/estimator); numba waits for the first
    # compiled call (families imports it when it loads a family)
    assert "sklearn" not in touched and "numba" not in touched
    used = run_python("import sys, json, olc\nimport numpy as np\n"
                      "olc.Perceptron().fit(np.array([[1.0], [-1.0]]), np.array([1, 0]))\n"
                      f"print(json.dumps({LOADED}))")
    assert "numba" in used  # its compiled rule
    assert "sklearn" not in used


def test_version_comes_from_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert olc.__version__ == project["version"]
    literal = f'"{project["version"]}"'
    for path in (ROOT / "src").rglob("*.py"):
        assert literal not in path.read_text(encoding="utf-8"), path
