"""One pass of the unbudgeted RBF kernel perceptron (γ = 0.01, no intercept) over a9a's
training file in file order: the learning time (compilation apart: a warm-up call first),
the mistakes and the support vectors. Usage: OLC_DATA=... python benchmarks/kernel_speed.py"""
import time

import numpy as np

import olc
from olc.data import load


def main(rounds=3):
    X, y = load("a9a", split="train")[:2]
    olc.make("kernel-perceptron", kernel="rbf", gamma=0.01).fit(X[:50], y[:50])  # compile
    for _ in range(rounds):
        model = olc.make("kernel-perceptron", kernel="rbf", gamma=0.01)
        start = time.perf_counter()
        record = model.predict_then_learn(X, y)
        seconds = time.perf_counter() - start
        print(f"a9a train ({X.shape[0]} rows, {type(X).__name__}): {seconds:.2f} s, "
              f"{int(np.count_nonzero(record.updated))} mistakes, "
              f"{int(model.n_support_[0])} support vectors")


if __name__ == "__main__":
    main()
