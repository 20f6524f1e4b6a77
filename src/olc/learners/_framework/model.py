"""The estimator contract every olc learner follows (``docs/architecture.md``, "Learners").

A learner is hyper-parameters (stored by ``__init__`` only, scikit-learn style) + state arrays
(``vecs``, ``ints``, ``scal``: ``state``) + one compiled update rule (the id of its layout,
run by ``olc._compiled.driver``). ``partial_fit`` consumes rows in order as a stream: predict
with the current model, then update.

``OnlineLinearModel`` holds everything that does not depend on what y is (the stream, the
hyper-parameters, the online protocol); ``OnlineLinearClassifier`` (``classifier``) adds
labels (any two values; ``classes_[0]`` ↦ −1, ``classes_[1]`` ↦ +1) and
``OnlineLinearRegressor`` (``regressor``) real-valued targets. The batch handed to the loop
and the record it writes are in ``records``; one state is learned by ``one_state``, K stacked
class states by ``multiclass``.
"""
import numpy as np

from ..._compiled.driver.binary import decision_values
from ..._compiled.driver.inputs import LoopInput
from . import multiclass, one_state
from .estimator import OnlineEstimator
from .features_in import validate_features
from .records import PreparedStream
from .state import StateHooks
from .validation import InputError, StreamStoppedError, check_nonempty, describe_bad_row
from ..._util.sparse import issparse


