"""Learning a stream into one state: a binary classifier's or a regressor's (the K stacked
states of a multiclass learner are ``multiclass``'s)."""
import numpy as np

from ..._compiled.driver.binary import run_online
from ..._compiled.loops.codes import BAD_ROW, OVERFLOW
from .features_in import record_features
from .records import StepRecord, _head
from .validation import StreamStoppedError, describe_bad_row


def learn(learner, stream, start, stop, order, out, check):
    """``learn_prepared`` into the learner's one state (see the base class for the
    arguments). A learner whose state has a capacity grows it when the loop reports it full
    (``_grow_state``) and resumes at the row it stopped on."""
    stop = stream.n_rows if stop is None else stop
    if order is None:
        order = np.arange(stream.n_rows, dtype=np.int64)
    if out is None:
        m = stop - start
        out = StepRecord(np.empty(m, np.int8), np.empty(m), np.empty(m, np.bool_),
                         np.empty(m))
    first = not learner._is_initialised()
    if first:
        vecs, scal = learner._initial_state(stream.source.shape[1])
        ints = learner._initial_ints(stream.source.shape[1])
    else:
        learner._check_stream(stream)
        vecs, ints, scal = learner._writable_state()
    # Validated once per prepared stream, not per chunk (declarative validation costs
    # ~50 µs a call).
    hp = stream.hp if stream.hp is not None else learner._hyperparameters()
    steps_before = 0 if first else learner.n_steps_
    position, tau = start, -1
    while True:
        j = position - start
        tau_part, reached, status = run_online(
            learner._rule, stream.X, stream.y, order, position, stop, vecs, ints, scal, hp,
            (out.pred[j:], out.score[j:], out.updated[j:], out.aux[j:]), check,
            steps_before + j)
        if tau < 0 and tau_part >= 0:
            tau = tau_part
            check = None
        grow_error = None
        try:
            grown = learner._grow_state(vecs, scal) if status == OVERFLOW else None
        except MemoryError as exc:  # the state asked to grow and memory ran out
            grown, grow_error = None, exc
        if grown is None:
            break
        vecs, scal = grown
        if not first:
            learner._vecs, learner._scal = vecs, scal
        position = reached
    done = reached - start
    if done > 0 or status == 0:
        if first:
            learner._vecs, learner._ints, learner._scal = vecs, ints, scal
            record_features(learner, stream.source.shape[1], stream.feature_names)
            learner._adopt_stream(stream)
            learner.n_steps_ = 0
            learner.n_updates_ = 0
        learner.n_steps_ += done
        learner.n_updates_ += int(np.count_nonzero(out.updated[:done]))
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
            f"Floating-point under-/overflow occurred at row {row}: the score or the "
            "update is not finite although the row's values are; consider scaling the "
            "input (e.g. sklearn.preprocessing.StandardScaler) or a smaller step size. "
            f"The {done} row(s) before it were learned; row {row} caused no update.",
            row, done, _head(out, done))
    return out
