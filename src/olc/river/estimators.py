"""olc learners as River estimators: ``Classifier`` (``river.base.MiniBatchClassifier``) and
``Regressor`` (``river.base.MiniBatchRegressor``).

The methods called once per example (``learn_one``, ``predict_one``, ``predict_proba_one``)
are written out for speed: a row whose tuple of keys was seen before costs ``tuple(x)``, one
dict lookup, one ``struct.pack`` and one compiled call (``state.py``, ``columns.py``); learning
the dict just scored costs one dict comparison and one compiled call on the row the score
left in the scratch row (``LearnerState._scored``).
"""
import math

import numpy as np
from river import base

from .. import config
from ..learners._framework.validation import InputError
from .columns import COLUMNS, VALUES, bad_value_error, describe, frame_values, is_number
from .frames import FrameLearning
from .state import LearnerState


def _sigmoid(s):
    if s >= 0.0:
        return 1.0 / (1.0 + math.exp(-s))
    e = math.exp(s)
    return e / (1.0 + e)


class _Common(FrameLearning, LearnerState):
    # The two methods below run once per example: a row costs, when its keys are cached,
    # tuple(x), a dict lookup, struct.pack and the compiled call, else one column lookup per
    # key and two struct.pack; learning the dict just scored, a dict comparison and the
    # compiled call. Anything else (a key without a column, a bad value: any exception) goes
    # to ``state.py``, which raises the error or handles the row.

    def _score(self, x):
        """w·x + b of the current model on dict x."""
        rows = self._rows
        try:
            if rows is None:
                n = len(x)
                cols = COLUMNS[n].pack(*map(self._columns.index.get, x))
                raw = VALUES[n].pack(*x.values())
            else:
                cols, fmt = rows[tuple(x)]
                raw = fmt.pack(*x.values())
        except Exception:
            return self._score_new_row(x)
        if self._domain is not None:
            self._check_domain(x, raw, self._columns)
        s = self._entries.score(self._rule, cols, raw, self._desc, not config._strict)
        if s != s:
            self._pending = None
            return self._checked_score(x, cols, raw, self._state)
        self._pending = (x.copy(), cols, raw) if type(x) is dict else None
        return s

    def _learn(self, x, target):
        pending = self._pending
        if pending is not None and type(x) is dict and x == pending[0]:
            self._pending = None
            r = self._entries.learn_row(self._rule, target, self._desc, not config._strict)
            if r > 1:
                r = self._stopped(r, x, pending[1], pending[2], target)
            self.n_steps_ += 1
            self.n_updates_ += r
            return
        rows = self._rows
        if rows is None:
            return self._learn_new_row(x, target)
        keys = tuple(x)
        entry = rows.get(keys)
        if entry is None:
            return self._learn_new_row(x, target, keys)
        cols, fmt = entry
        try:
            raw = fmt.pack(*x.values())
        except Exception:
            raise bad_value_error(x) from None
        self._pending = None
        r = self._entries.learn(self._rule, cols, raw, target, self._desc,
                                not config._strict)
        if r > 1:
            r = self._stopped(r, x, cols, raw, target)
        self.n_steps_ += 1
        self.n_updates_ += r

    def decision_one(self, x):
        """The raw decision value w·x + b of the current model on dict x (a classifier's
        margin, positive ↦ the positive class; a regressor's prediction)."""
        return self._score(x)

    def _frame(self, X):
        import pandas as pd

        if not isinstance(X, pd.DataFrame):
            raise InputError(f"X must be a pandas DataFrame, got {type(X).__name__}")
        return frame_values(X)

    @classmethod
    def _unit_test_params(cls):
        import olc

        yield {"learner": olc.make(cls._test_learner)}


