"""The Vowpal Wabbit text reader (olc.data.vw): columns are VW's own hashes (compared with
the vowpalwabbit wheel's parser on a generated file with namespaces, namespace weights,
string and integer feature names, string values and anonymous features), MurmurHash3 on
its published test vectors, the label/importance/tag conventions, and one error naming the
file and line for each kind of malformed line."""
import gzip
import random

import numpy as np
import pytest

from olc.data import DataFormatError, _svmlight_parse
from olc.data import _text_source
from olc.data.files import detect_format, read_file
from olc.data.vw import kernels, read_vw


def _hash(text, seed=0):
    kernels()  # the VW kernels, cached
    from olc.data._vw_hash import murmur3_32

    raw = np.frombuffer(text.encode(), dtype=np.uint8)
    return int(murmur3_32(raw, 0, raw.shape[0], seed))


def test_murmur3_x86_32_test_vectors():
    # the reference implementation's (SMHasher) published values
    assert _hash("", 0) == 0
    assert _hash("", 1) == 0x514E28B7
    assert _hash("", 0xFFFFFFFF) == 0x81F16F39
    assert _hash("hello", 0) == 0x248BFA47
    assert _hash("Hello, world!", 1234) == 0xFAF6CDB3
    assert _hash("The quick brown fox jumps over the lazy dog", 0) == 0x2E4FF723
    assert _hash("abc", 0) == 0xB3DD93FA
    assert _hash("abcd", 0) == 0x43ED676A


def _generated_lines(seed=3, n=400):
    rng = random.Random(seed)
    words = ["a", "b", "hello", "Wörld", "x1", "007", "12", "3.5x", "price", "très", "z" * 13]
    lines = []
    for i in range(n):
        head = rng.choice(["1", "-1", "0", "+1", "1.0", "2.5e-1"])
        tagged = rng.random() < 0.3
        if tagged:
            head += f" 'tag{i}"
        segments = []
        for _ in range(rng.randint(1, 3)):
            ns = rng.choice(["", "ns", "user", "7", "Ab", "qq"])
            if ns and rng.random() < 0.3:
                ns += ":" + rng.choice(["2", "0.5", "-1.25"])
            feats = []
            for _ in range(rng.randint(0, 6)):
                name = rng.choice(words + [str(rng.randint(0, 10 ** 6)), ""])
                value = rng.choice(["1", "0", "2.5", "-3", "1e-3", "0.1234567", "abc", "7"])
                if not name and value == "abc":
                    value = "2"
                feats.append(name if rng.random() < 0.4 and name else f"{name}:{value}")
            segments.append("|" + ns + " " + " ".join(feats))
        touching = tagged and rng.random() < 0.5
        lines.append(head + ("" if touching else " ") + "".join(segments))
    return lines


def test_columns_and_values_are_vw_s(tmp_path):
    vw = pytest.importorskip("vowpalwabbit")
    lines = _generated_lines()
    path = tmp_path / "g.vw"
    path.write_text("\n".join(lines) + "\n")
    bits = 18
    X, y = read_vw(path, bits)
    workspace = vw.Workspace(f"--quiet -b {bits} --noconstant")
    mask = (1 << bits) - 1
    try:
        for i, line in enumerate(lines):
            example = workspace.parse(line)
            expected = {}
            for h, v in example.iter_features():
                expected[h & mask] = expected.get(h & mask, 0.0) + v
            expected = {c: v for c, v in expected.items() if v != 0}
            assert y[i] == pytest.approx(example.get_simplelabel_label())
            workspace.finish_example(example)
            row = X[i]
            assert sorted(row.indices.tolist()) == sorted(expected), line
            got = dict(zip(row.indices.tolist(), row.data.tolist()))
            for c, v in expected.items():  # VW keeps float32 values
                assert got[c] == pytest.approx(v, rel=2e-7, abs=1e-12), line
    finally:
        workspace.finish()
    assert X.shape == (len(lines), 1 << bits) and X.has_canonical_format


