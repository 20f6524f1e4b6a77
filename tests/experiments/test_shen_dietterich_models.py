"""The engine models of Shen & Dietterich's reproduction against row-by-row references:
``SparsityTracked`` (features per step = nonzero weights of the model that predicts the
step) and the feature-selected PA (PA on the k features of highest information gain over
the rows seen so far, recomputed here from entropies)."""
import numpy as np
import pytest

import olc
from olc.experiments.shen_dietterich.models import (CLASSES, PA_ON_ERRORS, FeatureSelectedPA,
                                                     SparsityTracked)


def _data(n=240, d=12, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.random((n, d)) * (rng.random((n, d)) < 0.6)
    y = np.where(X @ rng.normal(size=d) + 0.05 * rng.normal(size=n) > 0.3 * d / 4, 1.0, -1.0)
    return X, y


@pytest.mark.parametrize("update", ["mistake", "hinge"])
@pytest.mark.parametrize("name, beta", [("l2-constrained-pa", 1.0), ("l1-constrained-pa", 3.0)])
def test_sparsity_tracked_reports_the_support_of_the_predicting_model(name, beta, update):
    X, y = _data()
    params = {"learner": name, "beta": beta, "sigma_rel": 0.02, "update": update,
              "fit_intercept": False}
    model = SparsityTracked(params, seed=0)
    first = model.learn(X[:100], y[:100])
    assert np.isnan(first.series["features"]).all()     # the tuning part: not tracked
    steps = model.learn(X[100:], y[100:])
    # reference: one row at a time, counting nonzero weights before each row
    ref = olc.make(name, beta=beta, sigma=0.02 * beta * beta, update=update,
                   fit_intercept=False)
    ref.predict_then_learn(X[:100], y[:100], classes=CLASSES)
    counts, preds = [], []
    for i in range(100, X.shape[0]):
        counts.append(np.count_nonzero(ref.coef_))
        preds.append(ref.predict_then_learn(X[i:i + 1], y[i:i + 1], classes=CLASSES).pred[0])
    np.testing.assert_array_equal(steps.series["features"], counts)
    np.testing.assert_array_equal(steps.pred, preds)
    assert len(set(counts)) > 2          # the support changed along the way: a real test
    np.testing.assert_array_equal(model.learner.coef_, ref.coef_)


def _ig(B, y):
    """Information gain (bits) of each 0/1 column of B about y, from entropies."""
    def h(p):
        p = np.clip(p, 1e-300, 1.0)
        return -(p * np.log2(p)).sum()

    def entropy(labels):
        if labels.size == 0:
            return 0.0
        p = np.mean(labels > 0)
        return h(np.array([p, 1 - p])) if 0 < p < 1 else 0.0

    out = []
    for j in range(B.shape[1]):
        on = B[:, j] == 1
        cond = on.mean() * entropy(y[on]) + (1 - on.mean()) * entropy(y[~on])
        out.append(entropy(y) - cond)
    return np.array(out)


@pytest.mark.parametrize("update", ["mistake", "hinge"])
def test_feature_selected_pa_is_pa_on_the_top_k_features_of_the_seen_rows(update):
    X, y = _data(n=230)
    k, refresh = 5, 50
    model = FeatureSelectedPA({"selector": "ig", "k": k, "refresh": refresh,
                               "update": update}, seed=0)
    steps = model.learn(X[:130], y[:130])
    steps2 = model.learn(X[130:], y[130:])
    pred = np.r_[steps.pred, steps2.pred]
    # reference: blocks ending at multiples of `refresh` (the second call continues the
    # count; a call also starts a block), each masked to the k features of highest IG over
    # the rows before it (first block: features 0..k-1)
    params = {**PA_ON_ERRORS, "update": update}
    ref = olc.make(params.pop("name"), **params)
    want = []
    bounds = sorted({*range(0, X.shape[0], refresh), 130, X.shape[0]})
    for start, stop in zip(bounds[:-1], bounds[1:]):
        if start == 0:
            chosen = np.arange(k)
        else:
            ig = _ig((X[:start] > 0.5).astype(int), y[:start])
            chosen = np.argsort(-ig, kind="stable")[:k]
            ranked = np.sort(ig)[::-1]
            assert ranked[k - 1] - ranked[k] > 1e-9      # no tie at the k-th place
        mask = np.zeros(X.shape[1])
        mask[chosen] = 1.0
        want += list(ref.predict_then_learn(X[start:stop] * mask, y[start:stop],
                                            classes=CLASSES).pred)
    np.testing.assert_array_equal(pred, want)
    np.testing.assert_array_equal(model.learner.coef_, ref.coef_)
    assert (steps2.series["features"] == k).all()


def test_feature_selected_pa_with_every_feature_is_pa():
    X, y = _data(n=150)
    model = FeatureSelectedPA({"selector": "ig", "k": X.shape[1], "refresh": 40}, seed=0)
    got = model.learn(X, y).pred
    params = dict(PA_ON_ERRORS)
    ref = olc.make(params.pop("name"), **params)
    np.testing.assert_array_equal(got, ref.predict_then_learn(X, y, classes=CLASSES).pred)
