"""Passive-Aggressive regression (Crammer, Dekel, Keshet, Shalev-Shwartz & Singer, JMLR 2006,
§4 "regression"; the textbook chapter §31.2.2), the ``regression`` family. y is the real
target; the score is the prediction ŷ = w·x + b made before the update. Layouts:
``layouts/regression.py``.

PA_REGRESSION is the Passive-Aggressive step of ``rules/linear.py`` (``pa_step``) over the
ε-insensitive loss ℓ = max(0, |r| − ε), residual r = y − ŷ, step direction sign(r):
    PA     τ = ℓ/q
    PA-I   τ = min(C, ℓ/q)
    PA-II  τ = ℓ/(q + κ)
    w ← w + sign(r)·τ·x,  b ← b + sign(r)·τ  (with a bias),
where q = ‖x‖² (+1 when the bias counts in the norm, the textbook's augmented input (x, 1)).
The chapter's ℓ2-loss update θ ← θ + r/(‖x‖² + λ)·x is PA-II with ε = 0 and κ = λ; its
ℓ1-loss update θ ← θ + sign(r)·min(1/λ, |r|/‖x‖²)·x is PA-I with ε = 0 and C = 1/λ —
the learners pass those parameters, so both are computed by their own formulas.
q = 0 (x = 0 without a counted bias): PA and PA-I skip the round (τ would be ℓ/0), as
scikit-learn does; PA-II moves the bias only (τ = ℓ/κ), or nothing without a bias.

AROW regression (ids 72–74, recursive least squares, §31.3.3) is compiled with AROW in the
``second_order`` family (``rules/second_order.py``): the AROW rules allocate (numba's
reference-counted runtime in their loops, ``rule_ids.Family.allocates``), and sharing their
family would put PA regression in those loops, on valued rows only. Alone it runs without that
runtime and on binary rows (``Family.binary_rows``): measured, the drop-in regressor's five
epochs on binary CSR rows (d = 2^20, 50 a row) run at 1.77× scikit-learn's speed alone,
0.95× in AROW's family; on dense rows (d = 100) 1.48× and 1.15×
(``benchmarks/sklearn_dropin.py``).
"""
from ..caching import jit
from ..layouts.linear import EPSILON_INSENSITIVE
from ..rule_ids import PA_REGRESSION
from .linear import linear_score, pa_step


# -- family dispatchers (id 70) -------------------------------------------------------------------

@jit()
def family_score(rule, idx, val, vecs, ints, scal, hp, fast):
    if rule == PA_REGRESSION:
        return linear_score(idx, val, vecs, ints, scal, hp, fast)
    raise ValueError("unknown regression rule id")


@jit()
def family_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    if rule == PA_REGRESSION:
        return pa_step(EPSILON_INSENSITIVE, idx, val, y, vecs, ints, scal, hp, fast)
    raise ValueError("unknown regression rule id")
