"""Per-example time against the dimension d at a fixed number of nonzeros per row (CSR).

    python benchmarks/nnz_scaling.py [--quick] [--repeat N] [--n ROWS] [--log2d 14,22]

DESIGN.md ("Speed by construction"): every update must cost O(nnz(x)), not O(d) — shrinking
updates keep w as scale × vector, CSR rows are never densified. So with nnz = 50 per row the
time per example should stay flat as d grows from 2^14 to 2^22. What can still grow is the
cost of the random reads into the weight vector once it no longer fits in cache (8·d bytes
per vector: 128 KiB at 2^14, 32 MiB at 2^22); the bare hand-written loop is timed alongside
to show that hardware effect, so that only growth beyond it points at O(d) work in olc.

Prints one JSON object on stdout; progress goes to stderr.
"""
import argparse
import gc
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import olc  # noqa: E402
from _common import (  # noqa: E402
    SEED, compile_bare, emit_report, machine_info, make_csr, run_bare, versions)

CLASSES = np.array([-1, 1])
BARE = ("perceptron", "pa-i")
NNZ = 50

#: Learners whose update cannot be O(nnz(x)) by their math, and why (not run here).
NOT_O_NNZ = {
    "arow": "full covariance: Σx costs O(d·nnz) and Σ is d × d (use arow-diagonal*)",
    "arow-regression": "full covariance (recursive least squares): Σ is d × d",
    "weighted-majority": "every expert's prediction is an input: rows are dense (nnz = d)",
    "randomized-weighted-majority": "every expert's prediction is an input: rows are dense",
    "n-omm": "solves a max-margin QP over all stored points: cost grows with the updates",
    "e-omm-lp": "p ≠ 2: w = ∇‖u‖_p and ‖u − βz‖_p (the 1-D search) involve every coordinate "
                "of u = v₊ − v₋ after a convex-combination step: O(nnz(u)) ≈ O(d) per update",
    "ce-omm-lp": "as e-omm-lp",
}


def catalogue():
    """name -> (params, kind) for every registered learner that should be O(nnz)."""
    return {e.name: ({"C": 1.0} if e.name == "pa-i" else {}, e.kind)
            for e in olc.algorithms() if e.name not in NOT_O_NNZ}


OLC_LEARNERS = {}  # set by main(): name -> (params, kind)


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def _clock(fn):
    gc.collect()
    w, c = time.perf_counter(), time.thread_time()
    out = fn()
    return time.perf_counter() - w, time.thread_time() - c, out


def time_olc(name, X, y):
    """(wall, cpu, updates) of the whole progressive() call less its compile/warm-up step.
    Binary CSR rows are in every learner's domain (Winnow's {0,1} included); regressors
    learn the ±1 labels as real-valued targets."""
    params, kind = OLC_LEARNERS[name]
    learner = olc.make(name, **params)
    classes = CLASSES
    if kind == "regressor":
        y, classes = y.astype(np.float64), None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. e-OMM's "stream is not separable"
        wall, cpu, res = _clock(lambda: olc.progressive(learner, X, y, classes=classes,
                                                         progress=False))
    return wall - res.compile_seconds, cpu - res.compile_seconds, res.updates


