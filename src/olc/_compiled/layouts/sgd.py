"""Layouts of the ``sgd`` family: SGD classification (id 60) and SGD regression (id 61).

Both keep w as a scaled vector (``kernels/scaled.py``): w = scal[SCALE]·vecs[V], so the L2 shrink
costs O(1); the bias in scal[BIAS] and the round counter t (rows processed over the
learner's lifetime; exact as float64 up to 2⁵³) in scal[T].
"""
from .base import Layout, _names, fields, grows
from ..rule_ids import SGD, SGD_REGRESSION
from .averaging import averaged_hp, averaged_layout, averaged_scalars, averaged_vectors

SGDScal = fields("bias", "scale", "t")
SGDVec = fields("v")

# schedule: CONSTANT, INV_T or INV_SQRT_T (η_t = η₀, η₀/t, η₀/√t); lam: the L2 penalty λ;
# loss: HINGE, LOGISTIC, SQUARED_HINGE, PERCEPTRON (classification) or SQUARED (regression,
# the only loss of SGD_REGRESSION).
SGDHP = fields("eta0", "schedule", "lam", "loss", "fit_intercept")
CONSTANT, INV_T, INV_SQRT_T = 0, 1, 2
HINGE, LOGISTIC, SQUARED_HINGE, SQUARED, PERCEPTRON = 0, 1, 2, 3, 4

# w = S·v; the clamp w ← 0 clears coordinate-wise.
_SGD_GROWS = grows("w = S·v: shrinks are O(1), the add on x's support, the clamp coordinate-wise")
SGD_LAYOUT = Layout(SGD, hp=SGDHP, scalars=SGDScal, vectors=SGDVec, growth=_SGD_GROWS, family="sgd")
SGD_REGRESSION_LAYOUT = Layout(SGD_REGRESSION, hp=SGDHP, scalars=SGDScal, vectors=SGDVec,
                               growth=_SGD_GROWS, family="sgd")

# averaging (``average=``, ``layouts/averaging.py``; w = s·v: with ``avg_base_scale``)
AveragedSGDScal = averaged_scalars(SGDScal, scaled=True)
AveragedSGDVec = averaged_vectors(SGDVec)
AveragedSGDHP = averaged_hp(SGDHP)
SGD_AVERAGED_LAYOUT = averaged_layout(SGD_LAYOUT, AveragedSGDHP, AveragedSGDScal,
                                      AveragedSGDVec)
SGD_REGRESSION_AVERAGED_LAYOUT = averaged_layout(SGD_REGRESSION_LAYOUT, AveragedSGDHP,
                                                 AveragedSGDScal, AveragedSGDVec)

# -- the scikit-learn penalties (``olc.sklearn.Perceptron(penalty=...)``) ----------------------
# Run-time extension of the SGD rule's ``hp``, read past the layout's own fields (plain or
# averaged) only when ``hp`` is that long — as ``layouts.linear.SklearnHP``, whose two fields
# it starts with (so ``rules.linear.row_extension`` reads them):
#   row_weights, intercept_decay  as in ``SklearnHP``;
#   l1_ratio                      the elastic-net mixing ρ of scikit-learn's penalty
#                                 λ((1 − ρ)/2·‖w‖² + ρ‖w‖₁): the shrink becomes 1 − (1 − ρ)η_tλ
#                                 and ρη_tλ is the L1 step of the cumulative penalty.
# With the extension the rule follows ``_plain_sgd`` where it differs from the textbook rule:
# the weight scale is folded when it falls below 1e-9 (scikit-learn's threshold), and the
# state carries the tail below. Own learners' ``hp`` never has it: their bits are unchanged.
SklearnSGDHP = fields("row_weights", "intercept_decay", "l1_ratio")
# The tail of the state with the extension (after the plain or averaged fields, so indexed
# from the end): the cumulative L1 penalty u (the total ρη_tλ so far) and q (per coordinate,
# the L1 penalty it has received; Tsuruoka, Tsujii & Ananiadou 2009, §3), and the norms
# scikit-learn's ``WeightVector`` keeps for its epoch objective (``sq_norm``, ``l1_norm``,
# which its ``add`` recomputes over the row's coordinates only — kept as it keeps them).
# The row q exists only when ρ > 0: the CSR loop prefetches the state's second row with the
# first, which for an unused q doubled the random reads (W2: 0.25 against 0.14 s an epoch).
SGDPenaltyScal = fields("l1_u", "sq_norm", "l1_norm")
SGDPenaltyVec = fields("l1_q")


def penalized_layout(layout, l1):
    """``layout`` (plain or averaged SGD) with the penalty tail appended (q when ``l1``)."""
    vectors = _names(layout.vectors) + (_names(SGDPenaltyVec) if l1 else ())
    return Layout(layout.rule, hp=layout.hp,
                  scalars=fields(*_names(layout.scalars), *_names(SGDPenaltyScal)),
                  vectors=fields(*vectors), growth=layout.growth, family=layout.family)


SGD_PENALIZED_LAYOUT = penalized_layout(SGD_LAYOUT, l1=True)
SGD_PENALIZED_AVERAGED_LAYOUT = penalized_layout(SGD_AVERAGED_LAYOUT, l1=True)
SGD_L2_PENALIZED_LAYOUT = penalized_layout(SGD_LAYOUT, l1=False)
SGD_L2_PENALIZED_AVERAGED_LAYOUT = penalized_layout(SGD_AVERAGED_LAYOUT, l1=False)
