"""Contract 15: feature names (scikit-learn's ``feature_names_in_`` rules), for every learner.

A learner fitted on a DataFrame records its column names and refuses a frame whose columns
differ (reordered, renamed) instead of silently reading the wrong columns; the names survive
``olc.save``/``olc.load``. The rules and messages are scikit-learn's
(``check_dataframe_column_names_consistency`` in test_contract_sklearn.py checks them too).
"""
import warnings

import numpy as np
import pytest

import olc

from ._support import ENTRIES

pd = pytest.importorskip("pandas")

NAMES = sorted(ENTRIES)
COLUMNS = ["age", "income", "score"]


def _data(name, n=40, seed=0):
    """In-domain rows for every learner: {0,1} for Winnow, ±1 for the expert learners."""
    rng = np.random.default_rng(seed)
    domain = getattr(ENTRIES[name].cls, "input_domain", None)
    X = rng.standard_normal((n, len(COLUMNS)))
    if domain is not None:
        X = (X > 0).astype(float)
        if "majority" in name:
            X = 2 * X - 1
    if ENTRIES[name].kind == "regressor":
        y = X @ np.array([1.0, -2.0, 0.5])
    else:
        y = np.where(X[:, 0] >= (0.5 if domain is not None else 0.0), 1, 0)
        y[:2] = [0, 1]
    return pd.DataFrame(X, columns=COLUMNS), y


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("method", ["fit", "partial_fit"])
def test_fit_on_a_frame_records_and_checks_the_names(name, method):
    frame, y = _data(name)
    learner = getattr(olc.make(name), method)(frame, y)
    assert list(learner.feature_names_in_) == COLUMNS
    assert learner.n_features_in_ == len(COLUMNS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # same columns: no warning
        same = learner.predict(frame)
    with pytest.raises(ValueError, match="The feature names should match those that were "
                                         "passed during fit"):
        learner.predict(frame[COLUMNS[::-1]])
    with pytest.raises(ValueError, match="Feature names unseen at fit time"):
        learner.predict(frame.rename(columns={"age": "years"}))
    with pytest.warns(UserWarning, match="X does not have valid feature names"):
        plain = learner.predict(frame.to_numpy())
    np.testing.assert_array_equal(plain, same)


@pytest.mark.parametrize("name", NAMES)
def test_refit_without_names_forgets_them(name):
    frame, y = _data(name)
    learner = olc.make(name).fit(frame, y).fit(frame.to_numpy(), y)
    assert not hasattr(learner, "feature_names_in_")
    with pytest.warns(UserWarning, match="X has feature names, but"):
        learner.predict(frame)


@pytest.mark.parametrize("name", NAMES)
def test_a_rejected_partial_fit_leaves_the_names(name):
    frame, y = _data(name)
    learner = olc.make(name).partial_fit(frame, y)
    with pytest.raises(ValueError, match="feature names should match"):
        learner.partial_fit(frame[COLUMNS[::-1]], y)
    assert list(learner.feature_names_in_) == COLUMNS
    assert learner.n_steps_ == len(y)


@pytest.mark.parametrize("name", NAMES)
def test_save_and_load_keep_the_names(name, tmp_path):
    frame, y = _data(name)
    learner = olc.make(name).fit(frame, y)
    loaded = olc.load(olc.save(learner, tmp_path / "model"))
    assert list(loaded.feature_names_in_) == COLUMNS
    with pytest.raises(ValueError, match="feature names should match"):
        loaded.predict(frame[COLUMNS[::-1]])
    np.testing.assert_array_equal(loaded.predict(frame), learner.predict(frame))


def test_a_file_with_malformed_names_is_refused(tmp_path):
    import json

    frame, y = _data("perceptron")
    path = olc.save(olc.make("perceptron").fit(frame, y), tmp_path / "model")
    with np.load(path) as f:
        arrays = {k: f[k] for k in f.files}
    meta = json.loads(str(arrays.pop("meta")))
    meta["feature_names_in"] = ["age", 3, "score"]
    bad = tmp_path / "bad.npz"
    np.savez(bad, meta=np.array(json.dumps(meta)), **arrays)
    from olc.persistence import PersistenceError

    with pytest.raises(PersistenceError, match="feature_names_in.*3 strings"):
        olc.load(bad)
