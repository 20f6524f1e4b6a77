"""What River's classifier and regressor share: an olc learner's state, its columns, and the
one-example path into the compiled entry points (``_compiled/loops/one_row.py``).

Per example, Python does only the dict → bytes mapping (``columns.py``); the rule's step is
one compiled call. The hot paths (a row whose keys were seen in this order before; learning
the dict just scored) are written out in ``estimators.py``; a new key tuple, growing the state
and errors go through here.
"""
import struct
from itertools import repeat

import numpy as np

from .. import config
from .._compiled.driver.one_row import BAD_VALUE, DECLINED, bind, entries_for, row_buffers
from .._compiled.loops.one_row_state import descriptor
from ..learners._framework.model import OnlineLinearModel
from ..learners._framework.estimator import NotFittedError, clone
from ..learners._framework.features_in import record_features
from ..learners._framework.validation import InputError
from . import growth
from .domain import check_row_domain, domain_error
from .columns import (CACHE_LIMIT, Columns, bad_value_error, columns_struct, pack_values,
                      values_struct)
from .memory import reachable_bytes

def _declared_columns(features):
    if features is None:
        return Columns()
    try:
        names = list(features)
        distinct = len(set(names)) == len(names)
    except TypeError:
        raise InputError(f"features must be a list of feature names, got {features!r}") from None
    if not distinct:
        seen = set()
        twice = next(n for n in names if n in seen or seen.add(n))
        raise InputError(f"features names {twice!r} twice")
    return Columns(names)


