"""Learners: one module per family (``perceptron``, ``passive_aggressive``, ``omm``, ...),
built on the estimator framework in ``_framework`` and known by name through ``registry``.

Names are imported on first use (PEP 562), so ``import olc.learners`` costs nothing: the
learner modules (and with them scikit-learn and numba) load when a class is touched.
"""
from .._util.lazy import lazy_attributes
from .registry import (CLASS_MODULES, LEARNER_CLASSES, AlgorithmInfo, UnknownAlgorithmError,
                       algorithms, info, make, name_of, register)

#: Everything else this package exports, by defining module.
_OTHER_NAMES = {
    "OnlineLinearClassifier": "olc.learners._framework.classifier",
    "OnlineLinearModel": "olc.learners._framework.model",
    "OnlineLinearRegressor": "olc.learners._framework.regressor",
    "StepRecord": "olc.learners._framework.records",
    "InputError": "olc.learners._framework.validation",
    "StreamStoppedError": "olc.learners._framework.validation",
    "ParameterError": "olc.learners._framework.estimator",
    "NotFittedError": "olc.learners._framework.estimator",
    "MaxMarginSolution": "olc.learners.max_margin_solver",
    "max_margin": "olc.learners.max_margin_solver",
}
_LAZY = {**CLASS_MODULES, **_OTHER_NAMES}

__all__ = LEARNER_CLASSES + sorted(_OTHER_NAMES) + [
    "AlgorithmInfo", "UnknownAlgorithmError", "algorithms", "info", "make", "name_of",
    "register"]


__getattr__, __dir__ = lazy_attributes(__name__, globals(), _LAZY)
