"""One-vs-rest kernel learners: one kernel row per example shared by the K classes against
each class computing its own (``olc._compiled.rules.kernel_shared``), side by side in one run.

USPS (the training file, 7,291 digits, 256 grey levels in [0, 1], 10 classes, file order),
RBF kernel (γ = ``--gamma``), one pass (``fit``) of: the unbudgeted kernel perceptron and
kernel PA, the Forgetron at B = 100 and 500. Modes, interleaved in a fresh random order each
round, best of ``--repeat`` (wall seconds, and the process's CPU seconds — what other
processes on the cores inflate less; compilation apart: a warm-up fit first):

- ``shared``: one thread, the kernel rows shared where it pays (the default for n_jobs=1:
  ``kernel_rows.SHARE_GAIN``);
- ``shared_always``: one thread, every row shared;
- ``per_class``: one thread, each class its own kernel row (the path before sharing);
- ``per_class_2``: n_jobs=2, each class its own row, groups of classes on two threads;
- ``shared_2``: n_jobs=2, rows shared within each thread's group of classes.

``--newsgroups``: the same on 20 Newsgroups' four groups of ``olc reproduce shen-dietterich``
(baseball, hockey, autos, motorcycles; 0/1 term vectors, both splits) as a 4-class stream in a
seeded permutation (the drift stream itself is binary: P against N), CSR rows into the CSR
pool (d ≥ 16,384), γ = ``--text-gamma``.

Also reported: U, the distinct stored rows over the K pools after the pass, against Σ n_c,
the rows the pools hold (what the per-class path computes a kernel value for, per example,
at the end of the pass); and whether every mode left the same state bits (checked).

Usage: OLC_DATA=... python benchmarks/kernel_ovr_sharing.py [--repeat N] [--rows N]
Prints one JSON object on stdout.
"""
import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine_info, versions  # noqa: E402

import olc  # noqa: E402
import olc._compiled.driver.k_class as k_class  # noqa: E402
import olc._compiled.driver.kernel_rows as kernel_rows  # noqa: E402
from olc._compiled.layouts.kernel import BORN, HEADER, capacity  # noqa: E402
from olc._compiled.layouts.kernel import KernelScal as KS  # noqa: E402
from olc.data import load  # noqa: E402

LEARNERS = {
    "kernel-perceptron": {},
    "kernel-pa": {},
    "forgetron-B100": {"budget": 100},
    "forgetron-B500": {"budget": 500},
}
MODES = {"shared": (True, 1, kernel_rows.SHARE_GAIN), "shared_always": (True, 1, 0.0),
         "per_class": (False, 1, 0.0), "per_class_2": (False, 2, 0.0),
         "shared_2": (True, 2, kernel_rows.SHARE_GAIN)}


def _name(key):
    return key.split("-B")[0]


def _fit(key, X, y, gamma, share, n_jobs, gain):
    kernel_rows.SHARE, kernel_rows.SHARE_GAIN = share, gain
    learner = olc.make(_name(key), kernel="rbf", gamma=gamma, n_jobs=n_jobs, **LEARNERS[key])
    start, cpu = time.perf_counter(), time.process_time()
    learner.fit(X, y)
    return time.perf_counter() - start, time.process_time() - cpu, learner


def _union(learner):
    scal = learner._scal
    cap = capacity(scal)
    borns = [scal[c, HEADER + BORN * cap:HEADER + BORN * cap + int(scal[c, KS.N_STORED])]
             for c in range(scal.shape[0])]
    return len(set(np.concatenate(borns).tolist())), int(sum(len(b) for b in borns))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rows", type=int, default=None, help="the first N rows only")
    parser.add_argument("--gamma", type=float, default=0.02)
    parser.add_argument("--learners", default=",".join(LEARNERS))
    parser.add_argument("--newsgroups", action="store_true")
    parser.add_argument("--text-gamma", type=float, default=0.01)
    args = parser.parse_args()
    if args.newsgroups:
        from olc.experiments.shen_dietterich.data import text_pool
        from olc.experiments.shen_dietterich.data import NEWSGROUPS_CLASSES

        pool = text_pool("20newsgroups", list(NEWSGROUPS_CLASSES.values()))
        X, y = pool.X.tocsr(), np.unique(np.asarray(pool.y), return_inverse=True)[1]
        rows = np.random.default_rng(0).permutation(X.shape[0])[:args.rows]
        X, y, args.gamma = X[rows], y[rows], args.text_gamma
    else:
        X, y = load("usps", "train")
        X = np.ascontiguousarray(X[:args.rows], dtype=np.float64)
        y = np.asarray(y)[:args.rows]
    keys = args.learners.split(",")
    k_class.MIN_STEPS_PER_THREAD = 1  # n_jobs=2 means two threads here
    for key in keys:  # compile (or load) every path first
        for mode in MODES.values():
            _fit(key, X[:200], y[:200], args.gamma, *mode)
    best = {key: {mode: float("inf") for mode in MODES} for key in keys}
    best_cpu = {key: {mode: float("inf") for mode in MODES} for key in keys}
    states = {}
    rng = random.Random(0)
    for _ in range(args.repeat):
        runs = [(key, mode) for key in keys for mode in MODES]
        rng.shuffle(runs)
        for key, mode in runs:
            seconds, cpu, learner = _fit(key, X, y, args.gamma, *MODES[mode])
            best[key][mode] = min(best[key][mode], seconds)
            best_cpu[key][mode] = min(best_cpu[key][mode], cpu)
            states.setdefault(key, {})[mode] = learner
            print(f"{key} {mode}: {seconds:.2f} s", file=sys.stderr, flush=True)
    kernel_rows.SHARE, kernel_rows.SHARE_GAIN = True, MODES["shared"][2]
    results = {}
    for key in keys:
        learners = states[key]
        reference = learners["per_class"]
        same = all(np.array_equal(reference._scal, m._scal) and
                   np.array_equal(reference._vecs, m._vecs) for m in learners.values())
        union, total = _union(reference)
        seconds = best[key]
        results[key] = {
            "seconds": {mode: round(s, 3) for mode, s in seconds.items()},
            "cpu_seconds": {mode: round(s, 3) for mode, s in best_cpu[key].items()},
            "per_class_over_shared_cpu": round(best_cpu[key]["per_class"]
                                               / best_cpu[key]["shared"], 2),
            "per_class_over_shared": round(seconds["per_class"] / seconds["shared"], 2),
            "per_class_2_over_shared": round(seconds["per_class_2"] / seconds["shared"], 2),
            "shared_2_over_shared": round(seconds["shared_2"] / seconds["shared"], 2),
            "shared_always_over_shared": round(seconds["shared_always"] / seconds["shared"], 2),
            "union_rows_U": union, "sum_n_c": total,
            "sum_n_c_over_U": round(total / max(union, 1), 2),
            "same_state_bits": bool(same),
        }
    print(json.dumps({"benchmark": "kernel_ovr_sharing", "rows": int(X.shape[0]),
                      "data": "20newsgroups (4 groups)" if args.newsgroups else "usps",
                      "features": int(X.shape[1]),
                      "gamma": args.gamma, "repeat": args.repeat, "results": results,
                      "machine": machine_info(), "versions": versions()}, indent=1))


if __name__ == "__main__":
    main()
