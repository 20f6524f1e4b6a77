"""The data processes of the textbook chapter's MATLAB codes (ch. 31, Figs. 31.3, 31.5,
31.7 and 31.9), drawn from ``numpy.random.default_rng(seed)``.

[Decision] MATLAB's ``randn``/``randperm`` streams cannot be reproduced in NumPy, so the
points are not the book's own; the *processes* are the chapter's, line by line, and the draws
are made in the order the MATLAB code makes them (documented per function), so one seed
gives one figure. Every function returns plain arrays; the learners, the Gaussian basis
(:class:`olc.features.GaussianBasis`) and the figures are elsewhere.
"""
from __future__ import annotations

import numpy as np

#: Fig. 31.3 and 31.7 augment x with a constant 1 (the intercept as a weight, §31.2.1).
BIAS_COLUMN = 1.0


def _with_bias(x):
    return np.column_stack([x, np.full(x.shape[0], BIAS_COLUMN)])


def pa_classification(seed, n=200):
    """Fig. 31.3: ``x = [randn(1,n/2)-5 randn(1,n/2)+5; 5*randn(1,n)]'``, y = +1 for the
    first n/2 (x¹ around −5) and −1 for the rest (x¹ around +5), ``x(:,3) = 1``, then a
    random permutation. Draws: x¹ (first half, then second), x², the permutation.
    Returns (X with the bias column, y)."""
    rng = np.random.default_rng(seed)
    half = n // 2
    x1 = np.concatenate([rng.standard_normal(half) - 5.0, rng.standard_normal(n - half) + 5.0])
    x2 = 5.0 * rng.standard_normal(n)
    y = np.concatenate([np.ones(half), -np.ones(n - half)])
    X = _with_bias(np.column_stack([x1, x2]))
    p = rng.permutation(n)
    return X[p], y[p]


def arow_outliers(seed, n=50, n_outliers=2):
    """Fig. 31.7: ``x = [randn(1,n/2)-15 randn(1,n/2)-5; randn(1,n)]'``, y = +1 for the
    first n/2 (x¹ around −15) and −1 for the rest (x¹ around −5); ``x(1:2,1) += 10`` moves
    the first two positives into the negative cluster (the two outliers); ``x(:,3) = 1``;
    a random permutation. Draws: x¹, x², the permutation. Returns (X, y, outlier mask)."""
    rng = np.random.default_rng(seed)
    half = n // 2
    x1 = np.concatenate([rng.standard_normal(half) - 15.0,
                         rng.standard_normal(n - half) - 5.0])
    x2 = rng.standard_normal(n)
    y = np.concatenate([np.ones(half), -np.ones(n - half)])
    outlier = np.zeros(n, dtype=bool)
    outlier[:n_outliers] = True
    x1[outlier] += 10.0
    X = _with_bias(np.column_stack([x1, x2]))
    p = rng.permutation(n)
    return X[p], y[p], outlier[p]


def arow_clean_sample(seed, n_per_class=5000):
    """Fresh points of Fig. 31.7's process without the outlier shift (x¹ ~ N(−15, 1) for
    +1, N(−5, 1) for −1, x² ~ N(0, 1), the bias column): where a classifier's error and
    the outliers' influence on it are measured."""
    rng = np.random.default_rng(seed)
    x1 = np.concatenate([rng.standard_normal(n_per_class) - 15.0,
                         rng.standard_normal(n_per_class) - 5.0])
    x2 = rng.standard_normal(2 * n_per_class)
    y = np.concatenate([np.ones(n_per_class), -np.ones(n_per_class)])
    return _with_bias(np.column_stack([x1, x2])), y


def sinc_target(x):
    """The noiseless function of Figs. 31.5/31.9: sin(πx)/(πx) + 0.1x (``np.sinc``)."""
    x = np.asarray(x, dtype=np.float64)
    return np.sinc(x) + 0.1 * x


def sinc_data(seed, n=50, permute=True):
    """Figs. 31.5 (``permute=True``) and 31.9 (``permute=False``):
    ``x = linspace(-3,3,n)'`` (``x = x(randperm(n))`` in Fig. 31.5),
    ``y = sin(pi x)./(pi x) + 0.1 x + 0.05 randn(n,1)``, and the random starting point
    ``randn(n,1)`` of the parameters (``t`` in Fig. 31.5, ``m`` in Fig. 31.9). Draws: the
    permutation (Fig. 31.5 only), the noise, the starting point. Returns (x, y, θ₀)."""
    rng = np.random.default_rng(seed)
    x = np.linspace(-3.0, 3.0, n)
    if permute:
        x = x[rng.permutation(n)]
    y = sinc_target(x) + 0.05 * rng.standard_normal(n)
    theta0 = rng.standard_normal(n)
    return x, y, theta0


#: Where the chapter's code evaluates the fitted function: ``X = linspace(-3,3,N)'``, N = 1000.
GRID_POINTS = 1000


def sinc_grid(n=GRID_POINTS):
    return np.linspace(-3.0, 3.0, n)
