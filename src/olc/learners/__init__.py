"""Learners: one module per family; every learner follows the contract in ``base``."""
from .base import OnlineLinearClassifier, OnlineLinearModel, StepRecord
from .base_regression import OnlineLinearRegressor
from .bayes_point import GeneralizedPerceptron, OnlineBayesPointMachine
from .experts import RandomizedWeightedMajority, WeightedMajority, Winnow
from .margin import ALMA2, PUMMA, ROMMA, AggressiveROMMA
from .norma import NORMA
from .omm import EfficientOMM
from .omm_variants import EfficientOMMLp, MaxMarginSolution, NaiveOMM, max_margin
from .passive_aggressive import PassiveAggressive, PassiveAggressiveI, PassiveAggressiveII
from .perceptron import Perceptron
from .registry import AlgorithmInfo, algorithms, make, name_of
from .regression import (
    AROWRegression,
    PassiveAggressiveIIRegression,
    PassiveAggressiveIRegression,
    PassiveAggressiveL1Regression,
    PassiveAggressiveL2Regression,
    PassiveAggressiveRegression,
)
from .regularized import L1ConstrainedPA, L2ConstrainedPA, ObjectiveRegularizedPA
from .second_order import AROW
from .sgd import SGD, SGDRegression

#: The learner classes (one per registry family; presets such as ``ce-omm`` share a class).
LEARNER_CLASSES = [
    "ALMA2", "AROW", "AROWRegression", "AggressiveROMMA", "EfficientOMM", "EfficientOMMLp",
    "GeneralizedPerceptron", "L1ConstrainedPA", "L2ConstrainedPA", "NORMA", "NaiveOMM",
    "ObjectiveRegularizedPA", "OnlineBayesPointMachine", "PUMMA", "PassiveAggressive",
    "PassiveAggressiveI", "PassiveAggressiveII", "PassiveAggressiveIIRegression",
    "PassiveAggressiveIRegression", "PassiveAggressiveL1Regression",
    "PassiveAggressiveL2Regression", "PassiveAggressiveRegression", "Perceptron", "ROMMA",
    "RandomizedWeightedMajority", "SGD", "SGDRegression", "WeightedMajority", "Winnow",
]

__all__ = LEARNER_CLASSES + [
    "AlgorithmInfo", "MaxMarginSolution", "max_margin", "OnlineLinearClassifier", "OnlineLinearModel", "OnlineLinearRegressor",
    "StepRecord", "algorithms", "make", "name_of",
]
