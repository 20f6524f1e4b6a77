"""Wide sparse streams for the CSR pool's tests."""
import numpy as np
import scipy.sparse as sp

WIDE = 2 ** 16


def wide_stream(seed, n=120, d=WIDE, nnz=30):
    """Rows of ``nnz`` features drawn from d, a few shared features so kernels are not 0;
    labels from a nonlinear function of the shared ones."""
    rng = np.random.default_rng(seed)
    rows, cols, vals = [], [], []
    for i in range(n):
        c = np.unique(np.concatenate([rng.integers(0, 8, 4), rng.integers(0, d, nnz)]))
        rows += [i] * c.size
        cols += c.tolist()
        vals += rng.normal(size=c.size).tolist()
    X = sp.csr_matrix((vals, (rows, cols)), shape=(n, d))
    dense_head = X[:, :8].toarray()
    y = np.where(dense_head[:, 0] * dense_head[:, 1] + 0.1 * rng.normal(size=n) > 0, 1.0, -1.0)
    y[:2] = [1.0, -1.0]
    return X, y
