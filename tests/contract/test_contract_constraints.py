"""Contract 13: declarative parameters and named layouts.

Every learner declares its parameters' constraints (scikit-learn's ``_parameter_constraints``)
and its rule's named :class:`~olc._compiled.layouts.base.Layout`; ``_hp_values`` names exactly the
layout's hyper-parameter fields. Checked over every catalogue entry (classifiers, regressors
and the domain-restricted learners alike).
"""
import inspect
import json
import math
import os
import re
import subprocess
import sys

import pytest

import olc
from olc.learners import ParameterError

from ._support import ENTRIES

NAMES = sorted(ENTRIES)
each_entry = pytest.mark.parametrize("name", NAMES)


def _init_parameters(cls):
    return set(inspect.signature(cls.__init__).parameters) - {"self"}


def _constraints(cls):
    return getattr(cls, "_parameter_constraints", None) or {}


@each_entry
def test_every_init_parameter_has_a_constraint_and_vice_versa(name):
    cls = ENTRIES[name].cls
    params, declared = _init_parameters(cls), set(_constraints(cls))
    assert params <= declared, f"{name}: no constraint for {sorted(params - declared)}"
    assert declared <= params, f"{name}: constraints of no parameter: {sorted(declared - params)}"


@each_entry
def test_hp_values_name_the_layout_fields(name):
    learner = olc.make(name)
    layout = learner._layout
    assert layout is not None, f"{name} declares no _layout"
    fields = set(layout.describe()["hp"])
    values = set(learner._hp_values())
    assert fields <= values, f"{name}: _hp_values misses {sorted(fields - values)}"
    if not layout.variable_hp:
        assert values == fields, f"{name}: _hp_values has extra {sorted(values - fields)}"
    assert len(learner._hyperparameters()) >= layout.n_hp  # every field packs


#: (entry, parameter) for every parameter declared boolean.
BOOLEAN_PARAMETERS = [(name, p) for name in NAMES
                      for p, allowed in _constraints(ENTRIES[name].cls).items()
                      if "boolean" in allowed]
NOT_BOOLEANS = ["abc", None, 2, math.nan]


@pytest.mark.parametrize("name, parameter", BOOLEAN_PARAMETERS,
                         ids=[f"{n}-{p}" for n, p in BOOLEAN_PARAMETERS])
@pytest.mark.parametrize("value", NOT_BOOLEANS, ids=repr)
def test_boolean_parameter_rejects_non_booleans(name, parameter, value):
    if value is None and None in _constraints(ENTRIES[name].cls)[parameter]:
        pytest.skip(f"{parameter} also accepts None by its declaration")
    from olc.learners._framework.constraints import _satisfies

    others = [c for c in _constraints(ENTRIES[name].cls)[parameter] if c != "boolean"]
    if any(_satisfies(c, value) for c in others):  # e.g. average: an int > 0 or a bool
        pytest.skip(f"{parameter} also accepts {value!r} by its declaration")
    learner = olc.make(name).set_params(**{parameter: value})
    with pytest.raises(ParameterError, match=re.escape(f"'{parameter}'")):
        learner._hyperparameters()


def _fingerprints():
    return {name: getattr(olc.make(name)._layout, "fingerprint", None) for name in NAMES}


def test_layout_fingerprints_are_stable_across_processes():
    """The fingerprint is saved in model files: another interpreter (another hash seed)
    computes the same value for every entry."""
    code = ("import json, olc\n"
            f"names = {NAMES!r}\n"
            "print(json.dumps({n: getattr(olc.make(n)._layout, 'fingerprint', None) "
            "for n in names}))")
    env = dict(os.environ, PYTHONHASHSEED="12345")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env)
    assert run.returncode == 0, run.stderr
    here = _fingerprints()
    assert json.loads(run.stdout) == here
    assert here == _fingerprints()


def test_layout_fingerprints_are_distinct_across_rules():
    """One fingerprint per rule: entries of one rule (presets) share it, different rules
    never do."""
    by_rule = {}
    for name in NAMES:
        layout = olc.make(name)._layout
        assert layout is not None, f"{name} declares no _layout"
        assert re.fullmatch(r"[0-9a-f]{16}", layout.fingerprint)
        by_rule.setdefault(layout.rule, set()).add(layout.fingerprint)
    assert all(len(f) == 1 for f in by_rule.values()), by_rule
    fingerprints = [next(iter(f)) for f in by_rule.values()]
    assert len(set(fingerprints)) == len(fingerprints), by_rule


# -- our validator against scikit-learn's ------------------------------------------------------

#: Values probing every kind of declared constraint: numbers inside, on and outside bounds,
#: integers for float intervals, NaN/inf, booleans, strings, None and containers.
PROBES = [0, 1, 2, -1, 0.0, 0.5, 1.0, 1.5, -0.5, 1e300, math.inf, -math.inf, math.nan,
          True, False, "abc", "full", "margin", "mistake", "hinge", None, [1], 2 ** 53,
          2 ** 53 - 1, 3.0]


@each_entry
def test_our_validator_agrees_with_scikit_learns(name):
    """For every declared parameter and probe value: accepted by ours iff by scikit-learn's
    ``validate_parameter_constraints`` on the converted declaration, with the same message
    word for word (the converted declaration is also what ``check_estimator`` reads)."""
    from sklearn.utils._param_validation import (InvalidParameterError,
                                                 validate_parameter_constraints)

    from olc.learners._framework.constraints import violation

    cls = ENTRIES[name].cls
    ours, theirs = cls._olc_constraints, cls._parameter_constraints
    assert set(ours) == set(theirs)
    values = PROBES + [opt for allowed in ours.values() for c in allowed
                       for opt in getattr(c, "options", ())]
    for parameter in ours:
        for value in values:
            expected = None
            try:
                validate_parameter_constraints(theirs, {parameter: value}, cls.__name__)
            except InvalidParameterError as exc:
                expected = str(exc)
            assert violation(ours, {parameter: value}, cls.__name__) == expected, \
                (parameter, value)


def test_parameter_errors_are_scikit_learns_when_it_is_loaded():
    from sklearn.utils._param_validation import InvalidParameterError

    learner = olc.make("pa-i", C=-1.0)
    with pytest.raises(InvalidParameterError, match=r"The 'C' parameter of "
                                                     r"PassiveAggressiveI must be"):
        learner.fit([[0.0], [1.0]], [0, 1])
    with pytest.raises(ParameterError):
        learner.fit([[0.0], [1.0]], [0, 1])
