"""Progressive validation: the online protocol (predict, then learn) over one or more passes.

Every row is predicted by the model that has seen only the rows before it; the learner's
compiled loop records the prediction, the raw score and whether it updated. This module only
orders the stream (passes, permutations), times the compiled work, and collects the records.
"""
import time
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from sklearn.base import clone

from ..learners.registry import name_of
from .metrics import cumulative_error_rate, mistakes

DEFAULT_CHUNK = 1 << 16


@dataclass
class ProgressiveResult:
    """Per-step arrays (in processing order) and totals of one progressive run."""

    algorithm: str
    y: np.ndarray          # true labels as ±1 (int8)
    pred: np.ndarray       # prediction before the update (±1, int8)
    score: np.ndarray      # raw decision value w·x + b
    updated: np.ndarray    # bool
    aux: np.ndarray        # rule-specific per-step value (OMM: predicted margin γ_t)
    order: np.ndarray      # row index of the input processed at each step
    passes: int
    seconds: float         # compiled learning time, compilation excluded
    compile_seconds: float
    tau: int | None = None  # first step whose classifier had positive margin on the check set
    extras: dict = field(default_factory=dict)

    @property
    def n_steps(self):
        return int(self.y.size)

    @property
    def mistakes(self):
        return mistakes(self.pred, self.y)

    @property
    def updates(self):
        return int(np.count_nonzero(self.updated))

    def error_rate_curve(self):
        return cumulative_error_rate(self.pred, self.y)

    def summary(self):
        return {"algorithm": self.algorithm, "steps": self.n_steps, "passes": self.passes,
                "mistakes": self.mistakes, "updates": self.updates, "tau": self.tau,
                "seconds": self.seconds, "compile_seconds": self.compile_seconds}


def _rows(X, index):
    return X[index]


def progressive(learner, X, y, passes=1, shuffle_seed=None, classes=None, tau_on=None,
                chunk_rows=None, progress=None):
    """Run the online protocol of ``learner`` over (X, y), in place.

    Parameters
    ----------
    learner : an olc learner (trained in place: pass ``sklearn.base.clone(learner)`` to keep
        the original untouched).
    X, y : dense array or sparse matrix, and labels (any two values).
    passes : number of passes over the data.
    shuffle_seed : None — every pass in the data's order; an int — every pass in a fresh
        permutation drawn from ``numpy.random.default_rng(shuffle_seed)``.
    classes : the two labels, needed if y shows only one of them.
    tau_on : None, ``"data"`` (the whole (X, y)), or an (X_eval, y_eval) pair: record τ, the
        first step whose (updated) classifier has positive margin on every evaluation point
        (seed 002 §6 (iii)); the classifier changes only at updates, so only those are tested.
    chunk_rows : rows per compiled call (results do not depend on it).
    progress : show a progress bar (default: when the run has over 10⁶ steps).
    """
    y = np.asarray(y)
    n = X.shape[0]
    if y.ndim != 1 or y.shape[0] != n:
        raise ValueError(f"X has {n} rows but y has shape {y.shape}")
    if passes < 1:
        raise ValueError(f"passes must be ≥ 1, got {passes}")
    if sp.issparse(X):
        X = sp.csr_matrix(X)
    if classes is None:
        classes = np.unique(y)
    check = None
    if tau_on is not None:
        check = (X, y) if isinstance(tau_on, str) and tau_on == "data" else tau_on
    chunk = int(chunk_rows or DEFAULT_CHUNK)

    # Compile (or load from numba's cache) on a throw-away copy, timed apart from the run.
    t0 = time.perf_counter()
    warm = clone(learner)
    warm.predict_then_learn(X[:1], y[:1], classes=classes,
                            check=None if check is None else (check[0][:1], check[1][:1]))
    warm.decision_function(X[:1])
    compile_seconds = time.perf_counter() - t0

    rng = np.random.default_rng(shuffle_seed) if shuffle_seed is not None else None
    total = n * passes
    show = progress if progress is not None else total > 1_000_000
    bar = _ProgressBar(total, name_of(learner)) if show else None
    records, orders, seconds, tau = [], [], 0.0, None
    try:
        for _ in range(passes):
            order = rng.permutation(n) if rng is not None else np.arange(n)
            Xp = X if rng is None else _rows(X, order)
            yp = y if rng is None else y[order]
            for start in range(0, n, chunk):
                stop = min(start + chunk, n)
                Xc = Xp[start:stop]
                t0 = time.perf_counter()
                rec = learner.predict_then_learn(Xc, yp[start:stop], classes=classes,
                                                 check=check if tau is None else None)
                seconds += time.perf_counter() - t0
                if tau is None and rec.tau >= 0:
                    tau = rec.tau
                records.append(rec)
                if bar:
                    bar.advance(stop - start)
            orders.append(order)
    finally:
        if bar:
            bar.close()
    order = np.concatenate(orders)
    y_pm = np.where(y[order] == learner.classes_[1], 1, -1).astype(np.int8)
    return ProgressiveResult(
        algorithm=name_of(learner),
        y=y_pm,
        pred=np.concatenate([r.pred for r in records]),
        score=np.concatenate([r.score for r in records]),
        updated=np.concatenate([r.updated for r in records]),
        aux=np.concatenate([r.aux for r in records]),
        order=order,
        passes=passes,
        seconds=seconds,
        compile_seconds=compile_seconds,
        tau=tau,
    )


class _ProgressBar:
    def __init__(self, total, label):
        from rich.progress import Progress

        self._progress = Progress(transient=True)
        self._progress.start()
        self._task = self._progress.add_task(label, total=total)

    def advance(self, k):
        self._progress.advance(self._task, k)

    def close(self):
        self._progress.stop()
