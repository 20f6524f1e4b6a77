"""Rule ids and compiled families: the one table that the learners, the compiled rules and the
loaders all import (pure Python: importing it compiles nothing).

A *rule* is one update rule (an integer id passed to the compiled loop); a *family* is a group
of rules compiled together, into one loop per input layout, the first time one of them is used
(``loader.py``). Running the perceptron therefore compiles the ``linear`` family only, never
OBPM or n-OMM.

Each family names its rule module (which defines ``family_score`` and ``family_step``, the
dispatch among its own rules) and every compiled source file its code depends on, so that its
disk cache is keyed by exactly those files (``loader.fingerprint``).
"""
from dataclasses import dataclass

# Perceptron and Passive-Aggressive (family "linear")
PERCEPTRON = 1
PASSIVE_AGGRESSIVE = 2
# Online Maximum Margin, ℓ2 closed form (family "omm")
EFFICIENT_OMM_L2 = 3
# Shen & Dietterich's regularized PA learners and NORMA (family "regularized")
OBJECTIVE_PA = 10
L2_CONSTRAINED_PA = 11
L1_CONSTRAINED_PA = 12
NORMA = 13
# Winnow and the experts algorithms (family "experts")
WINNOW = 20
WEIGHTED_MAJORITY = 21
RANDOMIZED_WEIGHTED_MAJORITY = 22
# Large-margin baselines of the OMM paper (family "margin")
ROMMA = 30
AGGRESSIVE_ROMMA = 31
ALMA2 = 32
PUMMA = 33
# OMM variants (family "omm_variants")
NAIVE_OMM = 40
EFFICIENT_OMM_LP = 41
# Bayes point learners (family "bayes_point")
GENERALIZED_PERCEPTRON = 50
OBPM = 51
# Stochastic gradient descent (family "sgd")
SGD = 60
SGD_REGRESSION = 61
# AROW (family "second_order", with AROW regression: ids 72-74)
AROW_FULL = 65
AROW_DIAGONAL = 66
AROW_DIAGONAL_PRECISION = 67
# PA regression (family "regression")
PA_REGRESSION = 70
# AROW regression (family "second_order")
AROW_REGRESSION_FULL = 72
AROW_REGRESSION_DIAGONAL = 73
AROW_REGRESSION_DIAGONAL_PRECISION = 74
# Multiclass Passive-Aggressive, K prototypes (family "multiclass_pa")
MULTICLASS_PA = 80

# Compiled helpers every family uses (relative to this package). The loader (``loader.py``)
# is not compiled code; each loop template adds its own files (``loader.Template.sources``).
CORE_SOURCES = ("kernels/vector.py", "kernels/random.py", "kernels/scaled.py", "rule_ids.py",
                "caching.py", "loops/codes.py", "layouts/base.py")
# The averaging kernel and its layout (``average=``), in the families whose rules average.
AVERAGING_SOURCES = ("kernels/averaging.py", "layouts/averaging.py")


@dataclass(frozen=True)
class Family:
    name: str
    rules: tuple          # rule ids compiled in this family
    module: str           # rule module (relative), defines family_score / family_step
    sources: tuple        # compiled source files besides CORE_SOURCES (relative paths)
    description: str
    # The family's rules allocate arrays (np.empty, np.sort) somewhere in the code the loops
    # call, which needs numba's reference-counted runtime (NRT) in the loops. The others'
    # loops are compiled without it: with NRT every row view (X[i], vecs[W]) costs atomic
    # reference-count updates, measured at ~40 % of the dense perceptron loop (loops/binary.py).
    allocates: bool = False
    # The family's rules read a CSR row's values only through the kernels (dot, axpy,
    # sqnorm, the scaled-vector kernel), which take val = None for a binary row: the CSR
    # loops then pass binary input as such (loops/binary.py), compiling each rule a second time.
    binary_rows: bool = False
    # The rules are genuinely multiclass (K prototype vectors, one step per row that sees
    # every class): their loops come from the ``loops/multiclass.py`` template, whose rule
    # step takes the K stacked states and the class index (binary families:
    # ``loops/binary.py``, one binary state and a ±1 label; their one-vs-rest loops:
    # ``loops/one_vs_rest.py``).
    multiclass: bool = False


