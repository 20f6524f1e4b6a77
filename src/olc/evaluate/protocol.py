"""Progressive validation: the online protocol (predict, then learn) over one or more passes.

Every row is predicted by the model that has seen only the rows before it; the learner's
compiled loop records the prediction, the raw score and whether it updated. This module only
orders the stream (passes, permutations), times the compiled work, and collects the records.
"""
import time
from dataclasses import dataclass, field

import numpy as np

from ..learners._framework.records import StepRecord
from ..learners._framework.estimator import clone, is_regressor
from ..learners._framework.multiclass import new_record
from ..learners.registry import name_of
from .._util.progress import LazyProgress
from .metrics import (absolute_error, cumulative_error_rate, cumulative_mean_squared_error,
                      mistakes, squared_error)
from .._util.sparse import issparse, scipy_sparse

DEFAULT_CHUNK = 1 << 16


def with_regression_errors(summary, result):
    """``summary`` plus a regressor's total and mean squared/absolute errors."""
    if result.kind == "regressor":
        n = max(result.n_steps, 1)
        summary.update(squared_error=result.squared_error, absolute_error=result.absolute_error,
                       mean_squared_error=result.squared_error / n,
                       mean_absolute_error=result.absolute_error / n)
    return summary


@dataclass
class ProgressiveResult:
    """Per-step arrays (in processing order) and totals of one progressive run.

    Regressors (``kind == "regressor"``): ``y`` holds the real targets (float64), ``score``
    the prediction ŷ made before each update, ``pred`` only sign(ŷ); mistakes and τ are
    undefined (None) and the errors are ``squared_error`` = Σ(y − ŷ)² and
    ``absolute_error`` = Σ|y − ŷ| (None for classifiers).

    The arrays are stored in the smallest dtype that holds their values exactly (see
    :func:`progressive`'s ``record``); with ``record="totals"`` they are None and only the
    totals are kept (the same values as with the full record).
    """

    algorithm: str
    y: np.ndarray | None      # true labels as ±1 (int8); K ≥ 3 classes: class index (int8
    #                           up to 128 classes, else int16/int32); regressors: the targets
    pred: np.ndarray | None   # prediction before the update (±1; K ≥ 3: class index), y's dtype
    score: np.ndarray | None  # raw decision value w·x + b, float64 (regressors: ŷ)
    updated: np.ndarray | None  # bool
    aux: np.ndarray | None    # rule-specific per-step value, float64 (OMM: predicted margin
    #                           γ_t); a rule that reported none: zeros stored once (read-only)
    order: np.ndarray | None  # row index of the input processed at each step (uint32 below
    #                           2**32 rows, else int64)
    passes: int
    seconds: float            # compiled learning time, compilation excluded
    compile_seconds: float
    tau: int | None = None  # first step whose classifier had positive margin on the check set
    extras: dict = field(default_factory=dict)
    kind: str = "classifier"  # or "regressor"
    totals: dict | None = None  # record="totals": n_steps, mistakes, updates, errors

    @property
    def n_steps(self):
        return int(self.y.size) if self.totals is None else self.totals["n_steps"]

    @property
    def mistakes(self):
        if self.kind == "regressor":
            return None
        return mistakes(self.pred, self.y) if self.totals is None else self.totals["mistakes"]

    @property
    def squared_error(self):
        """Σ_t (y_t − ŷ_t)² over the online predictions (regressors; None for classifiers)."""
        if self.kind != "regressor":
            return None
        if self.totals is not None:
            return self.totals["squared_error"]
        return squared_error(self.score, self.y)

    @property
    def absolute_error(self):
        """Σ_t |y_t − ŷ_t| over the online predictions (regressors; None for classifiers)."""
        if self.kind != "regressor":
            return None
        if self.totals is not None:
            return self.totals["absolute_error"]
        return absolute_error(self.score, self.y)

    @property
    def updates(self):
        if self.totals is not None:
            return self.totals["updates"]
        return int(np.count_nonzero(self.updated))

    def _per_step(self, what):
        if self.totals is not None:
            raise ValueError(f"{what} needs the per-step record; this run kept only its totals "
                             "(progressive(..., record=\"totals\")): run it with "
                             "record=\"full\"")

    def error_rate_curve(self):
        self._per_step("the error-rate curve")
        if self.kind == "regressor":
            raise ValueError("a regressor makes no mistakes to count: use error_curve() "
                             "(cumulative mean squared error)")
        return cumulative_error_rate(self.pred, self.y)

    def error_curve(self):
        """Cumulative error rate (classifiers) or cumulative mean squared error
        (regressors) after each step."""
        self._per_step("the error curve")
        if self.kind == "regressor":
            return cumulative_mean_squared_error(self.score, self.y)
        return self.error_rate_curve()

    def summary(self):
        out = {"algorithm": self.algorithm, "kind": self.kind, "steps": self.n_steps,
               "passes": self.passes, "mistakes": self.mistakes, "updates": self.updates,
               "tau": self.tau, "seconds": self.seconds,
               "compile_seconds": self.compile_seconds}
        return with_regression_errors(out, self)


