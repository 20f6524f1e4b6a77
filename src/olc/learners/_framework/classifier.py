"""``OnlineLinearClassifier``: the learner contract of ``model`` for labels (two classes as ±1,
K ≥ 3 classes one-vs-rest in one compiled pass, ``multiclass``)."""
from numbers import Integral

import numpy as np

from ..._compiled.driver.inputs import LoopInput
from . import multiclass
from .constraints import Interval
from .model import OnlineLinearModel
from .features_in import validate_features
from .validation import InputError, as_binary_labels, classifier_classes
from ..._util.sparse import issparse, scipy_sparse

__all__ = ["N_JOBS_CONSTRAINT", "OnlineLinearClassifier"]

#: ``n_jobs``: None or a nonzero int (scikit-learn's ``n_jobs`` of its one-vs-rest classes).
N_JOBS_CONSTRAINT = [Interval(Integral, None, -1, closed="right"),
                     Interval(Integral, 1, None, closed="left"), None]


class OnlineLinearClassifier(OnlineLinearModel):
    """Base class of the classifiers: subclasses set ``_rule``, ``_n_vectors`` and
    implement ``_hyperparameters`` (validated hyper-parameters as a float64 array) and
    ``_linear_model`` (coef, intercept).

    Two classes: one binary learner (``classes_[0]`` ↦ −1, ``classes_[1]`` ↦ +1). K ≥ 3
    classes: one-vs-rest, K binary learners in one compiled pass (``multiclass``); the state
    arrays gain a first axis of length K, ``decision_function`` is (n, K), ``predict`` its
    argmax, ``coef_`` (K, d). A rule that cannot run one-vs-rest says why in
    ``_ovr_refusal``.

    ``n_jobs`` (every classifier's parameter; joblib's semantics: None or 1 one thread, −1
    every core, −2 all but one): threads for one-vs-rest, each learning a contiguous group
    of the K classes in compiled code that releases the GIL (``multiclass``). Results are
    bit for bit those of one thread. It has no effect where the work does not split: two
    classes (one learner), a rule that refuses one-vs-rest, the multiclass PA (one joint
    step over the K prototypes per row), and short streams (fewer than
    ``driver.k_class.MIN_STEPS_PER_THREAD`` row-class steps a thread)."""

    _estimator_type = "classifier"
    _ovr_refusal = None  # a reason, for a rule that cannot run one-vs-rest

    def _is_multiclass(self):
        """Whether the fitted learner is one-vs-rest (K ≥ 3 classes)."""
        return hasattr(self, "classes_") and len(self.classes_) > 2

    def _class_learner(self, c):
        """The binary learner of class c ("class c vs rest", a view) when one-vs-rest; the
        learner itself when binary."""
        return multiclass.class_learner(self, c) if self._is_multiclass() else self

    def _is_initialised(self):
        return super()._is_initialised() and hasattr(self, "classes_")

    # -- labels ----------------------------------------------------------------------------
    def _resolve_classes(self, y, classes):
        """The classes after this call (validated), without touching the learner."""
        if classes is not None:
            classes = classifier_classes(classes, "classes")
            if hasattr(self, "classes_") and not np.array_equal(classes, self.classes_):
                raise InputError(f"classes={classes.tolist()} differs from the classes "
                                 f"given before, {np.asarray(self.classes_).tolist()}")
            return classes
        if hasattr(self, "classes_"):
            return self.classes_
        return classifier_classes(y, "y", hint="pass classes= to partial_fit when the first "
                                               "batch does not show every label")

    def _stream_targets(self, y, classes):
        classes = self._resolve_classes(y, classes)
        if classes.size == 2:
            return as_binary_labels(y, classes), classes
        if self._ovr_refusal:
            raise InputError(f"Only binary classification is supported. "
                             f"{type(self).__name__} cannot learn {classes.size} classes "
                             f"one-vs-rest: {self._ovr_refusal}")
        return multiclass.class_indices(y, classes), classes

    def _check_stream(self, stream):
        if not np.array_equal(stream.classes, self.classes_):
            raise InputError(f"the stream's classes {list(stream.classes)} differ from the "
                             f"learner's {list(self.classes_)}")

    def _adopt_stream(self, stream):
        self.classes_ = stream.classes

    def _fit_classes(self, y):
        return classifier_classes(y, "y")

    def prepare_check(self, check, stream):
        """An evaluation set for τ in the stream's layout: ``"stream"`` for the stream itself
        (no copy) or an (X, y) pair."""
        if len(stream.classes) > 2:
            raise InputError("τ (check=, tau_on=) is defined for binary classifiers only; "
                             f"this stream has {len(stream.classes)} classes")
        if isinstance(check, str) and check == "stream":
            return stream.X, stream.y
        cX, cy = check
        cX = validate_features(self, cX, first=False, finite=True)[0]
        if cX.shape[1] != stream.source.shape[1]:
            raise InputError(f"the check set has {cX.shape[1]} features but the stream has "
                             f"{stream.source.shape[1]}")
        if stream.X.sparse != issparse(cX):
            cX = scipy_sparse().csr_matrix(cX) if stream.X.sparse else cX.toarray()
        if issparse(cX) and not cX.has_canonical_format:
            cX = cX.copy()
            cX.sum_duplicates()
        return LoopInput(cX), as_binary_labels(self._prepare_y(cy, cX.shape[0]), stream.classes)

    def partial_fit(self, X, y, classes=None):
        """Online learning on a batch, row by row in order (predict, then update)."""
        self.predict_then_learn(X, y, classes=classes)
        return self

    # -- prediction ------------------------------------------------------------------------
    def decision_function(self, X):
        """Raw decision values w·x + b of the current model (positive ↦ ``classes_[1]``);
        with K ≥ 3 classes, (n, K): column c is class c's learner's."""
        if self._is_multiclass():
            self._check_fitted()
            return multiclass.decision_values(self, self._prepare_X(X, reset=False))
        return self._decision_values(X)

    def predict(self, X):
        scores = self.decision_function(X)
        if scores.ndim == 2:
            return self.classes_[np.argmax(scores, axis=1)]  # the first class on ties
        return self.classes_[(scores >= 0.0).astype(np.intp)]

    @property
    def coef_(self):
        self._check_fitted()
        if self._is_multiclass():
            return multiclass.linear_models(self)[0]
        return self._linear_model()[0][np.newaxis, :]

    @property
    def intercept_(self):
        self._check_fitted()
        if self._is_multiclass():
            return multiclass.linear_models(self)[1]
        return np.array([self._linear_model()[1]])

    def score(self, X, y, sample_weight=None):
        """Mean accuracy of ``predict(X)`` against y (scikit-learn's ``ClassifierMixin``)."""
        from sklearn.metrics import accuracy_score
        return accuracy_score(y, self.predict(X), sample_weight=sample_weight)