FAMILIES = {f.name: f for f in (
    Family("linear", (PERCEPTRON, PASSIVE_AGGRESSIVE), "rules.linear",
           ("rules/linear.py", "layouts/linear.py") + AVERAGING_SOURCES,
           "Perceptron, Passive-Aggressive",
           binary_rows=True),
    Family("omm", (EFFICIENT_OMM_L2,), "rules.omm",
           ("rules/omm.py", "layouts/omm.py"), "Online Maximum Margin (ℓ2)",
           binary_rows=True),
    Family("regularized", (OBJECTIVE_PA, L2_CONSTRAINED_PA, L1_CONSTRAINED_PA, NORMA),
           "rules.regularized",
           ("rules/regularized.py", "rules/shen_dietterich.py", "rules/l1_ball.py",
            "rules/norma.py", "layouts/regularized.py"),
           "regularized and norm-constrained PA, NORMA", allocates=True),
    Family("experts", (WINNOW, WEIGHTED_MAJORITY, RANDOMIZED_WEIGHTED_MAJORITY),
           "rules.experts", ("rules/experts.py", "layouts/experts.py"),
           "Winnow, (Randomized) Weighted Majority"),
    Family("margin", (ROMMA, AGGRESSIVE_ROMMA, ALMA2, PUMMA), "rules.margin",
           ("rules/margin.py", "rules/romma.py", "rules/alma.py", "rules/pumma.py",
            "rules/margin_common.py", "layouts/margin.py"),
           "ROMMA, aggressive ROMMA, ALMA, PUMMA"),
    Family("omm_variants", (NAIVE_OMM, EFFICIENT_OMM_LP), "rules.omm_variants",
           ("rules/omm_variants.py", "rules/nomm.py", "rules/omm_lp.py", "rules/omm.py",
            "rules/omm_geometry/nearest_point.py", "rules/omm_geometry/thin_qr.py",
            "layouts/omm_variants.py", "layouts/omm.py"),
           "n-OMM, ℓp e-OMM", allocates=True),
    Family("bayes_point", (GENERALIZED_PERCEPTRON, OBPM), "rules.bayes_point",
           ("rules/bayes_point.py", "rules/linear.py", "layouts/bayes_point.py",
            "layouts/linear.py") + AVERAGING_SOURCES,
           "generalized perceptron, Online Bayes Point Machine"),
    Family("sgd", (SGD, SGD_REGRESSION), "rules.sgd",
           ("rules/sgd.py", "rules/sgd_penalty.py", "layouts/sgd.py", "rules/linear.py",
            "layouts/linear.py") + AVERAGING_SOURCES,
           "SGD classification and regression", binary_rows=True),
    Family("second_order", (AROW_FULL, AROW_DIAGONAL, AROW_DIAGONAL_PRECISION,
                            AROW_REGRESSION_FULL, AROW_REGRESSION_DIAGONAL,
                            AROW_REGRESSION_DIAGONAL_PRECISION),
           "rules.second_order", ("rules/second_order.py", "layouts/second_order.py"),
           "AROW classification and regression", allocates=True),
    Family("regression", (PA_REGRESSION,), "rules.regression",
           ("rules/regression.py", "rules/linear.py", "layouts/linear.py") + AVERAGING_SOURCES,
           "PA regression", binary_rows=True),
    Family("multiclass_pa", (MULTICLASS_PA,), "rules.multiclass_pa",
           ("rules/multiclass_pa.py", "layouts/multiclass_pa.py", "layouts/linear.py",
            "layouts/averaging.py"),
           "multiclass Passive-Aggressive", multiclass=True),
)}

_FAMILY_OF_RULE = {rule: family for family in FAMILIES.values() for rule in family.rules}


def family_of(rule):
    """The :class:`Family` that compiles ``rule``."""
    try:
        return _FAMILY_OF_RULE[int(rule)]
    except KeyError:
        raise ValueError(f"unknown rule id {rule!r}") from None
