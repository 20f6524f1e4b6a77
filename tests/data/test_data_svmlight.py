"""Chunked svmlight reading: equality with whole reads, bounds, compression, errors."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.datasets import dump_svmlight_file, load_svmlight_file

from olc.data import DataFormatError, iter_svmlight_chunks, read_svmlight


def _random_csr(rng, n, d, density=0.2):
    X = sp.random(n, d, density=density, format="csr", random_state=rng, dtype=np.float64)
    X.data = np.round(X.data * 10 - 5, 3)
    X.eliminate_zeros()
    return X


def _write(tmp_path, X, y, name="f.svm", zero_based=False, compress=None):
    buf = io.BytesIO()
    if X.shape[0]:  # sklearn refuses to dump zero rows
        dump_svmlight_file(X, y, buf, zero_based=zero_based)
    raw = buf.getvalue()
    if compress:
        raw = {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}[compress](raw)
    path = tmp_path / name
    path.write_bytes(raw)
    return path


def _concat(chunks):
    chunks = list(chunks)
    return sp.vstack([X for X, _ in chunks], format="csr"), np.concatenate([y for _, y in chunks])


def _same(A, B):
    return A.shape == B.shape and (A != B).nnz == 0


# --------------------------------------------------------------------------- equality and bounds


@pytest.mark.parametrize("chunk_rows", [1, 7, 50, 1000])
def test_chunks_equal_whole_file(tmp_path, chunk_rows):
    rng = np.random.default_rng(0)
    X, y = _random_csr(rng, 123, 40), rng.choice([-1.0, 1.0], 123)
    path = _write(tmp_path, X, y)
    chunks = list(iter_svmlight_chunks(path, chunk_rows, n_features=40))
    assert all(c.shape[0] <= chunk_rows and c.shape[1] == 40 for c, _ in chunks)
    assert all(isinstance(c, sp.csr_matrix) and c.dtype == np.float64 and c.has_sorted_indices for c, _ in chunks)
    assert all(len(yc) == c.shape[0] and yc.dtype == np.float64 for c, yc in chunks)
    Xc, yc = _concat(chunks)
    Xw, yw = read_svmlight(path, 40)
    assert _same(Xc, X) and _same(Xw, X)
    np.testing.assert_array_equal(yc, y)
    np.testing.assert_array_equal(yw, y)


@pytest.mark.parametrize("block", [5, 64, 1 << 20])
@pytest.mark.parametrize("chunk_rows", [1, 3, 40])
def test_chunks_across_blocks_are_the_lines_asked(tmp_path, monkeypatch, block, chunk_rows):
    # blocks shorter than a line, than a chunk, and longer than the file: every chunk holds
    # exactly chunk_rows lines (the last the rest), whatever the blocks; errors keep their line
    from olc.data import _svmlight_parse, _text_source

    monkeypatch.setattr(_svmlight_parse, "_MIN_BLOCK", block)
    monkeypatch.setattr(_text_source, "WINDOW_BYTES", block)
    rng = np.random.default_rng(4)
    X, y = _random_csr(rng, 101, 30), rng.choice([-1.0, 1.0], 101)
    path = _write(tmp_path, X, y)
    chunks = list(iter_svmlight_chunks(path, chunk_rows, n_features=30))
    sizes = [c.shape[0] for c, _ in chunks]
    assert sizes == [chunk_rows] * (101 // chunk_rows) + ([101 % chunk_rows] if 101 % chunk_rows
                                                           else [])
    Xc, yc = _concat(chunks)
    assert _same(Xc, X)
    np.testing.assert_array_equal(yc, y)
    lines = path.read_text().splitlines()
    lines[77] = "1 3:x"
    path.write_text("\n".join(lines))  # no newline after the last line either
    with pytest.raises(DataFormatError) as err:
        list(iter_svmlight_chunks(path, chunk_rows, n_features=30))
    assert err.value.line == 78


def test_matches_sklearn_and_infers_width(tmp_path):
    rng = np.random.default_rng(1)
    X, y = _random_csr(rng, 300, 25), rng.normal(size=300)
    X = X[:, :24]  # column 25 never used: the width must come from the data
    X = sp.csr_matrix((X.data, X.indices, X.indptr), shape=(300, 25))
    path = _write(tmp_path, X, y)
    Xs, ys = load_svmlight_file(str(path))
    Xr, yr = read_svmlight(path, chunk_rows=64)
    assert _same(Xr, Xs) and np.array_equal(yr, ys)
    chunks = list(iter_svmlight_chunks(path, 64))  # n_features inferred by a pre-pass
    assert {c.shape[1] for c, _ in chunks} == {Xs.shape[1]}
    assert Xs.shape[1] == 24
    assert _same(read_svmlight(path, 25)[0][:, :24], Xs)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    n=st.integers(0, 40),
    d=st.integers(1, 12),
    chunk_rows=st.integers(1, 15),
    seed=st.integers(0, 2**16),
    zero_based=st.booleans(),
)
def test_property_chunked_equals_whole(tmp_path, n, d, chunk_rows, seed, zero_based):
    rng = np.random.default_rng(seed)
    X, y = _random_csr(rng, n, d, density=0.3), rng.integers(-3, 4, n).astype(float)
    path = _write(tmp_path, X, y, name=f"p{seed}_{n}_{d}.svm", zero_based=zero_based)
    chunks = list(iter_svmlight_chunks(path, chunk_rows, n_features=d, zero_based=zero_based))
    assert all(0 < c.shape[0] <= chunk_rows and c.shape[1] == d for c, _ in chunks)
    Xw, yw = read_svmlight(path, d, zero_based=zero_based)
    assert _same(Xw, X) and np.array_equal(yw, y)
    if chunks:
        Xc, yc = _concat(chunks)
        assert _same(Xc, X) and np.array_equal(yc, y)
    else:
        assert n == 0


@pytest.mark.parametrize("compress", ["gz", "bz2", "xz"])
def test_compressed_files_read_the_same(tmp_path, compress):
    rng = np.random.default_rng(2)
    X, y = _random_csr(rng, 60, 10), rng.choice([-1.0, 1.0], 60)
    plain = read_svmlight(_write(tmp_path, X, y), 10)
    packed = _write(tmp_path, X, y, name="f.weird-suffix", compress=compress)  # detected by magic
    Xc, yc = _concat(iter_svmlight_chunks(packed, 13, n_features=10))
    assert _same(Xc, plain[0]) and np.array_equal(yc, plain[1])


def test_memory_is_bounded_by_the_chunk(tmp_path):
    # 20000 rows of 10 features each, written directly (dump_svmlight_file is slow)
    n, d = 20_000, 50
    cols = np.sort(np.random.default_rng(3).random((n, d)).argsort(axis=1)[:, :10], axis=1) + 1
    text = "".join(f"{1 - 2 * (i % 2)} " + " ".join(f"{c}:0.25" for c in row) + "\n" for i, row in enumerate(cols))
    path = tmp_path / "big.svm.gz"
    path.write_bytes(gzip.compress(text.encode(), compresslevel=1))
    whole = len(text) + n * 10 * (8 + 4)  # the text, or the parsed data + indices
    del text
    # load the compiled reader first: its code is not the chunk's memory
    warm = tmp_path / "warm.svm"
    warm.write_bytes(b"1 1:0.25\n")
    list(iter_svmlight_chunks(warm, 500, n_features=d))
    tracemalloc.start()
    rows = 0
    for Xc, yc in iter_svmlight_chunks(path, 500, n_features=d):
        assert Xc.shape[0] <= 500 and Xc.shape[1] == d
        rows += Xc.shape[0]
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert rows == n
    assert peak < whole / 5, (peak, whole)  # measured: about whole / 10


# --------------------------------------------------------------------------- conventions


def test_comments_blank_lines_and_qid(tmp_path):
    path = tmp_path / "c.svm"
    path.write_bytes(b"# header\n\n+1 1:0.5 3:2 # note\n-1 qid:7 2:1\n\n-1\n")
    X, y = read_svmlight(path, 3)
    np.testing.assert_array_equal(X.toarray(), [[0.5, 0, 2], [0, 1, 0], [0, 0, 0]])
    np.testing.assert_array_equal(y, [1, -1, -1])
    chunks = list(iter_svmlight_chunks(path, 2, n_features=3))
    # chunks are cut by lines: [comment, blank] has no example and is not yielded
    assert [c.shape[0] for c, _ in chunks] == [2, 1]


def test_zero_based_and_auto(tmp_path):
    path = tmp_path / "z.svm"
    path.write_bytes(b"1 0:1 2:3\n-1 1:2\n")
    X, _ = read_svmlight(path, zero_based=True)
    np.testing.assert_array_equal(X.toarray(), [[1, 0, 3], [0, 2, 0]])
    Xa, _ = read_svmlight(path, zero_based="auto")
    assert _same(Xa, X)
    one = tmp_path / "o.svm"
    one.write_bytes(b"1 1:1 3:3\n")
    assert read_svmlight(one, zero_based="auto")[0].shape == (1, 3)
    with pytest.raises(DataFormatError, match="line 1"):
        read_svmlight(path)  # index 0 in a one-based (default) file


def test_empty_file(tmp_path):
    path = tmp_path / "e.svm"
    path.write_bytes(b"")
    X, y = read_svmlight(path, 5)
    assert X.shape == (0, 5) and y.shape == (0,)
    assert list(iter_svmlight_chunks(path, 3)) == []
    assert read_svmlight(path)[0].shape == (0, 0)


def test_bad_arguments_fail_at_call_time(tmp_path):
    with pytest.raises(ValueError, match="chunk_rows"):
        iter_svmlight_chunks(tmp_path / "x", 0)
    with pytest.raises(ValueError, match="zero_based"):
        iter_svmlight_chunks(tmp_path / "x", 10, zero_based="yes")
    with pytest.raises(FileNotFoundError):
        iter_svmlight_chunks(tmp_path / "missing.svm", 10)


# --------------------------------------------------------------------------- errors with line numbers

GOOD = [b"+1 1:1 2:0.5\n", b"-1 3:2\n", b"# comment\n", b"\n", b"+1 2:1\n"]


@pytest.mark.parametrize(
    "bad, reason",
    [
        (b"+1 1:abc\n", "abc"),
        (b"abc 1:1\n", "abc"),
        (b"+1 2:1 1:1\n", "sorted"),
        (b"+1 1 2:1\n", ""),
        (b"+1 0:1\n", "index 0"),
        (b"+1 1:1 9:1\n", "n_features"),
    ],
)
@pytest.mark.parametrize("chunk_rows", [2, 1000])
def test_malformed_line_reports_line_and_text(tmp_path, bad, reason, chunk_rows):
    lines = GOOD * 3 + [bad] + GOOD  # bad line is line 16
    path = tmp_path / "bad.svm"
    path.write_bytes(b"".join(lines))
    with pytest.raises(DataFormatError) as err:
        list(iter_svmlight_chunks(path, chunk_rows, n_features=3))
    e = err.value
    assert e.line == 16 and e.text == bad.decode().rstrip("\n") and e.path == str(path)
    assert "line 16" in str(e) and repr(e.text) in str(e) and reason in str(e)
    with pytest.raises(DataFormatError, match="line 16"):
        read_svmlight(path, 3)


@pytest.mark.parametrize(
    "bad", [b"+1 1:nan\n", b"+1 2:inf\n", b"-1 1:1 3:-inf\n", b"nan 1:1\n", b"+1 1:1e400\n"]
)
def test_non_finite_values_are_errors_with_line(tmp_path, bad):
    path = tmp_path / "nan.svm.gz"
    path.write_bytes(gzip.compress(b"".join(GOOD * 2 + [bad] + GOOD)))  # line 11
    for call in (
        lambda: list(iter_svmlight_chunks(path, 4, n_features=3)),
        lambda: read_svmlight(path),
        lambda: list(iter_svmlight_chunks(path, 4)),  # fails in the width pre-pass
    ):
        with pytest.raises(DataFormatError, match=r"line 11: NaN or infinite") as err:
            call()
        assert err.value.line == 11 and err.value.text == bad.decode().strip()


def test_shared_a9a_test_file_needs_registry_width(shared_src):
    path = shared_src / "a9a" / "a9a.t.xz"
    assert read_svmlight(path)[0].shape == (16281, 122)  # the file alone says 122
    Xc, yc = _concat(iter_svmlight_chunks(path, 4000, n_features=123))
    Xs, ys = load_svmlight_file(lzma.open(path), n_features=123)
    assert _same(Xc, Xs) and np.array_equal(yc, ys)