def progressive(learner, X, y=None, passes=1, shuffle_seed=None, classes=None, tau_on=None,
                chunk_rows=None, progress=None, shuffle_first_pass=True, record="full"):
    """Run the online protocol of ``learner`` over (X, y), in place.

    ``progressive(learner, chunks)`` (no y): ``chunks`` is an iterable of ``(X, y)`` pairs
    (e.g. ``olc.data.iter_svmlight_chunks(path)``) learned in order in one pass, with memory
    bounded by the chunk; it returns a ``olc.evaluate.streaming.StreamedResult``
    (totals only; τ is not tracked: it needs the whole data set).

    Parameters
    ----------
    learner : an olc learner (trained in place: pass ``sklearn.base.clone(learner)`` to keep
        the original untouched).
    X, y : dense array (or anything ``fit`` takes: lists of rows, ...) or sparse matrix, and
        labels (any two values; K ≥ 3 values: one-vs-rest, the record's ``pred`` and ``y``
        are then class indices and a mistake is a predicted class ≠ the true one) — or, for a regressor, real-valued targets (the result then reports squared/absolute errors, not mistakes).
    passes : number of passes over the data.
    shuffle_seed : None — every pass in the data's order; an int — every pass in a fresh
        permutation drawn from ``numpy.random.default_rng(shuffle_seed)``.
    shuffle_first_pass : with ``shuffle_seed``, False keeps the first pass in the data's
        order and permutes only the later ones (drawn from the same generator, so passes
        2, 3, ... get the permutations that passes 1, 2, ... get with True). A run of k
        passes then begins with the one-pass run (the five-pass runs of Ho-Nguyen et al.
        2025, App. B.4).
    classes : the two labels, needed if y shows only one of them (classifiers only).
    tau_on : (classifiers only) None, ``"data"`` (the whole (X, y)), or an (X_eval, y_eval)
        pair: record τ, the first step whose (updated) classifier has positive margin on
        every evaluation point (Ho-Nguyen et al. 2025, §6 (iii)); the classifier changes only
        at updates, so only those are tested.
    chunk_rows : rows per compiled call (results do not depend on it; it sets how often the
        progress bar moves).
    progress : show a progress bar: None (default) — only once the run has lasted a second;
        True/False — always allowed / never.
    record : ``"full"`` (default) — keep the per-step arrays (pred, score, updated, aux,
        order, y), each in the smallest dtype that holds its values exactly: labels and
        predictions int8 (±1, or class indices up to 128 classes; int16/int32 beyond), score
        and aux float64 (the values the rule computed; aux stored once as read-only zeros
        when the rule reported none), updated bool, order uint32 (int64 from 2**32 rows):
        15 bytes a step for a binary learner whose aux is 0, 23 otherwise. ``"totals"`` —
        keep only the totals (steps, mistakes, updates, τ; a regressor's squared and
        absolute errors, summed exactly as from the full record, keep one float64 a step
        until the end): the result's arrays are None, its totals the same as with "full".
        A stream of chunks (no y) always keeps totals only.

    X is validated once; passes and permutations are index arrays handed to the compiled
    loop, so no copy of X is made.

    Examples
    --------
    A perceptron without bias on four rows, worked by hand: w = 0 scores 0 and predicts +1
    (sign(0) = +1), right on row 1 and wrong on row 2, which updates w to y·x = (0, −1);
    rows 3 and 4 are then predicted right.

    >>> import numpy as np, olc
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    >>> y = np.array([1, -1, 1, -1])
    >>> learner = olc.make("perceptron", update="mistake", fit_intercept=False)
    >>> result = olc.progressive(learner, X, y)
    >>> result.pred.tolist(), result.updated.tolist()
    ([1, 1, 1, -1], [False, True, False, False])
    >>> result.mistakes, learner.coef_.tolist()
    (1, [[0.0, -1.0]])
    """
    if y is None:
        if passes != 1 or shuffle_seed is not None or tau_on is not None:
            raise ValueError("a stream of (X, y) chunks is learned in one pass, in order, "
                             "without τ (passes=1, shuffle_seed=None, tau_on=None)")
        from .streaming import progressive_chunks

        return progressive_chunks(learner, X, classes=classes, progress=progress)
    if not (issparse(X) or hasattr(X, "shape")):
        X = np.asarray(X, dtype=np.float64)  # lists and tuples, as fit takes them
    y = np.asarray(y)
    n = X.shape[0]
    if y.ndim != 1 or y.shape[0] != n:
        raise ValueError(f"X has {n} rows but y has shape {y.shape}")
    if passes < 1:
        raise ValueError(f"passes must be ≥ 1, got {passes}")
    if record not in ("full", "totals"):
        raise ValueError(f"record must be 'full' or 'totals', got {record!r}")
    if issparse(X) and not isinstance(X, scipy_sparse().csr_matrix | scipy_sparse().csr_array):
        X = scipy_sparse().csr_matrix(X)
    regression = is_regressor(learner)
    if regression and (tau_on is not None or classes is not None):
        raise ValueError("tau_on and classes apply to classifiers only; "
                         f"{type(learner).__name__} is a regressor")
    if classes is None and not regression:
        classes = np.unique(y)
    chunk = int(chunk_rows or DEFAULT_CHUNK)

    # Compile (or load from numba's cache) on a throw-away copy, timed apart from the run.
    t0 = time.perf_counter()
    warm = clone(learner)
    warm.predict_then_learn(X[:1], y[:1], classes=classes,
                            check=None if tau_on is None else (X[:1], y[:1]))
    warm.predict(X[:1])
    compile_seconds = time.perf_counter() - t0

    stream = learner.prepare_stream(X, y, classes=classes)
    check = None
    if tau_on is not None:
        check = learner.prepare_check("stream" if isinstance(tau_on, str) and tau_on == "data"
                                      else tau_on, stream)
    rng = np.random.default_rng(shuffle_seed) if shuffle_seed is not None else None
    total = n * passes
    n_classes = 2 if regression else len(stream.classes)
    # The loop writes a chunk at a time into a scratch record of its own dtypes (pred: ±1
    # int8, or a class index int32 for K ≥ 3 and the K-prototype rules, multiclass.stacked);
    # what is kept is copied from it, compact (_Kept) or summed (_Totals).
    scratch = new_record(min(chunk, n), n_classes, learner)
    kept = (_Kept(total, n, scratch.pred.dtype, n_classes, regression) if record == "full"
            else _Totals(total, regression))
    algorithm = name_of(learner)
    bar = LazyProgress(total, algorithm, delay=0.0 if progress else 1.0,
                       enabled=progress is not False)
    seconds, tau = 0.0, None
    try:
        for p in range(passes):
            permute = rng is not None and (p > 0 or shuffle_first_pass)
            order = rng.permutation(n) if permute else np.arange(n, dtype=np.int64)
            kept.order(p * n, order)
            for start in range(0, n, chunk):
                stop = min(start + chunk, n)
                rows = stop - start
                out = StepRecord(scratch.pred[:rows], scratch.score[:rows],
                                 scratch.updated[:rows], scratch.aux[:rows])
                t0 = time.perf_counter()
                learner.learn_prepared(stream, start, stop, order, out,
                                       check if tau is None else None)
                seconds += time.perf_counter() - t0
                if tau is None and out.tau >= 0:
                    tau = out.tau
                kept.add(p * n + start, out, stream.y[order[start:stop]])
                bar.advance(rows)
    finally:
        bar.close()
    return ProgressiveResult(
        algorithm=algorithm, passes=passes, seconds=seconds, compile_seconds=compile_seconds,
        tau=tau, kind="regressor" if regression else "classifier", **kept.fields())


