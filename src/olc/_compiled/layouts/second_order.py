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
from .base import Layout, fields
from ..rule_ids import AROW_DIAGONAL, AROW_DIAGONAL_PRECISION, AROW_FULL

#: covariance → layout key, in the order of each learner's rule ids (full, diagonal, precision)
COVARIANCES = ("full", "diagonal", "diagonal-precision")

ArowHP = fields("r", "fit_intercept")
ArowFullVec = fields("mu")  # then the D rows of Σ
FIRST_SIGMA_ROW = len(ArowFullVec)
ArowDiagonalVec = fields("mu", "sigma")
ArowDiagonalScal = fields("bias", "sigma_b")
assert ArowFullVec.MU == ArowDiagonalVec.MU  # the rules read μ in one row for all three

AROW_FULL_LAYOUT = Layout(AROW_FULL, hp=ArowHP, scalars=None, vectors=ArowFullVec,
                          variable_vectors=True)
AROW_DIAGONAL_LAYOUT = Layout(AROW_DIAGONAL, hp=ArowHP, scalars=ArowDiagonalScal,
                              vectors=ArowDiagonalVec)
AROW_DIAGONAL_PRECISION_LAYOUT = Layout(AROW_DIAGONAL_PRECISION, hp=ArowHP,
                                        scalars=ArowDiagonalScal, vectors=ArowDiagonalVec)
AROW_LAYOUTS = dict(zip(COVARIANCES, (AROW_FULL_LAYOUT, AROW_DIAGONAL_LAYOUT,
                                      AROW_DIAGONAL_PRECISION_LAYOUT)))
