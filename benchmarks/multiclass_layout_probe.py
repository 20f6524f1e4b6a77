"""Probe for the multiclass PA's CSR rows (docs/architecture.md, "Multiclass PA with K
prototypes"): the K scores of a sparse row with the prototypes stored by class (K, d) against
interleaved by feature (d, K), where one cache line holds the K weights of a feature — the
order olc now stores them in once K·d weights outgrow 1 MiB (layouts/multiclass_pa.py). Plain Numba loops, scoring only, 100,000 rows of 50 values, d = 2^18;
prints ns per row for K = 1, 5, 20 (by class, interleaved).

    python benchmarks/multiclass_layout_probe.py
"""
import time

import numba as nb
import numpy as np


@nb.njit
def by_class(W, indptr, indices, data, out):  # W (K, d)
    for i in range(indptr.shape[0] - 1):
        for c in range(W.shape[0]):
            s = 0.0
            for q in range(indptr[i], indptr[i + 1]):
                s += W[c, indices[q]] * data[q]
            out[c] += s


@nb.njit
def interleaved(W, indptr, indices, data, out):  # W (d, K)
    acc = np.zeros(W.shape[1])
    for i in range(indptr.shape[0] - 1):
        acc[:] = 0.0
        for q in range(indptr[i], indptr[i + 1]):
            for c in range(W.shape[1]):
                acc[c] += W[indices[q], c] * data[q]
        out += acc


def best_ns(f, W, indptr, indices, data, out, n):
    f(W, np.array([0, 1]), indices[:1] * 0, data[:1], out)  # compile apart
    best = np.inf
    for _ in range(3):
        t0 = time.perf_counter()
        f(W, indptr, indices, data, out)
        best = min(best, time.perf_counter() - t0)
    return best / n * 1e9


def main():
    rng = np.random.default_rng(0)
    n, nnz, d = 100_000, 50, 2 ** 18
    indices = np.sort(rng.integers(0, d, size=(n, nnz)), axis=1).ravel().astype(np.int64)
    indptr, data = np.arange(0, n * nnz + 1, nnz), rng.standard_normal(n * nnz)
    print(f"{'K':>3} {'by class':>9} {'interleaved':>12}   (ns per row)")
    for k in (1, 5, 20):
        W, out = rng.standard_normal((k, d)), np.zeros(k)
        t_class = best_ns(by_class, W, indptr, indices, data, out, n)
        t_inter = best_ns(interleaved, np.ascontiguousarray(W.T), indptr, indices, data, out, n)
        print(f"{k:>3} {t_class:9.0f} {t_inter:12.0f}")


if __name__ == "__main__":
    main()
