"""The learners olc knows by name: the catalogue (``catalogue``: one entry per learner, with
its class as a lazy ``"module:Class"`` reference, kind, summary, citation and references),
the lookups over it (``lookup``: ``make``, ``info``, ``algorithms``, ``name_of``, and
``register`` for a learner written outside olc), its text for ``olc algorithms`` (``cards``)
and the checks that a learner's pieces agree (``agreement``).

Importing this package imports no learner (standard library only): a lookup imports only the
module of the learner asked for.
"""
from .catalogue import CATALOGUE, CLASS_MODULES, LEARNER_CLASSES, AlgorithmInfo
from .lookup import UnknownAlgorithmError, algorithms, info, make, name_of, register

__all__ = ["CATALOGUE", "CLASS_MODULES", "LEARNER_CLASSES", "AlgorithmInfo",
           "UnknownAlgorithmError", "algorithms", "info", "make", "name_of", "register"]
