"""The contract of the online linear *regressors* (real-valued y), sharing the stream, the
state and the compiled loop with the classifiers (``base.OnlineLinearModel``).

Differences from :class:`~olc.learners._framework.classifier.OnlineLinearClassifier`:

- y holds real numbers (any numeric dtype, converted to float64); a NaN/inf target is
  rejected before anything is learned, naming its position. There are no ``classes_`` and no
  ``classes=`` argument.
- The per-step record's ``score`` is the prediction ŷ = w·x + b made *before* the update
  (the online protocol's prediction); ``pred`` holds only sign(ŷ) (sign(0) = +1) and carries
  no meaning for regression; ``updated`` and ``aux`` are as for classifiers.
- ``predict`` returns ŷ (there is no ``decision_function``); ``coef_`` has shape
  (n_features,) and ``intercept_`` shape (1,), as scikit-learn's ``SGDRegressor``.
- τ (a margin criterion) is not defined: ``check=`` is rejected.
- The compiled rules receive y as the real target (float64) where classifiers get ±1.
"""
import numpy as np

from .model import OnlineLinearModel
from .validation import InputError


class OnlineLinearRegressor(OnlineLinearModel):
    """Base class of the online linear regressors: subclasses declare ``_layout`` and
    ``_parameter_constraints`` and implement ``_hp_values`` and (when the model is not
    the first row of ``vecs`` and the ``bias`` slot) ``_linear_model``, exactly as
    classifiers do."""

    _y_noun = "target"
    _estimator_type = "regressor"

    def _prepare_y(self, y, n_rows):
        y = super()._prepare_y(y, n_rows)
        if y.dtype.kind not in "biuf":
            try:
                y = y.astype(np.float64)
            except (TypeError, ValueError):
                raise InputError(f"y must hold real-valued regression targets, got dtype "
                                 f"{y.dtype} (e.g. {y[0]!r})") from None
        y = np.ascontiguousarray(y, dtype=np.float64)
        if not np.isfinite(y).all():
            row = int(np.flatnonzero(~np.isfinite(y))[0])
            raise InputError(f"y[{row}] = {y[row]} is not a valid target (targets must be "
                             "finite)")
        return y

    def _stream_targets(self, y, classes):
        if classes is not None:
            raise InputError(f"{type(self).__name__} is a regressor: classes= does not apply")
        return y, None

    def prepare_check(self, check, stream):
        raise InputError("τ (the first step with positive margin on a check set) is defined "
                         "for classifiers only")

    def partial_fit(self, X, y):
        """Online learning on a batch, row by row in order (predict, then update)."""
        self.predict_then_learn(X, y)
        return self

    def predict(self, X):
        """The current model's predictions ŷ = w·x + b."""
        return self._decision_values(X)

    @property
    def coef_(self):
        self._check_fitted()
        return self._linear_model()[0]

    @property
    def intercept_(self):
        self._check_fitted()
        return np.array([self._linear_model()[1]])

    def score(self, X, y, sample_weight=None):
        """R² of ``predict(X)`` against y (scikit-learn's ``RegressorMixin``)."""
        from sklearn.metrics import r2_score
        return r2_score(y, self.predict(X), sample_weight=sample_weight)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # One online pass, no epochs: on scikit-learn's small regression check set the R²
        # of a single pass is not guaranteed to exceed its 0.5 threshold.
        tags.regressor_tags.poor_score = True
        return tags
