"""The estimator contract shared by every olc learner (DESIGN.md, "The learner contract").

A learner is hyper-parameters (stored by ``__init__`` only, scikit-learn style) + state arrays
(``vecs``, ``scal``) + one compiled update rule (an id of ``olc._compiled.rule_ids``).
``partial_fit`` consumes rows in order as a stream: predict with the current model, then
update.

``OnlineLinearModel`` holds everything that does not depend on what y is (the stream, the
state, persistence hooks, the compiled loop); ``OnlineLinearClassifier`` adds labels (any two
values; ``classes_[0]`` ↦ −1, ``classes_[1]`` ↦ +1; ``classifier``) and
``OnlineLinearRegressor`` (``base_regression``) real-valued targets. The batch handed to the
loop and the record it writes are in ``records``.
"""
import numpy as np

from .._compiled.driver.binary import decision_values, run_online
from .._compiled.driver.inputs import NO_INTS, LoopInput
from .._compiled.loops.codes import BAD_ROW, OVERFLOW
from .estimator import NotFittedError, OnlineEstimator, ParameterError, not_fitted_error
from . import multiclass
from .features_in import record_features, validate_features
from .records import PreparedStream, StepRecord, _head
from .validation import (
    InputError,
    StreamStoppedError,
    check_nonempty,
    describe_bad_row,
)
from .._sparse import issparse


__all__ = ["NotFittedError", "OnlineLinearModel", "ParameterError", "PreparedStream",
           "StepRecord"]


