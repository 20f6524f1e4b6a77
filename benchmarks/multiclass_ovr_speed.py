"""One-vs-rest speed: K = 5 classes against the binary learner on the same dense rows
(100,000 × 100), compiled learning time per row, compilation excluded (issue 11: K classes
must cost at most K× the binary step per row). Columns: the binary learner of class 0 vs
rest; the five binary learners "class c vs rest" run one after the other (the same work as
one-vs-rest: K steps per row, each class's own update rate); one-vs-rest in one pass; the
ratios of one-vs-rest to the binary learner and to the sum of the five.

    PYTHONPATH=src python benchmarks/multiclass_ovr_speed.py [NAMES...]
"""
import sys
import time

import numpy as np

import olc


def seconds(name, X, y, repeats=3):
    # compile (or load the disk cache) apart; classes= as a class may be absent from 50 rows
    olc.make(name).partial_fit(X[:50], y[:50], classes=np.unique(y))
    best = np.inf
    for _ in range(repeats):
        learner = olc.make(name)
        stream = learner.prepare_stream(X, y)
        t0 = time.perf_counter()
        learner.learn_prepared(stream)
        best = min(best, time.perf_counter() - t0)
    return best


def main(names):
    rng = np.random.default_rng(0)
    n, d, k = 100_000, 100, 5
    X = rng.standard_normal((n, d))
    y_k = np.argmax(X @ rng.standard_normal((d, k)), axis=1)
    y_2 = np.where(y_k == 0, 1, -1)  # class 0 vs rest
    print(f"{'learner':<14} {'binary':>7} {'5 binary':>9} {'OvR K=5':>8} {'OvR/binary':>11} "
          f"{'OvR/5 binary':>13}   (ns per row)")
    for name in names:
        t2, tk = seconds(name, X, y_2), seconds(name, X, y_k)
        t_sum = sum(seconds(name, X, np.where(y_k == c, 1, -1)) for c in range(k))
        print(f"{name:<14} {t2 / n * 1e9:7.0f} {t_sum / n * 1e9:9.0f} {tk / n * 1e9:8.0f} "
              f"{tk / t2:11.2f} {tk / t_sum:13.2f}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["perceptron", "pa-i", "sgd", "arow-diagonal", "e-omm"])
