"""Layouts of the ``second_order`` family: AROW (Crammer, Kulesza & Dredze, NIPS 2009; the
textbook chapter §31.3) with a full or a diagonal covariance.

The weight distribution is N(μ, Σ) over the augmented input x̃ = (x, 1) (the bias is the
last coordinate).
- Full (``AROW_FULL``): vecs is (1 + D) × D, D = d + 1: row ``MU`` = μ (μ_b last), then
  Σ[i, j] = vecs[FIRST_SIGMA_ROW + i, j]. No scalars.
- Diagonal (``AROW_DIAGONAL``, ``AROW_DIAGONAL_PRECISION``): rows ``MU`` = μ and ``SIGMA`` =
  diag Σ over x; scalars ``bias`` = μ_b and ``sigma_b`` = Σ_bb.
hp: ``r`` (the chapter's λ), ``fit_intercept``.

AROW regression (§31.3.3) runs the same update in the same state (``layouts/regression.py``
must keep these fields in the same slots).
"""
from .base import Layout, fields, grows
from ..rule_ids import AROW_DIAGONAL, AROW_DIAGONAL_PRECISION, AROW_FULL

#: covariance → layout key, in the order of each learner's rule ids (full, diagonal, precision)
COVARIANCES = ("full", "diagonal", "diagonal-precision")

ArowHP = fields("r", "fit_intercept")
ArowFullVec = fields("mu")  # then the D rows of Σ
FIRST_SIGMA_ROW = len(ArowFullVec)
ArowDiagonalVec = fields("mu", "sigma")
ArowDiagonalScal = fields("bias", "sigma_b")
assert ArowFullVec.MU == ArowDiagonalVec.MU  # the rules read μ in one row for all three

# Growth, classification and regression alike. Diagonal: μ_j, Σ_jj change only where
# x_j ≠ 0; the pad is the prior (μ 0, Σ_jj 1). Full: z = Σx̃ is accumulated over the rows of
# Σ of x's nonzeros, then the bias row; for a pristine coordinate j (μ_j = 0, Σ_jj = 1,
# Σ_ij = Σ_ji = 0) z_j = 0, so μ_j keeps 0, row j is skipped and every other row's entry j
# stays 0; the maxima (|z|, |μ|) ignore zeros; x̃ᵀΣx̃ sums over x's support and the bias. The
# bias is the last coordinate: growing moves its row and column (``olc.river.growth``).
AROW_DIAGONAL_GROWS = grows("μ_j, Σ_jj change only where x_j ≠ 0; the pad is the prior")
AROW_FULL_GROWS = grows("z = Σx̃ runs over x's nonzeros and the bias: a pristine coordinate "
                        "keeps μ_j = 0, Σ_jj = 1 and a zero row and column")
AROW_FULL_LAYOUT = Layout(AROW_FULL, hp=ArowHP, scalars=None, vectors=ArowFullVec,
                          variable_vectors=True, growth=AROW_FULL_GROWS, family="second_order")
AROW_DIAGONAL_LAYOUT = Layout(AROW_DIAGONAL, hp=ArowHP, scalars=ArowDiagonalScal,
                              vectors=ArowDiagonalVec, growth=AROW_DIAGONAL_GROWS,
                                                       family="second_order")
AROW_DIAGONAL_PRECISION_LAYOUT = Layout(AROW_DIAGONAL_PRECISION, hp=ArowHP,
                                        scalars=ArowDiagonalScal, vectors=ArowDiagonalVec,
                                        growth=AROW_DIAGONAL_GROWS, family="second_order")
AROW_LAYOUTS = dict(zip(COVARIANCES, (AROW_FULL_LAYOUT, AROW_DIAGONAL_LAYOUT,
                                      AROW_DIAGONAL_PRECISION_LAYOUT)))
