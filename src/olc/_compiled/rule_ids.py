"""Rule ids and compiled families: the one table that the learners, the compiled rules and the
loaders all import (pure Python: importing it compiles nothing).

A *rule* is one update rule (an integer id passed to the compiled loop); a *family* is a group
of rules compiled together, into one loop per input layout, the first time one of them is used
(``loader.py``). Running the perceptron therefore compiles the ``linear`` family only, never
OBPM or n-OMM.

Each family names its rule module, which defines ``family_score`` and ``family_step`` (the
dispatch among its own rules). Two things a family is made of are not listed here:
- its rules: each rule's layout declares its family (``Layout(..., family="linear")`` in
  ``layouts/<family>.py``), and :attr:`Family.rules` / :func:`family_of` collect those
  declarations (:func:`rules_of`; it imports the layout modules, plain Python with NumPy, on
  first use, never numba). A rule id is therefore written once, as its constant below, and
  adding a rule to an existing family touches no ``Family`` line;
- the compiled files its code depends on: what the rule module imports, collected by
  ``sources.closure``, so that its disk cache is keyed by exactly those files
  (``loader.fingerprint``).

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
# Kernel learners on a support-set pool (family "kernel")
KERNEL_PERCEPTRON = 90
KERNEL_PA = 91
KERNEL_REGULARIZED_PA = 92
KERNEL_L2_CONSTRAINED_PA = 93
FORGETRON = 94
RANDOMIZED_BUDGET_PERCEPTRON = 95
STOPTRON = 96
KERNEL_NORMA = 97
# Kernel learners with state beyond the pool (family "kernel_extra")
PROJECTRON = 110
BUDGET_PA = 111
KERNEL_OBPM = 112
# Online gradient descent on an approximate kernel feature map (family "feature_map")
FOGD = 113

# Compiled helpers every family uses (relative to this package), cached once for all families
# (``loader``); each loop template adds its own files (``loader.Template.sources``).
CORE_SOURCES = ("kernels/vector.py", "kernels/random.py", "kernels/scaled.py", "rule_ids.py",
                "caching.py", "loops/codes.py", "layouts/base.py")


@dataclass(frozen=True)
class Family:
    name: str
    # The rule ids compiled in this family, listed: a family registered from outside olc lists
    # them (register); olc's own families leave None, and ``rules`` collects them from the
    # layouts that declare the family (rules_of).
    listed_rules: tuple
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
    def rules(self):
        """The rule ids compiled in this family (sorted when collected from the layouts)."""
        if self.listed_rules is not None:
            return tuple(int(rule) for rule in self.listed_rules)
        return rules_of(self.name)

    @property
    def module_name(self):
        """The rule module's absolute name."""
        return importlib.util.resolve_name(self.module, __package__)


FAMILIES = {f.name: f for f in (
    Family("linear", None, ".rules.linear", "Perceptron, Passive-Aggressive", binary_rows=True),
    Family("omm", None, ".rules.omm", "Online Maximum Margin (ℓ2)", binary_rows=True),
    Family("regularized", None, ".rules.regularized",
           "regularized and norm-constrained PA, NORMA", allocates=True),
    Family("experts", None, ".rules.experts", "Winnow, (Randomized) Weighted Majority"),
    Family("margin", None, ".rules.margin", "ROMMA, aggressive ROMMA, ALMA, PUMMA"),
    Family("omm_variants", None, ".rules.omm_variants", "n-OMM, ℓp e-OMM", allocates=True),
    Family("bayes_point", None, ".rules.bayes_point",
           "generalized perceptron, Online Bayes Point Machine"),
    Family("sgd", None, ".rules.sgd", "SGD classification and regression", binary_rows=True),
    Family("second_order", None, ".rules.second_order", "AROW classification and regression",
           allocates=True),
    Family("regression", None, ".rules.regression", "PA regression", binary_rows=True),
    Family("multiclass_pa", None, ".rules.multiclass_pa", "multiclass Passive-Aggressive",
           multiclass=True),
    Family("kernel", None, ".rules.kernel", "kernel learners on a budget (support-set pool)"),
    Family("kernel_extra", None, ".rules.kernel_extra",
           "Projectron(++), budget PA, kernel OBPM (pool + extra state)"),
    Family("feature_map", None, ".rules.feature_map",
           "FOGD (random Fourier features, hinge OGD)"),
)}

#: olc's own rule ids are below this; a family registered from outside uses ids from it on.
FIRST_EXTERNAL_ID = 1000
_LISTED = {}     # rule id -> Family, of the families registered from outside olc
_collected = None  # rule id -> family name, from olc's layouts (collect)


def collect():
    """rule id -> family name, as olc's layouts declare it (``Layout(..., family=...)``):
    every module of ``olc._compiled.layouts`` is imported (plain Python, once) and the
    declarations its layouts made are read (``layouts.base.declared_families``)."""
    global _collected
    if _collected is None:
        import importlib
        import pkgutil

        from . import layouts
        from .layouts.base import declared_families

        for info in pkgutil.iter_modules(layouts.__path__):
            importlib.import_module(f"{layouts.__name__}.{info.name}")
        found = {rule: name for rule, name in declared_families().items()
                 if rule < FIRST_EXTERNAL_ID}
        unknown = sorted({name for name in found.values() if name not in FAMILIES})
        if unknown:
            raise ValueError(f"olc's layouts declare families {unknown}, which rule_ids does "
                             f"not know (a Family(...) line in FAMILIES)")
        _collected = found
    return _collected


def rules_of(family):
    """The rule ids of olc's family named ``family``, collected from its layouts."""
    return tuple(sorted(rule for rule, name in collect().items() if name == family))


def register(family):
    """Add ``family`` (a :class:`Family` whose ``module`` is an absolute module name outside
    olc, listing its rule ids, each ≥ ``FIRST_EXTERNAL_ID``) to the table, so that its
    learners compile and cache as olc's own. Registering the same family again is a no-op."""
    if FAMILIES.get(family.name) == family:
        return family
    if family.name in FAMILIES:
        raise ValueError(f"a compiled family named {family.name!r} exists already")
    if family.module.startswith("."):
        raise ValueError(f"family {family.name!r}: give its rule module's absolute name")
    if family.listed_rules is None:
        raise ValueError(f"family {family.name!r}: list its rule ids")
    for rule in family.listed_rules:
        if int(rule) < FIRST_EXTERNAL_ID or int(rule) in _LISTED:
            raise ValueError(f"family {family.name!r}: rule id {rule} is taken or below "
                             f"{FIRST_EXTERNAL_ID}")
    FAMILIES[family.name] = family
    _LISTED.update({int(rule): family for rule in family.listed_rules})
    return family


def family_of(rule):
    """The :class:`Family` that compiles ``rule``."""
    rule = int(rule)
    if rule in _LISTED:
        return _LISTED[rule]
    # A rule's layout is constructed before the rule runs (its learner holds it): its
    # declaration is then known without importing every layout module (collect, ~15 ms).
    from .layouts.base import declared_families

    name = declared_families().get(rule) if rule < FIRST_EXTERNAL_ID else None
    if name is None or name not in FAMILIES:
        name = collect().get(rule)
    if name is None:
        raise ValueError(f"unknown rule id {rule!r}")
    return FAMILIES[name]
