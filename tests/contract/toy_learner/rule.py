"""The margin perceptron's compiled rule and its family's dispatchers (the family has one
rule). Everything this module imports is its compiled sources: the loader fingerprints them
for the disk cache, nothing lists them again."""
import math

from olc._compiled.caching import jit
from olc._compiled.kernels.vector import INLINE, axpy, dot, sign

from .layout import (MARGIN_PERCEPTRON, MarginPerceptronHP, MarginPerceptronScal,
                     MarginPerceptronVec)

W, BIAS = MarginPerceptronVec.W, MarginPerceptronScal.BIAS


@jit(inline=INLINE)
def margin_perceptron_score(idx, val, vecs, ints, scal, hp, fast):
    return dot(vecs[W], idx, val, fast) + scal[BIAS]


@jit(inline=INLINE)
def margin_perceptron_step(idx, val, y, vecs, ints, scal, hp, fast):
    """Predict sign(w·x + b); then w ← w + η·y·x (b ← b + η·y) when y(w·x + b) ≤ γ."""
    s = margin_perceptron_score(idx, val, vecs, ints, scal, hp, fast)
    pred = sign(s)
    if not math.isfinite(s):
        return s, pred, False, 0.0  # a non-finite score stops the loop at this row
    upd = y * s <= hp[MarginPerceptronHP.GAMMA]
    if upd:
        c = hp[MarginPerceptronHP.ETA] * y
        axpy(c, idx, val, vecs[W])
        if hp[MarginPerceptronHP.FIT_INTERCEPT] != 0.0:
            scal[BIAS] += c
    return s, pred, upd, 0.0


@jit(inline=INLINE)
def family_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    if rule == MARGIN_PERCEPTRON:
        return margin_perceptron_step(idx, val, y, vecs, ints, scal, hp, fast)
    raise ValueError("unknown rule id in the toy_margin family")


@jit(inline=INLINE)
def family_score(rule, idx, val, vecs, ints, scal, hp, fast):
    return margin_perceptron_score(idx, val, vecs, ints, scal, hp, fast)
