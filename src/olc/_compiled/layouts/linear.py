"""Layouts of the ``linear`` family: the Perceptron and the Passive-Aggressive classifiers.

Both keep w in ``vecs[W]`` and the bias in ``scal[BIAS]``."""
from ..layout import Layout, fields
from ..rule_ids import PASSIVE_AGGRESSIVE, PERCEPTRON

LinearScal = fields("bias")
LinearVec = fields("w")

PerceptronHP = fields("eta", "fit_intercept", "mistake_only")
PERCEPTRON_LAYOUT = Layout(PERCEPTRON, hp=PerceptronHP, scalars=LinearScal, vectors=LinearVec)

# variant: PA_CLASSIC, PA_I or PA_II; bias_in_norm: ‖x‖² counts the bias (classic PA, which
# solves its problem over (w, b) exactly).
PassiveAggressiveHP = fields("c", "fit_intercept", "variant", "bias_in_norm")
PA_CLASSIC, PA_I, PA_II = 0, 1, 2
PASSIVE_AGGRESSIVE_LAYOUT = Layout(PASSIVE_AGGRESSIVE, hp=PassiveAggressiveHP,
                                   scalars=LinearScal, vectors=LinearVec)
