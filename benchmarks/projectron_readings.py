"""The Projectron's two readings of η (``threshold_on="norm"``: ‖δ_t‖ ≤ η, the default;
``"squared_norm"``: ‖δ_t‖² ≤ η, the authors' MATLAB code) side by side on a9a.

One pass over a9a's training file in file order (``predict_then_learn``: the online
mistakes are the pass's sign errors, a zero score counting as one), for the Projectron and
Projectron++, RBF kernel, each γ of ``--gammas`` (0.01: the speed benchmark's; 0.1: the one
``olc reproduce kernel-budget`` chooses on a9a) and η ∈ ``--etas``: online mistakes, stored
rows, accuracy on a9a's test file, learning seconds (the rules compiled first on 200 rows).
A pass is learned in chunks of ``--chunk`` rows and stopped after ``--limit`` seconds (the
pool, and the O(n²) inverse Gram update, can grow large when η is small): such a run reports
the rows it reached and no test accuracy. The runs of one setting alternate the two readings.

Usage: python benchmarks/projectron_readings.py [--gammas 0.01,0.1] [--etas 0.1,0.5,1]
Prints one JSON object on stdout.
"""
import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine_info, versions  # noqa: E402

import olc  # noqa: E402
from olc.data import load  # noqa: E402

READINGS = ("norm", "squared_norm")


def one_pass(name, params, X, y, Xt, yt, chunk, limit):
    model = olc.make(name, kernel="rbf", **params)
    ys = np.where(y == 1, 1.0, -1.0)
    mistakes, rows, seconds = 0, 0, 0.0
    for start in range(0, X.shape[0], chunk):
        stop = min(start + chunk, X.shape[0])
        t0 = time.perf_counter()
        record = model.predict_then_learn(X[start:stop], y[start:stop], classes=[-1, 1])
        seconds += time.perf_counter() - t0
        mistakes += int(np.count_nonzero(~(ys[start:stop] * record.score > 0.0)))
        rows = stop
        if seconds > limit:
            break
    out = {"rows": rows, "mistakes": mistakes, "mistake_rate": round(mistakes / rows, 4),
           "support_vectors": int(model.n_support_[0]), "seconds": round(seconds, 2)}
    if rows == X.shape[0]:
        out["test_accuracy"] = round(float(np.mean(model.predict(Xt) == yt)), 4)
    else:
        out["stopped"] = f"after {limit} s"
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gammas", default="0.01,0.1")
    ap.add_argument("--etas", default="0.1,0.5,1")
    ap.add_argument("--chunk", type=int, default=1000)
    ap.add_argument("--limit", type=float, default=60.0)
    args = ap.parse_args(argv)
    X, y = load("a9a", split="train")[:2]
    Xt, yt = load("a9a", split="test")[:2]
    for name in ("projectron", "projectron++"):  # compile first
        for reading in READINGS:
            olc.make(name, threshold_on=reading).fit(X[:200], y[:200])
    runs = []
    for gamma in [float(g) for g in args.gammas.split(",")]:
        for eta in [float(e) for e in args.etas.split(",")]:
            for name in ("projectron", "projectron++"):
                for reading in READINGS:
                    params = {"gamma": gamma, "eta": eta, "threshold_on": reading}
                    res = one_pass(name, params, X, y, Xt, yt, args.chunk, args.limit)
                    runs.append({"learner": name, **params, **res})
                    print(json.dumps(runs[-1]), file=sys.stderr, flush=True)
    print(json.dumps({"machine": machine_info(), "versions": versions(),
                      "data": "a9a (train: one pass in file order; test: a9a.t)",
                      "runs": runs}, indent=1))


if __name__ == "__main__":
    main()
