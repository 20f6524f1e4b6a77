"""scikit-learn's estimator conventions, kept without importing scikit-learn.

Every olc learner follows scikit-learn's estimator API (``get_params``/``set_params``,
``clone``, tags, ``_parameter_constraints``, ``score``, its error types), so it works in
pipelines, grid searches and ``check_estimator``. Inheriting ``sklearn.base.BaseEstimator``
would import scikit-learn's validation stack (scipy.stats, pandas: ~2 s) on every ``olc``
command; this base class implements the same protocol and touches scikit-learn only where a
caller is already using it (tags, ``score``, the error types when scikit-learn is loaded).
"""
import inspect
import sys
from collections import defaultdict

from .constraints import to_sklearn, violation
from .validation import InputError


class ParameterError(InputError, TypeError):
    """A hyper-parameter that its declared constraint rejects (scikit-learn's message form).
    Raised as a subclass of scikit-learn's ``InvalidParameterError`` too when scikit-learn is
    loaded (see :func:`_with_sklearn_base`), so code written for scikit-learn catches it."""


class NotFittedError(ValueError, AttributeError):
    """The learner has not learned anything yet (scikit-learn's ``NotFittedError`` too when
    scikit-learn is loaded)."""


_FLAVOURED = {}


def _with_sklearn_base(cls, module, name):
    """``cls``, or a subclass of it and of scikit-learn's ``module.name`` when that module is
    already imported. Code that catches scikit-learn's class must have imported it, so the
    check costs nothing when scikit-learn is not in use."""
    sk_module = sys.modules.get(module)
    if sk_module is None:
        return cls
    key = (cls, module, name)
    if key not in _FLAVOURED:
        _FLAVOURED[key] = type(cls.__name__, (cls, getattr(sk_module, name)),
                               {"__module__": cls.__module__, "__doc__": cls.__doc__})
    return _FLAVOURED[key]


def parameter_error(message):
    return _with_sklearn_base(ParameterError, "sklearn.utils._param_validation",
                              "InvalidParameterError")(message)


def not_fitted_error(message):
    return _with_sklearn_base(NotFittedError, "sklearn.exceptions", "NotFittedError")(message)


class _SklearnConstraints:
    """The class attribute ``_parameter_constraints`` as scikit-learn's objects, built on
    first access (scikit-learn's checks read it); olc validates from ``_olc_constraints``."""

    def __get__(self, instance, owner):
        cache = owner.__dict__.get("_sklearn_constraints_cache")
        if cache is None:
            cache = to_sklearn(owner._olc_constraints)
            setattr(owner, "_sklearn_constraints_cache", cache)
        return cache


class OnlineEstimator:
    """get_params / set_params / repr / clone / tags / parameter validation, scikit-learn's
    way. Subclasses declare ``_parameter_constraints`` with :mod:`.constraints`."""

    _olc_constraints: dict = {}
    _parameter_constraints: dict = {}
    _estimator_type = None  # "classifier" / "regressor"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # The nearest declaration in the MRO (a mixin may hold it), as scikit-learn reads it.
        declared = next(c.__dict__["_parameter_constraints"] for c in cls.__mro__
                        if "_parameter_constraints" in c.__dict__)
        if not isinstance(declared, _SklearnConstraints):
            cls._olc_constraints = declared
            cls._parameter_constraints = _SklearnConstraints()

    @classmethod
    def _get_param_names(cls):
        init = cls.__init__
        if init is object.__init__:
            return []
        parameters = [p for p in inspect.signature(init).parameters.values()
                      if p.name != "self" and p.kind != p.VAR_KEYWORD]
        for p in parameters:
            if p.kind == p.VAR_POSITIONAL:
                raise RuntimeError(f"{cls.__name__} should not take *args in __init__ "
                                   "(scikit-learn's estimator convention)")
        return sorted(p.name for p in parameters)

    def get_params(self, deep=True):
        out = {}
        for name in self._get_param_names():
            value = getattr(self, name)
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                out.update((f"{name}__{k}", v) for k, v in value.get_params().items())
            out[name] = value
        return out

    def set_params(self, **params):
        if not params:
            return self
        valid = self.get_params(deep=True)
        nested = defaultdict(dict)
        for key, value in params.items():
            key, delim, sub_key = key.partition("__")
            if key not in valid:
                raise ValueError(f"Invalid parameter {key!r} for estimator {self}. Valid "
                                 f"parameters are: {self._get_param_names()!r}.")
            if delim:
                nested[key][sub_key] = value
            else:
                setattr(self, key, value)
                valid[key] = value
        for key, sub_params in nested.items():
            valid[key].set_params(**sub_params)
        return self

    def _validate_params(self):
        message = violation(type(self)._olc_constraints, self.get_params(deep=False),
                            type(self).__name__)
        if message is not None:
            raise parameter_error(message)

    def __repr__(self):
        """``Name(param=value, ...)`` listing the parameters that differ from their
        defaults, sorted by name (scikit-learn's ``print_changed_only`` repr)."""
        defaults = {p.name: p.default
                    for p in inspect.signature(type(self).__init__).parameters.values()}
        changed = []
        for name, value in self.get_params(deep=False).items():
            default = defaults.get(name, inspect.Parameter.empty)
            if repr(value) != repr(default) and not (_is_nan(value) and _is_nan(default)):
                changed.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(changed)})"

    def __sklearn_clone__(self):
        return clone(self)

    def __sklearn_tags__(self):
        from sklearn.utils import (ClassifierTags, InputTags, RegressorTags, TargetTags,
                                   Tags)
        tags = Tags(estimator_type=self._estimator_type,
                    target_tags=TargetTags(required=self._estimator_type is not None),
                    transformer_tags=None, regressor_tags=None, classifier_tags=None,
                    input_tags=InputTags(sparse=True))
        if self._estimator_type == "classifier":
            # K ≥ 3 classes run one-vs-rest (``multiclass``), unless the rule
            # refuses it (n-OMM: its state grows)
            tags.classifier_tags = ClassifierTags(
                multi_class=getattr(self, "_ovr_refusal", None) is None)
        elif self._estimator_type == "regressor":
            tags.regressor_tags = RegressorTags()
        return tags


def _is_nan(value):
    return isinstance(value, float) and value != value


def clone(estimator):
    """A new unfitted estimator with the same parameters (deep-copied), as
    ``sklearn.base.clone``; estimators that are not olc's go to scikit-learn's."""
    if not isinstance(estimator, OnlineEstimator):
        from sklearn.base import clone as sklearn_clone
        return sklearn_clone(estimator)
    import copy
    params = {name: (clone(value) if isinstance(value, OnlineEstimator)
                     else copy.deepcopy(value))
              for name, value in estimator.get_params(deep=False).items()}
    return type(estimator)(**params)


def is_regressor(estimator):
    if isinstance(estimator, OnlineEstimator):
        return estimator._estimator_type == "regressor"
    from sklearn.base import is_regressor as sklearn_is_regressor
    return sklearn_is_regressor(estimator)
