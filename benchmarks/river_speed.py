"""Per-example speed of olc's River interface (``olc.river``) against River's own linear
classifiers, on the same stream of dicts.

The protocol is River's progressive validation: for each example, ``predict_one(x)`` then
``learn_one(x, y)`` (as ``river.evaluate.progressive_val_score`` does). Streams are built
once, outside the timing, from a fixed seed:

- ``dense-d``: 20,000 examples with the same d named features in the same order (d = 20, 50,
  100), Gaussian values, labels from a random hyperplane plus noise — a tabular stream;
- ``sparse``: 20,000 examples of 20–60 features drawn from a vocabulary of 2,000 names, in a
  random order, values 1.0 — a bag-of-words stream, where features keep appearing (the state
  grows) and no two examples share their keys (olc's row cache switches itself off).

Implementations: olc's ``pa-i`` (C = 1), ``perceptron`` and ``alma2`` through
``olc.river.make``; River's ``PAClassifier(C=1, mode=1)``, ``Perceptron()`` and
``ALMAClassifier()``. The olc models are warmed up (compiled, loaded from the disk cache) on a
separate short stream first. Every implementation runs ``--repeat`` times per stream,
interleaved in a seeded random order each round; the best time counts. Prints one JSON object:
examples per second of CPU time of this process (the ratios use it: on a shared machine, wall
time also counts the other processes' turns) and of wall time, and each olc learner's speed
over River's PAClassifier's and over River's implementation of the same algorithm.

    python benchmarks/river_speed.py [--n 20000] [--repeat 5] [--quick]
"""
import argparse
import json
import random
import sys
import time

import numpy as np

from _common import machine_info

SEED = 20240601


def dense_stream(n, d, rng):
    names = [f"x{j}" for j in range(d)]
    w = rng.normal(size=d)
    X = rng.normal(size=(n, d))
    y = X @ w + 0.1 * rng.normal(size=n) * np.sqrt(d) > 0
    return [(dict(zip(names, row.tolist())), bool(label)) for row, label in zip(X, y)]


def sparse_stream(n, vocabulary, rng):
    w = rng.normal(size=vocabulary)
    stream = []
    for _ in range(n):
        cols = rng.choice(vocabulary, size=int(rng.integers(20, 61)), replace=False)
        score = w[cols].sum() + 0.3 * rng.normal()
        stream.append(({f"w{c}": 1.0 for c in cols}, bool(score > 0)))
    return stream


def implementations():
    import olc.river
    from river import linear_model

    return {
        "olc.pa-i": lambda: olc.river.make("pa-i", C=1.0),
        "olc.perceptron": lambda: olc.river.make("perceptron"),
        "olc.alma2": lambda: olc.river.make("alma2"),
        "river.PAClassifier": lambda: linear_model.PAClassifier(C=1.0, mode=1),
        "river.Perceptron": lambda: linear_model.Perceptron(),
        "river.ALMAClassifier": lambda: linear_model.ALMAClassifier(),
    }


def run(model, stream):
    """(wall seconds, CPU seconds of this process, online mistakes)."""
    predict_one, learn_one = model.predict_one, model.learn_one
    mistakes = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for x, y in stream:
        mistakes += predict_one(x) != y
        learn_one(x, y)
    return time.perf_counter() - wall, time.process_time() - cpu, mistakes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="2,000 examples, 2 repeats")
    args = parser.parse_args()
    n, repeat = (2000, 2) if args.quick else (args.n, args.repeat)
    rng = np.random.default_rng(SEED)
    streams = {f"dense-{d}": dense_stream(n, d, rng) for d in (20, 50, 100)}
    streams["sparse"] = sparse_stream(n, 2000, rng)
    impls = implementations()
    for name, factory in impls.items():  # compile / load from the disk cache, untimed
        if name.startswith("olc."):
            for stream in streams.values():
                run(factory(), stream[:200])
    order_rng = random.Random(SEED)
    results = {}
    for stream_name, stream in streams.items():
        print(f"{stream_name} ...", file=sys.stderr, flush=True)
        best = {name: float("inf") for name in impls}
        best_cpu = dict(best)
        mistakes = {}
        for _ in range(repeat):
            names = list(impls)
            order_rng.shuffle(names)
            for name in names:
                seconds, cpu, mistakes[name] = run(impls[name](), stream)
                best[name] = min(best[name], seconds)
                best_cpu[name] = min(best_cpu[name], cpu)
        wall = {name: round(len(stream) / best[name]) for name in impls}
        speed = {name: round(len(stream) / best_cpu[name]) for name in impls}
        pa = speed["river.PAClassifier"]
        results[stream_name] = {
            "examples": len(stream),
            "features_per_example": round(float(np.mean([len(x) for x, _ in stream])), 1),
            "examples_per_cpu_s": speed,
            "examples_per_wall_s": wall,
            "over_river_PAClassifier": {name: round(s / pa, 2) for name, s in speed.items()
                                        if name.startswith("olc.")},
            "olc_pa-i_over_river_PAClassifier_by_same_rule": round(speed["olc.pa-i"] / pa, 2),
            "olc_perceptron_over_river_Perceptron": round(
                speed["olc.perceptron"] / speed["river.Perceptron"], 2),
            "olc_alma2_over_river_ALMAClassifier": round(
                speed["olc.alma2"] / speed["river.ALMAClassifier"], 2),
            "online_mistakes": mistakes,
        }
    print(json.dumps({"machine": machine_info(), "repeat": repeat, "results": results},
                     indent=2))


if __name__ == "__main__":
    main()