class Classifier(_Common, base.MiniBatchClassifier):
    """An olc classifier as a River binary classifier.

    Parameters
    ----------
    learner
        An olc classifier, e.g. ``olc.make("pa-i", C=0.5)`` or ``olc.AROW()``: its
        hyper-parameters (the model learns a fresh clone of it; see also ``olc.river.make``).
    features
        Feature names known in advance (their columns, in this order). Optional for the
        learners whose state grows exactly with new features (every learner but ROMMA,
        aggressive ROMMA, PUMMA, the generalized perceptron, OBPM, n-OMM, the ℓp e-OMMs,
        Winnow, WM and RWM); those others take the first example's features when none are
        declared, and refuse a new feature later.
    classes
        The two labels, negative first after sorting (olc's convention: the larger is the
        positive class). Default (False, True), River's binary labels (0 and 1 are equal to
        them).

    Probabilities. ``predict_proba_one`` follows River's convention for margin classifiers
    (``PAClassifier``, ``ALMAClassifier``, ``Perceptron``): σ(w·x + b), the logistic
    function of the decision value. It is a probability model only for ``sgd`` with
    ``loss="logistic"`` (logistic regression); for every other learner it is a monotone
    squashing of the margin — fine for ranking metrics (ROC AUC), not calibrated.
    ``predict_one`` is the learner's own prediction (sign(w·x + b), sign(0) = +1), the one
    its online step makes before updating.

    Before any example the model predicts with its initial state (e.g. the positive class for
    the perceptron, whose score is 0), as ``partial_fit``'s first step does.
    """

    _kind = "classifier"
    _test_learner = "pa-i"

    def __init__(self, learner, features=None, classes=(False, True)):
        self.learner = learner
        self.features = features
        self.classes = classes
        self._classes = _two_classes(classes)
        self._signs = {self._classes[0]: -1.0, self._classes[1]: 1.0}
        self._setup()

    # learn_one and predict_one are ``_learn`` and ``_score`` written out: one Python frame
    # less per call on the hot path (measured ~0.1 µs of ~2 µs).
    def learn_one(self, x, y):
        try:
            target = self._signs[y]
        except (KeyError, TypeError):
            raise self._label_error(y) from None
        pending = self._pending
        if pending is not None and type(x) is dict and x == pending[0]:
            self._pending = None
            r = self._entries.learn_row(self._rule, target, self._desc, not config._strict)
            if r > 1:
                r = self._stopped(r, x, pending[1], pending[2], target)
            self.n_steps_ += 1
            self.n_updates_ += r
            return
        rows = self._rows
        if rows is None:
            return self._learn_new_row(x, target)
        keys = tuple(x)
        entry = rows.get(keys)
        if entry is None:
            return self._learn_new_row(x, target, keys)
        cols, fmt = entry
        try:
            raw = fmt.pack(*x.values())
        except Exception:  # struct.error, TypeError: a value that is not a number
            raise bad_value_error(x) from None
        self._pending = None
        r = self._entries.learn(self._rule, cols, raw, target, self._desc,
                                not config._strict)
        if r > 1:
            r = self._stopped(r, x, cols, raw, target)
        self.n_steps_ += 1
        self.n_updates_ += r

    def predict_one(self, x):
        rows = self._rows
        try:
            if rows is None:
                n = len(x)
                cols = COLUMNS[n].pack(*map(self._columns.index.get, x))
                raw = VALUES[n].pack(*x.values())
            else:
                cols, fmt = rows[tuple(x)]
                raw = fmt.pack(*x.values())
        except Exception:
            return self._classes[self._score_new_row(x) >= 0.0]
        if self._domain is not None:
            self._check_domain(x, raw, self._columns)
        s = self._entries.score(self._rule, cols, raw, self._desc, not config._strict)
        if s != s:
            self._pending = None
            return self._classes[self._checked_score(x, cols, raw, self._state) >= 0.0]
        self._pending = (x.copy(), cols, raw) if type(x) is dict else None
        return self._classes[s >= 0.0]

    def predict_proba_one(self, x):
        p = _sigmoid(self._score(x))
        return {self._classes[0]: 1.0 - p, self._classes[1]: p}

    def learn_many(self, X, y):
        names, block = self._frame(X)
        targets = self._targets_many(y, block.shape[0])
        self._learn_frame(names, block, targets)

    def predict_many(self, X):
        import pandas as pd

        scores = self._frame_scores(*self._frame(X))
        return pd.Series(np.asarray(self._classes)[(scores >= 0.0).astype(np.intp)],
                         index=X.index)

    def predict_proba_many(self, X):
        import pandas as pd

        scores = self._frame_scores(*self._frame(X))
        p = np.array([_sigmoid(s) for s in scores])
        frame = pd.DataFrame({0: 1.0 - p, 1: p}, index=X.index)
        frame.columns = list(self._classes)
        return frame

    def _targets_many(self, y, n):
        labels = list(y)
        if len(labels) != n:
            raise InputError(f"X has {n} rows but y has {len(labels)} labels")
        try:
            return np.fromiter((self._signs[label] for label in labels), np.float64, n)
        except (KeyError, TypeError):
            bad = next(label for label in labels if _unknown(label, self._signs))
            raise self._label_error(bad) from None

    def _label_error(self, y):
        neg, pos = self._classes
        return InputError(f"label {describe(y)} is not one of this classifier's two classes "
                          f"({neg!r}, {pos!r}); olc.river's classifiers are binary: declare "
                          "the two labels with classes=(a, b)")


class Regressor(_Common, base.MiniBatchRegressor):
    """An olc regressor (``pa-regression``, ``arow-regression``, ``sgd-regression``, …) as a
    River regressor.

    Parameters
    ----------
    learner
        An olc regressor, e.g. ``olc.make("pa-i-regression", C=0.1)``: its hyper-parameters
        (the model learns a fresh clone of it).
    features
        Feature names known in advance (their columns, in this order); every olc regressor's
        state grows exactly with new features, so this is optional.

    ``predict_one`` is w·x + b, the prediction the online step makes before updating; before
    any example, that of the initial state (0).
    """

    _kind = "regressor"
    _test_learner = "pa-regression"

    def __init__(self, learner, features=None):
        self.learner = learner
        self.features = features
        self._setup()

    def learn_one(self, x, y):
        if type(y) is not float or y - y != 0.0:
            y = _target(y)
        self._learn(x, y)

    predict_one = _Common._score

    def learn_many(self, X, y):
        names, block = self._frame(X)
        targets = [_target(t, i) for i, t in enumerate(y)]
        if len(targets) != block.shape[0]:
            raise InputError(f"X has {block.shape[0]} rows but y has {len(targets)} targets")
        self._learn_frame(names, block, np.array(targets, dtype=np.float64))

    def predict_many(self, X):
        import pandas as pd

        return pd.Series(self._frame_scores(*self._frame(X)), index=X.index)


def _two_classes(classes):
    try:
        pair = tuple(classes)
        ok = len(pair) == 2 and len({*pair}) == 2
        pair = tuple(sorted(pair))
    except TypeError:
        ok = False
    if not ok:
        raise InputError(f"classes must be two distinct, comparable labels, got {classes!r}")
    return pair


def _unknown(label, signs):
    try:
        return label not in signs
    except TypeError:
        return True


def _target(y, row=None):
    where = "target" if row is None else f"target at row {row}"
    if not is_number(y):
        raise InputError(f"{where} {describe(y)} is not a number")
    y = float(y)
    if not math.isfinite(y):
        raise InputError(f"{where} {y!r} is not finite")
    return y
