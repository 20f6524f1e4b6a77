"""The online procedures of Shen & Dietterich (2009) §4 that are not plain registry learners,
as engine models (``factory(params, seed) -> OnlineModel``; see
``olc.experiments.engine.models``):

* :func:`sparsity_tracked` — a regularized learner with small-weight removal (σ, §3.3,
  Eq. 3.17) that reports the number of features it uses at each step (Figure 2's x-axis:
  "the average number of features per iteration").
* :func:`feature_selected_pa` — the baselines of Figure 2: PA restricted to k features chosen
  from the data seen so far, by information gain or by the game of Eq. (4.20)
  (:mod:`olc.features.selection`).

Both run the learning itself in olc's compiled loops.
"""
from __future__ import annotations

import copy
import time

import numpy as np
import scipy.sparse as sp

from ...features.selection import SeenCounts, game_selection, top_k
from ..engine.models import Steps

CLASSES = np.array([-1.0, 1.0])

#: The PA of the paper's framework (§2: "we do a PA update when the classifier makes an
#: error"): problem (3.1) with α = 0, updated on mistakes, no bias (f = w·x).
PA_ON_ERRORS = {"name": "regularized-pa", "alpha": 0.0, "update": "mistake",
                "fit_intercept": False}


class SparsityTracked:
    """A registry learner (``params["learner"]``) whose small-weight removal threshold is
    σ = ``sigma_rel`` · β² (β its ball radius), reporting ``series["features"]``: the number
    of nonzero weights of the model that predicts each step.

    [Decision] σ is given relative to β², so that one σ sweep means the same thing for
    every β of the tuning grid (otherwise tuning β per σ could undo the sweep by growing β).

    The first ``learn`` call (the tuning/training part of the tune-then-test protocol, never
    evaluated) runs in one compiled call and reports NaN features. Later calls need the
    support of the model before every row; it changes only when the model updates (the
    update of §3, then the removal of weights below σ, Eq. 3.17, are applied together on
    an update step), so a copy of the learner first runs the block in one compiled call to
    find the update steps, then the learner itself runs the block in one compiled call per
    stretch ending at an update, the support being counted between stretches (a few
    hundred calls per block instead of one per row; the same steps, as the learner is
    deterministic — checked).
    """

    def __init__(self, params, seed=None):
        from ...learners import make

        params = dict(params)
        name = params.pop("learner")
        sigma_rel = float(params.pop("sigma_rel", 0.0))
        beta = float(params["beta"])
        self.learner = make(name, sigma=sigma_rel * beta * beta, **params)
        self.calls = 0

    def learn(self, X, y) -> Steps:
        learner = self.learner
        stream = learner.prepare_stream(X, y, classes=CLASSES)
        t0 = time.perf_counter()
        n = stream.n_rows
        if self.calls == 0:
            rec = learner.learn_prepared(stream)
            features = np.full(n, np.nan)
            pred, updated = rec.pred, rec.updated
        else:
            probe = copy.deepcopy(learner).learn_prepared(stream)
            pred = np.empty(n, np.int8)
            updated = np.empty(n, bool)
            features = np.empty(n)
            start = 0
            for stop in [*(np.flatnonzero(probe.updated) + 1), n]:
                if stop <= start:
                    continue
                # rows start..stop-1 are predicted by the model after row start − 1
                features[start:stop] = np.count_nonzero(learner.coef_) if learner.n_steps_ \
                    else 0
                rec = learner.learn_prepared(stream, start, stop)
                pred[start:stop], updated[start:stop] = rec.pred, rec.updated
                start = stop
            if not (np.array_equal(pred, probe.pred) and np.array_equal(updated, probe.updated)):
                raise RuntimeError("the learner's copy took other steps than the learner")
        self.calls += 1
        return Steps(pred=np.asarray(pred, np.int8), updated=np.asarray(updated),
                     series={"features": features}, seconds=time.perf_counter() - t0)

    def predict(self, X):
        return np.asarray(self.learner.predict(X), dtype=np.float64)


def sparsity_tracked(params, seed):
    return SparsityTracked(params, seed)


class FeatureSelectedPA:
    """PA (:data:`PA_ON_ERRORS`) that sees only k selected features.

    Every ``refresh`` rows the k features are re-selected from the rows seen so far (all rows
    before the block, labels included: they are revealed after each prediction), by
    ``selector`` = "ig" (the k of highest information gain) or "game" (Eq. 4.20 over the
    ``candidates`` features of highest IG, default 2k); features are binarised as
    x_j > ``threshold`` for the counts. Rows are masked to the selected features for both the
    prediction and the update, so the classifier of each step uses only those k weights
    (weights of features dropped earlier stay dormant and count again when re-selected).

    [Decision] The paper selects "before each update"; re-selecting every ``refresh`` rows
    (default 100) instead keeps the selection independent of the learner's mistakes, so each
    block of rows runs in one compiled call, and it bounds the number of LPs of the game
    method (one per block). Before any row is seen the first k features (by index) are used.
    """

    def __init__(self, params, seed=None):
        from ...learners import make

        p = dict(params)
        self.selector = p.pop("selector")
        if self.selector not in ("ig", "game"):
            raise ValueError(f"selector must be 'ig' or 'game', got {self.selector!r}")
        self.k = int(p.pop("k"))
        self.refresh = int(p.pop("refresh", 100))
        self.candidates = p.pop("candidates", None)
        threshold = float(p.pop("threshold", 0.5))
        base = {**PA_ON_ERRORS, **p}
        self.learner = make(base.pop("name"), **base)
        self.threshold = threshold
        self.counts = None
        self.position = 0

    def _select(self, d):
        k = min(self.k, d)
        if self.selector == "ig" or self.counts.n == 0:
            return top_k(self.counts.information_gain(), k)
        return game_selection(self.counts, k, self.candidates)

    def learn(self, X, y) -> Steps:
        d = X.shape[1]
        if self.counts is None:
            self.counts = SeenCounts(d, self.threshold)
        t0 = time.perf_counter()
        n = X.shape[0]
        pred = np.empty(n, np.int8)
        updated = np.empty(n, bool)
        start = 0
        while start < n:
            stop = min(n, start + self.refresh - self.position % self.refresh)
            mask = np.zeros(d)
            mask[self._select(d)] = 1.0
            block = X[start:stop]
            masked = (sp.csr_matrix(block) @ sp.diags(mask)).tocsr() if sp.issparse(block) \
                else block * mask
            rec = self.learner.predict_then_learn(masked, y[start:stop], classes=CLASSES)
            pred[start:stop], updated[start:stop] = rec.pred, rec.updated
            self.counts.add(block, y[start:stop])
            self.position += stop - start
            start = stop
        return Steps(pred=pred, updated=updated,
                     series={"features": np.full(n, float(min(self.k, d)))},
                     seconds=time.perf_counter() - t0)

    def predict(self, X):
        return np.asarray(self.learner.predict(X), dtype=np.float64)


def feature_selected_pa(params, seed):
    return FeatureSelectedPA(params, seed)
