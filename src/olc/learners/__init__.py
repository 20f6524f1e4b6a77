"""Learners: one module per family; every learner follows the contract in ``base``.

Names are imported on first use (PEP 562), so ``import olc.learners`` costs nothing: the
learner modules (and with them scikit-learn and numba) load when a class is touched.
"""
import importlib
import importlib.util

from .catalogue import CLASS_MODULES, LEARNER_CLASSES
from .registry import AlgorithmInfo, algorithms, info, make, name_of

#: Everything else this package exports, by defining module.
_OTHER_NAMES = {
    "OnlineLinearClassifier": "olc.learners.base",
    "OnlineLinearModel": "olc.learners.base",
    "StepRecord": "olc.learners.base",
    "OnlineLinearRegressor": "olc.learners.base_regression",
    "MaxMarginSolution": "olc.learners.max_margin_solver",
    "max_margin": "olc.learners.max_margin_solver",
}
_LAZY = {**CLASS_MODULES, **_OTHER_NAMES}

__all__ = LEARNER_CLASSES + sorted(_OTHER_NAMES) + [
    "AlgorithmInfo", "algorithms", "info", "make", "name_of"]


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        # A submodule not imported yet (``olc.learners.base`` after ``import olc.learners``).
        if not name.startswith("__") and importlib.util.find_spec(f"{__name__}.{name}"):
            return importlib.import_module(f"{__name__}.{name}")
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
