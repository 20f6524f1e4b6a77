"""olc.sklearn against scikit-learn's own classes, side by side in one run, on the
throughput workloads (W1–W3 of ``throughput.py``, ``_common.py``) and a 20-Newsgroups-like
multiclass one (K = 20 classes, CSR): the same estimator, the same parameters, the same
arrays; both inside ``threadpoolctl.threadpool_limits(1)`` (one core). Each case is timed best of
``--repeat`` after a warm-up call (olc's compile, or its disk cache, stays out of the time).

Calls: ``fit`` with ``max_iter=5, tol=None`` (five shuffled epochs, scikit-learn's orders)
and one ``partial_fit`` (one epoch). Prints one JSON object: seconds per case and the ratio
scikit-learn / olc (> 1: olc faster) in wall time and in process CPU time (steadier on a
shared machine), and whether both learned the same coef_ (they do bit
for bit in strict mode; here in olc's default arithmetic, to rounding).

    PYTHONPATH=src python benchmarks/sklearn_dropin.py [--quick] [--repeat N]
                                                [--workloads W1,W2,W3,NG20]
"""
import argparse
import sys
import time
import warnings

import numpy as np
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

import _common
from olc import sklearn as ours
from sklearn import linear_model as theirs

warnings.filterwarnings("ignore", category=FutureWarning)  # scikit-learn ≥ 1.8's PA notice

CLASSES = [("PassiveAggressiveClassifier", {"C": 1.0}), ("Perceptron", {})]


def newsgroups_like(n, d, k, seed):
    """K topics, ~60 tf-idf-like positive values a row (20 Newsgroups after a vectorizer:
    ~11,000 documents, ~130,000 terms, ~100 nonzeros a row, K = 20)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    topic_words = rng.integers(0, d, (k, 200))
    nnz = 60
    cols = np.concatenate([topic_words[y][np.arange(n)[:, None], rng.integers(0, 200, (n, 20))],
                           rng.integers(0, d, (n, nnz - 20))], axis=1)
    rows = np.repeat(np.arange(n), nnz)
    X = sp.csr_matrix((rng.uniform(0.01, 0.3, n * nnz), (rows, cols.ravel())), shape=(n, d))
    X.sum_duplicates()
    return X, y


def timed(make, call, repeat):
    """(best wall seconds, best process CPU seconds, the last model)."""
    make_and_call = lambda: call(make())  # noqa: E731
    make_and_call()  # warm-up: olc's compile or disk cache, scikit-learn's imports
    walls, cpus, model = [], [], None
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        model = make_and_call()
        cpus.append(time.process_time() - c0)
        walls.append(time.perf_counter() - w0)
    return min(walls), min(cpus), model


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workloads", default="W1,W2,W3,NG20", help="comma-separated")
    args = ap.parse_args()
    wanted = args.workloads.split(",")
    scale = 10 if args.quick else 1
    makers = {
        "W1": lambda: _common.make_dense(200_000 // scale, 100, _common.SEED),
        "W2": lambda: _common.make_csr(200_000 // scale, 2**20, 50, _common.SEED + 1),
        "W3": lambda: _common.make_dense(50_000 // scale, 1_000, _common.SEED + 2),
        "NG20": lambda: newsgroups_like(11_000 // scale, 130_000, 20, _common.SEED + 3),
    }
    workloads = {name: makers[name]() for name in wanted}
    report = {"machine": _common.machine_info(), "versions": _common.versions(), "cases": []}
    for wname, (X, y) in workloads.items():
        classes = np.unique(y)
        for cname, params in CLASSES:
            for call_name, call in (
                    ("fit(max_iter=5, tol=None)", lambda m: m.fit(X, y)),
                    ("partial_fit (1 epoch)", lambda m: m.partial_fit(X, y, classes=classes))):
                kw = dict(params, max_iter=5, tol=None, random_state=0)
                print(f"{wname} {cname} {call_name}", file=sys.stderr)
                with threadpool_limits(1):
                    t_sk, c_sk, m_sk = timed(lambda: getattr(theirs, cname)(**kw), call,
                                             args.repeat)
                    t_olc, c_olc, m_olc = timed(lambda: getattr(ours, cname)(**kw), call,
                                                args.repeat)
                diff = float(np.max(np.abs(m_olc.coef_ - m_sk.coef_)))
                scale_ = float(np.max(np.abs(m_sk.coef_))) or 1.0
                report["cases"].append({
                    "workload": wname, "estimator": cname, "call": call_name,
                    "sklearn_s": round(t_sk, 4), "olc_s": round(t_olc, 4),
                    "sklearn_over_olc": round(t_sk / t_olc, 2),
                    "sklearn_cpu_s": round(c_sk, 4), "olc_cpu_s": round(c_olc, 4),
                    "sklearn_over_olc_cpu": round(c_sk / c_olc, 2),
                    "coef_max_rel_diff": diff / scale_})
    _common.emit_report(report)
    print("\n".join(f"{c['workload']:5} {c['estimator']:28} {c['call']:26} sklearn "
                    f"{c['sklearn_s']:7.3f} s  olc {c['olc_s']:7.3f} s  ratio "
                    f"{c['sklearn_over_olc']:5.2f}  (CPU {c['sklearn_over_olc_cpu']:5.2f})  "
                    f"Δcoef {c['coef_max_rel_diff']:.1e}" for c in report["cases"]),
          file=sys.stderr)


if __name__ == "__main__":
    main()
