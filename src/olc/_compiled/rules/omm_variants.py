"""The ``omm_variants`` family (Ho-Nguyen et al. 2025, Algorithm 1 and §5.1): n-OMM, the
naïve implementation solved exactly (``rules/nomm.py``), and e-OMM for an ℓp norm
(``rules/omm_lp.py``); layouts in ``layouts/omm_variants.py``."""
from ..caching import jit
from ..rule_ids import NAIVE_OMM
from .nomm import nomm_score, nomm_step
from .omm_lp import lp_score, lp_step


# -- family dispatchers (not inlined: compiled once per layout) ------------------------------

@jit()
def family_score(rule, idx, val, vecs, ints, scal, hp, fast):
    if rule == NAIVE_OMM:
        return nomm_score(idx, val, vecs, ints, scal, hp, fast)
    return lp_score(idx, val, vecs, ints, scal, hp, fast)  # EFFICIENT_OMM_LP


@jit()
def family_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    if rule == NAIVE_OMM:
        return nomm_step(idx, val, y, vecs, ints, scal, hp, fast)
    return lp_step(idx, val, y, vecs, ints, scal, hp, fast)  # EFFICIENT_OMM_LP
