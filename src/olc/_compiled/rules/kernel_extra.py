"""The ``kernel_extra`` family's dispatchers (layouts: ``layouts/kernel_extra.py``): the
Projectron and Projectron++ and BPA-S (``rules/kernel_projection.py``) and the kernel OBPM
(``rules/kernel_obpm.py``), on the support-set pool of ``rules/support_set.py``. The rules receive the pool as P =
(vecs, ints): the pool by feature or the CSR pool (``rules/csr_pool.py``), as the ``kernel``
family's. Every step empties the scratch (the kernel row, d*, the members' flags) before it
returns."""
from ..caching import jit
from ..kernels.vector import INLINE
from ..rule_ids import BUDGET_PA, KERNEL_OBPM, PROJECTRON
from .kernel import kernel_score
from .kernel_obpm import clear_members, obpm_score, obpm_step
from .kernel_projection import budget_pa_step, clear_projection, projectron_step
from .support_set import clear_scratch


@jit(inline=INLINE)
def _cleared(vecs, scal, result):
    clear_scratch(vecs, scal)
    return result


@jit()
def family_score(rule, idx, val, vecs, ints, scal, hp, fast):
    pool = (vecs, ints)
    if rule == KERNEL_OBPM:
        f = obpm_score(idx, val, pool, ints, scal, hp, fast)
    else:
        f = kernel_score(idx, val, pool, ints, scal, hp, fast)
    clear_scratch(pool, scal)
    return f


@jit()
def family_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    pool = (vecs, ints)  # the pool (support_set): by feature or CSR
    if rule == PROJECTRON:
        result = projectron_step(idx, val, y, pool, ints, scal, hp, fast)
        clear_projection(pool, scal)
        return _cleared(pool, scal, result)
    if rule == BUDGET_PA:
        return _cleared(pool, scal, budget_pa_step(idx, val, y, pool, ints, scal, hp, fast))
    if rule == KERNEL_OBPM:
        result = obpm_step(idx, val, y, pool, ints, scal, hp, fast)
        clear_members(pool, scal, hp)
        return _cleared(pool, scal, result)
    raise ValueError("unknown rule id in the kernel_extra family")