def test_hashing_conventions_by_hand(tmp_path):
    # integer names are their value plus the namespace's hash; the default namespace's hash
    # is 0; anonymous features count from the namespace's hash
    path = tmp_path / "h.vw"
    path.write_text("1 | 5 12:2 :3 :4\n-1 |ns 5 five\n")
    X, y = read_vw(path, 20)
    mask = (1 << 20) - 1
    ns = _hash("ns")
    np.testing.assert_array_equal(X[0].indices, [0, 1, 5, 12])
    np.testing.assert_array_equal(X[0].data, [3, 4, 1, 2])
    assert sorted(X[1].indices.tolist()) == sorted([(ns + 5) & mask, _hash("five", ns) & mask])
    np.testing.assert_array_equal(y, [1, -1])


def test_tags_importance_and_repeated_columns(tmp_path):
    path = tmp_path / "t.vw"
    path.write_text("1 'first| a\n-1 2 second| a a:2\n1 0.5 | b\n")
    with pytest.raises(DataFormatError, match=r"line 2: an importance weight other than 1"):
        read_vw(path, 10)
    X, y, w = read_vw(path, 10, importance=True)
    np.testing.assert_array_equal(y, [1, -1, 1])
    np.testing.assert_array_equal(w, [1, 2, 0.5])
    assert X[1].nnz == 1 and X[1].data[0] == 3.0  # 'a' and 'a:2' share a column: summed


@pytest.mark.parametrize("bad, reason", [
    ("|f a b", "no label"),
    ("1 2 3 |f a", "initial prediction"),
    ("1 |:2 a", "malformed namespace"),
    ("1 |f:x a", "malformed namespace"),
    ("1 |f a:1e", "not a number"),
    ("1 |f a:1.5x", "not a number"),
    ("1 |f a:nan", "NaN or infinite"),
    ("1 |f a:1e999", "NaN or infinite"),
    ("1 x |f a", "importance weight is not a number"),
    ("abc |f a", "not a number"),
])
@pytest.mark.parametrize("window", [1 << 10, 1 << 22])
def test_errors_name_file_and_line(tmp_path, monkeypatch, bad, reason, window):
    monkeypatch.setattr(_svmlight_parse, "MIN_PIECE_BYTES", 256)
    monkeypatch.setattr(_text_source, "WINDOW_BYTES", window)
    good = ["1 |f a b:2 |g 3", "-1 |f c"] * 60
    path = tmp_path / "bad.vw"
    path.write_text("\n".join(good[:97] + [bad] + good[97:]) + "\n")
    with pytest.raises(DataFormatError) as err:
        read_vw(path, 12)
    assert err.value.line == 98 and err.value.path == str(path), str(err.value)
    assert reason in str(err.value) and err.value.text == bad


def test_compressed_and_windows_change_nothing(tmp_path, monkeypatch):
    lines = _generated_lines(seed=5, n=3000)
    text = ("\n".join(lines) + "\n").encode()
    plain, packed = tmp_path / "p.vw", tmp_path / "p.vw.gz"
    plain.write_bytes(text)
    packed.write_bytes(gzip.compress(text))
    X, y = read_vw(plain, 16)
    monkeypatch.setattr(_svmlight_parse, "MIN_PIECE_BYTES", 512)
    monkeypatch.setattr(_text_source, "WINDOW_BYTES", 1 << 12)
    for other in (read_vw(plain, 16), read_vw(packed, 16)):
        assert (other[0] != X).nnz == 0 and np.array_equal(other[1], y)
    assert detect_format(packed) == "vw" and detect_format(tmp_path / "x.svm") == "svmlight"
    Xc, yc = read_file(packed, bits=16)
    assert (Xc != X).nnz == 0


