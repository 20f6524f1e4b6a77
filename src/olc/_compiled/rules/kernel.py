"""The ``kernel`` family's dispatchers and its perceptron-type rules (layouts:
``layouts/kernel.py``; the pool: ``rules/support_set.py``). Every rule's step:

1. ‖x‖² (a NaN/inf row gives a non-finite value: the step returns it, nothing changed);
2. f_t(x) from one kernel row over the pool (KROW keeps k(x_s, x) for the update);
3. the rule's test and, on an update, the new row's room: a free slot, or the budget's
   removal, or (arrays full below the budget) GROW with an infinite score, before anything
   changed, so the loop stops, the learner doubles the arrays and resumes this row;
4. STEPS += 1 (the row's 0-based step index is STEPS before it: the born time of a stored
   row, the counter of the randomized budget perceptron's draw).

Rules here: the kernel perceptron (budget: oldest removal), the stoptron, the randomized
budget perceptron and the kernel PA, PA-I, PA-II; the regularized ones are in
``rules/kernel_regularized.py``.
"""
import math

from numba import types
from numba.extending import overload

from ..caching import jit
from ..kernels.random import uniform
from ..kernels.vector import INLINE, sign, sqnorm
from ..layouts.kernel import PA_I, PA_II
from ..layouts.kernel import KernelHP as KHP
from ..layouts.kernel import KernelScal as KS
from ..layouts.kernel import KERNEL_PA_LAYOUT, RANDOMIZED_BUDGET_PERCEPTRON_LAYOUT
from ..rule_ids import (FORGETRON, KERNEL_L2_CONSTRAINED_PA, KERNEL_NORMA, KERNEL_PA,
                        KERNEL_PERCEPTRON, KERNEL_REGULARIZED_PA, RANDOMIZED_BUDGET_PERCEPTRON,
                        STOPTRON)
from .kernel_regularized import forgetron_step, l2_pa_step, norma_step, regularized_pa_step
# the one-vs-rest loops' shared kernel rows (``loops/kernel_ovr.py``): among the family's sources
from .kernel_shared import share_row  # noqa: F401
from .support_set import (FULL, MUST_GROW, append, clear_scratch, kernel_row, kernel_value,
                          replace, room, room_for)

PAHP = KERNEL_PA_LAYOUT.hp
RBPHP = RANDOMIZED_BUDGET_PERCEPTRON_LAYOUT.hp
C, VARIANT, SEED = PAHP.C, PAHP.VARIANT, RBPHP.SEED
INF = math.inf
FILLED = True  # the marker of a filled pool (vecs, ints, FILLED): ``support_set.is_filled``


@jit(inline=INLINE)
def kernel_score(idx, val, vecs, ints, scal, hp, fast):
    """f(x); NaN for a row with a NaN/inf value."""
    xx = sqnorm(idx, val)
    if not math.isfinite(xx):
        return xx - xx
    return kernel_row(idx, val, xx, vecs, scal, hp, fast)


@jit(inline=INLINE)
def perceptron_step(idx, val, y, vecs, ints, scal, hp, fast, rule):
    """Kernel perceptron, stoptron and randomized budget perceptron: on a mistake
    (y·f(x) ≤ 0) store x with coefficient y. Full at the budget: the perceptron removes the
    oldest row, the stoptron stops (no update), the randomized budget perceptron removes the
    row at position ⌊u·B⌋, u = uniform(seed, 0, t)."""
    xx = sqnorm(idx, val)
    if not math.isfinite(xx):
        return xx, 1.0, False, 0.0
    f = kernel_row(idx, val, xx, vecs, scal, hp, fast)
    if not math.isfinite(f):
        return f, 1.0, False, 0.0
    upd = y * f <= 0.0
    if upd:
        space = room(vecs, scal, hp)
        if not (space == FULL and rule == STOPTRON):  # the stoptron stores nothing then
            space = room_for(idx, val, vecs, scal, hp)
        if space == MUST_GROW:
            return INF, 1.0, False, 0.0
        coef = y / scal[KS.SCALE]
        if space == FULL:
            if rule == STOPTRON:
                upd = False
            elif rule == RANDOMIZED_BUDGET_PERCEPTRON:
                u = uniform(hp[SEED], 0, scal[KS.STEPS])
                replace(idx, val, xx, vecs, scal, int(u * hp[KHP.BUDGET]), coef)
            else:
                replace(idx, val, xx, vecs, scal, 0, coef)
        else:
            append(idx, val, xx, vecs, scal, coef)
    scal[KS.STEPS] += 1.0
    return f, sign(f), upd, 0.0