class OnlineLinearModel(OnlineEstimator):
    """What classifiers and regressors share.

    A subclass declares its rule's named :class:`~olc._compiled.layouts.base.Layout` as
    ``_layout``, its parameters' constraints as ``_parameter_constraints`` (scikit-learn's
    declarative form: one validation path, one message form), and implements
    ``_hp_values`` (the layout's hyper-parameter fields, by name, from validated parameters)
    and, when the model is not ``(vecs[0], scal[bias])``, ``_linear_model``. Cross-parameter
    checks go in ``_check_params``. The kind-specific part is a handful of hooks about the
    targets (``_stream_targets``, ``_check_stream``, ``_adopt_stream``, ``_fit_classes``,
    ``prepare_check``)."""

    _layout = None  # the rule's Layout (olc._compiled.layouts.<family>)
    _y_noun = "label"  # what y holds, for messages

    @property
    def _rule(self):
        return self._layout.rule

    @property
    def _n_vectors(self):
        return self._layout.n_vectors

    @property
    def _n_scalars(self):
        return self._layout.n_scalars

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

    # -- state -----------------------------------------------------------------------------
    def _initial_state(self, n_features):
        """(vecs, scal) before any example; override for other starting points (e.g.
        Winnow's weights of 1, AROW's Σ = I) or shapes (OBPM's N members)."""
        return np.zeros((self._n_vectors, n_features)), np.zeros(self._n_scalars)

    def _stored_vecs(self, vecs):
        """``vecs`` as this learner stores its state (the averaging learners keep theirs
        feature-major: ``averaging.AveragingMixin``); as it is by default."""
        return vecs

    def _initial_ints(self, n_features):
        """The integer state (int64: named slots, then blocks of length d such as support
        lists) before any example; most rules keep none."""
        n = self._layout.n_ints(n_features) if self._layout is not None else 0
        return np.zeros(n, dtype=np.int64) if n else NO_INTS

    def _grow_state(self, vecs, scal):
        """Called when the loop stopped with an overflow status on a finite row: a learner
        whose state has a capacity (e.g. n-OMM's stored points) returns larger (vecs, scal)
        arrays to resume with; the default (None) means a real overflow."""
        return None

    def _loaded_state_shapes(self, n_features, vecs, ints, scal):
        """The shapes (vecs, ints, scal) a file's state must have for ``n_features`` columns:
        those of the learner's own initial state (its hyper-parameters fix every size, e.g.
        OBPM's N members, AROW's d × d covariance). A learner whose state grows (n-OMM's
        stored points) overrides this to read the capacity off the file's arrays."""
        v0, s0 = self._initial_state(n_features)
        return v0.shape, np.shape(self._initial_ints(n_features)), s0.shape

    def _check_loaded_state(self, vecs, ints, scal):
        """Rule-specific consistency of a state read from a file (``olc.load``), checked
        after its dtypes, shapes (against the layout and ``_initial_state``) and finiteness:
        counts within capacity, positions within range, ... Return None, or a message naming
        the field, what was expected and what was found. Nothing to check by default."""
        return None

    def _is_initialised(self):
        return hasattr(self, "_vecs") and hasattr(self, "n_steps_")

    def _writable_state(self):
        """(vecs, ints, scal), each writable: a model loaded read-only (joblib's
        ``load(..., mmap_mode="r")``, a read-only memory map) gets copies, once, in the same
        memory order. Learning writes the state in place (numba refuses a read-only one deep
        in its compiler), and scoring with read-only state would compile a second, read-only
        specialization of every score loop."""
        for name in ("_vecs", "_ints", "_scal"):
            state = getattr(self, name)
            if isinstance(state, np.ndarray) and not state.flags.writeable:
                setattr(self, name, np.array(state, order="K"))
        return self._vecs, self._ints, self._scal

    def _class_learner(self, c):
        """The learner whose state is one binary state: itself (a one-vs-rest classifier
        returns class c's learner)."""
        return self

    def __sklearn_is_fitted__(self):
        # scikit-learn's check_is_fitted would otherwise take any attribute ending in "_"
        # for a fitted one, including hyper-parameters such as ``lambda_``.
        return self._is_initialised()

    def _check_fitted(self):
        if not self._is_initialised():
            raise not_fitted_error(f"This {type(self).__name__} instance is not fitted yet: call "
                                 "fit or partial_fit first.")

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
        if stream.classes is not None and len(stream.classes) > 2:
            return multiclass.learn(self, stream, start, stop, order, out, check)
        stop = stream.n_rows if stop is None else stop
        if order is None:
            order = np.arange(stream.n_rows, dtype=np.int64)
        if out is None:
            m = stop - start
            out = StepRecord(np.empty(m, np.int8), np.empty(m), np.empty(m, np.bool_),
                             np.empty(m))
        first = not self._is_initialised()
        if first:
            vecs, scal = self._initial_state(stream.source.shape[1])
            ints = self._initial_ints(stream.source.shape[1])
        else:
            self._check_stream(stream)
            vecs, ints, scal = self._writable_state()
        # Validated once per prepared stream, not per chunk (declarative validation costs
        # ~50 µs a call).
        hp = stream.hp if stream.hp is not None else self._hyperparameters()
        steps_before = 0 if first else self.n_steps_
        position, tau = start, -1
        while True:
            j = position - start
            tau_part, reached, status = run_online(
                self._rule, stream.X, stream.y, order, position, stop, vecs, ints, scal, hp,
                (out.pred[j:], out.score[j:], out.updated[j:], out.aux[j:]), check,
                steps_before + j)
            if tau < 0 and tau_part >= 0:
                tau = tau_part
                check = None
            grow_error = None
            try:
                grown = self._grow_state(vecs, scal) if status == OVERFLOW else None
            except MemoryError as exc:  # the state asked to grow and memory ran out
                grown, grow_error = None, exc
            if grown is None:
                break
            vecs, scal = grown
            if not first:
                self._vecs, self._scal = vecs, scal
            position = reached
        done = reached - start
        if done > 0 or status == 0:
            if first:
                self._vecs, self._ints, self._scal = vecs, ints, scal
                record_features(self, stream.source.shape[1], stream.feature_names)
                self._adopt_stream(stream)
                self.n_steps_ = 0
                self.n_updates_ = 0
            self.n_steps_ += done
            self.n_updates_ += int(np.count_nonzero(out.updated[:done]))
        out.tau = tau
        if status == BAD_ROW:
            row = int(order[reached])
            raise StreamStoppedError(
                f"X contains {describe_bad_row(stream.source, row)}; olc learners need finite "
                f"features. The {done} row(s) before it were learned (rows are processed in "
                "order).", row, done, _head(out, done))
        if status == OVERFLOW and grow_error is not None:
            row = int(order[reached])
            raise StreamStoppedError(
                f"{grow_error} The stream stopped at row {row}: the {done} row(s) before it "
                f"were learned; row {row} caused no update.", row, done, _head(out, done))
        if status == OVERFLOW:
            row = int(order[reached])
            raise StreamStoppedError(
                f"numerical overflow at row {row}: the score or the update is not finite "
                "although the row's values are (feature magnitudes too large: rescale X). "
                f"The {done} row(s) before it were learned; row {row} caused no update.",
                row, done, _head(out, done))
        return out

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
