"""Small K-class streams in each learner's input domain, and the reference: K binary learners
("class c vs rest") trained separately with olc's binary partial_fit."""
import numpy as np
import scipy.sparse as sp

import olc
from olc.learners.registry.catalogue import CATALOGUE, CLASSIFIER
from olc.learners._framework.multiclass import class_seed

#: every catalogue classifier that runs one-vs-rest (n-OMM refuses: its store grows; the
#: multiclass PA learners are multiclass rules of their own, K prototypes: test_multiclass_pa*;
#: the kernel learners have no linear model to compare, and each of their K pools is compared
#: with the binary NumPy reference in tests/learners/kernel/test_*_exact.py)
OVR_NAMES = [e.name for e in CATALOGUE if e.kind == CLASSIFIER and e.name != "n-omm"
             and not getattr(e.cls, "_prototypes", False) and e.family != "kernel"]


def stream(learner, n=60, d=5, k=3, seed=0):
    """(X, y): rows in the learner's input domain, labels 0..k−1 (argmax of random linear
    scores, so the classes are learnable), every class present."""
    rng = np.random.default_rng(seed)
    domain = getattr(learner, "input_domain", None)
    if domain == "binary":
        X = (rng.random((n, d)) < 0.5).astype(np.float64)
    elif domain == "sign":
        X = np.where(rng.random((n, d)) < 0.5, -1.0, 1.0)
    else:
        X = rng.standard_normal((n, d))
    y = np.argmax(X @ rng.standard_normal((d, k)) + 0.1 * rng.standard_normal((n, k)), axis=1)
    y[:k] = np.arange(k)
    return X, y


def binary_reference(name, X, y, classes, **params):
    """K binary learners, learner c trained on +1 for classes[c] and −1 otherwise, with the
    one-vs-rest seed of class c; returns (learners, per-row scores (n, K), updated (n, K))."""
    learners, scores, updated = [], [], []
    for c, label in enumerate(classes):
        learner = olc.make(name, **params)
        if "seed" in learner.get_params():
            learner.set_params(seed=class_seed(learner.seed, c))
        y_c = np.where(y == label, 1, -1)
        record = learner.predict_then_learn(X, y_c, classes=[-1, 1])
        learners.append(learner)
        scores.append(record.score)
        updated.append(record.updated)
    return learners, np.column_stack(scores), np.column_stack(updated)


def as_csr(X):
    return sp.csr_matrix(X)


STORED_ORDERS = ["by class", "by feature"]


def force_stored_order(request, monkeypatch):
    """A test in one of the two memory orders of the multiclass PA's prototypes
    (``layouts/multiclass_pa``), for an autouse fixture parametrized by ``STORED_ORDERS``: the
    stored order follows K·d, so small test streams are forced by feature with a threshold of
    0 bytes."""
    if request.param == "by feature":
        import olc._compiled.layouts.multiclass_pa as layout

        monkeypatch.setattr(layout, "BY_FEATURE_BYTES", 0)
    return request.param
