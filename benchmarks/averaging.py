"""The averaged step against the plain one (issue 11: at most 1.5×), in one run, on the
throughput workloads' generators (``_common.make_dense`` / ``make_csr``): W1-like dense rows
(n × 100) and W2-like binary CSR rows (d = 2^20, 50 nonzeros per row).

For each learner: the compiled learning time per row of ``average=False`` and
``average=True`` (best of ``--repeat`` interleaved rounds, compilation and validation
excluded: ``prepare_stream`` then ``learn_prepared``, as benchmarks/multiclass_ovr_speed.py),
and their ratio. Prints one JSON document.

    PYTHONPATH=src python benchmarks/averaging.py [--rows N] [--repeat R] [NAMES...]
"""
import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import olc  # noqa: E402

from _common import SEED, machine_info, make_csr, make_dense, versions  # noqa: E402

LEARNERS = {
    "perceptron": {},
    "pa-i": {},
    "pa-ii": {},
    "generalized-perceptron": {},
    "sgd": {},
    "sgd-l2": ("sgd", {"lam": 1e-4, "schedule": "constant", "eta0": 0.01}),
}


def _make(key, average):
    spec = LEARNERS[key]
    name, params = spec if isinstance(spec, tuple) else (key, spec)
    return olc.make(name, average=average, **params)


def _seconds(key, average, X, y):
    learner = _make(key, average)
    stream = learner.prepare_stream(X, y, classes=[-1, 1])
    t0 = time.perf_counter()
    learner.learn_prepared(stream)
    return time.perf_counter() - t0, learner.n_updates_


def bench(workload, X, y, names, repeat):
    rows = {}
    for key in names:
        _make(key, True).fit(X[:64], y[:64])  # compile / load the disk cache apart
        _make(key, False).fit(X[:64], y[:64])
        best = {False: np.inf, True: np.inf}
        updates = None
        for _ in range(repeat):
            for average in (False, True):  # interleaved: both see the same machine state
                s, updates = _seconds(key, average, X, y)
                best[average] = min(best[average], s)
        n = X.shape[0]
        rows[key] = {"plain_ns_per_row": round(best[False] / n * 1e9, 1),
                     "averaged_ns_per_row": round(best[True] / n * 1e9, 1),
                     "ratio": round(best[True] / best[False], 3),
                     "update_fraction": round(updates / n, 3)}
        print(f"{workload} {key:<24} plain {rows[key]['plain_ns_per_row']:8.1f} ns/row  "
              f"averaged {rows[key]['averaged_ns_per_row']:8.1f} ns/row  "
              f"ratio {rows[key]['ratio']:.2f}  updates {rows[key]['update_fraction']:.2f}",
              file=sys.stderr)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("names", nargs="*", default=list(LEARNERS))
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    report = {"machine": machine_info(), "versions": versions(), "workloads": {}}
    X, y = make_dense(args.rows, 100, SEED + 1)
    report["workloads"]["W1"] = {"description": f"dense, n={args.rows}, d=100",
                                 "learners": bench("W1", X, y, args.names, args.repeat)}
    X, y = make_csr(args.rows, 2**20, 50, SEED + 2)
    report["workloads"]["W2"] = {"description": f"binary CSR, n={args.rows}, d=2^20, 50 nnz",
                                 "learners": bench("W2", X, y, args.names, args.repeat)}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
