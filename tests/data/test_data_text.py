"""Text → 0/1 vectors (olc.data.text) and the SRAA loader on a tiny archive in its layout."""
import io
import tarfile

import numpy as np
import pytest

from olc import data
from olc.data.errors import DataFormatError
from olc.data.loaders import SRAA_CLASSES
from olc.data.text import binary_term_matrix, document_frequency_columns, strip_header


def test_strip_header_keeps_the_body_after_the_first_blank_line():
    post = "From: a@b\nSubject: Re: x\n\nThe body.\n\nSecond paragraph.\n"
    assert strip_header(post) == "The body.\n\nSecond paragraph.\n"
    assert strip_header("no header at all") == "no header at all"


def test_binary_term_matrix_no_stemming_no_stoplist():
    docs = ["H: 1\n\nThe cars and the car", "H: 2\n\nA bike, the BIKE; bikes!"]
    X, vocab = binary_term_matrix(docs)
    # header words ("h") gone; "the"/"and" kept (no stop list); car/cars distinct (no stemming);
    # one-letter "a" dropped by the tokenizer (two or more word characters); case folded.
    assert list(vocab) == ["and", "bike", "bikes", "car", "cars", "the"]
    expected = np.array([[1, 0, 0, 1, 1, 1], [0, 1, 1, 0, 0, 1]], dtype=float)
    np.testing.assert_array_equal(X.toarray(), expected)


def test_document_frequency_cut_by_hand():
    X = np.array([[1, 0, 1, 0], [1, 1, 0, 0], [1, 1, 0, 1], [0, 0, 1, 1]], dtype=float)
    # df over rows 0, 1, 2: [3, 2, 1, 1]
    assert document_frequency_columns(X, [0, 1, 2], 2).tolist() == [0, 1]
    assert document_frequency_columns(X, [0, 1, 2], 3).tolist() == [0]
    # a row drawn twice counts twice: df over rows 3, 3 = [0, 0, 2, 2]
    assert document_frequency_columns(X, [3, 3], 2).tolist() == [2, 3]
    with pytest.raises(ValueError, match="min_df must be a positive integer"):
        document_frequency_columns(X, [0], 0)


def _sraa_archive(path, layout_prefix="sraa/", classes=SRAA_CLASSES):
    with tarfile.open(path, "w:gz") as tar:
        for c in classes:
            for k in range(2):
                body = f"Newsgroups: {c}\nSubject: {k}\n\n{c} article {k}\n".encode("latin-1")
                info = tarfile.TarInfo(f"{layout_prefix}{c}/{k:05d}")
                info.size = len(body)
                tar.addfile(info, io.BytesIO(body))


@pytest.mark.parametrize("prefix", ["sraa/", ""])
def test_sraa_loader_on_a_tiny_tree_in_its_layout(tmp_path, prefix):
    home = tmp_path / "home"
    (home / "sraa").mkdir(parents=True)
    _sraa_archive(home / "sraa" / "sraa.tar.gz", prefix)
    docs, target, names = data.load("sraa", data_home=home, download=False)
    assert names == list(SRAA_CLASSES)
    assert target.tolist() == [0, 0, 1, 1, 2, 2, 3, 3]
    assert strip_header(docs[5]) == "simauto article 1\n"


def test_sraa_missing_or_malformed_is_clear(tmp_path):
    home = tmp_path / "home"
    with pytest.raises(data.DatasetNotFoundError, match=r"sraa/sraa.tar.gz"):
        data.load("sraa", data_home=home, download=False)
    (home / "sraa").mkdir(parents=True)
    _sraa_archive(home / "sraa" / "sraa.tar.gz", classes=SRAA_CLASSES[:3])
    with pytest.raises(DataFormatError, match=r"no article in the class folders \['simaviation'\]"):
        data.load("sraa", data_home=home, download=False)
