"""The online protocol over a stream of chunks (e.g. a large svmlight file read chunk by
chunk): one pass, in order, memory bounded by the chunk — only running totals are kept, not
the per-step arrays of :class:`~olc.evaluate.protocol.ProgressiveResult`."""
import time
from dataclasses import dataclass, field

import numpy as np

from ..learners._framework.estimator import clone, is_regressor
from ..learners.registry import name_of
from .._util.progress import LazyProgress
from .protocol import with_regression_errors


@dataclass
class StreamedResult:
    """Totals of one progressive pass over a chunked stream (no per-step arrays).

    τ needs the whole data set at every update, so it is not tracked (None); mistakes are
    None for regressors, squared/absolute errors None for classifiers."""

    algorithm: str
    kind: str
    n_steps: int = 0
    mistakes: int | None = None
    updates: int = 0
    squared_error: float | None = None
    absolute_error: float | None = None
    seconds: float = 0.0           # compiled learning time, compilation excluded
    compile_seconds: float = 0.0
    chunks: int = 0
    labels: dict = field(default_factory=dict)  # label (as str) -> count
    passes: int = 1
    tau: None = None

    def summary(self):
        out = {"algorithm": self.algorithm, "kind": self.kind, "steps": self.n_steps,
               "passes": 1, "mistakes": self.mistakes, "updates": self.updates, "tau": None,
               "seconds": self.seconds, "compile_seconds": self.compile_seconds,
               "chunks": self.chunks}
        return with_regression_errors(out, self)


def progressive_chunks(learner, chunks, classes=None, progress=None):
    """Run the online protocol of ``learner`` (in place) over ``chunks``, an iterable of
    ``(X, y)`` pairs taken in order; returns a :class:`StreamedResult`.

    ``classes``: the two labels when the first chunk may not show both (classifiers).
    ``progress``: as in :func:`~olc.evaluate.progressive` (rows and rows/s on stderr)."""
    regression = is_regressor(learner)
    result = StreamedResult(name_of(learner), "regressor" if regression else "classifier")
    if regression:
        result.squared_error = result.absolute_error = 0.0
    else:
        result.mistakes = 0
    bar = LazyProgress(None, result.algorithm, delay=0.0 if progress else 1.0,
                       enabled=progress is not False, unit="rows")
    try:
        for X, y in chunks:
            y = np.asarray(y)
            if result.chunks == 0:  # compile (or load numba's cache) apart from the timing
                t0 = time.perf_counter()
                clone(learner).predict_then_learn(
                    X[:1], y[:1], classes=None if regression else _first_classes(y, classes))
                result.compile_seconds = time.perf_counter() - t0
            first = result.chunks == 0 and not learner._is_initialised()
            stream = learner.prepare_stream(
                X, y, classes=_first_classes(y, classes) if first and not regression else None)
            t0 = time.perf_counter()
            record = learner.learn_prepared(stream)
            result.seconds += time.perf_counter() - t0
            _accumulate(result, stream.y, record, regression, y)
            bar.advance(stream.n_rows)
    finally:
        bar.close()
    return result


def _first_classes(y, classes):
    if classes is not None:
        return classes
    found = np.unique(y)
    return found if found.size == 2 else None  # let the learner name the problem


def _accumulate(result, targets, record, regression, y):
    n = targets.shape[0]
    result.n_steps += n
    result.chunks += 1
    result.updates += int(np.count_nonzero(record.updated))
    if regression:
        err = targets - record.score
        result.squared_error += float(err @ err)
        result.absolute_error += float(np.abs(err).sum())
    else:
        result.mistakes += int(np.count_nonzero(record.pred != targets))
        for label, count in zip(*np.unique(y, return_counts=True)):
            key = str(label)
            result.labels[key] = result.labels.get(key, 0) + int(count)


def streamed_final_margin(classifier, chunks):
    """γ̄ = min_t y_t(w·x_t + b)/‖w‖ over a chunked data set (one more pass; None when not
    positive), as :func:`~olc.evaluate.final_margin` on the whole set."""
    if len(classifier.classes_) > 2:
        raise ValueError(f"the margin γ̄ is defined for binary classifiers; this one has "
                         f"{len(classifier.classes_)} classes (one-vs-rest)")
    w = np.asarray(classifier.coef_, dtype=np.float64).ravel()
    norm = float(np.linalg.norm(w))
    if norm == 0.0:
        return None
    gamma = np.inf
    for X, y in chunks:
        y_pm = np.where(np.asarray(y) == classifier.classes_[1], 1.0, -1.0)
        gamma = min(gamma, float(np.min(y_pm * classifier.decision_function(X))) / norm)
    return gamma if 0.0 < gamma < np.inf else None
