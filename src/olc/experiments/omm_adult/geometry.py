"""The OMM paper's Adult problem (Ho-Nguyen et al. 2025, App. B.1 and Lemma 3.1): the
data set, its exact geometry before and after margin normalization, cached per data set in
:func:`olc.data.derived_home` (a digest of the points keys the entry)."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..._util.atomic import atomic_open
from ..._util.cache import discard, read_npz
from .translations import (Geometry, geometry_of, normalize_margin,
                                      normalized_geometry)

GEOMETRY_VERSION = 1


@dataclass
class Problem:
    """The margin-normalized data set (every variant is ``X + shift``) and its geometry
    before (``original``) and after (``normalized``) margin normalization."""

    X: np.ndarray
    y: np.ndarray
    original: Geometry
    normalized: Geometry
    source: dict = field(default_factory=dict)

    @property
    def fingerprint(self):
        h = hashlib.sha256()
        h.update(np.ascontiguousarray(self.X).tobytes())
        h.update(np.ascontiguousarray(self.y).tobytes())
        return h.hexdigest()[:24]


def prepare(X, y, source=None, geometry=None):
    """A :class:`Problem` from a separable (X, y) with labels ±1 (``geometry``: a cached
    :func:`geometry_of` of the same data)."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    geometry = geometry_of(X, y) if geometry is None else geometry
    Xn = normalize_margin(X, y, geometry)
    return Problem(Xn, y, geometry, normalized_geometry(geometry, Xn),
                   dict(source or {}, n=int(X.shape[0]), d=int(X.shape[1]),
                        positive_fraction=float(np.mean(y > 0))))


def _data_digest(X, y):
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(X).tobytes())
    h.update(np.ascontiguousarray(y).tobytes())
    return h.hexdigest()


_GEOMETRY_FIELDS = ("digest", "version", "coef", "intercept", "gamma", "v_pos", "v_neg",
                    "weights", "D_pos", "D_neg", "D_bar", "max_violation")


def _load_geometry(path, digest, d):
    """The cached geometry of the points with this digest (``d`` features), or None: missing,
    of other points (silently), or damaged (discarded with a warning)."""
    f = read_npz(path, _GEOMETRY_FIELDS)
    if f is None:
        return None
    try:
        if str(f["digest"]) != digest:
            return None  # another subset of the same size: recompute (and overwrite)
        if int(f["version"]) != GEOMETRY_VERSION:
            raise ValueError(f"version {int(f['version'])}, expected {GEOMETRY_VERSION}")
        g = Geometry(coef=f["coef"], intercept=float(f["intercept"]),
                     gamma=float(f["gamma"]), v_pos=f["v_pos"], v_neg=f["v_neg"],
                     weights=f["weights"], D_pos=float(f["D_pos"]),
                     D_neg=float(f["D_neg"]), D_bar=float(f["D_bar"]),
                     max_violation=float(f["max_violation"]))
        for name in ("coef", "v_pos", "v_neg"):
            if getattr(g, name).shape != (d,) or not np.isfinite(getattr(g, name)).all():
                raise ValueError(f"{name} has shape {getattr(g, name).shape}, expected ({d},)")
        return g
    except (TypeError, ValueError) as exc:
        discard(path, str(exc))
        return None


def _save_geometry(path, digest, g):
    try:  # atomic (temporary file, fsync, rename): concurrent builders cannot corrupt it
        with atomic_open(path, "wb") as fh:
            np.savez(fh, digest=np.array(digest), version=GEOMETRY_VERSION, coef=g.coef,
                     intercept=g.intercept, gamma=g.gamma, v_pos=g.v_pos, v_neg=g.v_neg,
                     weights=g.weights, D_pos=g.D_pos, D_neg=g.D_neg, D_bar=g.D_bar,
                     max_violation=g.max_violation)
    except OSError:
        pass  # a read-only cache only costs the recomputation


def load_adult(limit=None, cache_dir=None, records=None):
    """The Adult :class:`Problem` (App. B.1 data, its first ``limit`` rows if given).

    The built data set and its geometry are cached in ``cache_dir`` (default
    :func:`olc.data.derived_home`): ``adult-omm-v1.npz`` (by ``data.build``) and
    ``adult-omm-geometry-<rows>.npz``, keyed by a digest of the points (a stale file is
    recomputed). ``records``: raw Adult records to build from instead of the registry's
    files (not cached; tests use a slice)."""
    from ...data import derived_home
    from .data import build

    cache = Path(cache_dir) if cache_dir is not None else derived_home()
    data = build(cache, records=records)
    X, y = data.X, data.y
    if limit is not None:
        X, y = X[:int(limit)], y[:int(limit)]
    digest = _data_digest(X, y)
    path = cache / f"adult-omm-geometry-{X.shape[0]}.npz"
    geometry = _load_geometry(path, digest, X.shape[1])
    if geometry is None:
        geometry = geometry_of(X, y)
        _save_geometry(path, digest, geometry)
    return prepare(X, y, source={"name": "adult (Ho-Nguyen et al. 2025, App. B.1)", "limit": limit,
                                 "rows_without_missing": data.rows_without_missing},
                   geometry=geometry)

