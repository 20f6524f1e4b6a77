"""Integer dispatch from a rule id to its compiled functions.

One fixed table (not functions passed as arguments, not closures) so that the online loops are
compiled once and reused from numba's on-disk cache by every new process (DESIGN.md).
Adding a rule: give it an id here and a branch in ``rule_score`` and ``rule_step``.
"""
import numba as nb

from .kernels import INLINE

from .rules.linear import linear_score, passive_aggressive_step, perceptron_step
from .rules.omm import omm_score, omm_step

PERCEPTRON = 1
PASSIVE_AGGRESSIVE = 2
EFFICIENT_OMM_L2 = 3


@nb.njit(cache=True, inline=INLINE)
def rule_score(rule, idx, val, vecs, scal, hp, fast):
    if rule == EFFICIENT_OMM_L2:
        return omm_score(idx, val, vecs, scal, hp, fast)
    return linear_score(idx, val, vecs, scal, hp, fast)


@nb.njit(cache=True, inline=INLINE)
def rule_step(rule, idx, val, y, vecs, scal, hp, fast):
    if rule == PERCEPTRON:
        return perceptron_step(idx, val, y, vecs, scal, hp, fast)
    if rule == PASSIVE_AGGRESSIVE:
        return passive_aggressive_step(idx, val, y, vecs, scal, hp, fast)
    if rule == EFFICIENT_OMM_L2:
        return omm_step(idx, val, y, vecs, scal, hp, fast)
    raise ValueError("unknown rule id")
