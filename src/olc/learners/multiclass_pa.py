"""Multiclass Passive-Aggressive classifiers PA, PA-I, PA-II with K prototypes (Crammer,
Dekel, Keshet, Shalev-Shwartz & Singer 2006, "Online Passive-Aggressive Algorithms", JMLR 7,
§7): one prototype w_c (and bias b_c) per class, and per row a single constraint between the
true class y and the highest-scoring wrong class r — not one-vs-rest.

The rule and its decisions are in ``olc._compiled.rules.multiclass_pa``; the state is the K
per-class states stacked as a one-vs-rest learner's (``multiclass``), for every K ≥ 2, and
the loops are the family's own (``_compiled/loops/multiclass.py``) run through the same
driver (``driver_ovr``) and record (class indices). In memory the K prototypes are stored by
feature once K·d weights outgrow the cache (``_compiled/layouts/multiclass_pa.py``: CSR rows
then read one cache line for the K weights of a feature); ``_vecs`` keeps its (K, 1, d)
shape and values either way.

[Decision] Predictions: argmax_c w_c·x + b_c, the first class on ties (``numpy.argmax``, as
the one-vs-rest learners) — also for K = 2, where the binary learners' sign(0) = +1 would
pick the second. For K = 2, scikit-learn's binary conventions hold: ``decision_function`` is
s₁ − s₀ (n,), positive ↦ ``classes_[1]`` (exactly the rows argmax gives class 1: for finite
doubles s₁ − s₀ > 0 ⟺ s₁ > s₀), and ``coef_`` (1, d) / ``intercept_`` (1,) are
w₁ − w₀ / b₁ − b₀, so that decision = X·coef_ᵀ + intercept_ as in every scikit-learn linear
classifier. K ≥ 3: ``decision_function`` (n, K), ``coef_`` (K, d), ``intercept_`` (K,).
[Decision] K = 2 is still the two-prototype rule. The step keeps w₀ + w₁ = 0 (from zero), and
u = w₁ − w₀ then moves by 2τ·y±·x: exactly the binary PA on u (PA: the same τ, with or
without a bias; PA-I/PA-II: C doubled, without a bias, which their binary versions leave out
of the norm; tested), apart from predictions at exact ties.
"""
import numpy as np

from .._compiled.layouts.multiclass_pa import MULTICLASS_PA_LAYOUT, multiclass_pa_hp_values
from ._framework import multiclass
from ._framework.classifier import N_JOBS_CONSTRAINT, OnlineLinearClassifier
from .passive_aggressive import _C, PassiveAggressive, PassiveAggressiveI, PassiveAggressiveII
from ._framework.validation import InputError

__all__ = ["MulticlassPassiveAggressive", "MulticlassPassiveAggressiveI",
           "MulticlassPassiveAggressiveII"]

_COMMON = """
    Per row (x, y): the scores s_c = w_c·x + b_c of all K classes, the prediction
    argmax_c s_c (first class on ties), r = the highest-scoring wrong class,
    ℓ = max(0, 1 − (s_y − s_r)); if ℓ > 0, w_y ← w_y + τx and w_r ← w_r − τx (biases
    ± τ), q = 2(‖x‖² + 1) with ``fit_intercept`` (the bias is a constant feature counted in
    the norm, for every variant), 2‖x‖² without. A zero x without a bias leaves the model
    unchanged (no step can change its margin). ``classes_``: any K ≥ 2 labels.
"""


