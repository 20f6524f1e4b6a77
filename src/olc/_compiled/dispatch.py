"""Integer dispatch from a rule id to its compiled functions.

One fixed table (not functions passed as arguments, not closures) so that the online loops are
compiled once and reused from numba's on-disk cache by every new process (DESIGN.md).

Rule ids by family (ranges are reserved so families can be added independently):
   1–9   core, inlined into the loops: perceptron, passive-aggressive, e-OMM (ℓ2)
  10–19  seed 000: regularized / norm-constrained PA, NORMA
  20–29  seed 001: Winnow, Weighted Majority, Randomized WM
  30–39  seed 002 baselines: ROMMA, aggressive ROMMA, ALMA, PUMMA
  40–49  seed 002: OMM variants (ℓp e-OMM, n-OMM)
  50–59  seed 003: generalized perceptron, OBPM
  60–79  seed 004: SGD, PA regression, AROW
Outside the core, each family module exposes ``<family>_step(rule, …)`` and
``<family>_score(rule, …)`` that dispatch among its own rules; those are *not* inlined here,
so each family is compiled once per layout instead of into every loop (compile time), at the
price of one call per row.
Adding a family: import its two functions and add one ``elif`` to each function below.
"""
import numba as nb

from .kernels import INLINE
from .rules.bayes_point import bayes_point_score, bayes_point_step
from .rules.experts import experts_score, experts_step
from .rules.linear import linear_score, passive_aggressive_step, perceptron_step
from .rules.margin import margin_score, margin_step
from .rules.omm import omm_score, omm_step
from .rules.omm_variants import omm_variants_score, omm_variants_step
from .rules.regression import regression_score, regression_step
from .rules.regularized import regularized_score, regularized_step
from .rules.second_order import second_order_score, second_order_step
from .rules.sgd import sgd_score, sgd_step

PERCEPTRON = 1
PASSIVE_AGGRESSIVE = 2
EFFICIENT_OMM_L2 = 3


@nb.njit(cache=True, inline=INLINE)
def rule_score(rule, idx, val, vecs, scal, hp, fast):
    if rule == EFFICIENT_OMM_L2:
        return omm_score(idx, val, vecs, scal, hp, fast)
    if rule < 10:
        return linear_score(idx, val, vecs, scal, hp, fast)
    # -- families (one elif each) --
    if 10 <= rule < 20:
        return regularized_score(rule, idx, val, vecs, scal, hp, fast)
    if 20 <= rule < 30:
        return experts_score(rule, idx, val, vecs, scal, hp, fast)
    if 30 <= rule < 40:
        return margin_score(rule, idx, val, vecs, scal, hp, fast)
    if 40 <= rule < 50:
        return omm_variants_score(rule, idx, val, vecs, scal, hp, fast)
    if 50 <= rule < 60:
        return bayes_point_score(rule, idx, val, vecs, scal, hp, fast)
    if 60 <= rule < 65:
        return sgd_score(rule, idx, val, vecs, scal, hp, fast)
    if 65 <= rule < 70:
        return second_order_score(rule, idx, val, vecs, scal, hp, fast)
    if 70 <= rule < 80:
        return regression_score(rule, idx, val, vecs, scal, hp, fast)
    raise ValueError("unknown rule id")


@nb.njit(cache=True, inline=INLINE)
def rule_step(rule, idx, val, y, vecs, scal, hp, fast):
    if rule == PERCEPTRON:
        return perceptron_step(idx, val, y, vecs, scal, hp, fast)
    if rule == PASSIVE_AGGRESSIVE:
        return passive_aggressive_step(idx, val, y, vecs, scal, hp, fast)
    if rule == EFFICIENT_OMM_L2:
        return omm_step(idx, val, y, vecs, scal, hp, fast)
    # -- families (one elif each) --
    if 10 <= rule < 20:
        return regularized_step(rule, idx, val, y, vecs, scal, hp, fast)
    if 20 <= rule < 30:
        return experts_step(rule, idx, val, y, vecs, scal, hp, fast)
    if 30 <= rule < 40:
        return margin_step(rule, idx, val, y, vecs, scal, hp, fast)
    if 40 <= rule < 50:
        return omm_variants_step(rule, idx, val, y, vecs, scal, hp, fast)
    if 50 <= rule < 60:
        return bayes_point_step(rule, idx, val, y, vecs, scal, hp, fast)
    if 60 <= rule < 65:
        return sgd_step(rule, idx, val, y, vecs, scal, hp, fast)
    if 65 <= rule < 70:
        return second_order_step(rule, idx, val, y, vecs, scal, hp, fast)
    if 70 <= rule < 80:
        return regression_step(rule, idx, val, y, vecs, scal, hp, fast)
    raise ValueError("unknown rule id")
