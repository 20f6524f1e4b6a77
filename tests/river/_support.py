"""Streams of dicts and helpers shared by the olc.river tests."""
import numpy as np
import pytest
import scipy.sparse as sp

import olc

pytest.importorskip("river")

import olc.river  # noqa: E402
from olc.river.growth import refusal  # noqa: E402

ENTRIES = {entry.name: entry for entry in olc.algorithms()}
#: The multiclass learners with K prototypes, which olc.river refuses (test_river_refusals).
MULTICLASS = [e.name for e in olc.algorithms() if getattr(e.cls, "_prototypes", False)]
CLASSIFIERS = [e.name for e in olc.algorithms() if e.kind == "classifier"
               and e.name not in MULTICLASS]
REGRESSORS = [e.name for e in olc.algorithms() if e.kind == "regressor"]
#: Learners on a restricted input domain (Winnow {0,1}; WM, RWM {−1,+1}, every expert).
DOMAIN = {e.name: e.cls.input_domain for e in olc.algorithms()
          if getattr(e.cls, "input_domain", None)}
GROWING = [e.name for e in olc.algorithms() if refusal(olc.make(e.name)) is None]
FIXED = [e.name for e in olc.algorithms() if refusal(olc.make(e.name)) is not None
         and e.name not in MULTICLASS]
#: Extra configurations: AROW regression's diagonal layouts (their own growth path: the prior
#: variance pad), and parameters that reach the whole-vector operations — SGD's shrink, its
#: clamp to w = 0 (η_tλ ≥ 1 on the first rounds) and folds; the ball projections and the
#: small-weight removal of Shen & Dietterich's rules; the objective-regularized shrink on
#: every round.
EXTRA = {"arow-regression-diagonal": ("arow-regression", {"covariance": "diagonal"}),
         "arow-regression-diagonal-precision": ("arow-regression",
                                                {"covariance": "diagonal-precision"}),
         "sgd-l2-logistic": ("sgd", {"lam": 1.5, "loss": "logistic"}),
         "l1-constrained-pa-removal": ("l1-constrained-pa",
                                       {"beta": 2.0, "sigma": 0.05, "update": "hinge",
                                        "fit_intercept": True}),
         "l2-constrained-pa-tight": ("l2-constrained-pa",
                                     {"beta": 1.0, "update": "hinge", "sigma": 0.02}),
         "regularized-pa-always": ("regularized-pa",
                                   {"alpha": 0.1, "update": "always", "fit_intercept": True})}


def learner(name):
    base, params = EXTRA.get(name, (name, {}))
    return olc.make(base, **params)


def kind(name):
    return ENTRIES[EXTRA.get(name, (name,))[0]].kind


def wrap(name, features=None):
    est = learner(name)
    if est._estimator_type == "regressor":
        return olc.river.Regressor(est, features=features)
    return olc.river.Classifier(est, features=features)


def dict_stream(name, seed, n=90, pool=40):
    """(list of (x, y), feature names in order of first appearance) for learner ``name``.

    Features emerge over time (each example draws 3–12 of the first ``k`` names of a pool of
    ``pool``, k growing), come in a shuffled key order, and include explicit zeros and
    integer/bool values; labels are bools (classifiers) or reals (regressors). In-domain for
    the experts: Winnow {0, 1}; WM/RWM every expert, ±1."""
    rng = np.random.default_rng(seed)
    names = [f"f{j:02d}" for j in range(pool)]
    w = rng.standard_normal(pool)
    domain = DOMAIN.get(name)
    stream = []
    for i in range(n):
        if domain == "sign":
            keys = list(rng.permutation(names[:12]))
            values = [float(rng.choice([-1.0, 1.0])) for _ in keys]
        else:
            k = min(pool, 6 + i // 2)
            keys = list(rng.choice(names[:k], size=int(rng.integers(3, min(k, 12) + 1)),
                                      replace=False))
            if domain == "binary":
                values = [float(v) for v in rng.integers(0, 2, size=len(keys))]
            else:
                values = list(rng.standard_normal(len(keys)) * (rng.random(len(keys)) < 0.85))
                values[0] = int(rng.integers(-3, 4))  # ints (and zeros) are numbers too
        x = dict(zip((str(k) for k in keys), values))
        score = sum(w[int(k[1:])] * float(v) for k, v in x.items())
        if kind(name) == "regressor":
            y = float(score + 0.1 * rng.standard_normal())
        else:
            y = bool(score + 0.2 * rng.standard_normal() > 0)
        stream.append((x, y))
    stream[0] = (stream[0][0], False) if kind(name) == "classifier" else stream[0]
    order = list(dict.fromkeys(k for x, _ in stream for k in x))
    return stream, order


def csr_of(stream, columns):
    """The stream's dicts as canonical CSR rows: nonzero values, columns in increasing
    order (built independently of olc.river's own conversion)."""
    data, indices, indptr = [], [], [0]
    for x, _ in stream:
        row = sorted((columns[k], float(v)) for k, v in x.items() if float(v) != 0.0)
        indices += [c for c, _ in row]
        data += [v for _, v in row]
        indptr.append(len(data))
    return sp.csr_matrix((np.array(data), np.array(indices, dtype=np.int32),
                          np.array(indptr)), shape=(len(stream), len(columns)))


def learn(model, stream):
    """Progressive validation: the decision value before each learn_one (float64 array)."""
    scores = []
    for x, y in stream:
        scores.append(model.decision_one(x))
        model.learn_one(x, y)
    return np.array(scores)


def assert_same_bits(a, b, what=""):
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape, f"{what}: {a.dtype}{a.shape} vs " \
                                                      f"{b.dtype}{b.shape}"
    if a.tobytes() != b.tobytes():
        k = int(np.flatnonzero(a.ravel() != b.ravel())[0]) if a.size else 0
        raise AssertionError(f"{what}: not bit-identical; first difference at flat index {k}: "
                             f"{a.ravel()[k]!r} != {b.ravel()[k]!r}")


def assert_same_state(l1, l2, what="state"):
    for field in ("_vecs", "_ints", "_scal"):
        assert_same_bits(getattr(l1, field), getattr(l2, field), f"{what}.{field}")
    assert (l1.n_steps_, l1.n_updates_) == (l2.n_steps_, l2.n_updates_), what
