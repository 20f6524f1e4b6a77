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
    """

    algorithm: str
    y: np.ndarray          # true labels as ±1 (int8); K ≥ 3 classes: class index (int32);
    #                        regressors: the targets (float64)
    pred: np.ndarray       # prediction before the update (±1, int8; K ≥ 3: class index)
    score: np.ndarray      # raw decision value w·x + b (regressors: the prediction ŷ)
    updated: np.ndarray    # bool
    aux: np.ndarray        # rule-specific per-step value (OMM: predicted margin γ_t)
    order: np.ndarray      # row index of the input processed at each step
    passes: int
    seconds: float         # compiled learning time, compilation excluded
    compile_seconds: float
    tau: int | None = None  # first step whose classifier had positive margin on the check set
    extras: dict = field(default_factory=dict)
    kind: str = "classifier"  # or "regressor"

    @property
    def n_steps(self):
        return int(self.y.size)

    @property
    def mistakes(self):
        if self.kind == "regressor":
            return None
        return mistakes(self.pred, self.y)

    @property
    def squared_error(self):
        """Σ_t (y_t − ŷ_t)² over the online predictions (regressors; None for classifiers)."""
        return squared_error(self.score, self.y) if self.kind == "regressor" else None

    @property
    def absolute_error(self):
        """Σ_t |y_t − ŷ_t| over the online predictions (regressors; None for classifiers)."""
        return absolute_error(self.score, self.y) if self.kind == "regressor" else None

    @property
    def updates(self):
        return int(np.count_nonzero(self.updated))

    def error_rate_curve(self):
        if self.kind == "regressor":
            raise ValueError("a regressor makes no mistakes to count: use error_curve() "
                             "(cumulative mean squared error)")
        return cumulative_error_rate(self.pred, self.y)

    def error_curve(self):
        """Cumulative error rate (classifiers) or cumulative mean squared error
        (regressors) after each step."""
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
                chunk_rows=None, progress=None, shuffle_first_pass=True):
    """Run the online protocol of ``learner`` over (X, y), in place.

    ``progressive(learner, chunks)`` (no y): ``chunks`` is an iterable of ``(X, y)`` pairs
    (e.g. ``olc.data.iter_svmlight_chunks(path)``) learned in order in one pass, with memory
    bounded by the chunk; it returns a :class:`~olc.evaluate.streaming.StreamedResult`
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

    X is validated once; passes and permutations are index arrays handed to the compiled
    loop, so no copy of X is made.
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
    # pred: ±1 as int8 for two classes; a class index (int32) for K ≥ 3 (one-vs-rest) and
    # for the multiclass rules with K prototypes (multiclass.stacked)
    record = new_record(total, 2 if regression else len(stream.classes), learner)
    orders = np.empty(total, dtype=np.int64)
    algorithm = name_of(learner)
    bar = LazyProgress(total, algorithm, delay=0.0 if progress else 1.0,
                       enabled=progress is not False)
    seconds, tau = 0.0, None
    try:
        for p in range(passes):
            permute = rng is not None and (p > 0 or shuffle_first_pass)
            order = rng.permutation(n) if permute else np.arange(n, dtype=np.int64)
            orders[p * n:(p + 1) * n] = order
            for start in range(0, n, chunk):
                stop = min(start + chunk, n)
                base = p * n
                out = StepRecord(record.pred[base + start:base + stop],
                                 record.score[base + start:base + stop],
                                 record.updated[base + start:base + stop],
                                 record.aux[base + start:base + stop])
                t0 = time.perf_counter()
                learner.learn_prepared(stream, start, stop, order, out,
                                       check if tau is None else None)
                seconds += time.perf_counter() - t0
                if tau is None and out.tau >= 0:
                    tau = out.tau
                bar.advance(stop - start)
    finally:
        bar.close()
    # In the data's order (one pass, no permutation) the targets need no gather.
    y_run = stream.y if rng is None and passes == 1 else stream.y[orders]
    y_pm = y_run.copy() if regression else y_run.astype(record.pred.dtype)
    return ProgressiveResult(
        algorithm=algorithm,
        y=y_pm,
        pred=record.pred,
        score=record.score,
        updated=record.updated,
        aux=record.aux,
        order=orders,
        passes=passes,
        seconds=seconds,
        compile_seconds=compile_seconds,
        tau=tau,
        kind="regressor" if regression else "classifier",
    )