def test_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="bits"):
        read_vw(tmp_path / "x.vw", 0)
    with pytest.raises(FileNotFoundError):
        read_vw(tmp_path / "missing.vw")
    with pytest.raises(ValueError, match="format"):
        read_file(tmp_path / "x", format="csv")


def _integer_named_file(path, seed, n):
    """Rows of the default namespace with integer feature names (column = the name, VW's
    convention for ``|`` with hash 0), repeated names and zero values; and the expected CSR
    arrays built independently (scipy sums duplicates, then the zeros are dropped)."""
    import scipy.sparse as sp

    rng = np.random.default_rng(seed)
    rows, cols, vals, labels, lines = [], [], [], [], []
    for r in range(n):
        k = int(rng.integers(0, 12))
        names = rng.integers(0, 40, size=k)  # repeats within a row are common
        values = rng.choice([0.0, 1.0, -1.0, 0.5, 2.25], size=k)
        label = int(rng.choice([-1, 1]))
        lines.append(f"{label} | " + " ".join(f"{c}:{v:g}" for c, v in zip(names, values)))
        labels.append(label)
        rows += [r] * k
        cols += names.tolist()
        vals += values.tolist()
    path.write_text("\n".join(lines) + "\n")
    expected = sp.coo_matrix((vals, (rows, cols)), shape=(n, 1 << 10)).tocsr()
    expected.sum_duplicates()
    expected.eliminate_zeros()
    return expected, np.array(labels, dtype=np.float64)


@pytest.mark.parametrize("window", [1 << 9, 1 << 22])
def test_repeated_and_zero_features_across_pieces_and_windows(tmp_path, monkeypatch, window):
    # the pieces' arrays are filled in place and moved down over the room that repeated and
    # zero features leave: many pieces and windows, compared with scipy's own summing
    monkeypatch.setattr(_svmlight_parse, "MIN_PIECE_BYTES", 128)
    monkeypatch.setattr(_text_source, "WINDOW_BYTES", window)
    path = tmp_path / "r.vw"
    expected, labels = _integer_named_file(path, seed=3, n=2000)
    X, y = read_vw(path, 10)
    np.testing.assert_array_equal(X.indptr, expected.indptr)
    np.testing.assert_array_equal(X.indices, expected.indices)
    np.testing.assert_array_equal(X.data, expected.data)
    np.testing.assert_array_equal(y, labels)
    assert X.indices.dtype == np.int32 and X.indptr.dtype == np.int32


@pytest.mark.parametrize("chunk_rows", [1, 7, 500, 5000])
def test_chunks_are_the_whole_read_in_pieces(tmp_path, chunk_rows):
    import scipy.sparse as sp

    from olc.data import iter_vw_chunks

    path = tmp_path / "c.vw"
    expected, labels = _integer_named_file(path, seed=4, n=1200)
    chunks = list(iter_vw_chunks(path, chunk_rows, 10))
    assert all(X.shape[1] == 1 << 10 and X.shape[0] <= chunk_rows for X, _ in chunks)
    assert len(chunks) == -(-1200 // chunk_rows)
    X = sp.vstack([c[0] for c in chunks]).tocsr()
    assert (X != expected).nnz == 0
    np.testing.assert_array_equal(np.concatenate([c[1] for c in chunks]), labels)


def test_chunks_name_file_and_line_and_check_arguments(tmp_path):
    from olc.data import iter_vw_chunks

    path = tmp_path / "bad.vw"
    path.write_text("1 | a\n" * 30 + "1 | a:1e\n" + "1 | a\n" * 30)
    chunks = iter_vw_chunks(path, 8, 10)
    with pytest.raises(DataFormatError) as err:
        list(chunks)
    assert err.value.line == 31 and err.value.path == str(path)
    with pytest.raises(ValueError, match="bits"):
        iter_vw_chunks(path, 8, 40)
    with pytest.raises(ValueError, match="chunk_rows"):
        iter_vw_chunks(path, 0, 10)
