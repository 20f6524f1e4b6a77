"""Passive-Aggressive classifiers PA, PA-I, PA-II (Crammer, Dekel, Keshet, Shalev-Shwartz &
Singer, JMLR 2006; the textbook chapter §31.2.1)."""
from numbers import Real

from ._framework.constraints import Interval

from .._compiled.layouts.linear import (PA_CLASSIC, PA_I, PA_II,
                                       PASSIVE_AGGRESSIVE_AVERAGED_LAYOUT,
                                       PASSIVE_AGGRESSIVE_LAYOUT, pa_hp_values)
from ._framework.averaging import AVERAGE_CONSTRAINT, AveragingMixin, LayoutChoice
from ._framework.classifier import N_JOBS_CONSTRAINT, OnlineLinearClassifier

_C = [Interval(Real, 0, None, closed="neither")]

_COMMON = """
    On each round the hinge loss ℓ = max(0, 1 − y(w·x + b)) is computed; if ℓ > 0,
    ``w ← w + τ·y·x`` and (``fit_intercept``) ``b ← b + τ·y``. As in scikit-learn's
    ``PassiveAggressiveClassifier`` (deprecated in 1.8; reproduced exactly on dense
    streams), the bias takes the same step τy but ‖x‖² does not count it; to count it as
    the textbook's augmented input (x, 1) does, append a constant-1 column and set
    ``fit_intercept=False``.

    ``average`` (bool or int ≥ 1, default False): predict with the mean of the iterates from
    that row on (``olc.learners._framework.averaging``), scikit-learn's ``average``.
"""


class _PassiveAggressiveBase(AveragingMixin, OnlineLinearClassifier):
    _layout = LayoutChoice(PASSIVE_AGGRESSIVE_LAYOUT, PASSIVE_AGGRESSIVE_AVERAGED_LAYOUT)
    _variant = PA_CLASSIC
    _bias_in_norm = False

    def _hp_values(self):
        return pa_hp_values(self._variant, getattr(self, "C", 1.0),  # classic PA: no C
                            self.fit_intercept, self._bias_in_norm)


class PassiveAggressive(_PassiveAggressiveBase):
    __doc__ = """PA: the smallest change of the classifier that attains margin 1
    (Crammer et al. 2006, Eq. 6): τ = ℓ/‖x‖² without a bias.

    With ``fit_intercept=True`` the problem is solved exactly over (w, b) —
    min ½‖w'−w‖² + ½(b'−b)² s.t. y(w'·x + b') ≥ 1 — so τ = ℓ/(‖x‖² + 1): the bias counts in
    the norm, as with the textbook's augmented input (x, 1) (§31.2). (scikit-learn's
    convention, used by PA-I/PA-II for parity, leaves the bias out of the norm; for PA, which
    has no step cap, that makes the bias overshoot by 1/‖x‖² per update and diverge on small
    rows.) A zero vector x without a bias skips the round (τ would be ℓ/0).

    Parameters: fit_intercept (default True), average (bool or int ≥ 1, default False: the
    mean of the iterates from that row on, ``olc.learners._framework.averaging``), n_jobs
    (threads for K ≥ 3 classes one-vs-rest, default None: one; ``OnlineLinearClassifier``).
"""

    _variant = PA_CLASSIC
    _bias_in_norm = True
    _parameter_constraints = {"fit_intercept": ["boolean"], "average": AVERAGE_CONSTRAINT,
                              "n_jobs": N_JOBS_CONSTRAINT}

    def __init__(self, fit_intercept=True, average=False, n_jobs=None):
        self.n_jobs = n_jobs
        self.fit_intercept = fit_intercept
        self.average = average


class PassiveAggressiveI(_PassiveAggressiveBase):
    __doc__ = """PA-I: τ = min(C, ℓ/‖x‖²) (Crammer et al. 2006, Eq. 6; scikit-learn
    ``loss="hinge"``). A zero vector x skips the round, as in scikit-learn.

    Parameters: C > 0 (aggressiveness, default 1), fit_intercept (default True), average,
    n_jobs (threads for K ≥ 3 classes one-vs-rest; ``OnlineLinearClassifier``).
""" + _COMMON

    _variant = PA_I
    _parameter_constraints = {"C": _C, "fit_intercept": ["boolean"],
                              "average": AVERAGE_CONSTRAINT, "n_jobs": N_JOBS_CONSTRAINT}

    def __init__(self, C=1.0, fit_intercept=True, average=False, n_jobs=None):
        self.n_jobs = n_jobs
        self.C = C
        self.fit_intercept = fit_intercept
        self.average = average


class PassiveAggressiveII(_PassiveAggressiveBase):
    __doc__ = """PA-II: τ = ℓ/(‖x‖² + 1/(2C)) (Crammer et al. 2006, Eq. 6;
    scikit-learn ``loss="squared_hinge"``). The textbook chapter (§31.2.1) writes the same update as
    θ ← θ + y·max(0, 1 − m)/(‖x‖² + λ)·x, i.e. λ = 1/(2C). A zero vector x still moves the
    bias (τ = 2Cℓ), as in scikit-learn.

    Parameters: C > 0 (default 1), fit_intercept (default True), average, n_jobs (threads
    for K ≥ 3 classes one-vs-rest; ``OnlineLinearClassifier``).
""" + _COMMON

    _variant = PA_II
    _parameter_constraints = {"C": _C, "fit_intercept": ["boolean"],
                              "average": AVERAGE_CONSTRAINT, "n_jobs": N_JOBS_CONSTRAINT}

    def __init__(self, C=1.0, fit_intercept=True, average=False, n_jobs=None):
        self.n_jobs = n_jobs
        self.C = C
        self.fit_intercept = fit_intercept
        self.average = average
