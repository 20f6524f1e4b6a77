"""The ``feature_map`` family (layout: ``layouts/feature_map.py``): FOGD, Fourier Online
Gradient Descent (Lu, Hoi, Wang, Zhao & Liu 2016, JMLR 17(47), Algorithm 1): the random
Fourier feature map of the RBF kernel computed per row in the compiled step, then online
gradient descent on the hinge loss. O(nnz(x)·D) per row."""
import math

from ..caching import jit
from ..kernels.vector import INLINE, sign, sqnorm
from ..layouts.feature_map import HEADER, OFFSET, W, Z
from ..layouts.feature_map import FeatureMapHP as HP
from ..layouts.feature_map import FeatureMapScal as FS
from ..rule_ids import FOGD

INF = math.inf


@jit(inline=INLINE)
def _base(P, which):
    return HEADER + which * P.shape[1]


@jit(inline=INLINE)
def _features(idx, val, P, scal):
    """Z ← √(2/D)·cos(xΩ + b) (the projections feature by feature, as the kernel pool's
    dots: the same order for dense and CSR rows); returns w·z + bias."""
    D = P.shape[1]
    z = _base(P, Z)
    for k in range(D):
        scal[z + k] = 0.0
    if idx is None:
        if val is not None:
            for j in range(val.shape[0]):
                x = val[j]
                if x != 0.0:
                    row = P[j]
                    for k in range(D):
                        scal[z + k] += row[k] * x
    elif val is not None:
        for q in range(idx.shape[0]):
            x = val[q]
            row = P[idx[q]]
            for k in range(D):
                scal[z + k] += row[k] * x
    c = math.sqrt(2.0 / D)
    o = _base(P, OFFSET)
    for k in range(D):
        scal[z + k] = c * math.cos(scal[z + k] + scal[o + k])
    w = _base(P, W)
    s = 0.0
    for k in range(D):
        s += scal[w + k] * scal[z + k]
    return s + scal[FS.BIAS]


@jit(inline=INLINE)
def _clear(P, scal):
    z = _base(P, Z)
    for k in range(P.shape[1]):
        scal[z + k] = 0.0


@jit(inline=INLINE)
def fogd_score(idx, val, vecs, ints, scal, hp, fast):
    xx = sqnorm(idx, val)
    if not math.isfinite(xx):
        return xx - xx
    return _features(idx, val, vecs, scal)


@jit(inline=INLINE)
def fogd_step(idx, val, y, vecs, ints, scal, hp, fast):
    """Algorithm 1: z_t = z(x_t); on a positive hinge loss (y·f(x) < 1) w ← w + η·y·z_t
    (the hinge's gradient step), and the bias (a constant feature 1, with ``fit_intercept``)
    by η·y. ``aux``: 1 on an update."""
    xx = sqnorm(idx, val)
    if not math.isfinite(xx):
        return xx, 1.0, False, 0.0
    f = _features(idx, val, vecs, scal)
    if not math.isfinite(f):
        return f, 1.0, False, 0.0
    upd = y * f < 1.0
    if upd:
        c = hp[HP.ETA] * y
        w = _base(vecs, W)
        z = _base(vecs, Z)
        for k in range(vecs.shape[1]):
            scal[w + k] += c * scal[z + k]
        if hp[HP.FIT_INTERCEPT] != 0.0:
            scal[FS.BIAS] += c
    scal[FS.STEPS] += 1.0
    return f, sign(f), upd, 1.0 if upd else 0.0


@jit()
def family_score(rule, idx, val, vecs, ints, scal, hp, fast):
    f = fogd_score(idx, val, vecs, ints, scal, hp, fast)
    _clear(vecs, scal)
    return f


@jit()
def family_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    if rule == FOGD:
        result = fogd_step(idx, val, y, vecs, ints, scal, hp, fast)
        _clear(vecs, scal)
        return result
    raise ValueError("unknown rule id in the feature_map family")
