"""One-vs-rest (OvR) for every classifier: K ≥ 3 classes as K binary learners of the same rule,
learned in one compiled pass over the stream (``olc._compiled.loops.one_vs_rest``).

Learner c ("class c vs rest") sees each row with the label +1 when the row's class is
``classes_[c]`` and −1 otherwise, exactly what a binary learner of the same rule trained on
those ±1 labels sees; its state is the view ``[c]`` of the stacked state ``_vecs`` (K,
n_vectors, d), ``_ints`` (K, n_ints), ``_scal`` (K, n_scalars), each class starting from the
rule's own initial state (Winnow's ones, AROW's Σ = I, OBPM's members). The prediction is the
class whose learner has the largest decision value (the first on ties), as scikit-learn's
``OneVsRestClassifier``; two classes use the binary learner itself (scikit-learn's OvR also
fits one learner for two classes), unchanged.

Randomized rules (OBPM's Bernoulli draws, Randomized Weighted Majority's expert choice) draw
from the counter-based generator of ``olc._compiled.kernels.random`` keyed by a seed: learner c uses
the seed :func:`class_seed` (seed, c), so the K learners draw independent streams and learner c
equals a binary learner built with ``seed=class_seed(seed, c)``.

On CSR rows the loop runs class by class over blocks of rows (``olc._compiled.loops.one_vs_rest``:
one class's weights stay in cache), which changes no result: each learner sees its rows in
order; dense rows go row by row, every class in turn. With ``n_jobs`` > 1 (the learner's
parameter, joblib's semantics) contiguous groups of classes learn on threads at once
(``olc._compiled.driver.k_class``), which changes no result either: the K learners are
independent, and the groups' records are folded in class order.
[Decision] An overflow (a finite row whose update would not be finite) met by learner c stops
the stream at that row: every row before it was learned by every learner, learner c and
those after it have not learned it, and learners 0..c−1 have learned it and, on CSR rows,
possibly the rows after it up to the end of its block (undoing their updates would cost a
copy of the K states); the error names the learners and how many rows. A NaN/inf row stops
before any learner learned it (dense: learner 0's score is not finite; CSR: each block's
rows are tested before any learner learns one). With threads, the learners of the other
groups of classes may have learned further too (each group stops at its own overflow); the
error names them as well.
"""
import copy

import numpy as np

from ..._compiled.driver.k_class import decision_values_ovr, run_online_ovr
from ..._compiled.loops.codes import BAD_ROW, OVERFLOW
from ..._util.jobs import effective_n_jobs
from .features_in import record_features
from .validation import InputError, StreamStoppedError, describe_bad_row

#: The generator stream that class seeds are drawn from (apart from the members' streams).
_CLASS_SEED_STREAM = 2 ** 32


def class_seed(seed, c):
    """The seed of learner c in one-vs-rest: the 53-bit integer ``random_u64(seed, 2**32 + c,
    0) >> 11`` of ``olc._compiled.kernels.random`` (SplitMix64; exact in a float64 ``hp``)."""
    from ..._compiled.kernels.random import uniform_array  # imports numba: only when needed

    u = uniform_array(int(seed), _CLASS_SEED_STREAM + int(c), [0])[0]
    return int(u * 2.0 ** 53)


def class_indices(y, classes):
    """Each label's index in ``classes`` (sorted), as int64; a label not among them is an
    error naming its position."""
    y = np.asarray(y)
    pos = np.searchsorted(classes, y)
    pos_clipped = np.minimum(pos, classes.size - 1)
    known = classes[pos_clipped] == y
    if not np.all(known):
        row = int(np.flatnonzero(~known)[0])
        raise InputError(f"y[{row}] = {np.asarray(y[row]).item()!r} is not one of the "
                         f"learner's classes {classes.tolist()[:20]}")
    return pos_clipped.astype(np.int64)


