"""Throughput of every registered learner (classifiers and regressors) on W1 and W2.

    python benchmarks/catalogue.py [--quick] [--workloads W1,W2] [--repeat N] [--only a,b]

Each learner runs the full online protocol (``olc.progressive``: validation, the compiled
predict-then-update loop, the per-row record) on the same workloads as ``throughput.py``
(W1: dense 200,000 × 100; W2: CSR 200,000 × 2^20, 50 binary nonzeros per row). Time = the
whole call less its compile/warm-up step (reported apart), best of ``--repeat``. The bare
hand-written perceptron loop of ``_common.py`` is timed in the same run as the yardstick, so
the ratios (``vs_bare_perceptron``) carry over between machines better than rows/s do.

Inputs outside a learner's domain are mapped, and the mapping is reported:
- Winnow takes {0,1} features: W1 is binarized (x > 0); W2 is binary already.
- Weighted Majority / RWM take expert predictions in {−1,+1}, every one stored: W1 as sign(x);
  on W2 a CSR row would have to store all 2^20 experts (8 MiB a row), so it is not run.
- Regressors learn the ±1 labels as real-valued targets.
Full-covariance AROW keeps a d × d matrix and n-OMM a dense row per stored point: both run
on W1 (d = 100) only. ``--only`` restricts the run to some learners.

Prints one JSON object on stdout; progress goes to stderr.
"""
import argparse
import gc
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, str(Path(__file__).resolve().parent))

import olc  # noqa: E402
from _common import (  # noqa: E402
    SEED,
    compile_bare,
    emit_report,
    machine_info,
    make_csr,
    make_dense,
    run_bare,
    versions,
)

WORKLOADS = {
    "W1": ("dense", 200_000, 100, None),
    "W2": ("csr", 200_000, 2**20, 50),
}
QUICK_SCALE = 0.1

#: Hyper-parameters used here where the default would not run on these workloads or would
#: time something else than the rule (reason in the comment).
PARAMS = {
    "pa-i": {"C": 1.0},
    # n-OMM stores every update point; on a noisy stream it soon stops being separable and
    # collapses (documented), after which it no longer updates: timed as is, with the count.
}

#: (name, workload) -> why it is not run.
NOT_RUN = {
    ("weighted-majority", "W2"): "experts must all be stored: a CSR row of 2^20 experts",
    ("randomized-weighted-majority", "W2"): "experts must all be stored: a CSR row of 2^20 "
                                            "experts",
    ("arow", "W2"): "full covariance: a d × d matrix, 8 TiB at d = 2^20",
    ("arow-regression", "W2"): "full covariance: a d × d matrix, 8 TiB at d = 2^20",
    ("n-omm", "W2"): "stores every update point (and its factorization) as a dense row of "
                     "d + 2 floats: 8 MiB a point at d = 2^20; meant for moderate d",
}


#: (name, workload) -> (rows timed, why): learners whose update is O(d) by their math are
#: timed on the first rows only (rows/s is then per those rows).
ROW_LIMIT = {
    ("e-omm-lp", "W2"): (500, "update O(d) × Newton iterations: w = ∇‖u‖_p changes in every "
                              "coordinate for p ≠ 2"),
    ("ce-omm-lp", "W2"): (500, "update O(d) × Newton iterations (p ≠ 2)"),
    ("obpm", "W2"): (20_000, "N = 100 members × 2^20 weights (800 MiB of state)"),
}


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def domain_input(entry, X, y):
    """(X, y, note) mapped into the learner's input domain (see the module docstring)."""
    domain = getattr(entry.cls, "input_domain", None)
    note = None
    if domain == "binary":
        if sp.issparse(X):
            X = X.copy()
            X.data[:] = 1.0
            note = "binary already (stored values set to 1)"
        else:
            X = (X > 0).astype(np.float64)
            note = "binarized: x > 0"
    elif domain == "sign":
        X = np.where(X >= 0, 1.0, -1.0)
        note = "sign(x) in {-1,+1}"
    if entry.kind == "regressor":
        y = y.astype(np.float64)
        note = "targets: the ±1 labels as real values"
    return X, y, note


