"""Layouts of the regressors: Passive-Aggressive regression (id 70, the ``regression``
family) and AROW regression (ids 72–74, compiled in the ``second_order`` family).

PA regression is the Passive-Aggressive step of the ``linear`` family over the
ε-insensitive loss: the same hyper-parameters (``PassiveAggressiveHP``) and state (w in
``vecs[W]``, the bias in ``scal[BIAS]``).

AROW regression runs the AROW update of ``rules/second_order.py`` on the residual, in that
rule's state, so its fields are AROW's, in the slots ``second_order``'s functions read them
(``layouts/second_order.py``): hp (r, fit_intercept); for the diagonal layouts vecs (mu,
sigma) = μ and diag Σ and scal (bias, sigma_b) = μ_b and Σ_bb; for the full layout row MU =
μ (the bias coordinate last) followed by the D = d + 1 rows of Σ, and no scalars.
"""
from .base import Layout, fields
from ..rule_ids import (AROW_REGRESSION_DIAGONAL, AROW_REGRESSION_DIAGONAL_PRECISION,
                        AROW_REGRESSION_FULL, PA_REGRESSION)
from .averaging import averaged_layout
from .second_order import AROW_DIAGONAL_GROWS, AROW_FULL_GROWS
from .linear import (LINEAR_GROWS, AveragedLinearScal, AveragedLinearVec,
                     AveragedPassiveAggressiveHP, LinearScal, LinearVec, PassiveAggressiveHP)

PA_REGRESSION_LAYOUT = Layout(PA_REGRESSION, hp=PassiveAggressiveHP, scalars=LinearScal,
                              vectors=LinearVec, growth=LINEAR_GROWS, family="regression")
PA_REGRESSION_AVERAGED_LAYOUT = averaged_layout(PA_REGRESSION_LAYOUT,
                                                AveragedPassiveAggressiveHP,
                                                AveragedLinearScal, AveragedLinearVec)

AROWRegressionHP = fields("r", "fit_intercept")
AROWRegressionScal = fields("bias", "sigma_b")
AROWRegressionDiagonalVec = fields("mu", "sigma")
AROWRegressionFullVec = fields("mu")  # then the rows of Σ

AROW_REGRESSION_LAYOUTS = {
    "full": Layout(AROW_REGRESSION_FULL, hp=AROWRegressionHP, scalars=None,
                   vectors=AROWRegressionFullVec, variable_vectors=True,
                   growth=AROW_FULL_GROWS, family="second_order"),
    "diagonal": Layout(AROW_REGRESSION_DIAGONAL, hp=AROWRegressionHP,
                       scalars=AROWRegressionScal, vectors=AROWRegressionDiagonalVec,
                       growth=AROW_DIAGONAL_GROWS, family="second_order"),
    "diagonal-precision": Layout(AROW_REGRESSION_DIAGONAL_PRECISION, hp=AROWRegressionHP,
                                 scalars=AROWRegressionScal,
                                 vectors=AROWRegressionDiagonalVec,
                                 growth=AROW_DIAGONAL_GROWS, family="second_order"),
}
