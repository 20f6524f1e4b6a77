"""Declarative hyper-parameter constraints, checked without importing scikit-learn.

Learners declare ``_parameter_constraints`` exactly as scikit-learn estimators do (a dict
``name -> list of constraints``, a value being valid when it satisfies one of them), with
the constraint classes of this module, which take the same arguments as scikit-learn's
``Interval``, ``Options`` and ``StrOptions`` (plus ``None``, ``"boolean"``, a type, and
``Hidden``).

Why our own: importing ``sklearn.utils._param_validation`` imports scikit-learn's whole
validation stack (scipy.stats, pandas: ~2 s), which a user's first ``olc`` command would pay
just to check that ``C > 0``. The messages are scikit-learn's, word for word
(``tests/contract/test_contract_constraints.py`` compares both validators on every declared
parameter), and :func:`to_sklearn` converts a declaration into scikit-learn's objects for
scikit-learn's own checks (``check_estimator``'s ``check_param_validation``).
"""
import math
import operator
from numbers import Integral, Real

import numpy as np

BOOLEAN = "boolean"


class Interval:
    """Numbers of ``type`` (``numbers.Integral`` or ``numbers.Real``) between ``left`` and
    ``right`` (None: unbounded), ``closed`` one of "left", "right", "both", "neither"."""

    def __init__(self, type, left, right, *, closed):
        if type not in (Integral, Real):
            raise ValueError(f"type must be numbers.Integral or numbers.Real, got {type}")
        if closed not in ("left", "right", "both", "neither"):
            raise ValueError(f"closed must be 'left', 'right', 'both' or 'neither', got "
                             f"{closed!r}")
        if left is not None and right is not None and right <= left:
            raise ValueError(f"right can't be less than left. Got left={left} and "
                             f"right={right}")
        self.type, self.left, self.right, self.closed = type, left, right, closed

    def is_satisfied_by(self, value):
        if not isinstance(value, self.type):
            return False
        if not isinstance(value, Integral) and math.isnan(value):
            return False
        below = operator.lt if self.closed in ("left", "both") else operator.le
        above = operator.gt if self.closed in ("right", "both") else operator.ge
        left = -np.inf if self.left is None else self.left
        right = np.inf if self.right is None else self.right
        return not (below(value, left) or above(value, right))

    def __str__(self):
        kind = "an int" if self.type is Integral else "a float"
        left = "-inf" if self.left is None else self.left
        right = "inf" if self.right is None else self.right
        if self.type is not Integral:  # scikit-learn shows real bounds as floats
            left = float(left) if isinstance(self.left, Real) else left
            right = float(right) if isinstance(self.right, Real) else right
        opening = "[" if self.closed in ("left", "both") else "("
        closing = "]" if self.closed in ("right", "both") else ")"
        return f"{kind} in the range {opening}{left}, {right}{closing}"


class Options:
    """One of the values ``options``, an instance of ``type``."""

    def __init__(self, type, options, *, deprecated=None):
        self.type, self.options, self.deprecated = type, options, deprecated or set()
        if self.deprecated - set(self.options):
            raise ValueError("The deprecated options must be a subset of the options.")

    def is_satisfied_by(self, value):
        return isinstance(value, self.type) and value in self.options

    def __str__(self):
        shown = ", ".join(f"{o!r} (deprecated)" if o in self.deprecated else f"{o!r}"
                          for o in self.options)
        return f"a {_type_name(self.type)} among {{{shown}}}"


class StrOptions(Options):
    """One of the strings ``options``."""

    def __init__(self, options, *, deprecated=None):
        super().__init__(str, options, deprecated=deprecated)


class Hidden:
    """A constraint that is checked but not named in messages (internal options)."""

    def __init__(self, constraint):
        self.constraint = constraint


def _type_name(t):
    if t.__module__ == "builtins":
        return t.__qualname__
    if t is Real:
        return "float"
    if t is Integral:
        return "int"
    return f"{t.__module__}.{t.__qualname__}"


def _satisfies(constraint, value):
    if isinstance(constraint, Hidden):
        return _satisfies(constraint.constraint, value)
    if constraint is None:
        return value is None
    if isinstance(constraint, str):
        if constraint != BOOLEAN:
            raise ValueError(f"unknown constraint {constraint!r}")
        return isinstance(value, (bool, np.bool_))
    if isinstance(constraint, type):
        return isinstance(value, constraint)
    return constraint.is_satisfied_by(value)


def describe(constraint):
    if constraint is None:
        return "None"
    if isinstance(constraint, str):  # "boolean"
        return (f"an instance of {_type_name(bool)!r} or an instance of "
                f"{_type_name(np.bool_)!r}")
    if isinstance(constraint, type):
        return f"an instance of {_type_name(constraint)!r}"
    return str(constraint)


def violation(constraints, params, owner):
    """scikit-learn's message for the first parameter of ``params`` (in order) that satisfies
    none of its constraints, or None when all are valid. Parameters without a declaration
    are not checked (as scikit-learn)."""
    for name, value in params.items():
        allowed = constraints.get(name)
        if allowed is None or allowed == "no_validation":
            continue
        if any(_satisfies(c, value) for c in allowed):
            continue
        shown = [describe(c) for c in allowed if not isinstance(c, Hidden)]
        listed = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"
        return f"The {name!r} parameter of {owner} must be {listed}. Got {value!r} instead."
    return None


def to_sklearn(constraints):
    """The same declaration as scikit-learn's constraint objects (imports scikit-learn)."""
    from sklearn.utils import _param_validation as skv

    def convert(c):
        if isinstance(c, Hidden):
            return skv.Hidden(convert(c.constraint))
        if isinstance(c, Interval):
            return skv.Interval(c.type, c.left, c.right, closed=c.closed)
        if isinstance(c, StrOptions):
            return skv.StrOptions(c.options, deprecated=c.deprecated or None)
        if isinstance(c, Options):
            return skv.Options(c.type, c.options, deprecated=c.deprecated or None)
        return c  # None, "boolean", a type: scikit-learn reads these as they are

    return {name: (allowed if allowed == "no_validation" else [convert(c) for c in allowed])
            for name, allowed in constraints.items()}