class _MulticlassPassiveAggressiveBase(OnlineLinearClassifier):
    _layout = MULTICLASS_PA_LAYOUT
    _prototypes = True  # K stacked prototype states for every K ≥ 2 (multiclass.stacked)

    def _hp_values(self):
        return multiclass_pa_hp_values(self._variant, getattr(self, "C", 1.0),
                                       self.fit_intercept)

    # -- the K-class state for every K ----------------------------------------------------
    def _is_multiclass(self):
        return hasattr(self, "classes_")

    def _stream_targets(self, y, classes):
        classes = self._resolve_classes(y, classes)
        return multiclass.class_indices(y, classes), classes

    def prepare_check(self, check, stream):
        raise InputError("τ (check=, tau_on=) is defined for binary classifiers only; "
                         f"{type(self).__name__} is multiclass")

    def _learns_class_states(self, stream):
        return True  # K prototypes for every K ≥ 2

    # -- prediction -----------------------------------------------------------------------
    def _class_scores(self, X):
        self._check_fitted()
        return multiclass.decision_values(self, self._prepare_X(X, reset=False))

    def decision_function(self, X):
        """(n, K) scores s_c = w_c·x + b_c; for K = 2, (n,) s₁ − s₀ (positive ↦
        ``classes_[1]``)."""
        scores = self._class_scores(X)
        return scores[:, 1] - scores[:, 0] if scores.shape[1] == 2 else scores

    def predict(self, X):
        scores = self._class_scores(X)
        return self.classes_[np.argmax(scores, axis=1)]  # the first class on ties

    def _models(self):
        coef, intercept = multiclass.linear_models(self)
        if coef.shape[0] == 2:
            return coef[1:] - coef[:1], intercept[1:] - intercept[:1]
        return coef, intercept

    @property
    def coef_(self):
        self._check_fitted()
        return self._models()[0]

    @property
    def intercept_(self):
        self._check_fitted()
        return self._models()[1]


# The hyper-parameters (``__init__``, constraints, ``_variant``) are the binary learners';
# the state, the step and the predictions are the multiclass base's (first in the MRO).
class MulticlassPassiveAggressive(_MulticlassPassiveAggressiveBase, PassiveAggressive):
    __doc__ = """Multiclass PA (Crammer et al. 2006, §7 with §3's PA): τ = ℓ/q, the smallest
    change of the K prototypes that puts the true class's score 1 above the highest wrong one.

    Parameters: fit_intercept (default True), n_jobs (accepted; no effect: one joint step a
    row).
""" + _COMMON

    # No ``average``: the binary PA's averaging is not part of this rule.
    _parameter_constraints = {"fit_intercept": ["boolean"], "n_jobs": N_JOBS_CONSTRAINT}

    def __init__(self, fit_intercept=True, n_jobs=None):
        self.n_jobs = n_jobs
        self.fit_intercept = fit_intercept


class MulticlassPassiveAggressiveI(_MulticlassPassiveAggressiveBase, PassiveAggressiveI):
    __doc__ = """Multiclass PA-I (Crammer et al. 2006, §7 with PA-I): τ = min(C, ℓ/q).

    Parameters: C > 0 (aggressiveness, default 1), fit_intercept (default True), n_jobs
    (accepted for the classifiers' common signature; no effect: one joint step a row).
""" + _COMMON

    _parameter_constraints = {"C": _C, "fit_intercept": ["boolean"], "n_jobs": N_JOBS_CONSTRAINT}

    def __init__(self, C=1.0, fit_intercept=True, n_jobs=None):
        self.n_jobs = n_jobs
        self.C = C
        self.fit_intercept = fit_intercept


class MulticlassPassiveAggressiveII(_MulticlassPassiveAggressiveBase, PassiveAggressiveII):
    __doc__ = """Multiclass PA-II (Crammer et al. 2006, §7 with PA-II): τ = ℓ/(q + 1/(2C)).

    Parameters: C > 0 (default 1), fit_intercept (default True), n_jobs (accepted; no
    effect: one joint step a row).
""" + _COMMON

    _parameter_constraints = {"C": _C, "fit_intercept": ["boolean"], "n_jobs": N_JOBS_CONSTRAINT}

    def __init__(self, C=1.0, fit_intercept=True, n_jobs=None):
        self.n_jobs = n_jobs
        self.C = C
        self.fit_intercept = fit_intercept
