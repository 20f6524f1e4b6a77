"""Layout of the ``multiclass_pa`` family: the multiclass Passive-Aggressive learners of
Crammer, Dekel, Keshet, Shalev-Shwartz & Singer (2006), §7, with K prototype vectors.

The state is K per-class states stacked along a first axis, as a one-vs-rest learner's
(``olc.learners.multiclass``): class c's prototype w_c is ``vecs[c, W]``, its bias b_c
``scal[c, BIAS]``; the layout below is one class's part. Every class gets the same
hyper-parameters (the rule reads class 0's row of ``hp``):
  c              PA-I's cap on τ;
  kappa          PA-II's κ = 1/(2C) in τ = ℓ/(q + κ);
  fit_intercept  each class has a bias b_c, learned as one more coordinate of value 1
                 (it counts in q: ``rules/multiclass_pa.py``);
  variant        PA_CLASSIC, PA_I or PA_II (those of ``layouts/linear.py``).
"""
from ..layout import Layout, fields
from ..rule_ids import MULTICLASS_PA
from .linear import PA_CLASSIC, PA_I, PA_II, LinearScal, LinearVec

__all__ = ["MULTICLASS_PA_LAYOUT", "MulticlassPAHP", "PA_CLASSIC", "PA_I", "PA_II",
           "multiclass_pa_hp_values"]

MulticlassPAHP = fields("c", "kappa", "fit_intercept", "variant")
MULTICLASS_PA_LAYOUT = Layout(MULTICLASS_PA, hp=MulticlassPAHP, scalars=LinearScal,
                              vectors=LinearVec)


def multiclass_pa_hp_values(variant, c, fit_intercept):
    """The hyper-parameters by name; κ = 1/(2C) (``0.5 / C`` in float64, as the binary PA-II)."""
    c = float(c)
    return {"c": c, "kappa": 0.5 / c, "fit_intercept": fit_intercept, "variant": variant}
