"""A learner built from outside olc — the worked example of docs/adding-a-learner.md, in
``toy_learner/``: its layout, its rule, its class, its test, and the registration of its
family and catalogue entry — and the contract checks catching each missing piece.

Each case copies those files into a temporary package, removes or breaks one piece, and asks
``olc.learners.registry.agreement.problems`` in a fresh process (registration is
process-wide); the message must name the piece. With every piece present there is no
problem, the family's compiled sources are the ones its rule imports, and the toy's own test
passes (the compiled loops run as Python here, ``NUMBA_DISABLE_JIT``: what is tested is the
wiring, not the speed)."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURE = Path(__file__).parent / "toy_learner"
PACKAGE = "olc_toy_learner"
ROOT = Path(__file__).parents[2]

PROBE = f"""
import json
import {PACKAGE}
from olc._compiled import loader, sources
from olc.learners import info
from olc.learners.registry.agreement import problems

entry = info("margin-perceptron")
print(json.dumps({{"problems": problems(entry, tests=[{PACKAGE}.__path__[0]]),
                   "sources": [sources.key(m) for m in loader.family_sources(entry.family)]}}))
"""


def _env(**extra):
    env = dict(os.environ, **extra)
    src = str(ROOT / "src")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    return env


def _package(tmp_path, broken=None):
    """The fixture files as package ``PACKAGE`` under ``tmp_path``; ``broken``: (file, old,
    new) to replace a text in a file, or (file, None, None) to delete it."""
    target = tmp_path / PACKAGE
    shutil.copytree(FIXTURE, target, ignore=shutil.ignore_patterns("__pycache__"))
    if broken is not None:
        name, old, new = broken
        path = target / name
        if old is None:
            path.unlink()
        else:
            text = path.read_text(encoding="utf-8")
            assert old in text, (name, old)
            path.write_text(text.replace(old, new), encoding="utf-8")
    return tmp_path


def _probe(tmp_path, broken=None):
    base = _package(tmp_path, broken)
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=base, env=_env(),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_every_piece_present_agrees_and_runs(tmp_path):
    found = _probe(tmp_path)
    assert found["problems"] == []
    assert {f"{PACKAGE}.rule", f"{PACKAGE}.layout", "kernels/vector.py"} <= set(
        found["sources"]) | {"kernels/vector.py"}
    assert f"{PACKAGE}.learner" not in found["sources"]  # not compiled code: not imported
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(tmp_path / PACKAGE / "test_margin_perceptron.py")],
                          cwd=tmp_path, env=_env(NUMBA_DISABLE_JIT="1"),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


# (what is broken, the file and text changed, a fragment the message must contain)
MISSING = {
    "rule": (("rule.py", None, None), f"rule module {PACKAGE}.rule does not exist"),
    "dispatcher branch": (("__init__.py", "(MARGIN_PERCEPTRON,)",
                           "(MARGIN_PERCEPTRON, MARGIN_PERCEPTRON + 1)"),
                          "family_step in olc_toy_learner.rule has no branch for rule(s) "
                          "[1001]"),
    "layout's growth": (("layout.py", ",\n    growth=grows(\"w·x over x's support, w += ηy·x on "
                                      "it, the bias a scalar\"))", ")"),
                        "the layout of rule 1000 declares no growth"),
    "layout's rule in the family": (("layout.py", "    MARGIN_PERCEPTRON, hp=",
                                     "    MARGIN_PERCEPTRON + 7, hp="),
                                    "the rule 1007 of its layout is not among family "
                                    "'toy_margin'"),
    "class": (("learner.py", None, None), "class 'olc_toy_learner.learner:MarginPerceptron' "
                                          "cannot be imported"),
    "a parameter's constraint": (("learner.py", '"gamma": [Interval(Real, 0, None, '
                                                'closed="left")],', ""),
                                 "parameter 'gamma' of MarginPerceptron has no constraint"),
    "a hyper-parameter": (("learner.py", '"gamma": self.gamma, ', ""),
                          "_hp_values() misses the layout's fields ['gamma']"),
    "the entry's family": (("__init__.py", 'family="toy_margin",', 'family="linear",'),
                           "the rule 1000 of its layout is not among family 'linear'"),
    "a reference": (("__init__.py", '"krauth-mezard-1987", "Krauth', '"krauth-1987", "Krauth'),
                    "reference 'krauth-mezard-1987' is not in olc.references"),
    "test": (("test_margin_perceptron.py", None, None),
             "no test file (test_*.py) names MarginPerceptron"),
}


@pytest.mark.parametrize("piece", sorted(MISSING))
def test_each_missing_piece_is_named(tmp_path, piece):
    broken, message = MISSING[piece]
    found = _probe(tmp_path, broken)
    assert any(message in p for p in found["problems"]), found["problems"]
