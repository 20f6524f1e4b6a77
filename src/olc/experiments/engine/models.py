"""What a protocol drives: an online model that predicts, then learns, row by row.

``OnlineModel`` is the engine's one interface to a learning procedure:

- ``learn(X, y) -> Steps``: the rows in order, each predicted by the model that has seen
  only the rows before it, then learned (y in ±1); the model keeps its state between calls
  (a protocol learns a tuning part, then continues on a test part).
- ``predict(X) -> ±1 array``: the current model's predictions, without learning.

:class:`LearnerModel` wraps an olc registry learner (its compiled loop does the work:
``olc.evaluate.progressive``). A custom procedure — e.g. a feature-selection baseline that
picks k features before each update — is a module-level factory
``factory(params: dict, seed: int) -> OnlineModel`` named by a ``LearnerSpec(method=...)``;
its ``Steps.series`` carries any per-step quantity (e.g. ``"features"``: the number of
features the model used at each step), which metrics then read.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .spec import resolve_callable


@dataclass
class Steps:
    """Per-step output of ``learn``: ``pred`` (±1, the prediction before the update),
    ``updated`` (bool per step, or None when the procedure does not say), ``series``
    ({name: per-step array}), ``seconds`` (the procedure's own learning time)."""

    pred: np.ndarray
    updated: np.ndarray | None = None
    series: dict = field(default_factory=dict)
    seconds: float = 0.0

    def __post_init__(self):
        n = len(self.pred)
        for name, values in self.series.items():
            if len(values) != n:
                raise ValueError(f"series {name!r} has {len(values)} steps, pred has {n}")


class LearnerModel:
    """An olc registry learner as an :class:`OnlineModel` (labels ±1)."""

    def __init__(self, name, params, seed=None):
        from ...learners import make

        self.name = name
        self.learner = make(name, **params)

    def learn(self, X, y) -> Steps:
        from ...evaluate import progressive

        res = progressive(self.learner, X, y, classes=[-1.0, 1.0], progress=False)
        return Steps(pred=res.pred.astype(np.int8), updated=res.updated, seconds=res.seconds)

    def predict(self, X):
        return np.asarray(self.learner.predict(X), dtype=np.float64)


def build_model(config, params, seed):
    """The OnlineModel of a :class:`~.spec.LearnerConfig` with ``params`` (its fixed
    parameters plus a tuning point)."""
    if config.method is None:
        return LearnerModel(config.name, params, seed)
    return resolve_callable(config.method)(dict(params), seed)


def validate_learner(name, params, where):
    """Build the registry learner ``name`` with ``params`` and check its hyper-parameters
    (their declared constraints), so a bad value is refused before any run starts; the
    message names ``where`` (e.g. the learner's label and the grid point)."""
    from ...learners import make
    from ...learners.registry import UnknownAlgorithmError

    try:
        learner = make(name, **params)
        learner._hyperparameters()   # the declared constraints and the cross-checks
    except UnknownAlgorithmError:
        raise
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{where}: {exc}") from None
    return learner