class LearnerState:
    """Mixin of ``Classifier`` and ``Regressor`` (``estimators.py``): the wrapped learner's
    state (``_vecs``, ``_ints``, ``_scal``; ``_width`` columns allocated) and columns.
    ``_setup`` is called by their ``__init__``."""

    _kind = None  # "classifier" or "regressor"

    def _setup(self):
        learner = self.learner
        if not isinstance(learner, OnlineLinearModel):
            raise InputError(f"learner must be an olc learner (e.g. olc.make('pa-i')), got "
                             f"{type(learner).__name__}")
        if learner._estimator_type != self._kind:
            wrapper = "Classifier" if learner._estimator_type == "classifier" else "Regressor"
            raise InputError(f"{type(learner).__name__} is a {learner._estimator_type}: wrap "
                             f"it in olc.river.{wrapper}")
        if getattr(learner, "_prototypes", False):
            raise InputError(f"{type(learner).__name__} is a multiclass learner with K "
                             "prototypes (one step sees every class); olc.river wraps the "
                             "binary classifiers and the regressors only: use its "
                             "partial_fit on batches")
        self._model = clone(learner)  # the hooks (initial state, growth); never fitted
        self._hp = self._model._hyperparameters()
        self._rule = self._model._rule
        self._fixed = growth.refusal(self._model)
        self._domain = getattr(self._model, "input_domain", None)
        self._columns = _declared_columns(self.features)
        self._width = 0
        self._vecs = self._ints = self._scal = None
        if self._fixed is None or self.features is not None:
            self._vecs, self._ints, self._scal = growth.initial_state(self._model,
                                                                      len(self._columns))
            self._width = len(self._columns)
        self.n_steps_ = self.n_updates_ = 0
        self._attach()

    def _attach(self):
        """The helpers that are not part of the model (not pickled): the compiled entry
        points, the row cache (tuple of keys → (cols, values struct); None when off) and the
        scored row (``_pending``, see ``_scored``)."""
        self._bind()
        self._rows, self._misses = {}, 0

    def _bind(self):
        """The compiled entry points for the state's array types (``driver.one_row.bind``)
        and the scratch row they write an example into (one value per column at most);
        called whenever the state arrays are replaced (created, grown), which is rare."""
        self._idx_buf, self._val_buf = row_buffers(max(self._width, len(self._columns)))
        self._pending = None  # the scratch row it held is gone
        # The one-example entries take C arrays (``one_row_state``): a wide averaged state,
        # which a batch learner stores feature-major (``_compiled/layouts/feature_major.py``), is
        # kept row by row here (the same bits; the feature-major speed-up is the CSR loops').
        if self._vecs is not None and not self._vecs.flags.c_contiguous:
            self._vecs = np.ascontiguousarray(self._vecs)
        if self._vecs is None:
            entries = entries_for(self._rule)
            learn, learn_row, score = entries.learn_one, entries.learn_row, entries.score_one
            self._desc = self._desc_arrays = None
        else:
            # A model loaded read-only (joblib's mmap_mode="r") learns on copies, made once.
            for name in ("_vecs", "_ints", "_scal", "_hp"):
                if not getattr(self, name).flags.writeable:
                    setattr(self, name, np.array(getattr(self, name), order="C"))
            learn, learn_row, score = bind(self._rule, self._vecs, self._ints, self._scal,
                                           self._hp)
            # The entries' view of the state (one_row_state): the arrays held with it.
            self._desc, self._desc_arrays = descriptor(self._vecs, self._ints, self._scal,
                                                       self._hp, self._idx_buf, self._val_buf)
        # Held by a class, which River's object-graph walk (``_raw_memory_usage``, also on a
        # pipeline holding this model) does not enter: numba's compiled code and environment
        # are shared, and the walk met a dead weak proxy inside them.
        self._entries = type("OneRowEntries", (), {"learn": staticmethod(learn),
                                                   "learn_row": staticmethod(learn_row),
                                                   "score": staticmethod(score)})

    def _scored(self, x, cols, raw):
        """``score_one`` just wrote dict x's row (all its features known) into the scratch
        row: remember it, with a copy of x, for the ``learn_one`` that River's progressive
        validation calls next on the same x. That call finds x equal to the copy (the same
        mapping: the same row, whatever the key order) and steps on the row as it is
        (``learn_row``): no dict mapping, packing or sorting again. Every other call that
        writes the scratch row, and every new one (``_bind``), drops it."""
        self._pending = (x.copy(), cols, raw) if type(x) is dict else None

    def __getstate__(self):
        state = self.__dict__.copy()
        for name in ("_entries", "_rows", "_misses", "_pending", "_idx_buf", "_val_buf",
                     "_desc", "_desc_arrays"):
            state.pop(name, None)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._attach()

    @property
    def _raw_memory_usage(self):
        """River's measure of the model's memory (``Base._raw_memory_usage``: the objects
        reachable through ``gc.get_referents``, arrays with their buffers), without the
        compiled entry points: numba's code and its environment (~2 MiB) are shared by every
        model of the family."""
        return reachable_bytes([self])

    def _set_state(self, state, width=None):
        self._vecs, self._ints, self._scal = state
        self._width = len(self._columns) if width is None else width
        self._bind()

    @property
    def _state(self):
        return None if self._vecs is None else (self._vecs, self._ints, self._scal)

    # -- columns ---------------------------------------------------------------------------
    def _added_columns(self, n_before):
        """Columns were added from ``n_before`` on: grow the state to hold them (create it: a
        fixed-width learner takes its first example's features), or refuse — forgetting
        them — when the state cannot grow exactly."""
        needed = len(self._columns)
        if self._vecs is None:
            self._set_state(growth.initial_state(self._model, needed))
            return
        if self._fixed is not None:
            name = self._columns.names[n_before]
            self._columns.forget(n_before)
            raise InputError(
                f"feature {name!r} is new, but {type(self._model).__name__}'s state cannot "
                f"grow exactly ({self._fixed}); declare every feature up front: "
                "olc.river.make(..., features=[...])")
        try:
            self._reserve(needed)
        except Exception:
            self._columns.forget(n_before)
            raise

    def _forget(self, n_before):
        """Undo the columns a rejected example added (a grown state stays: its new columns
        are at their initial value; a fixed-width state the example created goes)."""
        self._columns.forget(n_before)
        if self._fixed is not None and self.features is None and not len(self._columns):
            self._vecs = self._ints = self._scal = None
            self._width = 0
            self._bind()

    # -- one example -----------------------------------------------------------------------
    def _learn_new_row(self, x, target, keys=None):
        """learn_one for a dict whose tuple of keys is not cached (``keys``: that tuple when
        the caller made it), nor just scored."""
        self._pending = None
        n_before = len(self._columns)
        raw = pack_values(x)  # first: a bad value adds no column
        cols = self._columns.learn_columns(x)
        if len(self._columns) != n_before:
            self._added_columns(n_before)
        try:
            r = self._entries.learn(self._rule, cols, raw, target, self._desc,
                                    not config._strict)
            if r > 1:
                r = self._stopped(r, x, cols, raw, target)
        except Exception:
            self._forget(n_before)
            raise
        if self._rows is not None:
            self._remember(tuple(x) if keys is None else keys, cols)
        self.n_steps_ += 1
        self.n_updates_ += r

    def _remember(self, keys, cols):
        """Cache a row's cols by its keys (a row mapped by a score or a step) — until misses
        show that rows rarely repeat their keys (text: every document its own vocabulary),
        when the lookup would cost more than it saves and the cache switches off: at the
        k-th miss in k examples (this one included) with k > k // 2 + CACHE_LIMIT."""
        self._misses += 1
        if self._misses > (self.n_steps_ + 1) // 2 + CACHE_LIMIT:
            self._rows = None
        elif len(self._rows) < CACHE_LIMIT:
            self._rows[keys] = (cols, values_struct(len(keys)))

    def _stopped(self, r, x, cols, raw, target):
        """The step declined (state untouched): grow a capacity and run it again (n-OMM's
        store of points), or raise the reason naming the key."""
        while r == DECLINED:
            grown = self._model._grow_state(self._vecs, self._scal)
            if grown is None:
                break
            self._set_state((grown[0], self._ints, grown[1]), self._width)
            r = self._entries.learn(self._rule, cols, raw, target, self._desc,
                                    not config._strict)
        if r <= 1:
            return r
        if r == BAD_VALUE:
            raise bad_value_error(x)
        if self._domain is not None:
            raise domain_error(self._domain, type(self._model).__name__, x, self._columns)
        raise InputError("numerical overflow on this example: the score or the update is not "
                         "finite although its values are (feature magnitudes too large: "
                         "rescale them); nothing was learned from it")

    def _score_new_row(self, x):
        """The decision value for a dict whose tuple of keys is not cached.

        A feature without a column has its initial weight, zero. For a growing state it is
        given the column learning it would give it (the next free ones, in the dict's order),
        within the capacity: the row then has the terms, in the order, that the pre-declared
        model's row has (a zero weight times x is still a term of a reassociated sum), so the
        value is bit for bit the one ``partial_fit`` or a model with declared features would
        compute. A fixed-width learner leaves such features out (they are not in its model);
        before its first example it scores its initial state over the example's features."""
        self._pending = None
        raw = pack_values(x)
        known = False
        if self._vecs is None:
            columns = Columns(x)
            state = growth.initial_state(self._model, len(columns))
            cols = columns.learn_columns(x)
        else:
            columns, state = self._columns, self._state
            try:
                cols = columns.known_columns(x)
                known = True
            except struct.error:  # virtual columns: learning maps the row again
                cols, state = self._unknown_columns(x)
        if self._domain is not None:
            self._check_domain(x, raw, columns)
        vecs, ints, scal = state
        desc, arrays = ((self._desc, None) if vecs is self._vecs else
                        descriptor(vecs, ints, scal, self._hp, *row_buffers(len(columns))))
        s = self._entries.score(self._rule, cols, raw, desc, not config._strict)
        if s != s:
            return self._checked_score(x, cols, raw, state)
        if known:
            self._scored(x, cols, raw)
            if self._rows is not None:
                self._remember(tuple(x), cols)
        return s

    def _unknown_columns(self, x):
        """(cols, state) for a dict with keys that have no column: −1 for a fixed-width
        learner, else the virtual columns learning would give them (see _score_new_row)."""
        columns = self._columns
        found = list(map(columns.get, x, repeat(-1)))
        unknown = found.count(-1)
        if self._fixed is None:
            self._reserve(len(columns) + unknown)
            free = iter(range(len(columns), len(columns) + unknown))
            found = [c if c >= 0 else next(free) for c in found]
        return columns_struct(len(found)).pack(*found), self._state

    def _reserve(self, width):
        """Capacity for ``width`` columns (the columns themselves are not added)."""
        if width > self._width:
            state, new_width = growth.grown(self._model, self._state, self._width, width)
            self._set_state(state, new_width)

    def _checked_score(self, x, cols, raw, state):
        vecs, ints, scal = state
        desc, arrays = descriptor(vecs, ints, scal, self._hp, *row_buffers(len(cols) // 8))
        s = self._entries.score(self._rule, cols, raw, desc, not config._strict)
        if s != s:
            raise bad_value_error(x) or InputError("the decision value is not finite on this "
                                                   "example (feature magnitudes too large)")
        return s

    def _check_domain(self, x, raw, columns):
        check_row_domain(self._domain, type(self._model).__name__, x, raw, columns)

    # -- the olc learner -------------------------------------------------------------------
    def to_olc(self):
        """A fitted olc learner (``olc.save``, ``coef_``, ``decision_function`` …) holding
        this model's state over exactly its d columns, in the order the features appeared
        (``feature_names_in_`` when every feature name is a string)."""
        if self._vecs is None or not len(self._columns):
            raise NotFittedError("this model has learned no feature yet")
        learner = clone(self.learner)
        d = len(self._columns)
        if self._fixed is None:
            vecs, ints, scal = growth.resize(self._model, self._state, self._width, d)
        else:
            vecs, ints, scal = (a.copy() for a in self._state)
        learner._vecs, learner._ints, learner._scal = vecs, ints, scal
        names = self._columns.names
        record_features(learner, d, np.asarray(names, dtype=object)
                        if all(isinstance(n, str) for n in names) else None)
        if self._kind == "classifier":
            learner.classes_ = np.asarray(self._classes)
        learner.n_steps_, learner.n_updates_ = self.n_steps_, self.n_updates_
        return learner
