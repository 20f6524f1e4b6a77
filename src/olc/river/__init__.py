"""olc's learners as River estimators: ``learn_one`` / ``predict_one`` on dicts,
``learn_many`` / ``predict_many`` on pandas frames, new features as they appear.

    >>> import olc.river
    >>> model = olc.river.make("pa-i", C=0.5)           # a river.base.MiniBatchClassifier
    >>> model = olc.river.Classifier(olc.make("arow"))  # the same, from a learner
    >>> model = olc.river.make("arow-regression")       # regressors: a MiniBatchRegressor

Requires River (``pip install olc[river]``). See the README, "Using olc from River", and
docs/architecture.md for the design (one compiled call per example, exact state growth).
"""
import importlib

try:
    importlib.import_module("river")
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("olc.river needs River: pip install 'olc[river]' (or pip install "
                      "river)") from exc

from .estimators import Classifier, Regressor

__all__ = ["Classifier", "Regressor", "make"]


def make(name, *, features=None, classes=None, **params):
    """The olc learner ``name`` (``olc.make(name, **params)``) as a River estimator:
    a :class:`Classifier` or a :class:`Regressor` by its kind. ``features``: feature names
    known in advance; ``classes``: a classifier's two labels (default ``(False, True)``)."""
    from ..learners.registry import make as make_learner
    from ..learners._framework.validation import InputError

    learner = make_learner(name, **params)
    if learner._estimator_type == "regressor":
        if classes is not None:
            raise InputError(f"{name!r} is a regressor: classes= applies to classifiers only")
        return Regressor(learner, features=features)
    return Classifier(learner, features=features,
                      classes=(False, True) if classes is None else classes)
