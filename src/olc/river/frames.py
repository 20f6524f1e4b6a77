"""River's ``learn_many`` / ``predict_many``: a pandas frame through the family's compiled CSR
loops in one call, each row the one ``learn_one`` would build from its dict."""
import numpy as np

from .._compiled.driver.binary import decision_values, run_online
from .._compiled.driver.inputs import LoopInput
from .._compiled.loops.codes import OVERFLOW
from ..learners._framework.validation import InputError
from . import growth
from .columns import Columns, frame_csr
from .domain import check_frame_domain


class FrameLearning:
    """Mixin over :class:`~.state.LearnerState` (its columns, state and growth): learning and
    scoring a frame's rows (``names``: its columns, ``block``: its values)."""

    def _learn_frame(self, names, block, targets):
        """The rows in order, as ``learn_one`` would learn them one by one; the state grows
        (n-OMM's store) and runs on when the loop reports it full."""
        if self._domain is not None:
            check_frame_domain(self._domain, type(self._model).__name__, names, block,
                               self._columns if self._vecs is not None else None)
        n_before = len(self._columns)
        self._columns.extend(names)
        if len(self._columns) != n_before:
            self._added_columns(n_before)
        X = LoopInput(frame_csr(self._columns, names, block))
        n = block.shape[0]
        order = np.arange(n, dtype=np.int64)
        out = (np.empty(n, np.int8), np.empty(n), np.empty(n, np.bool_), np.empty(n))
        position = 0
        while True:
            _, reached, status = run_online(self._rule, X, targets, order, position, n,
                                            self._vecs, self._ints, self._scal, self._hp,
                                            tuple(a[position:] for a in out))
            self.n_steps_ += reached - position
            self.n_updates_ += int(np.count_nonzero(out[2][position:reached]))
            position = reached
            grown = (self._model._grow_state(self._vecs, self._scal) if status == OVERFLOW
                     else None)
            if grown is None:
                break
            self._set_state((grown[0], self._ints, grown[1]), self._width)
        if status:
            if position == 0:
                self._forget(n_before)
            raise InputError(f"numerical overflow at row {position} of the frame (feature "
                             f"magnitudes too large: rescale them); the {position} row(s) "
                             "before it were learned")

    def _frame_scores(self, names, block):
        """The decision values of the frame's rows (a learner with no state yet scores its
        initial state over the frame's columns)."""
        if self._vecs is None:
            columns = Columns(names)
            state = growth.initial_state(self._model, len(columns))
        else:
            columns, state = self._columns, self._state
        if self._domain is not None:
            check_frame_domain(self._domain, type(self._model).__name__, names, block, columns)
        values, _ = decision_values(self._rule, LoopInput(frame_csr(columns, names, block)),
                                    *state, self._hp)
        return values
