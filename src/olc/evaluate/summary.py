"""One learner, named as in the catalogue, in the online protocol, summarised as one flat
dict: what ``olc run`` prints and each row of ``olc compare`` (:func:`olc.compare.compare_learners`).
"""
from pathlib import Path

import numpy as np

from ..learners.registry import info, make
from .metrics import final_margin
from .protocol import progressive


def run_one(name, params, X, y, passes=1, seed=None, track_tau=True):
    """One learner in the online protocol; returns (summary dict, learner, result).

    A regressor is run on y as real-valued targets: no τ, mistakes or margin (None); its
    summary has the squared/absolute error sums and means instead (``ProgressiveResult``)."""
    learner = make(name, **params)
    regression = info(name).kind == "regressor"
    # τ and γ̄ are binary notions: K ≥ 3 classes (one-vs-rest) report None for both
    binary = not regression and np.unique(np.asarray(y)).size <= 2
    result = progressive(learner, X, y, passes=passes, shuffle_seed=seed,
                         tau_on="data" if track_tau and binary else None)
    summary = result.summary()
    if regression:
        summary.update(params=params, error_rate=None, final_margin=None)
    else:
        summary.update(params=params, error_rate=result.mistakes / result.n_steps,
                       final_margin=final_margin(learner, X, y)
                       if binary and not _kernel_model(learner) else None)
    _add_support_vectors(summary, learner)
    if not track_tau:
        summary["tau"] = None
    return summary, learner, result


def _kernel_model(learner):
    """Whether the learner's model is a pool of stored rows (``n_support_``): γ̄ = min y·f/‖w‖
    is the linear model's margin; for a pool it is not computed (None)."""
    return hasattr(type(learner), "n_support_")


def _add_support_vectors(summary, learner):
    """``support_vectors``: the rows a kernel learner stores at the end (one-vs-rest: summed
    over its K pools); absent for linear learners."""
    if _kernel_model(learner):
        summary["support_vectors"] = int(np.sum(learner.n_support_))


def run_one_streamed(name, params, path, chunk_rows=10_000, progress=None):
    """One learner over an svmlight file read chunk by chunk (memory bounded by the chunk):
    one pass in file order, then one more pass for the final margin γ̄ (classifiers); τ is
    not tracked (it needs the whole data set at every update). Returns (summary, learner);
    the summary has the keys of :func:`run_one`'s, ``data`` included."""
    from ..data import iter_svmlight_chunks
    from .streaming import streamed_final_margin

    learner = make(name, **params)
    result = progressive(learner, iter_svmlight_chunks(path, chunk_rows), progress=progress)
    summary = result.summary()
    summary["params"] = params
    if result.kind == "regressor":
        summary.update(error_rate=None, final_margin=None)
    else:
        binary = len(learner.classes_) <= 2  # γ̄ is a binary notion
        summary.update(error_rate=result.mistakes / max(result.n_steps, 1),
                       final_margin=streamed_final_margin(learner, iter_svmlight_chunks(
                           path, chunk_rows, n_features=learner.n_features_in_))
                       if binary and not _kernel_model(learner) else None)
        _add_support_vectors(summary, learner)
    summary["data"] = {"name": Path(path).name, "rows": result.n_steps,
                       "features": int(learner.n_features_in_), "sparse": True,
                       "labels": result.labels, "streamed": True, "chunk_rows": chunk_rows}
    return summary, learner
