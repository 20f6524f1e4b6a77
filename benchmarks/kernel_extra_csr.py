"""The CSR pool against the pool by feature for the ``kernel_extra`` and ``nystrom`` learners
(Projectron, Projectron++, BPA-S, kernel OBPM, NOGD) on a 20 Newsgroups-like CSR stream
(d = 2^16, ~100 values a row: ``kernel_speed.high_d_stream``), side by side in one run.

For each learner, one pass with its rows kept by feature ((d, capacity) floats: the width
threshold ``kernel_model.CSR_POOL_MIN_FEATURES`` set above d) and one with the CSR pool (the
default at this width), interleaved in a fresh random order per round, best of ``--repeat``:
µs per example (wall and this thread's CPU), the state's bytes (vecs + ints + scal) after
the pass, the rows stored, and whether both passes gave the same scores bit for bit.

Usage: python benchmarks/kernel_extra_csr.py [--repeat N] [--rows N]
Prints one JSON object on stdout.
"""
import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine_info, versions  # noqa: E402
from kernel_speed import CPU, high_d_stream, interleaved  # noqa: E402

import olc  # noqa: E402
from olc.learners._framework import kernel_model  # noqa: E402

#: (label, catalogue name, parameters): RBF with γ = 1 on rows of unit norm, as
#: ``kernel_speed.part_high_d``.
LEARNERS = [
    ("projectron (eta=0.9)", "projectron", {"eta": 0.9}),
    ("projectron++ (eta=0.9)", "projectron++", {"eta": 0.9}),
    ("budget-pa B=100", "budget-pa", {"budget": 100}),
    ("kernel-obpm N=10 B=100", "kernel-obpm", {"N": 10, "budget": 100}),
    ("nogd B=100", "nogd", {"budget": 100}),
]


def one_pass(name, params, X, y, csr_pool):
    """(model, record) of one pass, the pool by feature or the CSR pool."""
    threshold = kernel_model.CSR_POOL_MIN_FEATURES
    kernel_model.CSR_POOL_MIN_FEATURES = 1 if csr_pool else X.shape[1] + 1
    try:
        model = olc.make(name, kernel="rbf", gamma=1.0, **params)
        record = model.predict_then_learn(X, y, classes=[-1.0, 1.0])
    finally:
        kernel_model.CSR_POOL_MIN_FEATURES = threshold
    return model, record


def state_bytes(model):
    return int(model._vecs.nbytes + model._ints.nbytes + model._scal.nbytes)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rows", type=int, default=4000)
    args = ap.parse_args(argv)
    X, y = high_d_stream(n=args.rows)
    out = {"machine": machine_info(), "versions": versions(), "repeat": args.repeat,
           "rows": int(X.shape[0]), "features": int(X.shape[1]),
           "mean_nnz": round(X.nnz / X.shape[0], 1), "kernel": "rbf, gamma = 1",
           "note": "best of --repeat interleaved rounds; the machine may be shared: read the "
                   "ratios", "learners": {}}
    for label, name, params in LEARNERS:
        print(label, "…", file=sys.stderr)
        for csr in (False, True):
            one_pass(name, params, X[:60], y[:60], csr)  # compile
        res = interleaved({"by_feature": lambda: one_pass(name, params, X, y, False),
                           "csr": lambda: one_pass(name, params, X, y, True)}, args.repeat)
        (m_f, r_f), (m_c, r_c) = res["by_feature"][2], res["csr"][2]
        assert m_f._ints.shape == (0,) and m_c._ints.shape == (1,)
        n = X.shape[0]
        row = {}
        for kind, model in (("by_feature", m_f), ("csr", m_c)):
            row[kind] = {"us_per_example": round(res[kind][0] / n * 1e6, 2),
                         "cpu_us_per_example": round(CPU[kind] / n * 1e6, 2),
                         "all_seconds": res[kind][1],
                         "state_mib": round(state_bytes(model) / 2 ** 20, 3)}
        row["by_feature_over_csr_time"] = round(res["by_feature"][0] / res["csr"][0], 2)
        row["by_feature_over_csr_memory"] = round(state_bytes(m_f) / state_bytes(m_c), 1)
        row["stored_rows"] = int(m_c.n_support_[0])
        row["updates"] = int(np.count_nonzero(r_c.updated))
        row["same_scores"] = bool(np.array_equal(r_f.score, r_c.score))
        out["learners"][label] = row
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
