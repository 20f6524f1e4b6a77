"""Canonical names → learner classes; ``make(name, **params)`` and the algorithm catalogue."""
import inspect
from dataclasses import dataclass

_REGISTRY = {}


@dataclass(frozen=True)
class AlgorithmInfo:
    name: str
    cls: type
    summary: str
    source: str
    preset: tuple = ()  # fixed hyper-parameters for a named variant, e.g. ρ = 0 for ce-OMM

    @property
    def kind(self):
        """"classifier" (labels, ±1 internally) or "regressor" (real-valued targets)."""
        from sklearn.base import RegressorMixin

        return "regressor" if issubclass(self.cls, RegressorMixin) else "classifier"

    @property
    def parameters(self):
        fixed = dict(self.preset)
        sig = inspect.signature(self.cls.__init__)
        return {k: p.default for k, p in sig.parameters.items() if k != "self" and k not in fixed}


class UnknownAlgorithmError(KeyError):
    def __str__(self):
        return str(self.args[0])


def register(name, summary, source, preset=None):
    """Class decorator: add a learner (optionally a preset variant of it) to the catalogue."""

    def deco(cls):
        _add(name, cls, summary, source, preset)
        return cls

    return deco


def _add(name, cls, summary, source, preset=None):
    if name in _REGISTRY:
        raise ValueError(f"algorithm name {name!r} registered twice")
    _REGISTRY[name] = AlgorithmInfo(name, cls, summary, source, tuple(sorted((preset or {}).items())))


def add_variant(name, cls, summary, source, preset):
    """Register a named preset of an existing class (e.g. ce-OMM = e-OMM with ρ = 0)."""
    _add(name, cls, summary, source, preset)


def algorithms():
    """The catalogue: one :class:`AlgorithmInfo` per canonical name, in registration order."""
    _load_all()
    return list(_REGISTRY.values())


def info(name):
    _load_all()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownAlgorithmError(f"unknown algorithm {name!r}; known: {known}") from None


def make(name, **params):
    """Build a learner from its canonical name; unknown parameter names are an error."""
    entry = info(name)
    allowed = entry.parameters
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise TypeError(f"{name} has no parameter(s) {', '.join(unknown)}; "
                        f"its parameters are: {', '.join(allowed) or '(none)'}")
    return entry.cls(**dict(entry.preset), **params)


def name_of(learner):
    """Canonical name of a learner instance (the preset whose fixed values it carries)."""
    _load_all()
    params = learner.get_params(deep=False)
    for entry in _REGISTRY.values():
        if type(learner) is entry.cls and all(params.get(k) == v for k, v in entry.preset):
            if entry.preset or not any(
                e.cls is entry.cls and e.preset and all(params.get(k) == v for k, v in e.preset)
                for e in _REGISTRY.values()
            ):
                return entry.name
    raise UnknownAlgorithmError(f"{type(learner).__name__} is not a registered learner")


def _load_all():
    # Importing the family modules runs their @register decorators.
    from . import (  # noqa: F401
        bayes_point, experts, margin, norma, omm, omm_variants, passive_aggressive, perceptron,
        regression, regularized, second_order, sgd)
