"""Kernel learners that shrink their model: Shen & Dietterich's objective-regularized and
L2-constrained PA in kernel form (their §3.1, §3.2, §5), the self-tuned Forgetron (Dekel,
Shalev-Shwartz & Singer 2008) and kernel NORMA (Kivinen, Smola & Williamson 2004, §III-A).
The rules: ``olc._compiled.rules.kernel_regularized``; the pool: ``_framework.kernel_model``."""
from numbers import Integral, Real

from .._compiled.layouts.kernel import (FORGETRON_LAYOUT, KERNEL_L2_CONSTRAINED_PA_LAYOUT,
                                       KERNEL_NORMA_LAYOUT, KERNEL_REGULARIZED_PA_LAYOUT,
                                       SCHEDULE_CONSTANT, SCHEDULE_SQRT, UPDATE_ALWAYS,
                                       UPDATE_HINGE, UPDATE_MISTAKE)
from ._framework.constraints import Interval, StrOptions
from ._framework.kernel_model import (BUDGET, KERNEL_DOC, KERNEL_FAMILY_CONSTRAINTS,
                                     KernelClassifier)
from ._framework.validation import InputError

__all__ = ["Forgetron", "KernelL2ConstrainedPA", "KernelNORMA", "KernelRegularizedPA"]

_UPDATES = {"mistake": UPDATE_MISTAKE, "hinge": UPDATE_HINGE, "always": UPDATE_ALWAYS}
_SD_DOC = """    update : {"mistake", "hinge", "always"} (default "mistake"), when the problem is solved,
        as the linear learner: y·f(x) ≤ 0, y·f(x) < 1, or every round.
    budget : int ≥ 1 or None (default None): with B rows stored, the oldest one is removed
        after the update that adds a row (their §5: "removing the oldest one").
    The linear learner's small-weight removal σ (§3.3) acts on features and has no kernel
    form: it is not a parameter here.
"""
_SD_CONSTRAINTS = {**KERNEL_FAMILY_CONSTRAINTS, "budget": BUDGET,
                   "update": [StrOptions(set(_UPDATES))]}


class KernelRegularizedPA(KernelClassifier):
    __doc__ = """Objective-regularized PA in kernel form (Shen & Dietterich 2009, problem
    (3.1), Lemma 3.1): f ← (f + τ·y·k(x, ·))/(1 + α), τ = max(0, 1 + α − y·f(x))/k(x, x).

    The shrink 1/(1 + α) multiplies a lazy scale (O(1)); it forgets old rows geometrically,
    the Forgetron-like behaviour of their §5. k(x, x) = 0: infeasible, skipped.

    Parameters
    ----------
    alpha : float ≥ 0 (default 0.001).
""" + _SD_DOC + KERNEL_DOC

    _layout = KERNEL_REGULARIZED_PA_LAYOUT
    _parameter_constraints = {**_SD_CONSTRAINTS,
                              "alpha": [Interval(Real, 0, None, closed="left")]}

    def __init__(self, alpha=0.001, update="mistake", kernel="rbf", gamma=None, degree=3,
                 coef0=0.0, fit_intercept=False, budget=None, n_jobs=None):
        self.alpha = alpha
        self.update = update
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.fit_intercept = fit_intercept
        self.budget = budget
        self.n_jobs = n_jobs

    def _own_hp_values(self):
        return {"alpha": self.alpha, "update": _UPDATES[self.update]}


class KernelL2ConstrainedPA(KernelClassifier):
    __doc__ = """L2-norm-constrained PA in kernel form (Shen & Dietterich 2009, problem (3.9),
    Lemma 3.2): Z = max{1, √((‖f‖²k(x,x) − f(x)²)/(β²k(x,x) − 1))},
    τ = (ℓ + Z − 1)/k(x, x), f ← (f + τ·y·k(x, ·))/Z, with ‖f‖² (the RKHS norm) kept
    incrementally.

    Solved exactly as the linear learner, for every state: a margin ≥ 1 inside the ball
    (up to rounding, relative 1e-12) leaves f as is; the PA step τ = ℓ/k(x, x) when it stays
    in the ball; when ‖f‖ > β (possible after an oldest removal) and the ball projection
    f·β/‖f‖ keeps margin ≥ 1, that projection; otherwise both constraints are active and
    Lemma 3.2 applies, τ = max(0, Z − y·f(x))/k(x, x). β²k(x, x) < 1: infeasible, the round
    is skipped; = 1: f = y·k(x, ·)/k(x, x) (the one feasible point). After an oldest removal
    ‖f‖² is updated from f(x_r), O(n·d).

    Parameters
    ----------
    beta : float > 0 (default 10).
""" + _SD_DOC + KERNEL_DOC

    _layout = KERNEL_L2_CONSTRAINED_PA_LAYOUT
    _parameter_constraints = {**_SD_CONSTRAINTS,
                              "beta": [Interval(Real, 0, None, closed="neither")]}

    def __init__(self, beta=10.0, update="mistake", kernel="rbf", gamma=None, degree=3,
                 coef0=0.0, fit_intercept=False, budget=None, n_jobs=None):
        self.beta = beta
        self.update = update
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.fit_intercept = fit_intercept
        self.budget = budget
        self.n_jobs = n_jobs

    def _own_hp_values(self):
        return {"beta": self.beta, "update": _UPDATES[self.update]}


