"""Kernel learners with state beyond the support-set pool, and BPA-S: the Projectron and
Projectron++ (Orabona, Keshet & Caputo 2009), the budgeted PA BPA-S (Wang & Vucetic 2010)
and the kernel Online Bayes Point Machine (Harrington et al. 2003, §3). The rules:
``olc._compiled.rules.kernel_projection`` and ``kernel_obpm``; the extra state:
``_framework.kernel_extra_model``."""
from numbers import Integral, Real

import numpy as np

from .._compiled.layouts.kernel_extra import (BUDGET_PA_LAYOUT, KERNEL_OBPM_LAYOUT,
                                             PROJECTRON_LAYOUT, PROJECTRON_SQUARED_LAYOUT)
from ._framework.constraints import Interval, StrOptions
from ._framework.kernel_extra_model import KernelExtraClassifier
from ._framework.kernel_model import (BUDGET, KERNEL_DOC,
                                     KERNEL_FAMILY_CONSTRAINTS, KernelClassifier)
from ._framework.validation import SEED_LIMIT, InputError, check_seed

__all__ = ["BudgetPA", "KernelOBPM", "Projectron", "ProjectronPlusPlus"]

_ETA = [Interval(Real, 0, None, closed="left")]
#: What η bounds: the distance ‖δ_t‖ (the default) or its square (the authors' MATLAB code).
THRESHOLDS = ("norm", "squared_norm")


class _ThresholdLayout:
    """``_layout`` of the Projectrons: the squared reading's layout (one more hp field) when
    the instance asks for it, else the default's (also when read on the class, and for an
    invalid value, which the constraints refuse before any use)."""

    def __get__(self, learner, owner=None):
        if learner is not None and getattr(learner, "threshold_on", "norm") == "squared_norm":
            return PROJECTRON_SQUARED_LAYOUT
        return PROJECTRON_LAYOUT


class Projectron(KernelExtraClassifier):
    __doc__ = """Projectron: the kernel perceptron that, on a mistake, adds the projection of
    y·k(x, ·) onto the span of its stored rows instead of storing x when x lies within η of
    that span (Orabona, Keshet & Caputo 2009, JMLR 10:2643–2666, §3, Fig. 1).

    On a mistake y·f(x) ≤ 0 (a zero score counts): d* = K⁻¹k_t (K the stored rows' Gram
    matrix, k_t their kernel values at x), δ_t = P_{t−1}k(x, ·) − k(x, ·) with
    ‖δ_t‖² = k(x, x) − k_tᵀd*. If ‖δ_t‖ ≤ η: f ← f + y·P_{t−1}k(x, ·), i.e. the stored
    coefficients move by y·d* (an empty pool has no span: the round changes nothing);
    else x is stored with coefficient y and K⁻¹ grows by its block inverse (O(n²)).

    What η bounds, ``threshold_on``: "norm" (default) tests ‖δ_t‖ ≤ η, the reading of the
    mistake bound, where η enters through ⟨g, δ_t⟩ ≤ ‖g‖·‖δ_t‖ ≤ ‖g‖η; "squared_norm" tests
    ‖δ_t‖² ≤ η, as the first author's own MATLAB code does (DOGMA, k_projectron_train.m and
    k_projectron2_train.m; on Projectron++'s margin errors it also uses ‖δ_t‖²/η). The
    paper's text was not at hand to settle which its Fig. 1 prints, so the default stays the
    norm. On a mistake "squared_norm" with η is "norm" with √η (the same at η = 1); on a
    Projectron++ margin error it is not (‖δ_t‖²/η against ‖δ_t‖/η). η = 0: a row is
    projected only when it lies in the span, where the projection is the row itself: the
    kernel perceptron (either reading). ‖δ_t‖ ≤ ‖k(x, ·)‖ = √k(x, x) (the empty pool's
    span is {0}), so with k(x, x) ≤ 1 (RBF) η ≥ 1 never stores a row under either reading:
    the pool stays empty (DOGMA's code behaves the same).

    eta : float ≥ 0 (default 0.1). threshold_on : {"norm", "squared_norm"} (default
    "norm"). No budget: the pool is bounded through η (their Theorem 2: finite for a
    continuous kernel on a compact domain). ``aux`` of the record: ‖δ_t‖ (the norm, either
    reading) when computed, else 0.
""" + KERNEL_DOC

    _layout = _ThresholdLayout()
    _plus = 0.0
    _parameter_constraints = {**KERNEL_FAMILY_CONSTRAINTS, "eta": _ETA,
                              "threshold_on": [StrOptions(set(THRESHOLDS))]}

    def __init__(self, eta=0.1, kernel="rbf", gamma=None, degree=3, coef0=0.0,
                 fit_intercept=False, n_jobs=None, threshold_on="norm"):
        self.eta = eta
        self.threshold_on = threshold_on
        self.n_jobs = n_jobs
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.fit_intercept = fit_intercept

    def _budget(self):
        return None

    def _own_hp_values(self):
        values = {"eta": self.eta, "plus": self._plus}
        if self.threshold_on == "squared_norm":
            values["squared"] = 1.0
        return values

    def _extra_shape(self):
        return True, 1, 0  # K⁻¹ (cap × cap) and the scratch d*

    def _check_extra(self, stored, core, parts, n):
        inverse, scratch, _ = parts
        if np.any(scratch != 0.0):
            return "scal 'projection': the scratch d* must be zero between rows"
        if np.any(inverse[n:, :] != 0.0) or np.any(inverse[:, n:] != 0.0):
            return "scal 'inverse_gram': entries beyond 'n_stored' must be zero"
        inv = inverse[:n, :n]
        if not np.array_equal(inv, inv.T):
            return "scal 'inverse_gram': the inverse Gram matrix is not symmetric"
        gram = self._stored_gram(stored)
        residual = np.abs(gram @ inv - np.eye(n)).max() if n else 0.0
        scale = (np.abs(gram).sum(1).max() * np.abs(inv).sum(1).max()) if n else 1.0
        if not residual <= 1e-8 * max(scale, 1.0):
            return (f"scal 'inverse_gram': not the inverse of the stored rows' Gram matrix "
                    f"(max |K·K⁻¹ − I| = {residual:.3g}): the pool disagrees with it")
        return None