class OnlineLinearModel(StateHooks, OnlineEstimator):
    """What classifiers and regressors share.

    A subclass declares its rule's named :class:`~olc._compiled.layouts.base.Layout` as
    ``_layout``, its parameters' constraints as ``_parameter_constraints`` (scikit-learn's
    declarative form: one validation path, one message form), and implements
    ``_hp_values`` (the layout's hyper-parameter fields, by name, from validated parameters)
    and, when the model is not ``(vecs[0], scal[bias])``, ``_linear_model``. Cross-parameter
    checks go in ``_check_params``. The kind-specific part is a handful of hooks about the
    targets (``_stream_targets``, ``_check_stream``, ``_adopt_stream``, ``_fit_classes``,
    ``prepare_check``); the state's hooks are :class:`~.state.StateHooks`'s.

    :meth:`learn_prepared`, the online protocol, is written once, here; a learner adapts it
    through the learning hooks (``_check_continuation``, ``_before_learning`` /
    ``_after_learning``, ``_explain_stop``, ``_learns_class_states``), never by overriding
    it."""

    _layout = None  # the rule's Layout (olc._compiled.layouts.<family>)
    _y_noun = "label"  # what y holds, for messages

    @property
    def _rule(self):
        return self._layout.rule

    # -- hyper-parameters --------------------------------------------------------------------
    def _hyperparameters(self) -> np.ndarray:
        """Validate the parameters (declared constraints, then ``_check_params``) and pack
        them by name into the rule's ``hp`` array."""
        self._validate_params()
        self._check_params()
        return self._layout.pack(**self._hp_values())

    def _check_params(self):
        """Checks that involve several parameters (raise InputError); none by default."""

    def _hp_values(self) -> dict:  # pragma: no cover - abstract
        """{field: value} for every hyper-parameter field of ``_layout``."""
        raise NotImplementedError

    def _linear_model(self):
        """(coef, intercept) of the current classifier, from the state arrays (rules whose
        model is not row 0 and the ``bias`` slot override this)."""
        return self._vecs[0].copy(), float(self._scal[self._layout.scalars.BIAS])

    # -- targets (kind-specific) -----------------------------------------------------------
    def _stream_targets(self, y, classes):  # pragma: no cover - abstract
        """(targets as the compiled loop takes them, classes or None) for a validated y."""
        raise NotImplementedError

    def _check_stream(self, stream):
        """Reject a prepared stream that does not fit the fitted learner (no state change)."""

    def _adopt_stream(self, stream):
        """Record what the first learned stream fixes (a classifier's classes_)."""

    def _fit_classes(self, y):
        """What ``fit`` passes as ``classes=`` to the first call (None: nothing)."""
        return None

    def prepare_check(self, check, stream):  # pragma: no cover - abstract
        raise NotImplementedError

    # -- learning hooks --------------------------------------------------------------------
    def _check_continuation(self):
        """Refuse to go on learning a fitted state that the current parameters no longer
        describe (a parameter switched by ``set_params`` after fitting); raise InputError.
        Called before anything is learned, only when the learner is fitted."""

    def _before_learning(self):
        """What :meth:`_after_learning` needs from the state before a call (None)."""
        return None

    def _after_learning(self, before):
        """Called when a call to :meth:`learn_prepared` ends, whether it learned every row or
        raised; ``before``: what :meth:`_before_learning` returned. Nothing by default."""

    def _explain_stop(self, stream, error):
        """A :class:`StreamStoppedError` that says better why the stream stopped at
        ``error.row``, or None to raise ``error`` as it is (the default)."""
        return None

    def _learns_class_states(self, stream):
        """Whether ``stream`` is learned into K stacked class states (``multiclass``): K ≥ 3
        classes, one-vs-rest."""
        return stream.classes is not None and len(stream.classes) > 2

    # -- input -----------------------------------------------------------------------------
    def _validated_X(self, X, first, finite=False):
        """(X in a loop layout, its feature names or None); ``first``: X starts the model
        (nothing to check it against)."""
        # NaN/inf are found by the compiled loops as they reach a row (free: the row is in
        # cache), which names the row and column without an extra pass over the data.
        X, names = validate_features(self, X, first=first, finite=finite)
        check_nonempty(X)
        if issparse(X) and not X.has_canonical_format:
            X = X.copy()
            X.sum_duplicates()  # sorted, summed: ‖x‖² and dense/CSR agreement need it
        return X, names

    def _prepare_X(self, X, reset=False):
        return self._validated_X(X, first=reset)[0]

    def _prepare_y(self, y, n_rows):
        if y is None:
            raise InputError(f"{type(self).__name__} requires y to be passed, but the target y "
                             "is None")
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            from sklearn.utils.validation import column_or_1d
            y = column_or_1d(y, warn=True)  # scikit-learn's DataConversionWarning
        elif y.ndim != 1:
            raise InputError(f"y must be one-dimensional, got shape {y.shape}")
        if y.shape[0] != n_rows:
            raise InputError(f"X has {n_rows} rows but y has {y.shape[0]} {self._y_noun}s")
        if y.dtype.kind in "fc" and not np.isfinite(y).all():
            row = int(np.flatnonzero(~np.isfinite(y))[0])
            raise InputError(f"y[{row}] = {y[row]} is not a valid {self._y_noun}")
        return y

    # -- the online protocol ---------------------------------------------------------------
    def predict_then_learn(self, X, y, classes=None, check=None):
        """Consume the rows of (X, y) in order: predict each with the current model, then
        update. Returns the per-row :class:`StepRecord` (the online protocol's raw output).

        Every check that can be made before learning (labels, shapes, hyper-parameters) is
        made first, so a rejected call leaves the learner as it was. A NaN/inf value or an
        overflow is met by the compiled loop in row order: it stops before that row and raises
        :class:`StreamStoppedError`, whose ``rows_learned`` and ``record`` describe the rows
        before it (those were learned, as in any stream).

        ``check`` (classifiers only): optional (X_eval, y_eval); the record's ``tau`` is the
        first step (counted over the learner's lifetime) whose updated classifier has positive
        margin on every evaluation point.
        """
        stream = self.prepare_stream(X, y, classes=classes)
        if check is not None:
            check = self.prepare_check(check, stream)
        return self.learn_prepared(stream, check=check)

    def prepare_stream(self, X, y, classes=None):
        """Validate a batch once (no state change) for :meth:`learn_prepared`."""
        first = not self._is_initialised()
        hp = self._hyperparameters()
        X, names = self._validated_X(X, first)
        y = self._prepare_y(y, X.shape[0])
        targets, classes = self._stream_targets(y, classes)
        return PreparedStream(LoopInput(X), X, targets, classes, hp, names)

    def learn_prepared(self, stream, start=0, stop=None, order=None, out=None, check=None):
        """Learn positions ``start..stop-1`` of ``stream`` taken in ``order`` (row indices;
        default: the stream's own order), writing the record into ``out`` (a StepRecord with
        arrays of length stop − start) or a new one. ``check``: from :meth:`prepare_check`."""
        if self._is_initialised():
            self._check_continuation()
        before = self._before_learning()
        try:
            learn = multiclass.learn if self._learns_class_states(stream) else one_state.learn
            return learn(self, stream, start, stop, order, out, check)
        except StreamStoppedError as error:
            clearer = self._explain_stop(stream, error)
            if clearer is None:
                raise
            raise clearer from None
        finally:
            self._after_learning(before)

    def fit(self, X, y):
        """Reset the model, then one online pass over (X, y) in order."""
        self._hyperparameters()  # reject bad hyper-parameters before touching the model
        X, names = self._validated_X(X, first=True)
        y = self._prepare_y(y, X.shape[0])
        classes = self._fit_classes(y)
        for attr in ("classes_", "_vecs", "_ints", "_scal", "n_steps_", "n_updates_",
                     "n_features_in_", "feature_names_in_"):
            if hasattr(self, attr):
                delattr(self, attr)
        stream = self.prepare_stream(X, y, classes=classes)
        stream.feature_names = names  # X was validated above: its names are those of fit's X
        self.learn_prepared(stream)
        return self

    # -- prediction ------------------------------------------------------------------------
    def _decision_values(self, X):
        """Raw values w·x + b of the current model, one per row of X."""
        self._check_fitted()
        X = self._prepare_X(X, reset=False)
        vecs, ints, scal = self._writable_state()
        values, bad = decision_values(self._rule, LoopInput(X), vecs, ints, scal,
                                      self._hyperparameters())
        if bad >= 0:
            raise InputError(f"X contains a non-finite value at {describe_bad_row(X, bad)}; "
                             "olc learners need finite features")
        return values