def class_hyperparameters(learner, hp, n_classes):
    """(K, n_hp): the packed hyper-parameters of each class's learner (the learner's own; a
    rule with a ``seed`` field gets :func:`class_seed` per class)."""
    hp_k = np.repeat(np.asarray(hp, dtype=np.float64)[np.newaxis, :], n_classes, axis=0)
    slot = getattr(learner._layout.hp, "SEED", None)
    if slot is not None:
        seed = int(hp[slot])
        hp_k[:, slot] = [class_seed(seed, c) for c in range(n_classes)]
    return hp_k


def initial_state(learner, n_features, n_classes):
    """(vecs, ints, scal) of K learners, each the rule's binary initial state."""
    vecs, scal = learner._initial_state(n_features)
    ints = learner._initial_ints(n_features)
    return (learner._stored_vecs(np.repeat(vecs[np.newaxis], n_classes, axis=0)),
            np.repeat(np.asarray(ints)[np.newaxis], n_classes, axis=0),
            np.repeat(scal[np.newaxis], n_classes, axis=0))


def class_learner(learner, c):
    """A shallow copy of a fitted one-vs-rest learner whose state is learner c's (views into
    the stacked state, not copies) and whose classes are (−1, +1): the binary learner "class
    c vs rest", with its seed (:func:`class_seed`), for code written for one binary state
    (``_linear_model``, checks)."""
    view = copy.copy(learner)
    view._vecs, view._ints, view._scal = learner._vecs[c], learner._ints[c], learner._scal[c]
    view.classes_ = np.array([-1, 1])
    if "seed" in learner.get_params(deep=False):  # what its draws are keyed by
        view.seed = class_seed(learner.seed, c)
    return view


def stacked(learner, n_classes):
    """Whether ``learner`` with ``n_classes`` classes keeps K stacked per-class states and
    records class indices: one-vs-rest for K ≥ 3; a multiclass rule with K prototypes
    (``_prototypes``, e.g. the multiclass PA) for every K."""
    return n_classes > 2 or getattr(learner, "_prototypes", False)


def new_record(n, n_classes, learner=None):
    """An empty StepRecord for n steps: ``pred`` int8 (±1) for a binary learner, int32 (class
    index) when the state is stacked (:func:`stacked`)."""
    from .records import StepRecord

    dtype = np.int32 if stacked(learner, n_classes) else np.int8
    return StepRecord(np.empty(n, dtype), np.empty(n), np.empty(n, np.bool_), np.empty(n))


def _compiled_vecs(learner, vecs):
    """The stacked vectors in the memory order the compiled loops take: a multiclass rule's
    prototypes in their layout's order (``layouts/multiclass_pa.in_stored_order``: a copy,
    once, of a state loaded or assigned in another order, which the learner then keeps),
    one-vs-rest's as they are."""
    if not getattr(learner, "_prototypes", False):
        return vecs
    from ..._compiled.layouts.multiclass_pa import in_stored_order

    ordered = in_stored_order(vecs)
    if ordered is not vecs and getattr(learner, "_vecs", None) is vecs:
        learner._vecs = ordered
    return ordered


