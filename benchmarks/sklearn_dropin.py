"""olc.sklearn against scikit-learn's own classes, side by side in one run, on the
throughput workloads (W1–W3 of ``throughput.py``, ``_common.py``) and a 20-Newsgroups-like
multiclass one (K = 20 classes, CSR): the same estimator, the same parameters, the same
arrays; both inside ``threadpoolctl.threadpool_limits(1)`` (one core). Each case is timed best of
``--repeat``, the two called alternately, after a warm-up call each (olc's compile, or its
disk cache, stays out of the time).

Estimators: the two PA classes, ``Perceptron`` plain and with each penalty (alpha 1e-4,
elasticnet's l1_ratio 0.15), the regressor on the ±1 labels as real targets (binary
workloads only). Calls: ``fit`` with ``max_iter=5, tol=None`` (five shuffled epochs,
scikit-learn's orders) and one ``partial_fit`` (one epoch). Prints one JSON object: seconds per case and the ratio
scikit-learn / olc (> 1: olc faster) in wall time and in process CPU time (steadier on a
shared machine), and whether both learned the same coef_ (they do bit
for bit in strict mode; here in olc's default arithmetic, to rounding).

    PYTHONPATH=src python benchmarks/sklearn_dropin.py [--quick] [--repeat N]
                                                [--workloads W1,W2,W3,NG20] [--only TEXT]
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

# (estimator, parameters, whether it is a regressor: trained on the ±1 labels as real targets)
CASES = [("PassiveAggressiveClassifier", {"C": 1.0}, False), ("Perceptron", {}, False),
         ("Perceptron", {"penalty": "l2", "alpha": 1e-4}, False),
         ("Perceptron", {"penalty": "l1", "alpha": 1e-4}, False),
         ("Perceptron", {"penalty": "elasticnet", "alpha": 1e-4, "l1_ratio": 0.15}, False),
         ("PassiveAggressiveRegressor", {"C": 1.0}, True)]


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


def timed_pair(make_theirs, make_ours, call, repeat):
    """Best-of-``repeat`` (wall s, process CPU s, last model) of scikit-learn's and of olc's,
    the two called alternately (a load that comes and goes on a shared machine then weighs
    on both alike). A warm-up call each first: olc's compile or disk cache, imports."""
    makers = (make_theirs, make_ours)
    walls, cpus, models = [[], []], [[], []], [None, None]
    for side in (0, 1):
        call(makers[side]())
    for _ in range(repeat):
        for side in (0, 1):
            w0, c0 = time.perf_counter(), time.process_time()
            models[side] = call(makers[side]())
            cpus[side].append(time.process_time() - c0)
            walls[side].append(time.perf_counter() - w0)
    return [(min(walls[side]), min(cpus[side]), models[side]) for side in (0, 1)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workloads", default="W1,W2,W3,NG20", help="comma-separated")
    ap.add_argument("--only", default="", help="run the estimators whose label contains "
                    "this text (e.g. 'penalty', 'Regressor')")
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
        targets = np.where(y == classes[-1], 1.0, -1.0)  # the regressor's: ±1 as reals
        for cname, params, regressor in CASES:
            if regressor and wname == "NG20":
                continue  # a multiclass workload
            label = cname + "".join(f" {k}={v}" for k, v in params.items() if k != "C")
            if args.only not in label:
                continue
            calls = ((("fit(max_iter=5, tol=None)", lambda m: m.fit(X, targets)),
                      ("partial_fit (1 epoch)", lambda m: m.partial_fit(X, targets)))
                     if regressor else
                     (("fit(max_iter=5, tol=None)", lambda m: m.fit(X, y)),
                      ("partial_fit (1 epoch)",
                       lambda m: m.partial_fit(X, y, classes=classes))))
            for call_name, call in calls:
                kw = dict(params, max_iter=5, tol=None, random_state=0)
                print(f"{wname} {label} {call_name}", file=sys.stderr)
                with threadpool_limits(1):
                    (t_sk, c_sk, m_sk), (t_olc, c_olc, m_olc) = timed_pair(
                        lambda: getattr(theirs, cname)(**kw),
                        lambda: getattr(ours, cname)(**kw), call, args.repeat)
                diff = float(np.max(np.abs(m_olc.coef_ - m_sk.coef_)))
                scale_ = float(np.max(np.abs(m_sk.coef_))) or 1.0
                report["cases"].append({
                    "workload": wname, "estimator": label, "call": call_name,
                    "sklearn_s": round(t_sk, 4), "olc_s": round(t_olc, 4),
                    "sklearn_over_olc": round(t_sk / t_olc, 2),
                    "sklearn_cpu_s": round(c_sk, 4), "olc_cpu_s": round(c_olc, 4),
                    "sklearn_over_olc_cpu": round(c_sk / c_olc, 2),
                    "coef_max_rel_diff": diff / scale_})
    _common.emit_report(report)
    print("\n".join(f"{c['workload']:5} {c['estimator']:52} {c['call']:26} sklearn "
                    f"{c['sklearn_s']:7.3f} s  olc {c['olc_s']:7.3f} s  ratio "
                    f"{c['sklearn_over_olc']:5.2f}  (CPU {c['sklearn_over_olc_cpu']:5.2f})  "
                    f"Δcoef {c['coef_max_rel_diff']:.1e}" for c in report["cases"]),
          file=sys.stderr)


if __name__ == "__main__":
    main()
