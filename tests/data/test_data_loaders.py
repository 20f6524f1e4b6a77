"""Loaders give the documented shapes, types and label counts (needs the shared data)."""

from __future__ import annotations

import lzma
import re

import numpy as np
import pytest
import scipy.sparse as sp

from olc import data


@pytest.fixture(autouse=True)
def _shared(shared_home):
    return shared_home


@pytest.mark.parametrize(
    "name, split, shape, positives",
    [
        ("a9a", "train", (32561, 123), 7841),
        ("a9a", "test", (16281, 123), 3846),
        ("w8a", "train", (49749, 300), 1479),
        ("w8a", "test", (14951, 300), 454),
    ],
)
def test_libsvm_binary(name, split, shape, positives):
    X, y = data.load(name, split)
    assert isinstance(X, sp.csr_matrix) and X.shape == shape and X.dtype == np.float64
    assert y.dtype == np.float64 and set(np.unique(y)) == {-1.0, 1.0}
    assert (y == 1).sum() == positives
    assert np.all(X.data == 1.0)
    assert data.get_spec(name).n_rows[split] == shape[0]


def test_default_split_is_train():
    X, _ = data.load("a9a")
    assert X.shape[0] == 32561


def test_iter_chunks_of_named_dataset():
    chunks = list(data.iter_chunks("a9a", "test", chunk_rows=5000))
    assert [c.shape for c, _ in chunks] == [(5000, 123)] * 3 + [(1281, 123)]
    X, y = data.load("a9a", "test")
    assert (sp.vstack([c for c, _ in chunks]) != X).nnz == 0
    assert np.array_equal(np.concatenate([yc for _, yc in chunks]), y)
    dense = list(data.iter_chunks("usps", "test", chunk_rows=1000))
    assert [c.shape for c, _ in dense] == [(1000, 256), (1000, 256), (7, 256)]
    with pytest.raises(TypeError, match="not numeric"):
        data.iter_chunks("adult")


@pytest.mark.parametrize(
    "split, n, counts",
    [
        ("train", 7291, [1194, 1005, 731, 658, 652, 556, 664, 645, 542, 644]),
        ("test", 2007, [359, 264, 198, 166, 200, 160, 170, 147, 166, 177]),
    ],
)
def test_usps(split, n, counts):
    X, y = data.load("usps", split)
    assert X.shape == (n, 256) and X.dtype == np.float64
    assert X.min() >= 0.0 and X.max() <= 1.0
    assert y.dtype == np.int64 and np.bincount(y).tolist() == counts


def test_mnist_test():
    X, y = data.load("mnist-test")  # its only split, the default
    assert X.shape == (10000, 784) and X.dtype == np.float64
    assert X.min() == 0.0 and X.max() == 1.0
    assert np.bincount(y).tolist() == [980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009]
    raw, y2 = data.load("mnist-test", "test", raw=True)
    assert raw.dtype == np.uint8 and raw.shape == (10000, 784)
    np.testing.assert_array_equal(raw / 255.0, X)
    np.testing.assert_array_equal(y, y2)


def test_20newsgroups():
    train = data.load("20newsgroups", "train")
    docs, y, names = train  # unpacks as a 3-tuple
    assert len(docs) == 11314 and all(isinstance(d, str) for d in docs[:50])
    assert names[0] == "alt.atheism" and names[19] == "talk.religion.misc" and names == sorted(names)
    assert np.bincount(y).tolist() == [
        480, 584, 591, 590, 578, 593, 585, 594, 598, 597,
        600, 595, 591, 594, 593, 599, 546, 564, 465, 377,
    ]  # fmt: skip
    assert docs[0].startswith("From:")
    test = data.load("20newsgroups", "test")
    assert len(test.data) == 7532 and test.target_names == names


def test_adult_raw():
    raw = data.load("adult", "train")
    assert raw.columns == list(data.ADULT_COLUMNS) and len(raw.columns) == 14
    assert raw.X.shape == (32561, 14) and raw.X.dtype == object
    assert (raw.labels == ">50K").sum() == 7841 and set(raw.labels) == {"<=50K", ">50K"}
    assert (raw.X == "?").any(axis=1).sum() == 2399  # rows with a missing value
    assert raw.X[0, 1] == "State-gov"  # whitespace stripped
    test = data.load("adult", "test")
    assert test.X.shape == (16281, 14)
    assert set(test.labels) == {"<=50K", ">50K"} and (test.labels == ">50K").sum() == 3846
    assert (test.X == "?").any(axis=1).sum() == 1221


def test_adult_columns_are_those_of_adult_names(shared_home):
    names = lzma.decompress((shared_home / "adult" / "adult.names.xz").read_bytes()).decode()
    listed = re.findall(r"^([a-z-]+): (continuous|.*)\.$", names, flags=re.M)
    assert tuple(n for n, _ in listed) == data.ADULT_COLUMNS
    assert tuple(n for n, kind in listed if kind == "continuous") == data.ADULT_CONTINUOUS


def test_adult_records_are_typed():
    rec = data.adult_records("train")
    assert set(rec.columns) == set(data.ADULT_COLUMNS)
    for c in data.ADULT_CONTINUOUS:
        assert rec.columns[c].dtype == np.float64 and rec.columns[c].shape == (32561,)
    for c in data.ADULT_CATEGORICAL:
        col = rec.columns[c]
        assert col.dtype == object and all(v is None or (isinstance(v, str) and v and v != "?") for v in col)
    assert sum(v is None for v in rec.columns["workclass"]) > 0
    assert rec.columns["age"][0] == 39.0
    assert rec.y.dtype == np.float64 and (rec.y == 1).sum() == 7841 and set(np.unique(rec.y)) == {-1.0, 1.0}
    both = data.adult_records("all")
    assert both.y.shape == (48842,) and (both.y == 1).sum() == 7841 + 3846
    missing = np.zeros(48842, dtype=bool)
    for c in data.ADULT_CATEGORICAL:
        missing |= np.array([v is None for v in both.columns[c]])
    assert (~missing).sum() == 30162 + 15060  # complete rows, as in the README