def learn(learner, stream, start, stop, order, out, check):
    """``learn_prepared`` into K stacked class states (K ≥ 3 classes one-vs-rest, or a
    multiclass rule's K prototypes; see the base class for the arguments)."""
    if check is not None:
        raise InputError("τ (check=, tau_on=) is defined for binary classifiers only; this "
                         f"stream has {len(stream.classes)} classes")
    n_classes = len(stream.classes)
    stop = stream.n_rows if stop is None else stop
    if order is None:
        order = np.arange(stream.n_rows, dtype=np.int64)
    if out is None:
        out = new_record(stop - start, n_classes, learner)
    elif out.pred.dtype.itemsize < 4 or out.pred.dtype.kind != "i":
        raise InputError(f"the record's pred array has dtype {out.pred.dtype}; a one-vs-rest "
                         "record holds class indices (use "
                         "olc.learners._framework.multiclass.new_record)")
    first = not learner._is_initialised()
    d = stream.source.shape[1]
    if first:
        vecs, ints, scal = initial_state(learner, d, n_classes)
    else:
        learner._check_stream(stream)
        vecs, ints, scal = learner._writable_state()
    reserved = learner._reserve_state(vecs, scal, stop - start)
    if reserved is not None:
        vecs, scal = reserved
        if not first:
            learner._vecs, learner._scal = vecs, scal
    vecs = _compiled_vecs(learner, vecs)
    hp = stream.hp if stream.hp is not None else learner._hyperparameters()
    hp_k = class_hyperparameters(learner, hp, n_classes)
    reached, cls, status, learned = run_online_ovr(
        learner._rule, stream.X, stream.y, order, start, stop, vecs, ints, scal, hp_k,
        (out.pred, out.score, out.updated, out.aux),
        n_jobs=effective_n_jobs(getattr(learner, "n_jobs", None)))
    done = reached - start
    kept = done > 0 or status == 0
    if kept:
        if first:
            learner._vecs, learner._ints, learner._scal = vecs, ints, scal
            record_features(learner, d, stream.feature_names)
            learner._adopt_stream(stream)
            learner.n_steps_ = 0
            learner.n_updates_ = 0
        learner.n_steps_ += done
        learner.n_updates_ += int(np.count_nonzero(out.updated[:done]))
    from .records import _head

    if status == BAD_ROW:
        row = int(order[reached])
        raise StreamStoppedError(
            f"X contains {describe_bad_row(stream.source, row)}; olc learners need finite "
            f"features. The {done} row(s) before it were learned by every class's learner "
            "(rows are processed in order).", row, done, _head(out, done))
    if status == OVERFLOW:
        row = int(order[reached])
        state_kept = kept or not first  # a first call that learned no whole row keeps none
        # (A multiclass rule's step, K prototypes, declines as a whole: no class to name.)
        where = ("" if getattr(learner, "_prototypes", False)
                 else f" in the learner of class {stream.classes.tolist()[cls]!r}")
        raise StreamStoppedError(
            f"Floating-point under-/overflow occurred at row {row}{where}: the score or "
            "the update is not finite although the row's values are; consider scaling the "
            "input (e.g. sklearn.preprocessing.StandardScaler) or a smaller step size. "
            f"The {done} row(s) before it were learned by "
            f"every class's learner; {_beyond(stream.classes, row, reached, learned, state_kept)}"
            ".", row, done, _head(out, done))
    return out


def _beyond(classes, row, reached, learned, kept):
    """What the classes learned from the stopping row on (``learned[c]``: the first stream
    position class c has not learned): one-vs-rest learns class by class in blocks
    (``_compiled/loops/one_vs_rest.py``), so the classes before the one that overflowed have learned the
    stopping row and may have learned the rest of its block."""
    if not kept or np.all(learned == reached):
        return f"row {row} caused no update"
    classes = classes.tolist()
    parts = []
    for position in sorted(set(learned.tolist()) - {reached}):
        which = [classes[c] for c in np.flatnonzero(learned == position)]
        extra = position - reached - 1
        more = (f" and the {extra} row(s) after it in the stream (one-vs-rest learns class by "
                "class in blocks of rows)" if extra else "")
        parts.append(f"the learners of classes {which} learned row {row}{more}")
    behind = [classes[c] for c in np.flatnonzero(learned == reached)]
    return ", ".join(parts) + f", those of {behind} did not"


def decision_values(learner, X):
    """(n, K) decision values of the K learners (X already validated)."""
    from ..._compiled.driver.inputs import LoopInput

    vecs, ints, scal = learner._writable_state()
    hp_k = class_hyperparameters(learner, learner._hyperparameters(), vecs.shape[0])
    vecs = _compiled_vecs(learner, vecs)
    values, bad = decision_values_ovr(learner._rule, LoopInput(X), vecs, ints, scal, hp_k)
    if bad >= 0:
        raise InputError(f"X contains a non-finite value at {describe_bad_row(X, bad)}; "
                         "olc learners need finite features")
    return values


def linear_models(learner):
    """(coef (K, d), intercept (K,)) of the K learners."""
    pairs = [class_learner(learner, c)._linear_model() for c in range(learner._vecs.shape[0])]
    return (np.array([np.asarray(w, dtype=np.float64) for w, _ in pairs]),
            np.array([b for _, b in pairs], dtype=np.float64))
