"""The state a learner owns — ``vecs`` (float64 rows), ``ints`` (int64 slots and blocks),
``scal`` (float64 slots), laid out by the rule's :class:`~olc._compiled.layouts.base.Layout` — and
the hooks through which a learner shapes it: its starting point, its growth, and what a state
read from a file must satisfy."""
import numpy as np

from ..._compiled.driver.inputs import NO_INTS
from .estimator import not_fitted_error


class StateHooks:
    """The state hooks of :class:`~olc.learners._framework.model.OnlineLinearModel` (which
    sets ``_layout``)."""

    #: The axis of a binary state's ``vecs`` that runs over the features: 1 (rows of length
    #: d); 0 for the kernel learners' pools, stored by feature (d, capacity).
    _features_axis = 1

    @property
    def _n_vectors(self):
        return self._layout.n_vectors

    @property
    def _n_scalars(self):
        return self._layout.n_scalars

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

    def _reserve_state(self, vecs, scal, n_rows):
        """Larger (vecs, scal) of K stacked class states with room for what ``n_rows`` rows
        can add, or None (the default: the state has no capacity). One-vs-rest calls it
        before learning: it cannot resume a row that some classes have learned, so a state
        with a capacity (the kernel learners' pools) grows before the call."""
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

