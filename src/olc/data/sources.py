"""Turn a command-line data argument into (X, y): a named dataset, a file, or a synthetic
stream. Used by the CLI; no learner or metric here."""
from pathlib import Path

import numpy as np

from .._util.sparse import issparse

SYNTHETIC_DEFAULTS = {"n": 20000, "d": 20, "margin": 0.1, "offset": 5.0, "seed": 0}


def _parse_options(text, defaults, what):
    options = dict(defaults)
    if not text:
        return options
    for item in text.split(","):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or key not in defaults:
            raise ValueError(f"{what}: unknown option {item!r}; options are "
                             f"{', '.join(f'{k}={v}' for k, v in defaults.items())}")
        kind = type(defaults[key])
        try:
            options[key] = kind(float(value)) if kind is int else kind(value)
        except ValueError:
            raise ValueError(f"{what}: {key} must be a {kind.__name__}, got {value!r}") from None
    return options


def synthetic_stream(n=20000, d=20, margin=0.1, offset=5.0, seed=0):
    """The built-in stream: linearly separable with the given margin around a hyperplane with
    a bias, translated by a vector of norm ``offset`` × the data radius (a setting where
    translation-dependent learners pay and translation-invariant ones do not)."""
    from .synthetic import separable

    for name, value, ok, need in (("n", n, n >= 1, "≥ 1"), ("d", d, d >= 1, "≥ 1"),
                                  ("margin", margin, 0 <= margin < 1, "in [0, 1)"),
                                  ("offset", offset, np.isfinite(offset), "finite")):
        if not ok:
            raise ValueError(f"synthetic: {name} must be {need}, got {value!r}")
    rng = np.random.default_rng(seed)
    direction = rng.normal(size=d)
    direction /= np.linalg.norm(direction)
    X, y = separable(n, d, margin=margin, seed=seed)[:2]
    radius = float(np.max(np.linalg.norm(X, axis=1)))
    return X + offset * radius * direction, y


def load_source(text, *, format=None, bits=None, cache=True, progress=None,
                write_behind=False, n_features=None):
    """Returns (X, y, display name) for ``synthetic[:k=v,...]``, ``NAME[:SPLIT]`` of the data
    registry, or a path to a data file (svmlight/libsvm or Vowpal Wabbit text, plain or
    compressed: :func:`olc.data.files.read_file`, with its parse cache unless ``cache`` is
    False; ``format``/``bits``/``write_behind``/``n_features`` as there; ``progress`` is
    called with the rows of each window read)."""
    from . import datasets, load
    from .files import read_file

    if n_features is not None and not Path(text).is_file():
        raise ValueError("--n-features applies to an svmlight --data file; a named data set "
                         "or the synthetic stream has its own width")

    if text == "synthetic" or text.startswith("synthetic:"):
        options = _parse_options(text.partition(":")[2], SYNTHETIC_DEFAULTS, "synthetic")
        X, y = synthetic_stream(**options)
        label = "synthetic(" + ", ".join(f"{k}={v}" for k, v in options.items()) + ")"
        return X, y, label
    name, _, split = text.partition(":")
    if name in datasets():
        loaded = load(name, split=split or None)
        if not (isinstance(loaded, tuple) and len(loaded) >= 2 and
                (issparse(loaded[0]) or isinstance(loaded[0], np.ndarray))):
            raise ValueError(f"dataset {name!r} is not a feature matrix (it needs "
                             "preprocessing before a learner can run on it)")
        X, y = loaded[0], np.asarray(loaded[1])
        if np.unique(y).size < 2:
            raise ValueError(f"dataset {name!r} has a single class; a classifier needs two "
                             "or more (K ≥ 3: one-vs-rest, or a multiclass-pa learner)")
        return X, y, f"{name}:{split}" if split else name
    path = Path(text)
    if path.exists():
        X, y = read_file(path, format=format, bits=bits, cache=cache, progress=progress,
                         write_behind=write_behind, n_features=n_features)
        return X, y, path.name
    raise FileNotFoundError(f"--data {text!r} is neither a dataset name ({', '.join(datasets())}), "
                            "an existing file, nor synthetic[:k=v,...]")


def describe_source(name, X, y):
    y = np.asarray(y)
    labels, counts = np.unique(y, return_counts=True)
    return {"name": name, "rows": int(X.shape[0]), "features": int(X.shape[1]),
            "sparse": bool(issparse(X)),
            "labels": {str(k): int(v) for k, v in zip(labels, counts)}}
