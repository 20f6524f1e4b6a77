"""Two classes stay the binary learner, bit for bit: the records (int8 ±1) and weights of
this checkout equal those of the olc before one-vs-rest (the main checkout's sources, run in
a subprocess), and no one-vs-rest state appears."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import olc

from ._streams import stream

MAIN_SOURCES = Path("/work/main/src")
NAMES = ["perceptron", "pa-i", "obpm", "randomized-weighted-majority", "arow", "winnow",
         "e-omm", "sgd"]

_SCRIPT = """
import json, sys, warnings
import numpy as np, scipy.sparse as sp, olc
warnings.simplefilter("ignore")
X, y, name, csr = np.load(sys.argv[1]), np.load(sys.argv[2]), sys.argv[3], sys.argv[4] == "1"
X = sp.csr_matrix(X) if csr else X
m = olc.make(name)
r = m.predict_then_learn(X, y)
print(json.dumps({"pred": r.pred.tolist(), "dtype": str(r.pred.dtype), "score": [s.hex() for s in r.score.tolist()],
                  "coef": [c.hex() for c in m.coef_.ravel().tolist()],
                  "intercept": [c.hex() for c in m.intercept_.tolist()],
                  "dec": [s.hex() for s in m.decision_function(X).tolist()]}))
"""


@pytest.mark.skipif(not MAIN_SOURCES.is_dir(), reason="needs the main checkout's sources")
@pytest.mark.parametrize("csr", [False, True])
@pytest.mark.parametrize("name", NAMES)
def test_two_classes_match_the_binary_learner_before_one_vs_rest(name, csr, tmp_path):
    import scipy.sparse as sp
    import warnings

    X, y3 = stream(olc.make(name), n=50, k=3, seed=5)
    y = np.where(y3 == 1, "yes", "no")
    np.save(tmp_path / "X.npy", X)
    np.save(tmp_path / "y.npy", y)
    env = dict(os.environ, PYTHONPATH=str(MAIN_SOURCES))
    out = subprocess.run([sys.executable, "-c", _SCRIPT, str(tmp_path / "X.npy"),
                          str(tmp_path / "y.npy"), name, "1" if csr else "0"],
                         capture_output=True, text=True, env=env, check=True).stdout
    before = json.loads(out.strip().splitlines()[-1])
    rows = sp.csr_matrix(X) if csr else X
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = olc.make(name)
        record = model.predict_then_learn(rows, y)
    assert record.pred.dtype == np.int8 and before["dtype"] == "int8"
    assert record.pred.tolist() == before["pred"]
    assert [s.hex() for s in record.score.tolist()] == before["score"]
    assert [c.hex() for c in model.coef_.ravel().tolist()] == before["coef"]
    assert [c.hex() for c in model.intercept_.tolist()] == before["intercept"]
    assert [s.hex() for s in model.decision_function(rows).tolist()] == before["dec"]
    assert model._vecs.ndim == 2 and not model._is_multiclass()
