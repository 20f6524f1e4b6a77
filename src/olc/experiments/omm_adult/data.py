"""The OMM paper's Adult data set (Ho-Nguyen et al. 2025, Appendix B.1), rebuilt from the raw
UCI files.

Recipe (B.1): the train and test files together; rows with a missing value removed;
categorical attributes as k − 1 dummy variables (the first level in sorted order is the
reference), which gives d = 96 (6 continuous + 90 dummies); every feature standardized
(mean 0, population standard deviation 1); then a linear support vector classifier is fitted
and every point misclassified by it or within (geometric) distance 0.01 of its decision
boundary is removed, which makes the set linearly separable.

The paper does not say which linear SVC. Measured here (45,222 rows after removing missing
values, 24.78 % positive):

| linear SVC (scikit-learn LinearSVC, C = 1)            | kept   | positive |
|-------------------------------------------------------|--------|----------|
| squared hinge (the default)                           | 38,297 | 17.40 %  |
| squared hinge, class_weight="balanced"                | 36,217 | 26.31 %  |
| hinge, class_weight="balanced" (used here, 2,000 ep.) | 35,446 | 27.06 %  |
| the paper                                             | 35,508 | 27.11 %  |

The class-balanced hinge-loss SVC reproduces the paper's size and class balance to within
0.2 % and 0.04 points, so it is the one used; the exact point set still depends on the
solver's stopping point (liblinear's dual coordinate descent does not reach tol = 1e-4 within
2,000 epochs on these non-separable data; 2,000 vs 10,000 epochs change the kept set by 8
points). The built set is cached (see ``build``).
"""
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..._util.atomic import atomic_open
from ..._util.cache import discard, read_npz

SVC_SETTINGS = {"C": 1.0, "loss": "hinge", "dual": True, "class_weight": "balanced",
                "max_iter": 2000, "tol": 1e-4, "random_state": 0}
MIN_DISTANCE = 0.01
CACHE_VERSION = 1


@dataclass
class AdultOMM:
    X: np.ndarray          # (n, 96) standardized features of the kept points
    y: np.ndarray          # labels ±1 (+1: >50K)
    feature_names: list
    rows_without_missing: int
    svc_coef: np.ndarray
    svc_intercept: float


def encode(columns, labels):
    """Remove rows with a missing value, dummy-encode (k − 1 per categorical attribute),
    standardize. Returns (X, y, names)."""
    n = labels.shape[0]
    missing = np.zeros(n, dtype=bool)
    for values in columns.values():
        if values.dtype.kind == "f":
            missing |= np.isnan(values)
        else:
            missing |= np.array([v is None or v == "?" for v in values])
    keep = ~missing
    blocks, names = [], []
    for name, values in columns.items():
        values = values[keep]
        if values.dtype.kind == "f":
            blocks.append(values.astype(np.float64)[:, None])
            names.append(name)
        else:
            levels = np.unique(values.astype(str))
            for level in levels[1:]:
                blocks.append((values == level).astype(np.float64)[:, None])
                names.append(f"{name}={level}")
    X = np.hstack(blocks)
    std = X.std(axis=0)
    if np.any(std == 0):
        raise ValueError("a feature is constant after removing missing values: "
                         + ", ".join(np.asarray(names)[std == 0]))
    X = (X - X.mean(axis=0)) / std
    return X, np.asarray(labels, dtype=np.float64)[keep], names


def separable_subset(X, y, svc_settings=None, min_distance=MIN_DISTANCE):
    """Fit the linear SVC and keep the points it classifies correctly at geometric distance
    ≥ ``min_distance`` from its boundary. Returns (mask, coef, intercept)."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.svm import LinearSVC

    settings = dict(SVC_SETTINGS, **(svc_settings or {}))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        svc = LinearSVC(**settings).fit(X, y)
    coef = svc.coef_.ravel()
    distance = y * (X @ coef + svc.intercept_[0]) / np.linalg.norm(coef)
    return distance >= min_distance, coef, float(svc.intercept_[0])


def build(cache_dir=None, records=None):
    """The B.1 data set, from the data registry's raw Adult files (train + test).

    Cached as ``adult-omm-v{CACHE_VERSION}.npz`` in ``cache_dir`` (default: olc's user cache),
    keyed by the SVC settings; ``records`` (an ``olc.data.AdultRecords``) may be given to
    build from other raw data (tests use a slice).
    """
    from ...data import adult_records

    key = json.dumps(SVC_SETTINGS, sort_keys=True)
    path = None
    if cache_dir is not None and records is None:
        path = Path(cache_dir) / f"adult-omm-v{CACHE_VERSION}.npz"
        cached = _read_cache(path, key)
        if cached is not None:
            return cached
    if records is None:
        records = adult_records("all")
    X, y, names = encode(records.columns, records.y)
    keep, coef, intercept = separable_subset(X, y)
    data = AdultOMM(X[keep], y[keep], names, int(X.shape[0]), coef, intercept)
    if path is not None:
        try:  # atomic: a kill while writing leaves no truncated entry
            with atomic_open(path, "wb") as fh:
                np.savez(fh, X=data.X, y=data.y, names=np.array(names), key=np.array(key),
                         rows_without_missing=data.rows_without_missing, svc_coef=coef,
                         svc_intercept=intercept)
        except OSError:
            pass  # a read-only cache only costs the rebuild
    return data


_CACHE_FIELDS = ("X", "y", "names", "key", "rows_without_missing", "svc_coef", "svc_intercept")


def _read_cache(path, key):
    """The cached data set, or None (missing; damaged or stale: discarded with a warning)."""
    f = read_npz(path, _CACHE_FIELDS)
    if f is None:
        return None
    X, y, names, coef = f["X"], f["y"], f["names"], f["svc_coef"]
    checks = [(f["key"].ndim == 0 and str(f["key"]) == key, "built with other SVC settings"),
              (X.dtype == np.float64 and X.ndim == 2, f"X is {X.dtype} of shape {X.shape}"),
              (y.shape == X.shape[:1] and np.isin(y, (-1.0, 1.0)).all(), "y does not match X"),
              (names.shape == X.shape[1:] and coef.shape == X.shape[1:],
               "names or coefficients do not match X's columns"),
              (np.isfinite(X).all() and np.isfinite(coef).all(), "non-finite values")]
    for ok, why in checks:
        if not ok:
            discard(path, why)
            return None
    try:
        return AdultOMM(X, y, [str(s) for s in names], int(f["rows_without_missing"]), coef,
                        float(f["svc_intercept"]))
    except (TypeError, ValueError) as exc:
        discard(path, str(exc))
        return None
