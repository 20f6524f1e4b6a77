"""Iterative parameter mixing on a Dask LocalCluster vs training on one machine.

a9a (train 32,561 rows, test 16,281; 123 features + the bias): the Perceptron and PA-I for E
epochs, (1) on one machine by E passes of ``partial_fit`` over the whole training file, (2) by
``olc.distributed.iterative_parameter_mixing`` with S shards on a LocalCluster of 2 worker
processes, uniform and update-weighted mixing. Prints test error and wall seconds (the
cluster's start-up excluded, its first compile included in a warm-up run that is not timed).

Usage: OLC_DATA=... python benchmarks/parameter_mixing.py [--epochs 5] [--shards 2 8]
"""
import argparse
import json
import time

import numpy as np


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--shards", type=int, nargs="+", default=[2, 8])
    args = parser.parse_args()

    import dask.array as da
    import distributed

    import olc
    from olc.data import load
    from olc.distributed import iterative_parameter_mixing

    X, y = load("a9a", split="train")[:2]
    Xt, yt = load("a9a", split="test")[:2]
    Xt = Xt[:, :X.shape[1]]
    rows = []
    for name in ("perceptron", "pa-i"):
        olc.make(name).partial_fit(X[:10], y[:10])  # load the compiled loop: not timed
        start = time.perf_counter()
        single = olc.make(name)
        for _ in range(args.epochs):
            single.partial_fit(X, y)
        rows.append({"learner": name, "how": "one machine", "shards": 1,
                     "test_error": float(np.mean(single.predict(Xt) != yt)),
                     "seconds": time.perf_counter() - start})
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster):
        for shards in args.shards:
            dX = da.from_array(X, chunks=(-(-X.shape[0] // shards), -1), asarray=False)
            dy = da.from_array(y, chunks=dX.chunks[0])
            iterative_parameter_mixing(olc.make("pa-i"), dX, dy, epochs=1)  # warm the workers
            for name in ("perceptron", "pa-i"):
                for weighting in ("uniform", "updates"):
                    start = time.perf_counter()
                    mixed = iterative_parameter_mixing(olc.make(name), dX, dy,
                                                       epochs=args.epochs, weighting=weighting)
                    rows.append({"learner": name, "how": f"mixing ({weighting})",
                                 "shards": shards,
                                 "test_error": float(np.mean(mixed.predict(Xt) != yt)),
                                 "seconds": time.perf_counter() - start})
    for r in rows:
        print(f"{r['learner']:11s} {r['how']:20s} S={r['shards']:<3d} "
              f"test error {100 * r['test_error']:6.2f} %   {r['seconds']:7.2f} s")
    print(json.dumps({"epochs": args.epochs, "rows": rows}))


if __name__ == "__main__":
    main()
