"""Layouts of the ``bayes_point`` family (Harrington, Herbrich, Kivinen, Platt & Williamson,
"Online Bayes Point Machines", PAKDD 2003): the generalised perceptron (Algorithm 1) and
the Online Bayes Point Machine (Algorithm 2).

Generalised perceptron: w in ``vecs[W]``; scalars ``bias`` = b, ``sq`` = ‖w‖² + b² (the
bias is one more weight, footnote 4), ``updates`` = k − 1 (updates made so far), ``work``
(nonzeros added to w since ``sq`` was last recomputed exactly).

OBPM keeps its N members side by side:
- vecs: ``sum`` = Σ_j w_j (the classifier is its normalized mean), ``scratch`` (the old
  values of the member being updated on the support of x), then member j's w in row
  ``FIRST_MEMBER_ROW + j``;
- scal: the header (``sum_bias`` = Σ_j b_j, ``sum_sq`` = ‖Σ_j (w_j, b_j)‖², ``step`` =
  rounds seen, ``work``, ``base_rule`` = the members' rule id), then one saved member block
  (the block of the member being updated, restored if its change would overflow), then
  member j's block at ``member_block(j)``: the base rule's own scalars (its layout),
  ``MEMBER_BLOCK`` slots whatever the base;
- hp: ``n``, ``tau``, ``seed``, ``base_rule``, then (tail) the base rule's own hp.
"""
from .base import Layout, fields, refuses
from ..rule_ids import GENERALIZED_PERCEPTRON, OBPM
from .averaging import averaged_hp, averaged_layout, averaged_scalars, averaged_vectors
from .linear import PASSIVE_AGGRESSIVE_LAYOUT, PERCEPTRON_LAYOUT, LinearScal, LinearVec

# -- generalised perceptron ----------------------------------------------------------------
GeneralizedPerceptronHP = fields("rho", "eta", "rho_schedule", "eta_schedule",
                                 "fit_intercept")
GeneralizedPerceptronScal = fields("bias", "sq", "updates", "work")
# ρ_k, η_k schedules of §2: constant, or divided by √k.
CONSTANT, INV_SQRT = 0, 1
SCHEDULES = {"constant": CONSTANT, "inv_sqrt": INV_SQRT}
GENERALIZED_PERCEPTRON_LAYOUT = Layout(GENERALIZED_PERCEPTRON, hp=GeneralizedPerceptronHP,
                                       scalars=GeneralizedPerceptronScal, vectors=LinearVec,
                                       growth=refuses("it recomputes ‖w‖² exactly once its "
                                                      "work reaches 4d nonzeros, d the width"),
                                       family="bayes_point")
# averaging (``average=``, ``layouts/averaging.py``)
AveragedGeneralizedPerceptronScal = averaged_scalars(GeneralizedPerceptronScal)
AveragedGeneralizedPerceptronVec = averaged_vectors(LinearVec)
AveragedGeneralizedPerceptronHP = averaged_hp(GeneralizedPerceptronHP)
GENERALIZED_PERCEPTRON_AVERAGED_LAYOUT = averaged_layout(
    GENERALIZED_PERCEPTRON_LAYOUT, AveragedGeneralizedPerceptronHP,
    AveragedGeneralizedPerceptronScal, AveragedGeneralizedPerceptronVec)

# -- OBPM ------------------------------------------------------------------------------------
#: Base learners whose rule can run as an OBPM member: state (w = vecs[W], b = scal[BIAS])
#: with additive updates of w on the support of x.
SUPPORTED_BASE_LAYOUTS = (PERCEPTRON_LAYOUT, PASSIVE_AGGRESSIVE_LAYOUT,
                          GENERALIZED_PERCEPTRON_LAYOUT)
#: Slots of one member's scalar block (the largest base layout's).
MEMBER_BLOCK = max(layout.n_scalars for layout in SUPPORTED_BASE_LAYOUTS)
#: The member's bias: the same slot in every base layout (checked below).
MEMBER_BIAS = LinearScal.BIAS
assert all(layout.n_vectors == 1 and layout.vectors.W == LinearVec.W
           and layout.scalars.BIAS == MEMBER_BIAS for layout in SUPPORTED_BASE_LAYOUTS)

ObpmHP = fields("n", "tau", "seed", "base_rule")
#: hp: the base rule's own hp follow the named fields.
FIRST_BASE_HP = len(ObpmHP)
ObpmScal = fields("sum_bias", "sum_sq", "step", "work", "base_rule")
ObpmVec = fields("sum", "scratch")
#: scal: the saved member block follows the header; member blocks follow it.
SAVED_BLOCK = len(ObpmScal)
FIRST_MEMBER_BLOCK = SAVED_BLOCK + MEMBER_BLOCK
#: vecs: member rows follow the named rows.
FIRST_MEMBER_ROW = len(ObpmVec)
OBPM_LAYOUT = Layout(OBPM, hp=ObpmHP, scalars=ObpmScal, vectors=ObpmVec,
                     variable_vectors=True, variable_scalars=True, variable_hp=True,
                     growth=refuses("it recomputes the members' ‖Σw‖² exactly once its work "
                                    "reaches 4d nonzeros, d the width"), family="bayes_point")


def member_block(j):
    """Offset of member j's scalar block in OBPM's ``scal``."""
    return FIRST_MEMBER_BLOCK + MEMBER_BLOCK * j


def obpm_sizes(n_members):
    """(rows of vecs, length of scal) of an OBPM with ``n_members`` members."""
    return FIRST_MEMBER_ROW + n_members, member_block(n_members)
