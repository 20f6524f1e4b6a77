"""Kernel learners on a support-set pool, the perceptron family and the kernel PA: the kernel
perceptron (Rosenblatt 1958 in dual form; Freund & Schapire 1999), the Stoptron (Orabona,
Keshet & Caputo 2009, §6), the randomized budget perceptron (Cavallanti, Cesa-Bianchi &
Gentile 2007, §3) and the kernel PA, PA-I, PA-II (Crammer et al. 2006, Fig. 1, kernel form
of §3). The rules: ``olc._compiled.rules.kernel``; the pool: ``_framework.kernel_model``."""
from numbers import Integral, Real

from .._compiled.layouts.kernel import (KERNEL_PA_LAYOUT, KERNEL_PERCEPTRON_LAYOUT, PA_CLASSIC,
                                       PA_I, PA_II, RANDOMIZED_BUDGET_PERCEPTRON_LAYOUT,
                                       STOPTRON_LAYOUT)
from ._framework.constraints import Interval
from ._framework.kernel_model import (BUDGET, KERNEL_DOC, KERNEL_FAMILY_CONSTRAINTS,
                                     KernelClassifier)
from ._framework.validation import check_seed

__all__ = ["KernelPerceptron", "KernelPassiveAggressive", "KernelPassiveAggressiveI",
           "KernelPassiveAggressiveII", "RandomizedBudgetPerceptron", "Stoptron"]


class KernelPerceptron(KernelClassifier):
    __doc__ = """Kernel perceptron: on a mistake y·f(x) ≤ 0 (a zero score counts), x is stored
    with coefficient y; f(x) = Σ_s y_s k(x_s, x).

    The dual form of the perceptron (Rosenblatt 1958; Freund & Schapire 1999, §2, without
    voting). budget : int ≥ 1 or None (default None: every mistake is kept). With a budget
    the oldest stored row is removed to make room (the oldest-removal rule of Shen &
    Dietterich 2009, §5, on the plain perceptron: the Forgetron without its shrink).
""" + KERNEL_DOC

    _layout = KERNEL_PERCEPTRON_LAYOUT
    _parameter_constraints = {**KERNEL_FAMILY_CONSTRAINTS, "budget": BUDGET}

    def __init__(self, kernel="rbf", gamma=None, degree=3, coef0=0.0, fit_intercept=False,
                 budget=None, n_jobs=None):
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.fit_intercept = fit_intercept
        self.budget = budget
        self.n_jobs = n_jobs

    def _own_hp_values(self):
        return {}


class Stoptron(KernelPerceptron):
    __doc__ = """Stoptron: the kernel perceptron that stops updating once its pool holds
    ``budget`` rows (Orabona, Keshet & Caputo 2009, §6, their baseline).

    budget : int ≥ 1 (default 100); None makes it the kernel perceptron.
""" + KERNEL_DOC

    _layout = STOPTRON_LAYOUT

    def __init__(self, kernel="rbf", gamma=None, degree=3, coef0=0.0, fit_intercept=False,
                 budget=100, n_jobs=None):
        super().__init__(kernel, gamma, degree, coef0, fit_intercept, budget, n_jobs)


class RandomizedBudgetPerceptron(KernelPerceptron):
    __doc__ = """Randomized budget perceptron (Cavallanti, Cesa-Bianchi & Gentile 2007,
    §3): the kernel perceptron that, on a mistake with ``budget`` rows stored, first removes
    one of them uniformly at random.

    The draw at step t (0-based over the learner's lifetime) is u = uniform(seed, 0, t) of
    ``olc._compiled.kernels.random`` and the row at position ⌊u·B⌋ (oldest first) goes, so
    results do not depend on chunking or save/load.

    budget : int ≥ 1 (default 100). seed : int ≥ 0 (default 0).
""" + KERNEL_DOC

    _layout = RANDOMIZED_BUDGET_PERCEPTRON_LAYOUT
    _parameter_constraints = {**KERNEL_FAMILY_CONSTRAINTS,
                              "budget": [Interval(Integral, 1, None, closed="left")],
                              "seed": [Interval(Integral, 0, None, closed="left")]}

    def __init__(self, kernel="rbf", gamma=None, degree=3, coef0=0.0, fit_intercept=False,
                 budget=100, seed=0, n_jobs=None):
        super().__init__(kernel, gamma, degree, coef0, fit_intercept, budget, n_jobs)
        self.seed = seed

    def _own_hp_values(self):
        return {"seed": check_seed(self.seed)}


_C = [Interval(Real, 0, None, closed="neither")]
_PA_DOC = """
    On a positive hinge loss ℓ = 1 − y·f(x), x is stored with coefficient τ·y (Crammer et al.
    2006, Fig. 1 with ‖x‖² replaced by k(x, x), §3's kernel form); k(x, x) = 0 (x = 0
    without an intercept, linear or poly kernel at 0) skips the round, as the linear PA.
    With ``fit_intercept`` the constant 1 of the kernel counts in k(x, x) (the augmented
    input (x, 1), for every variant). budget : int ≥ 1 or None (default None): the oldest
    stored row is removed to make room (Shen & Dietterich 2009, §5's strategy).
"""


class _KernelPABase(KernelClassifier):
    _layout = KERNEL_PA_LAYOUT
    _variant = PA_CLASSIC

    def _own_hp_values(self):
        return {"c": getattr(self, "C", 1.0), "variant": self._variant}


class KernelPassiveAggressive(_KernelPABase):
    __doc__ = """Kernel PA: τ = ℓ/k(x, x).
""" + _PA_DOC + KERNEL_DOC

    _parameter_constraints = {**KERNEL_FAMILY_CONSTRAINTS, "budget": BUDGET}

    def __init__(self, kernel="rbf", gamma=None, degree=3, coef0=0.0, fit_intercept=False,
                 budget=None, n_jobs=None):
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.fit_intercept = fit_intercept
        self.budget = budget
        self.n_jobs = n_jobs


class KernelPassiveAggressiveI(_KernelPABase):
    __doc__ = """Kernel PA-I: τ = min(C, ℓ/k(x, x)); C > 0 (default 1).
""" + _PA_DOC + KERNEL_DOC

    _variant = PA_I
    _parameter_constraints = {**KERNEL_FAMILY_CONSTRAINTS, "budget": BUDGET, "C": _C}

    def __init__(self, C=1.0, kernel="rbf", gamma=None, degree=3, coef0=0.0,
                 fit_intercept=False, budget=None, n_jobs=None):
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.fit_intercept = fit_intercept
        self.budget = budget
        self.n_jobs = n_jobs


class KernelPassiveAggressiveII(KernelPassiveAggressiveI):
    __doc__ = """Kernel PA-II: τ = ℓ/(k(x, x) + 1/(2C)); C > 0 (default 1).
""" + _PA_DOC + KERNEL_DOC

    _variant = PA_II
