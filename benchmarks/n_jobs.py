"""``n_jobs``: olc's drop-in PassiveAggressiveClassifier and Perceptron (and olc's own
one-vs-rest learners) with one and two threads, against scikit-learn's with one and two,
side by side in one run on 20 Newsgroups (K = 20 classes, CSR).

Data: the 20news-bydate training split from ``olc.data`` (``$OLC_DATA``), tf-idf by
scikit-learn's ``TfidfVectorizer`` (11,314 × ~130,000, ~130 nonzeros a row); without the
files, ``sklearn_dropin.py``'s 20-Newsgroups-like set (``--synthetic`` forces it).
Calls: the drop-ins' ``fit(max_iter=5, tol=None, random_state=0)`` (five shuffled epochs, K
problems); olc's native ``pa-i`` and ``perceptron`` ``fit`` (one pass, K classes in one
compiled loop). Each variant warms up once (olc's compile or disk cache, imports), then the
variants of one estimator run in turn, ``--repeat`` rounds, best wall time of each (a load
that comes and goes weighs on all alike). Prints one JSON object; the speed-ups n_jobs=1 /
n_jobs=2 and scikit-learn(n_jobs=2) / olc(n_jobs=2); whether olc's coef_ is bit for bit
the same with either number of threads (it must be); and, before and after, a parallelism
control: the speed-up of two threads of a trivial compiled loop, the most any speed-up here
can be on the machine at that moment (≈ 1 when other work holds the cores).

    PYTHONPATH=src python benchmarks/n_jobs.py [--repeat N] [--synthetic]
"""
import argparse
import sys
import time
import warnings

import numpy as np

import _common
import olc
from olc import sklearn as ours
from sklearn import linear_model as theirs

warnings.filterwarnings("ignore", category=FutureWarning)  # scikit-learn ≥ 1.8's PA notice


def newsgroups(synthetic):
    if not synthetic:
        try:
            from sklearn.feature_extraction.text import TfidfVectorizer

            from olc.data import load

            docs = load("20newsgroups", "train")
            X = TfidfVectorizer().fit_transform(docs.data)
            return "20news-bydate train, tf-idf", X.tocsr(), np.asarray(docs.target)
        except Exception as exc:  # noqa: BLE001 - any reason: fall back, and say why
            print(f"20 Newsgroups unavailable ({exc}); the synthetic set instead",
                  file=sys.stderr)
    from sklearn_dropin import newsgroups_like

    X, y = newsgroups_like(11_000, 130_000, 20, _common.SEED + 3)
    return "20-Newsgroups-like (sklearn_dropin.py)", X, y


def timed(variants, repeat):
    """{label: (best wall s, its CPU s, last model)}, the variants called in turn."""
    best = {label: (np.inf, 0.0, None) for label in variants}
    for label, call in variants.items():
        call()  # warm-up
    for _ in range(repeat):
        for label, call in variants.items():
            w0, c0 = time.perf_counter(), time.process_time()
            model = call()
            wall, cpu = time.perf_counter() - w0, time.process_time() - c0
            if wall < best[label][0]:
                best[label] = (wall, cpu, model)
            else:
                best[label] = best[label][:2] + (model,)
    return best


def parallelism_control(seconds=0.5):
    """Two runs of a trivial compiled loop that releases the GIL, one after the other
    against on two threads (best of 3): about 2 on a machine with two free cores, about 1
    when other work takes them — what the speed-ups below can be at most."""
    import threading

    import numba

    @numba.njit(nogil=True)
    def spin(n):
        s = 0.0
        for i in range(n):
            s += (i % 7) * 0.5
        return s

    spin(10)
    t0 = time.perf_counter()
    spin(10_000_000)
    n = int(10_000_000 * seconds / max(time.perf_counter() - t0, 1e-6))
    seq, par = [], []
    for _ in range(3):
        t0 = time.perf_counter()
        spin(n)
        spin(n)
        seq.append(time.perf_counter() - t0)
        threads = [threading.Thread(target=spin, args=(n,)) for _ in range(2)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        par.append(time.perf_counter() - t0)
    return round(min(seq) / min(par), 2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--synthetic", action="store_true")
    args = ap.parse_args()
    name, X, y = newsgroups(args.synthetic)
    report = {"machine": _common.machine_info(), "versions": _common.versions(),
              "data": {"name": name, "shape": list(X.shape), "nnz": int(X.nnz),
                       "classes": int(np.unique(y).size)}, "cases": [],
              "parallelism_control_before": parallelism_control()}
    kw = dict(max_iter=5, tol=None, random_state=0)
    estimators = {
        "drop-in PassiveAggressiveClassifier": (
            lambda n: ours.PassiveAggressiveClassifier(n_jobs=n, **kw).fit(X, y),
            lambda n: theirs.PassiveAggressiveClassifier(n_jobs=n, **kw).fit(X, y)),
        "drop-in Perceptron": (lambda n: ours.Perceptron(n_jobs=n, **kw).fit(X, y),
                               lambda n: theirs.Perceptron(n_jobs=n, **kw).fit(X, y)),
        "native pa-i (one pass)": (lambda n: olc.make("pa-i", n_jobs=n).fit(X, y), None),
        "native perceptron (one pass)": (lambda n: olc.make("perceptron", n_jobs=n).fit(X, y),
                                         None),
    }
    for label, (olc_fit, sk_fit) in estimators.items():
        print(label, file=sys.stderr)
        variants = {"olc n_jobs=1": lambda: olc_fit(1), "olc n_jobs=2": lambda: olc_fit(2)}
        if sk_fit is not None:
            variants.update({"sklearn n_jobs=1": lambda: sk_fit(1),
                             "sklearn n_jobs=2": lambda: sk_fit(2)})
        best = timed(variants, args.repeat)
        case = {"estimator": label,
                "seconds": {k: round(v[0], 4) for k, v in best.items()},
                "cpu_seconds": {k: round(v[1], 4) for k, v in best.items()},
                "olc_speedup_2_jobs": round(best["olc n_jobs=1"][0] / best["olc n_jobs=2"][0], 2),
                "olc_same_coef_1_and_2_jobs": bool(np.array_equal(
                    best["olc n_jobs=1"][2].coef_, best["olc n_jobs=2"][2].coef_))}
        if sk_fit is not None:
            case["sklearn_speedup_2_jobs"] = round(
                best["sklearn n_jobs=1"][0] / best["sklearn n_jobs=2"][0], 2)
            case["sklearn2_over_olc2"] = round(
                best["sklearn n_jobs=2"][0] / best["olc n_jobs=2"][0], 2)
        report["cases"].append(case)
    report["parallelism_control_after"] = parallelism_control()
    _common.emit_report(report)
    print(f"parallelism control (2 threads of a trivial nogil loop / 1): before "
          f"×{report['parallelism_control_before']}, after "
          f"×{report['parallelism_control_after']}", file=sys.stderr)
    for c in report["cases"]:
        print(f"{c['estimator']:38} " + "  ".join(f"{k} {v:.3f}s" for k, v in c["seconds"].items())
              + f"  olc 1→2 ×{c['olc_speedup_2_jobs']}"
              + (f"  sklearn 1→2 ×{c['sklearn_speedup_2_jobs']}  sklearn2/olc2 "
                 f"×{c['sklearn2_over_olc2']}" if "sklearn2_over_olc2" in c else "")
              + f"  same coef {c['olc_same_coef_1_and_2_jobs']}", file=sys.stderr)


if __name__ == "__main__":
    main()
