"""olc — online linear classification: exact, compiled learners and the online protocol."""
__version__ = "0.1.0"

from .config import set_strict_arithmetic, strict_arithmetic, strict_mode  # noqa: E402
from .learners import *  # noqa: E402,F401,F403  (the learner classes, make, algorithms, ...)
from .learners import (  # noqa: E402
    LEARNER_CLASSES, MaxMarginSolution, StepRecord, algorithms, make, max_margin)
from .persistence import load, save  # noqa: E402
from .evaluate import progressive, ProgressiveResult  # noqa: E402

__all__ = LEARNER_CLASSES + [
    "MaxMarginSolution", "max_margin", "ProgressiveResult", "StepRecord", "algorithms", "load", "make", "progressive", "save",
    "set_strict_arithmetic", "strict_arithmetic", "strict_mode",
]
