"""The compile notice: the moment a family's loop starts compiling, one line on stderr says
what and about how long, once; a process that finds the family cached says nothing."""
import os
import re
import subprocess
import sys

FIT = ("import numpy as np, olc; X = np.random.default_rng(0).standard_normal((40, 3)); "
       "olc.make('perceptron').fit(X, X[:, 0] > 0).predict(X)")


def _fit(cache, **env):
    return subprocess.run([sys.executable, "-c", FIT], capture_output=True, text=True,
                          timeout=900, env={**os.environ, "NUMBA_CACHE_DIR": str(cache), **env})


def test_a_cold_fit_says_once_that_it_compiles_and_a_warm_one_is_silent(tmp_path):
    cold = _fit(tmp_path)
    assert cold.returncode == 0, cold.stderr
    lines = cold.stderr.splitlines()
    # fit compiles the dense run loop (the family's rule code: the notice), predict the
    # score loop (linking what is compiled: under a second, no second notice)
    assert len(lines) == 1, cold.stderr
    assert re.fullmatch(r"olc: compiling linear \(.+\) for dense rows, run, on this machine, "
                        r"once: ~\d+ s", lines[0]), lines[0]
    warm = _fit(tmp_path)
    assert warm.returncode == 0 and warm.stderr == "", warm.stderr
    quiet = _fit(tmp_path / "other", OLC_COMPILE_NOTICE="0")
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