@jit(inline=INLINE)
def pa_step(idx, val, y, vecs, ints, scal, hp, fast):
    """Kernel PA / PA-I / PA-II (Crammer et al. 2006, Fig. 1 with k(x, x) for ‖x‖²): on a
    positive hinge loss ℓ = 1 − y·f(x), store x with coefficient τ·y, τ = ℓ/k(x, x),
    min(C, ℓ/k(x, x)) or ℓ/(k(x, x) + 1/(2C)). k(x, x) = 0 (x = 0, no intercept): PA and
    PA-I skip the round (the constraint cannot be met); PA-II's τ is finite and x is stored
    (k(x, ·) = 0: f does not change), as the linear PA-II reports an update there. Full at the
    budget: the oldest row is removed. ``aux``: τ."""
    xx = sqnorm(idx, val)
    if not math.isfinite(xx):
        return xx, 1.0, False, 0.0
    f = kernel_row(idx, val, xx, vecs, scal, hp, fast)
    if not math.isfinite(f):
        return f, 1.0, False, 0.0
    loss = 1.0 - y * f
    kxx = _self_kernel(hp, vecs, xx)
    tau = 0.0
    upd = loss > 0.0 and (kxx > 0.0 or hp[VARIANT] == PA_II)  # PA-II: τ finite at k = 0
    if upd:
        variant = hp[VARIANT]
        if variant == PA_II:
            tau = loss / (kxx + 0.5 / hp[C])
        else:
            tau = loss / kxx
            if variant == PA_I and tau > hp[C]:
                tau = hp[C]
        coef = tau * y / scal[KS.SCALE]
        if not math.isfinite(coef):
            return INF, 1.0, False, 0.0
        space = room_for(idx, val, vecs, scal, hp)
        if space == MUST_GROW:
            return INF, 1.0, False, 0.0
        if space == FULL:
            replace(idx, val, xx, vecs, scal, 0, coef)
        else:
            append(idx, val, xx, vecs, scal, coef)
    scal[KS.STEPS] += 1.0
    return f, sign(f), upd, tau


@jit(inline=INLINE)
def _self_kernel(hp, vecs, xx):
    return kernel_value(hp, vecs, xx, xx, xx)


def pool_of(vecs, ints):  # pragma: no cover - compiled only
    raise NotImplementedError


@overload(pool_of, inline="always")
def _pool_of(vecs, ints):
    """The pool the rules receive as ``vecs``: (vecs, ints) (``support_set``), or, when
    ``vecs`` comes as (vecs, FILLED), the filled pool (vecs, ints, FILLED) whose KROW already
    holds x's kernel row (``support_set.is_filled``): decided by the type."""
    if isinstance(vecs, types.BaseTuple):
        return lambda vecs, ints: (vecs[0], ints, vecs[1])
    return lambda vecs, ints: (vecs, ints)


@jit()
def family_score(rule, idx, val, vecs, ints, scal, hp, fast):
    pool = pool_of(vecs, ints)
    f = kernel_score(idx, val, pool, ints, scal, hp, fast)
    clear_scratch(pool, scal)
    return f


@jit(inline=INLINE)
def _cleared(vecs, scal, result):
    """``result`` after emptying the scratch (``support_set.clear_scratch``)."""
    clear_scratch(vecs, scal)
    return result


@jit()
def family_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    """The rules receive the pool (:func:`pool_of`) as ``vecs``."""
    pool = pool_of(vecs, ints)
    if rule == KERNEL_PA:
        return _cleared(pool, scal, pa_step(idx, val, y, pool, ints, scal, hp, fast))
    if rule == KERNEL_REGULARIZED_PA:
        return _cleared(pool, scal,
                        regularized_pa_step(idx, val, y, pool, ints, scal, hp, fast))
    if rule == KERNEL_L2_CONSTRAINED_PA:
        return _cleared(pool, scal, l2_pa_step(idx, val, y, pool, ints, scal, hp, fast))
    if rule == FORGETRON:
        return _cleared(pool, scal, forgetron_step(idx, val, y, pool, ints, scal, hp, fast))
    if rule == KERNEL_NORMA:
        return _cleared(pool, scal, norma_step(idx, val, y, pool, ints, scal, hp, fast))
    if rule == KERNEL_PERCEPTRON or rule == STOPTRON or rule == RANDOMIZED_BUDGET_PERCEPTRON:
        return _cleared(pool, scal,
                        perceptron_step(idx, val, y, pool, ints, scal, hp, fast, rule))
    raise ValueError("unknown rule id in the kernel family")


@jit(inline=INLINE)
def filled_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    """:func:`family_step` with KROW already holding x's kernel row (one-vs-rest's shared
    kernel rows, ``rules/kernel_shared.py``): the same rule code, on the same state."""
    return family_step(rule, idx, val, y, (vecs, FILLED), ints, scal, hp, fast)


@jit(inline=INLINE)
def filled_score(rule, idx, val, vecs, ints, scal, hp, fast):
    """:func:`family_score` with KROW already holding x's kernel row."""
    return family_score(rule, idx, val, (vecs, FILLED), ints, scal, hp, fast)
