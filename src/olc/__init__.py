"""olc — online linear classification: exact, compiled learners and the online protocol."""
__version__ = "0.1.0"

from .config import set_strict_arithmetic, strict_arithmetic, strict_mode  # noqa: E402
from .learners import (  # noqa: E402
    EfficientOMM,
    PassiveAggressive,
    PassiveAggressiveI,
    PassiveAggressiveII,
    Perceptron,
    StepRecord,
    algorithms,
    make,
)
from .persistence import load, save  # noqa: E402
from .evaluate import progressive, ProgressiveResult  # noqa: E402

__all__ = [
    "EfficientOMM", "PassiveAggressive", "PassiveAggressiveI", "PassiveAggressiveII",
    "Perceptron", "ProgressiveResult", "StepRecord", "algorithms", "load", "make",
    "progressive", "save", "set_strict_arithmetic", "strict_arithmetic", "strict_mode",
]
