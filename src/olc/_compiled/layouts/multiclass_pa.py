"""Layout of the ``multiclass_pa`` family: the multiclass Passive-Aggressive learners of
Crammer, Dekel, Keshet, Shalev-Shwartz & Singer (2006), §7, with K prototype vectors.

The state is K per-class states stacked along a first axis, as a one-vs-rest learner's
(``olc.learners._framework.multiclass``): class c's prototype w_c is ``vecs[c, W]``, its bias b_c
``scal[c, BIAS]``; the layout below is one class's part. When K·d weights outgrow the cache
the prototypes are **stored by feature** (:func:`stored_by_feature`): ``vecs`` (K, 1, d) is
then a view of a C-contiguous (d, K) matrix, so the K weights of a feature share a cache line
(CSR rows with a large d); otherwise by class, a C-contiguous (K, 1, d). The
compiled rule gets that matrix and its order (:func:`compiled_view`). Values, shapes, model
files and the fingerprint are those of the stacked layout; only the memory order differs.
Every class gets the same hyper-parameters (the rule reads class 0's row of ``hp``):
  c              PA-I's cap on τ;
  kappa          PA-II's κ = 1/(2C) in τ = ℓ/(q + κ);
  fit_intercept  each class has a bias b_c, learned as one more coordinate of value 1
                 (it counts in q: ``rules/multiclass_pa.py``);
  variant        PA_CLASSIC, PA_I or PA_II (those of ``layouts/linear.py``).
"""
import numpy as np

from .base import Layout, fields, refuses
from ..rule_ids import MULTICLASS_PA
from .linear import PA_CLASSIC, PA_I, PA_II, LinearScal, LinearVec

__all__ = ["MULTICLASS_PA_LAYOUT", "MulticlassPAHP", "PA_CLASSIC", "PA_I", "PA_II",
           "compiled_view", "in_stored_order", "multiclass_pa_hp_values", "stored_by_feature"]

MulticlassPAHP = fields("c", "kappa", "fit_intercept", "variant")
MULTICLASS_PA_LAYOUT = Layout(MULTICLASS_PA, hp=MulticlassPAHP, scalars=LinearScal,
                              vectors=LinearVec,
                              growth=refuses("its K prototypes are not wrapped for River "
                                             "(a multiclass River model is refused)"),
                              family="multiclass_pa")


def multiclass_pa_hp_values(variant, c, fit_intercept):
    """The hyper-parameters by name; κ = 1/(2C) (``0.5 / C`` in float64, as the binary PA-II)."""
    c = float(c)
    return {"c": c, "kappa": 0.5 / c, "fit_intercept": fit_intercept, "variant": variant}


#: Prototypes are stored by feature when K·d float64 weights take more than this (bytes): then
#: they no longer stay in a core's L2 cache (1–2 MiB) and a CSR row read K far-apart cache
#: lines per stored value. Below it, by class: the dense rows' per-class dot
#: products run as SIMD reductions over contiguous weights (strided by-feature sums measure
#: ~3× slower on 100 features at K = 5), and every weight is in cache anyway.
BY_FEATURE_BYTES = 2 ** 20


def stored_by_feature(n_classes, n_features):
    """Whether K prototypes of d features are stored by feature (else by class)."""
    return n_classes * n_features * 8 > BY_FEATURE_BYTES


def _matrix(vecs):
    """The one C-contiguous matrix that ``vecs`` (K, 1, d) is a view of, in the stored order,
    or None when it is not such a view."""
    if vecs.ndim != 3 or vecs.shape[1] != 1 or vecs.dtype != np.float64:
        return None
    W = vecs[:, 0, :]
    if stored_by_feature(vecs.shape[0], vecs.shape[2]):
        W = W.T
    flags = W.flags
    return W if flags.c_contiguous and flags.writeable and flags.aligned else None


def in_stored_order(vecs):
    """The K prototypes ``vecs`` (K, 1, d) in the order :func:`stored_by_feature` chooses:
    ``vecs`` itself when they are (a view of a C-contiguous (K, d) or (d, K) float64
    matrix), else such a copy (the learner then keeps the copy)."""
    if _matrix(vecs) is not None:
        return vecs
    n_classes, _, d = vecs.shape
    if not stored_by_feature(n_classes, d):
        return np.array(vecs, dtype=np.float64, order="C")
    buffer = np.empty((1, d, n_classes))
    buffer[0] = np.asarray(vecs, dtype=np.float64)[:, 0, :].T
    return buffer.transpose(2, 0, 1)


def compiled_view(vecs):
    """(W, by_feature): the C-contiguous matrix of prototypes stored :func:`in_stored_order`
    that the compiled rule takes — (d, K) by feature, (K, d) by class: one array type, so one
    compiled specialization; anything else is refused."""
    W = _matrix(vecs)
    if W is None:
        raise ValueError("multiclass PA prototypes must be stored in their layout's order "
                         "(layouts.multiclass_pa.in_stored_order)")
    return W, stored_by_feature(vecs.shape[0], vecs.shape[2])