def time_learner(entry, X, y, repeat):
    params = PARAMS.get(entry.name, {})
    classes = None if entry.kind == "regressor" else np.array([-1, 1])
    times, res = [], None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. "stream is not separable"
        olc.progressive(olc.make(entry.name, **params), X[:64], y[:64], classes=classes,
                        progress=False)  # compile / load from the cache
        for _ in range(repeat):
            learner = olc.make(entry.name, **params)
            gc.collect()
            t0 = time.perf_counter()
            res = olc.progressive(learner, X, y, classes=classes, progress=False)
            times.append(time.perf_counter() - t0 - res.compile_seconds)
    return min(times), res, params


def bench_workload(wname, quick, repeat, only):
    layout, n, d, nnz = WORKLOADS[wname]
    if quick:
        n = int(n * QUICK_SCALE)
    seed = SEED + int(wname[1:])
    X, y = make_dense(n, d, seed) if layout == "dense" else make_csr(n, d, nnz, seed)
    y_float = y.astype(np.float64)
    compile_bare(X, y_float)
    bare = []
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        run_bare("perceptron", X, y_float)
        bare.append(time.perf_counter() - t0)
    bare_s = min(bare)
    log(f"{wname}: bare perceptron {n / bare_s:,.0f} rows/s")
    rows = {}
    for entry in olc.algorithms():
        if only and entry.name not in only:
            continue
        if (entry.name, wname) in NOT_RUN:
            rows[entry.name] = {"kind": entry.kind, "not_run": NOT_RUN[(entry.name, wname)]}
            log(f"  {wname} {entry.name:30s} not run: {NOT_RUN[(entry.name, wname)]}")
            continue
        Xl, yl, note = domain_input(entry, X, y)
        m, limit_reason = ROW_LIMIT.get((entry.name, wname), (n, None))
        m = min(m, n)
        seconds, res, params = time_learner(entry, Xl[:m], yl[:m], repeat)
        rows[entry.name] = {
            "kind": entry.kind, "params": params, "input": note, "rows": m,
            "rows_per_s": round(m / seconds), "seconds": round(seconds, 5),
            "vs_bare_perceptron": round((m / seconds) / (n / bare_s), 4),
            "updates": res.updates, "compile_seconds": round(res.compile_seconds, 3)}
        if limit_reason:
            rows[entry.name]["rows_limited_because"] = limit_reason
        log(f"  {wname} {entry.name:30s} {m / seconds:>12,.0f} rows/s "
            f"({(m / seconds) / (n / bare_s):.3f} × bare perceptron; {res.updates} updates"
            f"{'; first ' + str(m) + ' rows' if m < n else ''})")
        del Xl, yl
    return {"layout": layout, "n": n, "d": d, "nnz_per_row": nnz, "seed": seed,
            "bare_perceptron_rows_per_s": round(n / bare_s), "learners": rows}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a tenth of the rows (smoke test)")
    ap.add_argument("--workloads", default="W1,W2")
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs (default 3)")
    ap.add_argument("--only", default="", help="comma-separated learner names")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be ≥ 1")
    only = {s for s in args.only.split(",") if s}
    unknown = only - {e.name for e in olc.algorithms()}
    if unknown:
        ap.error(f"unknown learners: {sorted(unknown)}")
    names = [w.strip() for w in args.workloads.split(",") if w.strip()]
    for w in names:
        if w not in WORKLOADS:
            ap.error(f"unknown workload {w!r}; choose from {sorted(WORKLOADS)}")
    machine = machine_info()
    report = {"benchmark": "olc catalogue throughput",
              "config": {"quick": args.quick, "repeat": args.repeat, "workloads": names,
                         "timing": "time.perf_counter, best of --repeat; the whole "
                                   "progressive() call less its compile/warm-up step"},
              "machine": machine, "versions": versions(),
              "workloads": {w: bench_workload(w, args.quick, args.repeat, only)
                            for w in names}}
    emit_report(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
