"""Layouts of the ``sgd`` family: SGD classification (id 60) and SGD regression (id 61).

Both keep w as a scaled vector (``scaled.py``): w = scal[SCALE]·vecs[V], so the L2 shrink
costs O(1); the bias in scal[BIAS] and the round counter t (rows processed over the
learner's lifetime; exact as float64 up to 2⁵³) in scal[T].
"""
from ..layout import Layout, fields
from ..rule_ids import SGD, SGD_REGRESSION
from .averaging import averaged_hp, averaged_layout, averaged_scalars, averaged_vectors

SGDScal = fields("bias", "scale", "t")
SGDVec = fields("v")

# schedule: CONSTANT, INV_T or INV_SQRT_T (η_t = η₀, η₀/t, η₀/√t); lam: the L2 penalty λ;
# loss: HINGE, LOGISTIC, SQUARED_HINGE (classification) or SQUARED (regression, the only loss
# of SGD_REGRESSION).
SGDHP = fields("eta0", "schedule", "lam", "loss", "fit_intercept")
CONSTANT, INV_T, INV_SQRT_T = 0, 1, 2
HINGE, LOGISTIC, SQUARED_HINGE, SQUARED = 0, 1, 2, 3

SGD_LAYOUT = Layout(SGD, hp=SGDHP, scalars=SGDScal, vectors=SGDVec)
SGD_REGRESSION_LAYOUT = Layout(SGD_REGRESSION, hp=SGDHP, scalars=SGDScal, vectors=SGDVec)

# averaging (``average=``, ``layouts/averaging.py``; w = s·v: with ``avg_base_scale``)
AveragedSGDScal = averaged_scalars(SGDScal, scaled=True)
AveragedSGDVec = averaged_vectors(SGDVec)
AveragedSGDHP = averaged_hp(SGDHP)
SGD_AVERAGED_LAYOUT = averaged_layout(SGD_LAYOUT, AveragedSGDHP, AveragedSGDScal,
                                      AveragedSGDVec)
SGD_REGRESSION_AVERAGED_LAYOUT = averaged_layout(SGD_REGRESSION_LAYOUT, AveragedSGDHP,
                                                 AveragedSGDScal, AveragedSGDVec)
