"""Layouts of the ``experts`` family: Winnow (Kitani's lecture notes, Algorithm 4), Weighted
Majority and Randomized Weighted Majority (Algorithms 1 and 2).

Winnow: vecs W = the float weights used in w·x; ints block EXPONENTS = integers kᵢ with
wᵢ = (1+β)^{kᵢ} exactly; scal BETA = β as learning started (fixed from then on).

WM / RWM: vecs V = relative weights vₙ = (1−η)^{mₙ − r}; ints slots REF = r (the reference
count, min mₙ at the last renormalization) and STEP = rounds seen (RWM's draw counter), ints
block MISTAKES = each expert's mistake count mₙ (the lecture's weight is (1−η)^{mₙ}); scal
ETA = η as learning started (fixed from then on).
"""
from .base import Layout, fields, refuses
from ..rule_ids import RANDOMIZED_WEIGHTED_MAJORITY, WEIGHTED_MAJORITY, WINNOW

WinnowHP = fields("beta", "threshold")  # threshold N; N ≤ 0 means N = d
WinnowVec = fields("w")
WinnowScal = fields("beta")
WinnowIntBlock = fields("exponents")
WINNOW_LAYOUT = Layout(WINNOW, hp=WinnowHP, scalars=WinnowScal, vectors=WinnowVec,
                       int_blocks=WinnowIntBlock,
                       growth=refuses("its threshold defaults to N = d and its weights start "
                                      "at 1, so an unseen feature is not a zero column"),
                       family="experts")

_EVERY_EXPERT = refuses("every expert (feature) must predict ±1 on every round")
WeightedMajorityHP = fields("eta")
RandomizedWeightedMajorityHP = fields("eta", "seed")
ExpertsVec = fields("v")
ExpertsScal = fields("eta")
ExpertsInt = fields("ref", "step")
ExpertsIntBlock = fields("mistakes")
WEIGHTED_MAJORITY_LAYOUT = Layout(WEIGHTED_MAJORITY, hp=WeightedMajorityHP,
                                  scalars=ExpertsScal, vectors=ExpertsVec,
                                  int_slots=ExpertsInt, int_blocks=ExpertsIntBlock,
                                  growth=_EVERY_EXPERT, family="experts")
RANDOMIZED_WEIGHTED_MAJORITY_LAYOUT = Layout(
    RANDOMIZED_WEIGHTED_MAJORITY, hp=RandomizedWeightedMajorityHP, scalars=ExpertsScal,
    vectors=ExpertsVec, int_slots=ExpertsInt, int_blocks=ExpertsIntBlock, growth=_EVERY_EXPERT,
    family="experts")

# Where the integer blocks start in ``ints`` (block 0 follows the named slots).
WINNOW_EXPONENTS = WINNOW_LAYOUT.int_block(WinnowIntBlock.EXPONENTS, 0)
EXPERT_MISTAKES = WEIGHTED_MAJORITY_LAYOUT.int_block(ExpertsIntBlock.MISTAKES, 0)