def label_dtype(n_classes):
    """The smallest signed integer dtype of the class indices 0..K−1 (and of ±1)."""
    for dtype in (np.int8, np.int16, np.int32):
        if n_classes - 1 <= np.iinfo(dtype).max:
            return np.dtype(dtype)
    return np.dtype(np.int64)


class _Kept:
    """The full per-step record, compact: each array in the smallest dtype that holds its
    values exactly (``progressive``'s ``record``)."""

    def __init__(self, total, n_rows, loop_pred_dtype, n_classes, regression):
        labels = np.dtype(loop_pred_dtype) if regression else label_dtype(n_classes)
        self.pred = np.empty(total, labels)  # a regressor's: sign(ŷ), int8 as the loop's
        self.y = np.empty(total, np.float64 if regression else labels)
        self.score = np.empty(total)
        self.updated = np.empty(total, np.bool_)
        self.aux = None  # allocated at the first chunk with an aux other than +0.0
        self.orders = np.empty(total, np.uint32 if n_rows <= 2 ** 32 else np.int64)
        self.total = total

    def order(self, base, order):
        self.orders[base:base + order.shape[0]] = order

    def add(self, base, out, y):
        end = base + out.pred.shape[0]
        self.pred[base:end] = out.pred
        self.score[base:end] = out.score
        self.updated[base:end] = out.updated
        self.y[base:end] = y
        # by bit pattern, so that a −0.0 (or a NaN) is kept as the rule wrote it
        if self.aux is None and np.any(out.aux.view(np.uint64)):
            self.aux = np.zeros(self.total)
        if self.aux is not None:
            self.aux[base:end] = out.aux

    def fields(self):
        aux = self.aux
        if aux is None:  # every step's aux was +0.0: one stored zero, read-only
            aux = np.broadcast_to(np.zeros(1), (self.total,))
        return dict(y=self.y, pred=self.pred, score=self.score, updated=self.updated,
                    aux=aux, order=self.orders)


class _Totals:
    """Only the totals (``record="totals"``), equal to those of the full record: mistakes
    and updates are counts; a regressor's error sums need the same floating-point sums as
    the full record's (``metrics.squared_error`` / ``absolute_error`` over all steps at
    once), so its residuals y − ŷ are kept until the end."""

    def __init__(self, total, regression):
        self.total, self.regression = total, regression
        self.mistakes = self.updates = 0
        self.residuals = np.empty(total) if regression else None

    def order(self, base, order):
        pass

    def add(self, base, out, y):
        self.updates += int(np.count_nonzero(out.updated))
        if self.regression:
            self.residuals[base:base + y.shape[0]] = y - out.score
        else:
            self.mistakes += int(np.count_nonzero(out.pred != y.astype(out.pred.dtype)))

    def fields(self):
        totals = {"n_steps": self.total, "mistakes": None if self.regression else self.mistakes,
                  "updates": self.updates}
        if self.regression:
            r = self.residuals
            totals.update(squared_error=float(np.dot(r, r)),
                          absolute_error=float(np.sum(np.abs(r))))
        return dict(y=None, pred=None, score=None, updated=None, aux=None, order=None,
                    totals=totals)
