"""The ``margin`` family: the large-margin baselines of Ho-Nguyen et al. 2025 (the OMM paper,
Table 1, App. B.3 and B.5), ℓ2 norm, and its dispatch.

  30  ROMMA             update when y·w·x̃ ≤ 0              (``romma.py``, Li & Long 2002)
  31  aggressive ROMMA  update when y·w·x̃ < 1              (``romma.py``)
  32  ALMA₂(α; B, C)                                     (``alma.py``, Gentile 2001)
  33  PUMMA (p = 2)     update when y(w·x + b) ≤ 1 − δ     (``pumma.py``, Ishibashi, Hatano &
                                                         Takeda 2008)

Layouts: ``layouts/margin.py``. Every rule keeps w = S·v (``kernels/scaled.py``); ROMMA and PUMMA
share the tracked vectors with cached norms, and ROMMA and ALMA the appended
constant coordinate, of ``margin_common.py``.
"""
from ..caching import jit
from ..rule_ids import AGGRESSIVE_ROMMA, ALMA2, PUMMA, ROMMA
from .alma import alma_score, alma_step
from .pumma import pumma_score, pumma_step
from .romma import romma_score, romma_step


@jit()
def family_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    if rule == ROMMA or rule == AGGRESSIVE_ROMMA:
        # One inlined copy for both (the flag is a run-time value): half the compile work.
        return romma_step(rule == AGGRESSIVE_ROMMA, idx, val, y, vecs, ints, scal, hp, fast)
    if rule == ALMA2:
        return alma_step(idx, val, y, vecs, ints, scal, hp, fast)
    if rule == PUMMA:
        return pumma_step(idx, val, y, vecs, ints, scal, hp, fast)
    raise ValueError("unknown rule id in the margin family")


@jit()
def family_score(rule, idx, val, vecs, ints, scal, hp, fast):
    if rule == ROMMA or rule == AGGRESSIVE_ROMMA:
        return romma_score(idx, val, vecs, ints, scal, hp, fast)
    if rule == ALMA2:
        return alma_score(idx, val, vecs, ints, scal, hp, fast)
    if rule == PUMMA:
        return pumma_score(idx, val, vecs, ints, scal, hp, fast)
    raise ValueError("unknown rule id in the margin family")
