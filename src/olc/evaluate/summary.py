"""One learner, named as in the catalogue, in the online protocol, summarised as one flat
dict: what ``olc run`` prints and each row of ``olc compare`` (:func:`olc.compare.compare_learners`).
"""
from pathlib import Path

import numpy as np

from ..learners.registry import info, make
from .metrics import final_margin
from .protocol import progressive


def run_one(name, params, X, y, passes=1, seed=None, track_tau=True, record="totals",
            progress=None, margin=True):
    """One learner in the online protocol; returns (summary dict, learner, result).

    ``track_tau`` / ``margin``: compute τ (it re-checks the data at every update until the
    margin is positive) and the final margin γ̄ (one more pass over the data). What is not
    computed is None in the summary and named in its ``not_computed`` ({key: why}).

    ``record``: :func:`~olc.evaluate.progressive`'s — "totals" (the default: the summary
    needs nothing more, so no per-step arrays are kept) or "full" (the per-step arrays, e.g.
    for an error curve); the summary is the same either way.

    A regressor is run on y as real-valued targets: no τ, mistakes or margin (None); its
    summary has the squared/absolute error sums and means instead (``ProgressiveResult``)."""
    learner = make(name, **params)
    regression = info(name).kind == "regressor"
    # τ and γ̄ are binary notions: K ≥ 3 classes (one-vs-rest) report None for both
    binary = not regression and np.unique(np.asarray(y)).size <= 2
    result = progressive(learner, X, y, passes=passes, shuffle_seed=seed,
                         tau_on="data" if track_tau and binary else None, record=record,
                         progress=progress)
    summary = result.summary()
    if regression:
        summary.update(params=params, error_rate=None, final_margin=None)
    else:
        summary.update(params=params, error_rate=result.mistakes / result.n_steps,
                       final_margin=final_margin(learner, X, y)
                       if margin and binary and not _kernel_model(learner) else None)
    _add_support_vectors(summary, learner)
    if not track_tau:
        summary["tau"] = None
    _name_skipped(summary, regression, tau=track_tau, margin=margin)
    return summary, learner, result


#: Why a metric was not computed, by the option that asks for it (``olc run``'s flags).
SKIPPED_WHY = {"tau": "not asked (--tau)", "final_margin": "not asked (--margin)"}


def _name_skipped(summary, regression, tau, margin, why=SKIPPED_WHY):
    """``summary["not_computed"]``: {metric: why} for τ and γ̄ when they were not asked for
    (a regressor has neither: nothing to name)."""
    skipped = {key: why[key] for key, asked in (("tau", tau), ("final_margin", margin))
               if not asked and not regression}
    if skipped:
        summary["not_computed"] = skipped


def _kernel_model(learner):
    """Whether the learner's model is a pool of stored rows (``n_support_``): γ̄ = min y·f/‖w‖
    is the linear model's margin; for a pool it is not computed (None)."""
    return hasattr(type(learner), "n_support_")


def _add_support_vectors(summary, learner):
    """``support_vectors``: the rows a kernel learner stores at the end (one-vs-rest: summed
    over its K pools); absent for linear learners."""
    if _kernel_model(learner):
        summary["support_vectors"] = int(np.sum(learner.n_support_))


def run_one_streamed(name, params, path, chunk_rows=10_000, progress=None, margin=True,
                     tau=False, n_features=None, format="svmlight", bits=None):
    """One learner over a data file read chunk by chunk (memory bounded by the chunk): one
    pass in file order; τ is not computed (it needs the whole data set at every update).
    Returns (summary, learner); the summary has the keys of :func:`run_one`'s, ``data``
    included.

    ``format``: ``"svmlight"`` (``n_features`` columns; None: the largest index, found by
    a counting pass over the file first) or ``"vw"`` (2^``bits`` columns, known beforehand).
    ``margin``: also compute γ̄, by one more pass over the file (classifiers)."""
    from .streaming import streamed_final_margin

    if format == "vw" and n_features is not None:
        raise ValueError("n_features is an svmlight option; a VW file's width is 2^bits")

    def chunks(width):
        if format == "vw":
            from ..data.vw import DEFAULT_BITS, iter_vw_chunks

            return iter_vw_chunks(path, chunk_rows, DEFAULT_BITS if bits is None else bits)
        if bits is not None:
            raise ValueError("bits is a Vowpal Wabbit option (format='vw')")
        from ..data import iter_svmlight_chunks

        return iter_svmlight_chunks(path, chunk_rows, n_features=width)

    learner = make(name, **params)
    result = progressive(learner, chunks(n_features), progress=progress)
    summary = result.summary()
    summary["params"] = params
    regression = result.kind == "regressor"
    if regression:
        summary.update(error_rate=None, final_margin=None)
    else:
        binary = len(learner.classes_) <= 2  # γ̄ is a binary notion
        summary.update(error_rate=result.mistakes / max(result.n_steps, 1),
                       final_margin=streamed_final_margin(
                           learner, chunks(learner.n_features_in_))
                       if margin and binary and not _kernel_model(learner) else None)
        _add_support_vectors(summary, learner)
    _name_skipped(summary, regression, tau=False, margin=margin,
                  why={**SKIPPED_WHY, "tau": "not computed on a stream (it needs the whole "
                                              "data at every update)" if tau else
                                      SKIPPED_WHY["tau"]})
    summary["data"] = {"name": Path(path).name, "rows": result.n_steps,
                       "features": int(learner.n_features_in_), "sparse": True,
                       "labels": result.labels, "streamed": True, "chunk_rows": chunk_rows}
    return summary, learner
