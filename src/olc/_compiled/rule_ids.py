"""Rule ids and compiled families: the one table that the learners, the compiled rules and the
loaders all import (pure Python: importing it compiles nothing).

A *rule* is one update rule (an integer id passed to the compiled loop); a *family* is a group
of rules compiled together, into one loop per input layout, the first time one of them is used
(``loader.py``). Running the perceptron therefore compiles the ``linear`` family only, never
OBPM or n-OMM.

Each family names its rule module, which defines ``family_score`` and ``family_step`` (the
dispatch among its own rules). The compiled files its code depends on are not listed here:
they are what the rule module imports, collected by ``sources.closure``, so that its disk
cache is keyed by exactly those files (``loader.fingerprint``).

A family written outside olc (its rule module in the user's package) joins the table with
:func:`register`; its rule ids must not collide with these (olc keeps ids below 1000).
"""
import importlib.util
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

# Compiled helpers every family uses (relative to this package), cached once for all families
# (``loader``); each loop template adds its own files (``loader.Template.sources``).
CORE_SOURCES = ("kernels/vector.py", "kernels/random.py", "kernels/scaled.py", "rule_ids.py",
                "caching.py", "loops/codes.py", "layouts/base.py")


@dataclass(frozen=True)
class Family:
    name: str
    rules: tuple          # rule ids compiled in this family
    # Its rule module, defines family_score / family_step: relative to this package
    # (".rules.linear"), or absolute for a family registered from outside olc.
    module: str
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

    @property
    def module_name(self):
        """The rule module's absolute name."""
        return importlib.util.resolve_name(self.module, __package__)


FAMILIES = {f.name: f for f in (
    Family("linear", (PERCEPTRON, PASSIVE_AGGRESSIVE), ".rules.linear",
           "Perceptron, Passive-Aggressive", binary_rows=True),
    Family("omm", (EFFICIENT_OMM_L2,), ".rules.omm", "Online Maximum Margin (ℓ2)",
           binary_rows=True),
    Family("regularized", (OBJECTIVE_PA, L2_CONSTRAINED_PA, L1_CONSTRAINED_PA, NORMA),
           ".rules.regularized", "regularized and norm-constrained PA, NORMA",
           allocates=True),
    Family("experts", (WINNOW, WEIGHTED_MAJORITY, RANDOMIZED_WEIGHTED_MAJORITY),
           ".rules.experts", "Winnow, (Randomized) Weighted Majority"),
    Family("margin", (ROMMA, AGGRESSIVE_ROMMA, ALMA2, PUMMA), ".rules.margin",
           "ROMMA, aggressive ROMMA, ALMA, PUMMA"),
    Family("omm_variants", (NAIVE_OMM, EFFICIENT_OMM_LP), ".rules.omm_variants",
           "n-OMM, ℓp e-OMM", allocates=True),
    Family("bayes_point", (GENERALIZED_PERCEPTRON, OBPM), ".rules.bayes_point",
           "generalized perceptron, Online Bayes Point Machine"),
    Family("sgd", (SGD, SGD_REGRESSION), ".rules.sgd", "SGD classification and regression",
           binary_rows=True),
    Family("second_order", (AROW_FULL, AROW_DIAGONAL, AROW_DIAGONAL_PRECISION,
                            AROW_REGRESSION_FULL, AROW_REGRESSION_DIAGONAL,
                            AROW_REGRESSION_DIAGONAL_PRECISION),
           ".rules.second_order", "AROW classification and regression", allocates=True),
    Family("regression", (PA_REGRESSION,), ".rules.regression", "PA regression",
           binary_rows=True),
    Family("multiclass_pa", (MULTICLASS_PA,), ".rules.multiclass_pa",
           "multiclass Passive-Aggressive", multiclass=True),
)}

_FAMILY_OF_RULE = {rule: family for family in FAMILIES.values() for rule in family.rules}
#: olc's own rule ids are below this; a family registered from outside uses ids from it on.
FIRST_EXTERNAL_ID = 1000


def register(family):
    """Add ``family`` (a :class:`Family` whose ``module`` is an absolute module name outside
    olc, its rule ids ≥ ``FIRST_EXTERNAL_ID``) to the table, so that its learners compile
    and cache as olc's own. Registering the same family again is a no-op."""
    if FAMILIES.get(family.name) == family:
        return family
    if family.name in FAMILIES:
        raise ValueError(f"a compiled family named {family.name!r} exists already")
    if family.module.startswith("."):
        raise ValueError(f"family {family.name!r}: give its rule module's absolute name")
    for rule in family.rules:
        if int(rule) < FIRST_EXTERNAL_ID or int(rule) in _FAMILY_OF_RULE:
            raise ValueError(f"family {family.name!r}: rule id {rule} is taken or below "
                             f"{FIRST_EXTERNAL_ID}")
    FAMILIES[family.name] = family
    _FAMILY_OF_RULE.update({int(rule): family for rule in family.rules})
    return family


def family_of(rule):
    """The :class:`Family` that compiles ``rule``."""
    try:
        return _FAMILY_OF_RULE[int(rule)]
    except KeyError:
        raise ValueError(f"unknown rule id {rule!r}") from None