class ProjectronPlusPlus(Projectron):
    __doc__ = """Projectron++: the Projectron that also learns from margin errors
    (Orabona, Keshet & Caputo 2009, §4, Fig. 2), never storing a row for them.

    Mistakes as the Projectron. On a margin error 0 < y·f(x) < 1 (strict both sides) with
    η > 0: ℓ = 1 − y·f(x), ‖P k‖² = k_tᵀd* = ‖P_{t−1}k(x, ·)‖²; if ℓ − ‖δ_t‖/η > 0 and
    ‖P k‖² > 0, f ← f + τ·y·P_{t−1}k(x, ·) with τ = min(ℓ/‖P k‖², 2(ℓ − ‖δ_t‖/η)/‖P k‖², 1)
    (the largest step of their Theorem 4's condition, capped at 1). η = 0: no margin update
    (‖δ_t‖/η is not defined; the span holds x only when ‖δ_t‖ = 0). With
    ``threshold_on="squared_norm"`` ‖δ_t‖² replaces ‖δ_t‖ in the mistake test, the
    margin-error test and τ (the authors' MATLAB code, see :class:`Projectron`).

    eta : float ≥ 0 (default 0.1). threshold_on : {"norm", "squared_norm"} (default
    "norm"). No budget (bounded through η).
""" + KERNEL_DOC

    _plus = 1.0


class BudgetPA(KernelClassifier):
    __doc__ = """Budgeted Passive-Aggressive, the simple variant BPA-S (Wang & Vucetic 2010,
    AISTATS, §3): PA-I below the budget; at the budget, x is stored in place of the row whose
    removal, with only x's coefficient re-optimised, changes f the least.

    ℓ = 1 − y·f(x) > 0 and k(x, x) > 0: τ = min(C, ℓ/k(x, x)). Below B rows x is stored
    with τ·y (PA-I, Crammer et al. 2006). With B rows, for each stored x_r the problem
    min ½‖f − f_t‖² + Cξ, y·f(x) ≥ 1 − ξ, over f = f_t − α_r k(x_r, ·) + β k(x, ·) has
    β_r = α_r k(x_r, x)/k(x, x) + τ·y; the x_r of least objective goes (the oldest on ties)
    and x is stored, as the newest, with β_r. O(B) per step from the one kernel row.

    C : float > 0 (default 1). budget : int ≥ 1 (default 100; required).
""" + KERNEL_DOC

    _layout = BUDGET_PA_LAYOUT
    _csr_pool = True  # its rule takes the pool by feature or the CSR pool
    _parameter_constraints = {**KERNEL_FAMILY_CONSTRAINTS,
                              "C": [Interval(Real, 0, None, closed="neither")],
                              "budget": [Interval(Integral, 1, None, closed="left")]}

    def __init__(self, C=1.0, kernel="rbf", gamma=None, degree=3, coef0=0.0,
                 fit_intercept=False, budget=100, n_jobs=None):
        self.C = C
        self.n_jobs = n_jobs
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.fit_intercept = fit_intercept
        self.budget = budget

    def _own_hp_values(self):
        return {"c": self.C}


