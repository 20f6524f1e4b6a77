"""Canonical names → learners: ``make(name, **params)``, ``info``, ``algorithms``, ``name_of``,
and ``register`` for a learner written outside olc.

The catalogue itself is the list in :mod:`olc.learners.registry.catalogue`; learner modules do not
import this module to register themselves, so there is no import circle, and a lookup
imports only the module of the learner asked for.
"""
import re

from .catalogue import CATALOGUE, CLASSIFIER, REGRESSOR, AlgorithmInfo

_BY_NAME = {entry.name: entry for entry in CATALOGUE}
if len(_BY_NAME) != len(CATALOGUE):  # pragma: no cover - a catalogue edit gone wrong
    raise ValueError("an algorithm name appears twice in olc.learners.registry.catalogue")
_REGISTERED = []  # entries added by register(), after the catalogue's
_TARGET = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*")


def register(name, target, kind, summary, citation, references, *, family, preset=None,
             compiled_family=None, new_references=()):
    """Make a learner written outside olc known by ``name`` (``olc.make``, ``olc
    algorithms``, ``olc.river``, the CLI's ``--algo``), as a catalogue entry does for olc's.

    target: ``"package.module:Class"`` (imported on first use); family: its compiled
    family's name; compiled_family: that family (``olc._compiled.rule_ids.Family``, its rule
    module named absolutely, rule ids from ``FIRST_EXTERNAL_ID``) when it is new;
    new_references: ``olc.references.Reference`` objects for keys olc does not know. Check
    the pieces with ``olc.learners.registry.agreement.problems(info(name))``
    (``docs/adding-a-learner.md``). Registering the same entry again is a no-op."""
    from ...references import REFERENCES
    from ..._compiled.rule_ids import FAMILIES, register as register_family

    # Every argument checked before anything is registered: a refused call changes nothing.
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"register: name must be a non-empty string, got {name!r}")
    if not isinstance(target, str) or not _TARGET.fullmatch(target):
        raise ValueError(f"register: target must be 'package.module:Class', got {target!r}")
    if kind not in (CLASSIFIER, REGRESSOR):
        raise ValueError(f"register: kind must be {CLASSIFIER!r} or {REGRESSOR!r}, got "
                         f"{kind!r}")
    known_families = set(FAMILIES) | ({compiled_family.name} if compiled_family else set())
    if family not in known_families:
        raise ValueError(f"register: family {family!r} is not a compiled family (known: "
                         f"{', '.join(sorted(FAMILIES))}); pass compiled_family= for a new one")
    entry = AlgorithmInfo(name, target, kind, summary, citation, tuple(references),
                          tuple(sorted((preset or {}).items())), family)
    if _BY_NAME.get(name) == entry:
        return entry
    if name in _BY_NAME:
        raise ValueError(f"a learner named {name!r} is known already")
    if compiled_family is not None:
        register_family(compiled_family)
    for ref in new_references:
        REFERENCES.setdefault(ref.key, ref)
    _BY_NAME[name] = entry
    _REGISTERED.append(entry)
    return entry


class UnknownAlgorithmError(KeyError):
    def __str__(self):
        return str(self.args[0])


def algorithms():
    """The catalogue: one :class:`AlgorithmInfo` per canonical name, in catalogue order (then
    the learners registered from outside olc)."""
    return list(CATALOGUE) + _REGISTERED


def info(name):
    """The :class:`AlgorithmInfo` of ``name`` (an error listing the known names otherwise)."""
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_BY_NAME))
        raise UnknownAlgorithmError(f"unknown algorithm {name!r}; known: {known}") from None


def make(name, **params):
    """Build a learner from its canonical name; unknown parameter names are an error.

    Examples
    --------
    >>> import olc
    >>> olc.make("pa-i", C=0.5)
    PassiveAggressiveI(C=0.5)
    >>> olc.make("ce-omm").rho        # a preset: EfficientOMM with rho fixed at 0
    0.0
    >>> olc.make("pa-i", c=0.5)
    Traceback (most recent call last):
    ...
    TypeError: pa-i has no parameter(s) c; its parameters are: C, fit_intercept, average, n_jobs
    """
    entry = info(name)
    allowed = entry.parameters
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise TypeError(f"{name} has no parameter(s) {', '.join(unknown)}; "
                        f"its parameters are: {', '.join(allowed) or '(none)'}")
    return entry.cls(**dict(entry.preset), **params)


def name_of(learner):
    """Canonical name of a learner instance (the preset whose fixed values it carries)."""
    params = learner.get_params(deep=False)
    cls = type(learner)
    # Only entries naming this class can match; comparing class names first avoids importing
    # the modules of every other learner.
    candidates = [e for e in algorithms()
                  if e.class_name == cls.__name__ and e.module == cls.__module__]
    for entry in candidates:
        if all(params.get(k) == v for k, v in entry.preset):
            if entry.preset or not any(
                e.preset and all(params.get(k) == v for k, v in e.preset) for e in candidates
            ):
                return entry.name
    raise UnknownAlgorithmError(f"{cls.__name__} is not a registered learner")
