"""Ho-Nguyen et al. 2025, App. B.1 preprocessing on a slice of the raw Adult data (the full
build is run by the reproduction command and cached)."""
import os
from pathlib import Path

import numpy as np
import pytest

from olc.experiments.omm_adult.data import build, encode, separable_subset

SHARED = Path(os.environ.get("OLC_DATA", Path(__file__).parents[3] / "shared" / "datasets"))
pytestmark = pytest.mark.skipif(not (SHARED / "adult").is_dir(), reason="adult not in OLC_DATA")


@pytest.fixture(scope="module")
def records():
    os.environ.setdefault("OLC_DATA", str(SHARED))
    from olc.data import adult_records

    return adult_records("all")


def test_encoding_gives_the_papers_dimension(records):
    X, y, names = encode(records.columns, records.y)
    assert X.shape == (45222, 96)            # rows without '?' values; 6 + 90 dummies
    assert len(names) == 96
    np.testing.assert_allclose(X.mean(axis=0), 0, atol=1e-12)
    np.testing.assert_allclose(X.std(axis=0), 1, rtol=1e-9)
    assert set(np.unique(y)) == {-1.0, 1.0}
    assert (y > 0).mean() == pytest.approx(11208 / 45222)


def test_filter_keeps_only_points_far_from_the_svc_boundary(records):
    X, y, _ = encode(records.columns, records.y)
    X, y = X[:4000], y[:4000]
    keep, coef, intercept = separable_subset(X, y, {"max_iter": 200})
    distance = y * (X @ coef + intercept) / np.linalg.norm(coef)
    assert np.all(distance[keep] >= 0.01) and np.all(distance[~keep] < 0.01)
    # The kept set is linearly separable: the SVC itself separates it.
    assert np.all(y[keep] * (X[keep] @ coef + intercept) > 0)


def test_build_on_a_slice(records):
    class Slice:
        columns = {k: v[:3000] for k, v in records.columns.items()}
        y = records.y[:3000]

    data = build(records=Slice)
    assert data.X.shape[1] == len(data.feature_names)   # a slice may miss rare levels
    assert data.X.shape[0] == data.y.shape[0] < data.rows_without_missing
    distance = data.y * (data.X @ data.svc_coef + data.svc_intercept) / np.linalg.norm(
        data.svc_coef)
    assert distance.min() >= 0.01
