"""Layouts of the ``margin`` family: ROMMA and aggressive ROMMA (Li & Long 2002), ALMA₂
(Gentile 2001) and PUMMA (Ishibashi, Hatano & Takeda 2008), the large-margin baselines of
Ho-Nguyen et al. 2025 (the OMM paper, Table 1 and App. B.3).

Every weight vector is scaled, w = S·v (``scal[SCALE]``, ``vecs[V]``; see
``_compiled/kernels/scaled.py``). A *tracked* vector (ROMMA's v, PUMMA's v, p and n) keeps its
support in ``ints``: a count slot and two blocks of length d (list, positions), the layout of
``scaled.support_add``, so that clearing or rescaling it costs O(support), not O(d).
"""
from .base import Layout, fields, grows, refuses
from ..rule_ids import AGGRESSIVE_ROMMA, ALMA2, PUMMA, ROMMA

_EXACT_ERR = refuses("its exact norm refresh sets an error bound computed from the width d "
                     "(exact_err(d)), and that bound decides when the next refresh happens")

# -- ROMMA and aggressive ROMMA (rules 30, 31) ------------------------------------------------
# kappa: the appended constant coordinate of x̃ = (x, κ) (−D̄, or 0 for none).
# raw_bias: v's weight of that coordinate (w̃ = S·(v, raw_bias)); norm = ‖w̃‖ (not its square:
# ‖w‖ ~ 1/margin, its square would overflow first); err: a bound on norm's relative error.
RommaHP = fields("kappa")
RommaScal = fields("scale", "raw_bias", "norm", "err")
RommaVec = fields("v")
RommaIntSlot = fields("v_count")
RommaIntBlock = fields("v_list", "v_pos")
ROMMA_LAYOUT = Layout(ROMMA, hp=RommaHP, scalars=RommaScal, vectors=RommaVec,
                      int_slots=RommaIntSlot, int_blocks=RommaIntBlock, growth=_EXACT_ERR,
                                                                        family="margin")
AGGRESSIVE_ROMMA_LAYOUT = Layout(AGGRESSIVE_ROMMA, hp=RommaHP, scalars=RommaScal,
                                 vectors=RommaVec, int_slots=RommaIntSlot,
                                 int_blocks=RommaIntBlock, growth=_EXACT_ERR, family="margin")
N_ROMMA_INT_SLOTS = len(RommaIntSlot)

# -- ALMA₂ (rule 32) --------------------------------------------------------------------------
# fit_intercept: x̃ = (x, 1) (the appended 1's weight is raw_bias), else x̃ = x.
# sqnorm = ‖w̃‖² (≤ 1 after the projection); k = 1 + the number of corrections.
AlmaHP = fields("alpha", "b", "c", "fit_intercept")
AlmaScal = fields("scale", "raw_bias", "sqnorm", "k")
AlmaVec = fields("v")
ALMA2_LAYOUT = Layout(ALMA2, hp=AlmaHP, scalars=AlmaScal, vectors=AlmaVec,
                      growth=grows("w = S·v, the norm kept by formula, the projection an O(1) "
                                   "change of S, the fold coordinate-wise"), family="margin")

# -- PUMMA, p = 2 (rule 33) -------------------------------------------------------------------
# The classifier (w, b), w = S·v, and the stored positive and negative points p, n.
# Cached: norm = ‖w‖, wp = w·p, wn = w·n, pp = ‖p‖², nn = ‖n‖², pn = p·n; err bounds the
# relative error of norm, wp, wn. phase: 0 before any example, 1 while only label y1 was
# seen, 2 once (w, b) is the max-margin classifier of a stored pair.
PummaHP = fields("delta")
PummaScal = fields("scale", "bias", "norm", "wp", "wn", "pp", "nn", "pn", "phase", "y1",
                   "err")
PummaVec = fields("v", "p", "n")
PummaIntSlot = fields("v_count", "p_count", "n_count")
PummaIntBlock = fields("v_list", "v_pos", "p_list", "p_pos", "n_list", "n_pos")
PUMMA_LAYOUT = Layout(PUMMA, hp=PummaHP, scalars=PummaScal, vectors=PummaVec,
                      int_slots=PummaIntSlot, int_blocks=PummaIntBlock, growth=_EXACT_ERR,
                                                                        family="margin")
N_PUMMA_INT_SLOTS = len(PummaIntSlot)
PHASE_EMPTY, PHASE_ONE_LABEL, PHASE_PAIR = 0.0, 1.0, 2.0