class Forgetron(KernelClassifier):
    __doc__ = """The self-tuned Forgetron (Dekel, Shalev-Shwartz & Singer 2008, §4): a kernel
    perceptron on a budget of B rows that, when a mistake would make B + 1, shrinks f by φ and
    removes the oldest row.

    On a mistake x is added with σ = 1; with B + 1 rows, r the oldest, μ = y_r f′(x_r) (f′:
    f with x added), φ = max{φ ∈ (0, 1] : Ψ(σ_r φ, μ) + Q ≤ (15/32)·M} with
    Ψ(λ, μ) = λ² + 2λ − 2λμ and M the mistakes so far (this one included), then
    f ← φ·f′ − φσ_r y_r k(x_r, ·) and Q ← Q + Ψ(σ_r φ, μ). μ costs O(B·d) per removal.
    [Decision] When no φ in (0, 1] satisfies the constraint, φ = the root of
    Ψ(σ_r φ, μ) = (15/32)M − Q clipped to [0, 1].

    budget : int ≥ 1 (default 100; the Forgetron has no unbounded form).
""" + KERNEL_DOC

    _layout = FORGETRON_LAYOUT
    _parameter_constraints = {**KERNEL_FAMILY_CONSTRAINTS,
                              "budget": [Interval(Integral, 1, None, closed="left")]}

    def __init__(self, kernel="rbf", gamma=None, degree=3, coef0=0.0, fit_intercept=False,
                 budget=100, n_jobs=None):
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.fit_intercept = fit_intercept
        self.budget = budget
        self.n_jobs = n_jobs

    def _own_hp_values(self):
        return {}


_SCHEDULES = {"constant": SCHEDULE_CONSTANT, "sqrt": SCHEDULE_SQRT}


class KernelNORMA(KernelClassifier):
    __doc__ = """Kernel NORMA (Kivinen, Smola & Williamson 2004, §III-A, classification):
    f ← (1 − η_t λ)·f + η_t σ_t y·k(x, ·), σ_t = [y·f(x) < ρ], η_t = η or η/√t.

    The shrink is a lazy scale. Truncation (§III-A): ``tau`` > 0 keeps the rows of the last
    τ steps only (after step t, 0-based, those stored at a step ≤ t − τ are dropped);
    ``budget`` keeps at most B rows (the oldest goes). With ``fit_intercept`` the bias is the
    constant kernel's coefficient sum: unlike the linear ``norma``'s separate bias it is
    shrunk and truncated with f.

    eta : float > 0 (default 0.1), lam : float ≥ 0 (default 0.01; η·λ < 1), rho : float ≥ 0
    (default 1), schedule : {"constant", "sqrt"}, as ``norma``. tau : int ≥ 1 or None
    (default None: no truncation by age). budget : int ≥ 1 or None (default None).
    ``updated``: σ_t = 1, or the shrink changed a non-empty f (λ > 0).
""" + KERNEL_DOC

    _layout = KERNEL_NORMA_LAYOUT
    _parameter_constraints = {**KERNEL_FAMILY_CONSTRAINTS, "budget": BUDGET,
                              "eta": [Interval(Real, 0, None, closed="neither")],
                              "lam": [Interval(Real, 0, None, closed="left")],
                              "rho": [Interval(Real, 0, None, closed="left")],
                              "schedule": [StrOptions(set(_SCHEDULES))],
                              "tau": [Interval(Integral, 1, None, closed="left"), None]}

    def __init__(self, eta=0.1, lam=0.01, rho=1.0, schedule="constant", tau=None, kernel="rbf",
                 gamma=None, degree=3, coef0=0.0, fit_intercept=False, budget=None,
                 n_jobs=None):
        self.eta = eta
        self.lam = lam
        self.rho = rho
        self.schedule = schedule
        self.tau = tau
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.fit_intercept = fit_intercept
        self.budget = budget
        self.n_jobs = n_jobs

    def _check_params(self):
        if not self.eta * self.lam < 1.0:
            raise InputError(f"eta * lam must be < 1 (the shrink factor 1 − ηλ must stay "
                             f"positive), got eta={self.eta!r}, lam={self.lam!r}")

    def _own_hp_values(self):
        return {"eta": self.eta, "lam": self.lam, "rho": self.rho,
                "schedule": _SCHEDULES[self.schedule], "tau": self.tau or 0}