def time_bare(rule, X, y_float):
    """(wall, cpu, updates), model allocation included as for olc."""
    return _clock(lambda: run_bare(rule, X, y_float))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="n = 10,000 and d in 2^14, 2^18, 2^22")
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs (default 3)")
    ap.add_argument("--n", type=int, default=100_000, help="rows (default 100,000)")
    ap.add_argument("--log2d", default="14,22", help="range of log2(d), inclusive (default 14,22)")
    ap.add_argument("--only", default="", help="comma-separated learner names (default: all "
                    "registered learners whose math allows O(nnz) updates)")
    args = ap.parse_args(argv)
    global OLC_LEARNERS
    OLC_LEARNERS = catalogue()
    if args.only:
        wanted = [s for s in args.only.split(",") if s]
        unknown = [k for k in wanted if k not in OLC_LEARNERS]
        if unknown:
            ap.error(f"not measured here: {unknown} (unknown, or in NOT_O_NNZ)")
        OLC_LEARNERS = {k: OLC_LEARNERS[k] for k in wanted}
    lo, hi = (int(v) for v in args.log2d.split(","))
    exps = list(range(lo, hi + 1))
    n = args.n
    if args.quick:
        n = min(n, 10_000)
        exps = sorted({lo, (lo + hi) // 2, hi})
    if args.repeat < 1:
        ap.error("--repeat must be ≥ 1")

    machine = machine_info()  # load average at start
    impls = [f"olc.{k}" for k in OLC_LEARNERS] + [f"bare.{k}" for k in BARE]
    runners = {**{f"olc.{k}": (lambda k=k: lambda X, y, yf: time_olc(k, X, y))()
                  for k in OLC_LEARNERS},
               **{f"bare.{k}": (lambda k=k: lambda X, y, yf: time_bare(k, X, yf))()
                  for k in BARE}}
    half = n // 2
    per_d = []
    for e in exps:
        d = 2 ** e
        # Random labels: the update rate (so the work per example) does not depend on d; with
        # hyperplane labels small d is learnable and large d is not, which would confound.
        X, y = make_csr(n, d, NNZ, SEED + e, labels="random")
        y_float = y.astype(np.float64)
        Xh, yh, yhf = X[:half], y[:half], y_float[:half]
        compile_bare(X, y_float)
        for name in OLC_LEARNERS:  # warm numba (disk cache) outside the timings
            time_olc(name, X[:64], y[:64])
        log(f"d=2^{e}: data ready, timing {len(OLC_LEARNERS)} learners")
        best = {k: {"wall": np.inf, "cpu": np.inf, "cpu_half": np.inf} for k in impls}
        updates = {}
        for _ in range(args.repeat):  # interleaved, so background load hits all alike
            for k in impls:
                wall, cpu, updates[k] = runners[k](X, y, y_float)
                _, cpu_half, _ = runners[k](Xh, yh, yhf)
                b = best[k]
                b["wall"], b["cpu"] = min(b["wall"], wall), min(b["cpu"], cpu)
                b["cpu_half"] = min(b["cpu_half"], cpu_half)
        row = {"log2_d": e, "d": d, "n": n, "nnz_per_row": NNZ, "results": {}}
        for k in impls:
            b = best[k]
            row["results"][k] = {
                "ns_per_example": round(b["wall"] / n * 1e9, 1),
                "cpu_ns_per_example": round(b["cpu"] / n * 1e9, 1),
                # Rows half..n only: one-off costs (model allocation, first-touch page
                # faults, Python set-up) cancel out.
                "marginal_cpu_ns_per_example": round(
                    (b["cpu"] - b["cpu_half"]) / (n - half) * 1e9, 1),
                "updates": updates[k]}
        log(f"d=2^{e}: " + ", ".join(
            f"{k} {v['ns_per_example']}/{v['marginal_cpu_ns_per_example']} ns"
            for k, v in row["results"].items()))
        per_d.append(row)
        del X, y, y_float, Xh, yh, yhf
        gc.collect()

    summary = {}
    for k in impls:
        summary[k] = {}
        for metric in ("ns_per_example", "cpu_ns_per_example", "marginal_cpu_ns_per_example"):
            vals = [r["results"][k][metric] for r in per_d]
            summary[k][metric] = {"min": min(vals), "max": max(vals),
                                  "max_over_min": round(max(vals) / min(vals), 3)}
    for name in OLC_LEARNERS:
        ref = "bare." + (name if name in BARE else "perceptron")
        for metric in ("ns_per_example", "marginal_cpu_ns_per_example"):
            summary[f"olc.{name}"][metric][f"max_over_min_relative_to_{ref}"] = round(
                summary[f"olc.{name}"][metric]["max_over_min"]
                / summary[ref][metric]["max_over_min"], 3)

    report = {"benchmark": "olc nnz scaling (CSR, fixed nnz per row, growing d)",
              "config": {"quick": args.quick, "repeat": args.repeat, "n": n,
                         "nnz_per_row": NNZ, "labels": "random (fair coin)", "log2_d": exps,
                         "not_run": NOT_O_NNZ,
                         "seed": SEED,
                         "timing": "best of --repeat; ns_per_example: time.perf_counter "
                                   "over all n rows; cpu_*: time.thread_time; marginal: "
                                   "(time(n) - time(n/2)) / (n/2), one-off costs cancel; "
                                   "olc: the whole progressive() call less its "
                                   "compile/warm-up step"},
              "machine": machine, "versions": versions(),
              "per_d": per_d, "summary": summary}
    emit_report(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