class KernelOBPM(KernelExtraClassifier):
    __doc__ = """Kernel Online Bayes Point Machine: N kernel perceptrons, each learning a
    Bernoulli(τ) sub-stream, sharing one pool and one kernel row per example; the classifier
    is their normalised sum (Harrington, Herbrich, Kivinen, Platt & Williamson 2003,
    Algorithm 2 with kernel perceptron members, §3: "can be readily kernelised", the kernel
    values being the same for all N perceptrons).

    As olc's linear ``obpm`` (base perceptron): member j learns example t iff
    uniform(seed, j, t) < τ (t 0-based over the learner's lifetime; chunking and save/load do
    not change the draws) and then stores y when y·f_j(x) ≤ 0; the prediction, made before
    the round's updates, is F(x) = Σ_j f_j(x)/max(N, ‖Σ_j f_j‖) (lines 13 and 15: w̄ = Σ w_j/N
    normalised by max(1, ‖w̄‖)), ‖·‖ the RKHS norm (with ``fit_intercept`` the bias is in the
    kernel, and so in the norm, as footnote 4's extra attribute). A row is stored once, when
    at least one member adds it; budget : int ≥ 1 or None (default None): storing into a
    full pool first removes the oldest row from every member (§3 asks a truly online version
    to bound the instances it stores). Per example O(n·nnz(x)) for the kernel row plus
    O(τ·N·n) for the members' scores.

    N : int ≥ 1 (default 100). tau : float in [0, 1] (default 0.3). seed : int in [0, 2**53)
    (default 0). ``dual_coef_`` holds F's coefficients β/max(N, ‖β‖); ``member_coef_`` the
    members' (N, n), oldest first. ``aux``: the number of members that updated.
""" + KERNEL_DOC

    _layout = KERNEL_OBPM_LAYOUT
    _parameter_constraints = {**KERNEL_FAMILY_CONSTRAINTS, "budget": BUDGET,
                              "N": [Interval(Integral, 1, None, closed="left")],
                              "tau": [Interval(Real, 0, 1, closed="both")],
                              "seed": [Interval(Integral, 0, SEED_LIMIT, closed="left")]}

    def __init__(self, N=100, tau=0.3, seed=0, kernel="rbf", gamma=None, degree=3, coef0=0.0,
                 fit_intercept=False, budget=None, n_jobs=None):
        self.N = N
        self.n_jobs = n_jobs
        self.tau = tau
        self.seed = seed
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.fit_intercept = fit_intercept
        self.budget = budget

    def _own_hp_values(self):
        return {"n_members": self.N, "tau": self.tau, "seed": check_seed(self.seed)}

    def _extra_shape(self):
        return False, int(self.N), int(self.N)  # the members' rows; their scratch flags

    def _check_continuation(self):
        cap = self._capacity(self._vecs)
        from .._compiled.layouts import kernel as pool
        fitted = (self._scal.shape[-1] - pool.n_scalars(cap)) // (cap + 1)
        if fitted != self.N:
            raise InputError(f"N={self.N} differs from the {fitted} members of the fitted "
                             "model (N shapes the state); fit starts over")
        super()._check_continuation()

    def _check_extra(self, stored, core, parts, n):
        from .._compiled.layouts import kernel as pool
        _, members, flags = parts
        if np.any(flags != 0.0):
            return "scal 'member_flags': the scratch must be zero between rows"
        if np.any(members[:, n:] != 0.0):
            return "scal 'member_coef': entries beyond 'n_stored' must be zero"
        beta = pool.block(core, pool.ALPHA, n) * core[pool.KernelScal.SCALE]
        total = members[:, :n].sum(axis=0)
        if not np.allclose(total, beta, rtol=1e-12, atol=1e-12):
            bad = int(np.flatnonzero(~np.isclose(total, beta, rtol=1e-12, atol=1e-12))[0])
            return (f"scal 'alpha': slot {bad} holds {beta[bad]!r}, but the members' "
                    f"coefficients sum to {total[bad]!r}")
        gram = self._stored_gram(stored)
        norm2 = float(beta @ gram @ beta) if n else 0.0
        stored = core[pool.KernelScal.FNORM2]
        if not np.isclose(stored, norm2, rtol=1e-8, atol=1e-10):
            return (f"scal 'fnorm2': {stored!r} is not the squared norm {norm2!r} of the "
                    "stored coefficients")
        return None

    @property
    def member_coef_(self):
        """(N, n) the members' coefficients, oldest first (lists one-vs-rest)."""
        out = []
        for vecs, scal in self._pools():
            cap = self._capacity(vecs)
            core, (_, members, _) = self._parts(scal, cap)
            from .._compiled.layouts import kernel as pool
            n = int(core[pool.KernelScal.N_STORED])
            slots = pool.block(core, pool.ORDER, n).astype(np.intp)
            out.append(members[:, slots].copy())
        return out[0] if len(out) == 1 else out

    def _pool_arrays(self, vecs, scal):
        born, rows, coef = super()._pool_arrays(vecs, scal)
        from .._compiled.layouts import kernel as pool
        core = scal[:pool.n_scalars(self._capacity(vecs))]
        norm = np.sqrt(max(core[pool.KernelScal.FNORM2], 0.0))
        return born, rows, coef / max(float(self.N), norm)
