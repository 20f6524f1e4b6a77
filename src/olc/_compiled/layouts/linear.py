"""Layouts of the ``linear`` family: the Perceptron and the Passive-Aggressive classifiers,
and the Passive-Aggressive step's hyper-parameters (shared with PA regression,
``layouts/regression.py``).

Both keep w in ``vecs[W]`` and the bias in ``scal[BIAS]``."""
from .base import Layout, fields, grows
from ..rule_ids import PASSIVE_AGGRESSIVE, PERCEPTRON
from .averaging import averaged_hp, averaged_layout, averaged_scalars, averaged_vectors

# Perceptron, PA (and PA regression, ``layouts/regression.py``) touch only x's coordinates.
LINEAR_GROWS = grows("w·x over x's support, w += τy·x on it, the bias a scalar")
LinearScal = fields("bias")
LinearVec = fields("w")

PerceptronHP = fields("eta", "fit_intercept", "mistake_only")
PERCEPTRON_LAYOUT = Layout(PERCEPTRON, hp=PerceptronHP, scalars=LinearScal, vectors=LinearVec,
                           growth=LINEAR_GROWS, family="linear")

# One Passive-Aggressive step over a loss (``rules/linear.py``, ``pa_step``), for
# classification and regression alike:
#   variant       PA_CLASSIC, PA_I or PA_II;
#   c             PA-I's cap on τ;
#   kappa         PA-II's κ in τ = ℓ/(‖x‖² + κ) — 1/(2C), computed by the learner as
#                 scikit-learn does (kept apart from c so that each formula gets its own
#                 value exactly, e.g. κ = λ for the textbook's ℓ2-loss regression);
#   epsilon       the ε of the ε-insensitive regression loss (0 for the hinge loss, which
#                 has none);
#   bias_in_norm  ‖x‖² counts the bias (classic PA, which solves its problem over (w, b)
#                 exactly; the textbook's augmented input (x, 1)).
PassiveAggressiveHP = fields("c", "kappa", "epsilon", "fit_intercept", "variant",
                             "bias_in_norm")
PA_CLASSIC, PA_I, PA_II = 0, 1, 2
# The loss of the PA step (fixed by the rule: not a hyper-parameter).
HINGE, EPSILON_INSENSITIVE = 0, 1
PASSIVE_AGGRESSIVE_LAYOUT = Layout(PASSIVE_AGGRESSIVE, hp=PassiveAggressiveHP,
                                   scalars=LinearScal, vectors=LinearVec,
                                   growth=LINEAR_GROWS, family="linear")

# Run-time extension of the perceptron's and the PA step's ``hp``, read past the layout's own
# fields (at ``len(PerceptronHP)`` / ``len(PassiveAggressiveHP)``) only when ``hp`` is that
# long: scikit-learn's ``_plain_sgd`` semantics for the ``olc.sklearn`` drop-ins.
#   row_weights      1: each row's target is copysign(weight, label) — the label is its
#                    sign (a weight of 0 keeps it as −0.0) and the step is multiplied by the
#                    weight (scikit-learn's ``update *= class_weight * sample_weight``; a step
#                    that is then 0 moves nothing, as there);
#   intercept_decay  the bias takes step × decay (scikit-learn's SPARSE_INTERCEPT_DECAY,
#                    0.01 on CSR input, else 1).
# A learner's own ``hp`` is exactly its layout's length, so its rules never read these: the
# layouts (and model files' fingerprints) and every existing learner's arithmetic are
# unchanged, and the type of ``hp`` (so the compiled code) is the same. Read by
# ``rules/linear.py``'s ``row_extension``.
SklearnHP = fields("row_weights", "intercept_decay")
PERCEPTRON_EXTENSION = len(PerceptronHP)
PA_EXTENSION = len(PassiveAggressiveHP)


# -- averaging (``average=``, ``layouts/averaging.py``): w and the bias, then the averaging state
AveragedLinearScal = averaged_scalars(LinearScal)
AveragedLinearVec = averaged_vectors(LinearVec)
AveragedPerceptronHP = averaged_hp(PerceptronHP)
AveragedPassiveAggressiveHP = averaged_hp(PassiveAggressiveHP)
PERCEPTRON_AVERAGED_LAYOUT = averaged_layout(PERCEPTRON_LAYOUT, AveragedPerceptronHP,
                                             AveragedLinearScal, AveragedLinearVec)
PASSIVE_AGGRESSIVE_AVERAGED_LAYOUT = averaged_layout(
    PASSIVE_AGGRESSIVE_LAYOUT, AveragedPassiveAggressiveHP, AveragedLinearScal,
    AveragedLinearVec)


def pa_hp_values(variant, c, fit_intercept, bias_in_norm, epsilon=0.0, kappa=None):
    """The PA step's hyper-parameters by name. ``kappa`` defaults to 1/(2C) (scikit-learn's
    ``0.5 / C``, in float64); classic PA uses neither c nor kappa."""
    c = float(c)
    return {"c": c, "kappa": 0.5 / c if kappa is None else kappa, "epsilon": epsilon,
            "fit_intercept": fit_intercept, "variant": variant,
            "bias_in_norm": bias_in_norm and fit_intercept}
