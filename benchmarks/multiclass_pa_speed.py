"""Multiclass PA (K prototypes, Crammer et al. 2006 §7) and one-vs-rest PA speed against the
binary PA step on the same rows, compiled learning time per row, compilation excluded
(issue 11: at most ~K× the binary step per row). Dense 100,000 × 100 and CSR 100,000 × 2^18
with 50 stored values a row; K = 5 and 20. Columns: the binary PA (the first row's class vs
rest); the K binary PAs "class c vs rest" run one after the other (ΣK: the work one-vs-rest
does); the one-vs-rest PA; the multiclass PA; and the ratios of one-vs-rest and of the
multiclass PA to the binary PA (the bound is K) and of one-vs-rest to ΣK.

    PYTHONPATH=src python benchmarks/multiclass_pa_speed.py
"""
import numpy as np
import scipy.sparse as sp

from multiclass_ovr_speed import seconds  # best of 3, compiled apart


def _data(sparse, n=100_000, seed=0):
    rng = np.random.default_rng(seed)
    if not sparse:
        return rng.standard_normal((n, 100))
    d, nnz = 2 ** 18, 50
    cols = np.sort(rng.choice(d, size=(n, nnz)), axis=1)  # duplicates summed by csr_matrix
    X = sp.csr_matrix((rng.standard_normal(n * nnz), cols.ravel(), np.arange(0, n * nnz + 1,
                                                                             nnz)), (n, d))
    X.sum_duplicates()
    return X


def main():
    print(f"{'rows':<6} {'K':>3} {'pa':>6} {'ΣK pa':>7} {'OvR pa':>7} {'mc-pa':>6} "
          f"{'OvR/pa':>7} {'mc-pa/pa':>9} {'OvR/ΣK':>7}   (ns per row)")
    for sparse in (False, True):
        X = _data(sparse)
        n = X.shape[0]
        rng = np.random.default_rng(1)
        for k in (5, 20):
            scores = X @ rng.standard_normal((X.shape[1], k))
            y = np.argmax(scores + 0.5 * rng.standard_normal(scores.shape), axis=1)
            t_bin = seconds("pa", X, np.where(y == y[0], 1, -1))
            t_sum = sum(seconds("pa", X, np.where(y == c, 1, -1)) for c in range(k))
            t_ovr = seconds("pa", X, y)
            t_mc = seconds("multiclass-pa", X, y)
            print(f"{'CSR' if sparse else 'dense':<6} {k:>3} {t_bin / n * 1e9:6.0f} "
                  f"{t_sum / n * 1e9:7.0f} {t_ovr / n * 1e9:7.0f} {t_mc / n * 1e9:6.0f} "
                  f"{t_ovr / t_bin:7.2f} {t_mc / t_bin:9.2f} {t_ovr / t_sum:7.2f}")


if __name__ == "__main__":
    main()
