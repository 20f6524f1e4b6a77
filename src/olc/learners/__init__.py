"""Learners: one module per family; every learner follows the contract in ``base``.

Names are imported on first use (PEP 562), so ``import olc.learners`` costs nothing: the
learner modules (and with them scikit-learn and numba) load when a class is touched.
"""
from .._lazy import lazy_attributes
from .catalogue import CLASS_MODULES, LEARNER_CLASSES
from .registry import AlgorithmInfo, algorithms, info, make, name_of

#: Everything else this package exports, by defining module.
_OTHER_NAMES = {
    "OnlineLinearClassifier": "olc.learners.classifier",
    "OnlineLinearModel": "olc.learners.base",
    "StepRecord": "olc.learners.records",
    "OnlineLinearRegressor": "olc.learners.base_regression",
    "MaxMarginSolution": "olc.learners.max_margin_solver",
    "max_margin": "olc.learners.max_margin_solver",
}
_LAZY = {**CLASS_MODULES, **_OTHER_NAMES}

__all__ = LEARNER_CLASSES + sorted(_OTHER_NAMES) + [
    "AlgorithmInfo", "algorithms", "info", "make", "name_of"]


__getattr__, __dir__ = lazy_attributes(__name__, globals(), _LAZY)
