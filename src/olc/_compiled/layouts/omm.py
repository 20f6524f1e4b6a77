"""Layout of the ``omm`` family: e-OMM for the ℓ2 norm (Ho-Nguyen et al. 2025, Algorithm 1,
efficient implementation, with the closed-form three-point step of §5.1).

The dual certificates are scaled vectors (``kernels/scaled.py``): v₊ = SP·vecs[VPOS] and
v₋ = SM·vecs[VNEG], with the cached products PP = ‖v₊‖², MM = ‖v₋‖², PM = v₊·v₋ and the
predicted margin GAMMA = ‖v₊ − v₋‖/2.

Units. Those five quantities are kept in units of 2^E fixed by the first nonzero row stored
(UNIT = 2^−E; UNIT = 0 while every stored row was zero): vectors are x·UNIT, products
(x·UNIT)·(x'·UNIT). E = 0 — the data's own units — unless that row's magnitude is beyond
2^±450 (``rules/omm.py``, UNIT_FREE_EXP). Power-of-two scaling is exact, so data scaled by
2^k (|k| ≤ 1000) give the same predictions instead of overflowing (or underflowing) in the
squares from |k| ≈ 511.

PHASE (Algorithm 1, lines 2–13): PHASE_EMPTY, nothing seen, the classifier is the constant +1;
PHASE_ONE_LABEL, one label seen (Y1), the constant y₁; PHASE_MARGIN, the max-margin classifier
of the certificates. The phases and Y1 are shared with the ``omm_variants`` family.
"""
from .base import Layout, fields, grows
from ..rule_ids import EFFICIENT_OMM_L2

PHASE_EMPTY, PHASE_ONE_LABEL, PHASE_MARGIN = 0.0, 1.0, 2.0

OmmHP = fields("rho")
OmmVec = fields("vpos", "vneg")
OmmScal = fields("sp", "sm", "pp", "mm", "pm", "phase", "y1", "gamma", "unit")

# v₊, v₋ are scaled vectors (O(1) scale changes, adds on x's support, coordinate-wise folds);
# the cached products are scalars updated by formulas; a reset clears v, then adds x.
EFFICIENT_OMM_LAYOUT = Layout(EFFICIENT_OMM_L2, hp=OmmHP, scalars=OmmScal, vectors=OmmVec,
                              growth=grows("v₊, v₋ change on x's support or coordinate-wise; "
                                           "the cached products are scalars"), family="omm")
