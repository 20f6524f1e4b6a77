"""Learners: one module per family; every learner follows the contract in ``base``."""
from .base import OnlineLinearClassifier, StepRecord
from .omm import EfficientOMM
from .passive_aggressive import PassiveAggressive, PassiveAggressiveI, PassiveAggressiveII
from .perceptron import Perceptron
from .registry import AlgorithmInfo, algorithms, make, name_of

__all__ = [
    "AlgorithmInfo", "EfficientOMM", "OnlineLinearClassifier", "PassiveAggressive",
    "PassiveAggressiveI", "PassiveAggressiveII", "Perceptron", "StepRecord", "algorithms",
    "make", "name_of",
]
