"""The compiled svmlight reader: every label and value is what ``float()`` gives for its
token (bit for bit), the arrays are scikit-learn's ``load_svmlight_file``'s, and pieces,
windows and threads change nothing (including where an error is reported)."""
import io
import lzma
import random
import struct

import numpy as np
import pytest
from sklearn.datasets import load_svmlight_file

from olc.data import DataFormatError, _svmlight_parse, _text_source, iter_svmlight_chunks, \
    read_svmlight


def _bits(values):
    return np.asarray(values, dtype=np.float64).view(np.uint64)


def _edge_tokens():
    return [
        "0", "-0", "+0", "0.0", "-0.0", "0e0", "0e999", "-0e-999", "00000", ".5", "5.", "+.5",
        "-5.", "1", "+1", "-1", "1.5", "0.1", "0.2", "0.3", "1e22", "1e23", "9e22", "1e-22",
        "1e-23", "123456789012345", "1234567890123456", "12345678901234567",
        "123456789012345e7", "12345e18", "1e15", "9007199254740993", "9007199254740992.5",
        "0.1000000000000000055511151231257827", "2.2250738585072011e-308",
        "2.2250738585072014e-308", "4.9406564584124654e-324", "2.4703282292062327e-324",
        "2.4703282292062328e-324", "1.7976931348623157e308", "1.7976931348623158e308",
        "1e-320", "5e-324", "3e-324", "1e-400", "-1e-400", "000000.000001230000",
        "0.000000000000000000000000000123", "7.0e-10", "1E5", "1e+5", "1e-5", "1_0",
        "179769313486231580793728971405303415079934132710037826936173778980444968292764750946"
        "649017977587207096330286416692887910946555547851940402630657488671505820681908902000"
        "708383676273854845817711531764475730270069855571366959622842914819860834936475292719"
        "074168444365510704342711559699508093042880177904174497791.9999999999",
        "0.50000000000000011102230246251565404236316680908203125",
        "0.500000000000000111022302462515654042363166809082031250000000000001",
        "8.98846567431158e307", "4.35679e-10", "123.456e-2",
    ]


def _random_tokens(rng, n):
    out = []
    for _ in range(n):
        kind = rng.random()
        if kind < 0.3:  # the shortest repr of a random double (17 digits and fewer)
            x = struct.unpack("d", struct.pack("Q", rng.getrandbits(64)))[0]
            if x != x or x in (float("inf"), float("-inf")):
                continue
            out.append(repr(x))
        elif kind < 0.5:  # a random number of digits and a random exponent
            digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 25)))
            point = rng.randint(0, len(digits))
            text = digits[:point] + "." + digits[point:]
            if rng.random() < 0.6:
                text += f"e{rng.randint(-330, 310)}"
            out.append(rng.choice(["", "-", "+"]) + text)
        elif kind < 0.8:  # what the fast path takes: ≤ 15 digits, small exponents
            digits = str(rng.randint(1, 10 ** rng.randint(1, 15)))
            out.append(f"{rng.choice(['', '-'])}{digits}e{rng.randint(-30, 30)}")
        else:  # subnormals and the edges of the range
            x = struct.unpack("d", struct.pack("Q", rng.getrandbits(52)))[0]
            out.append(("%." + str(rng.randint(1, 20)) + "g") % x)
    return out


def _file_of(tmp_path, tokens, name="t.svm"):
    """One line per token: the token as the label and as the value of feature 1."""
    text = "".join(f"{t} 1:{t} 3:1\n" for t in tokens)
    path = tmp_path / name
    path.write_text(text)
    return path


def _expected(tokens):
    return _bits([float(t) for t in tokens])


def test_values_and_labels_are_float_of_their_token(tmp_path, monkeypatch):
    rng = random.Random(25)
    tokens = _edge_tokens() + _random_tokens(rng, 20000)
    finite = [t for t in tokens if np.isfinite(float(t))]
    assert len(finite) > 15000
    monkeypatch.setattr(_svmlight_parse, "MIN_PIECE_BYTES", 4096)  # many pieces, 2 threads
    X, y = read_svmlight(_file_of(tmp_path, finite), 3)
    expected = _expected(finite)
    np.testing.assert_array_equal(_bits(y), expected)
    np.testing.assert_array_equal(_bits(X.data[0::2]), expected)
    assert np.all(X.data[1::2] == 1.0)


def test_the_fast_path_alone_is_exact(tmp_path):
    # every token here is in the fast path's range: its arithmetic must round as float() does
    rng = random.Random(7)
    tokens = []
    for _ in range(50000):
        digits = str(rng.randint(1, 10 ** rng.randint(1, 15) - 1))
        point = rng.randint(0, len(digits))
        tokens.append(f"{digits[:point]}.{digits[point:]}e{rng.randint(-22 + point, 22)}")
    X, y = read_svmlight(_file_of(tmp_path, tokens), 3)
    np.testing.assert_array_equal(_bits(y), _expected(tokens))
    np.testing.assert_array_equal(_bits(X.data[0::2]), _expected(tokens))


def _same_as_sklearn(ours, theirs):
    (X, y), (Xs, ys) = ours[:2], theirs[:2]
    assert X.shape == Xs.shape
    np.testing.assert_array_equal(X.indptr, Xs.indptr)
    np.testing.assert_array_equal(X.indices, Xs.indices)
    np.testing.assert_array_equal(_bits(X.data), _bits(Xs.data))
    np.testing.assert_array_equal(_bits(y), _bits(ys))


@pytest.mark.parametrize("name, width", [("a9a/a9a.xz", 123), ("a9a/a9a.t.xz", 123),
                                         ("w8a/w8a.xz", 300), ("w8a/w8a.t.xz", 300)])
def test_named_files_bit_identical_to_sklearn(shared_src, name, width):
    path = shared_src / name
    _same_as_sklearn(read_svmlight(path, width), load_svmlight_file(lzma.open(path), n_features=width))
    _same_as_sklearn(read_svmlight(path), load_svmlight_file(lzma.open(path)))


def test_conventions_as_sklearn(tmp_path):
    text = (b"# a header line\n\n 2.5 qid:3 1:1e-3 7:-2 # a comment 9:9\n-1\tqid:-2 0:4\r\n"
            b"+1e0 qid:0 3:0.1 4:.5 5:5.\n\n3 qid:9\n")
    path = tmp_path / "c.svm"
    path.write_bytes(text)
    for zero_based in (True, "auto"):
        ours = read_svmlight(path, zero_based=zero_based, query_id=True)
        theirs = load_svmlight_file(io.BytesIO(text), zero_based=zero_based, query_id=True)
        _same_as_sklearn(ours, theirs)
        np.testing.assert_array_equal(ours[2], theirs[2])
    path.write_bytes(b"1 qid:4 1:1\n2 2:1\n")  # a line without a qid: 0 (scikit-learn skips it)
    np.testing.assert_array_equal(read_svmlight(path, query_id=True)[2], [4, 0])
    one = text.replace(b" 0:4", b" 2:4")
    path.write_bytes(one)
    for zero_based in (False, "auto"):
        _same_as_sklearn(read_svmlight(path, zero_based=zero_based),
                         load_svmlight_file(io.BytesIO(one), zero_based=zero_based))


def _big_file(tmp_path, n=3000, bad_line=None, bad=b""):
    rng = np.random.default_rng(5)
    lines = []
    for i in range(n):
        cols = np.sort(rng.choice(1000, 8, replace=False)) + 1
        vals = np.round(rng.normal(size=8), 4)
        lines.append(f"{rng.choice([-1, 1])} " + " ".join(f"{c}:{v}" for c, v in zip(cols, vals))
                     + "\n")
    raw = "".join(lines).encode()
    if bad_line is not None:
        parts = raw.split(b"\n")
        parts[bad_line - 1] = bad
        raw = b"\n".join(parts)
    path = tmp_path / "big.svm"
    path.write_bytes(raw)
    return path, raw


@pytest.mark.parametrize("window", [1 << 12, 1 << 16, 1 << 24])
def test_windows_and_pieces_change_nothing(tmp_path, monkeypatch, window):
    path, raw = _big_file(tmp_path)
    monkeypatch.setattr(_svmlight_parse, "MIN_PIECE_BYTES", 1024)
    monkeypatch.setattr(_text_source, "WINDOW_BYTES", window)
    _same_as_sklearn(read_svmlight(path, 1000), load_svmlight_file(io.BytesIO(raw), n_features=1000))
    chunks = list(iter_svmlight_chunks(path, 777, n_features=1000))
    assert [c.shape[0] for c, _ in chunks] == [777, 777, 777, 669]
    X = np.concatenate([c.toarray() for c, _ in chunks])
    np.testing.assert_array_equal(X, load_svmlight_file(io.BytesIO(raw), n_features=1000)[0].toarray())


@pytest.mark.parametrize("bad, reason", [
    (b"1 5:1 3:1", "sorted"), (b"1 x:1", "not an integer"), (b"1 5", "no ':value'"),
    (b"1 5:1e", "not a number"), (b"1 -5:1", "negative index"), (b"1 qid:x 5:1", "qid"),
    (b"one 5:1", "not a number"), (b"1 5:1\x00", "not a number"), (b"1 0:2", "index 0"),
    (b"1 2000:1", "n_features=1000"), (b"1 5:nan", "NaN or infinite"),
])
@pytest.mark.parametrize("window", [1 << 12, 1 << 24])
def test_errors_name_the_line_in_any_window(tmp_path, monkeypatch, bad, reason, window):
    path, _ = _big_file(tmp_path, bad_line=2345, bad=bad)
    monkeypatch.setattr(_svmlight_parse, "MIN_PIECE_BYTES", 1024)
    monkeypatch.setattr(_text_source, "WINDOW_BYTES", window)
    for call in (lambda: read_svmlight(path, 1000),
                 lambda: list(iter_svmlight_chunks(path, 500, n_features=1000))):
        with pytest.raises(DataFormatError) as err:
            call()
        assert err.value.line == 2345, str(err.value)
        assert reason in str(err.value) and err.value.text == bad.decode("utf-8", "replace")


def test_the_first_of_two_errors_is_reported(tmp_path, monkeypatch):
    path, raw = _big_file(tmp_path, bad_line=2900, bad=b"1 4:1 2:1")
    lines = raw.split(b"\n")
    lines[99] = b"1 3:zz"  # a hard token before a structural error, in another piece
    path.write_bytes(b"\n".join(lines))
    monkeypatch.setattr(_svmlight_parse, "MIN_PIECE_BYTES", 1024)
    with pytest.raises(DataFormatError, match="line 100: the value 'zz' is not a number"):
        read_svmlight(path, 1000)


def test_truncated_compressed_file_names_the_file(tmp_path):
    _, raw = _big_file(tmp_path)
    path = tmp_path / "cut.svm.xz"
    packed = lzma.compress(raw)
    path.write_bytes(packed[: len(packed) // 2])
    for call in (lambda: read_svmlight(path), lambda: list(iter_svmlight_chunks(path, 100, n_features=1000))):
        with pytest.raises(DataFormatError, match="truncated or corrupt") as err:
            call()
        assert str(path) in str(err.value)


def test_indices_beyond_int32_are_read_as_int64(tmp_path):
    path = tmp_path / "wide.svm"
    path.write_bytes(b"1 3:1 3000000000:2.5\n-1 7:1\n")
    X, y = read_svmlight(path)
    assert X.indices.dtype == np.int64 and X.shape == (2, 3_000_000_000)
    np.testing.assert_array_equal(X.indices, [2, 2_999_999_999, 6])
    np.testing.assert_array_equal(X.data, [1, 2.5, 1])  # (scikit-learn's reader overflows)


def _eisel_lemire_tokens(rng, n):
    """Tokens of 16 to 19 significant digits (beyond Clinger's fast path, within one uint64)
    over the whole range of doubles: random digits at any exponent, the shortest repr of
    random doubles and of subnormals, and decimal midpoints between neighbouring doubles
    (exact ties, rounded to even by float())."""
    from decimal import Decimal

    out = []
    for _ in range(n):
        kind = rng.random()
        if kind < 0.4:
            digits = str(rng.randint(10 ** 15, 10 ** rng.randint(16, 19) - 1))
            out.append(f"{rng.choice(['', '-'])}{digits[0]}.{digits[1:]}e{rng.randint(-345, 308)}")
        elif kind < 0.6:
            x = struct.unpack("d", struct.pack("Q", rng.getrandbits(63)))[0]
            if np.isfinite(x) and x != 0.0:
                out.append("%.17g" % x)
        elif kind < 0.7:
            x = struct.unpack("d", struct.pack("Q", rng.getrandbits(52)))[0]  # subnormal
            out.append("%.17g" % x)
        else:  # the midpoint of x and its successor, when it has at most 19 digits
            x = float(rng.randint(2 ** 53, 2 ** 64)) * 2.0 ** rng.randint(-60, 10)
            mid = (Decimal(x) + Decimal(np.nextafter(x, np.inf))) / 2
            text = format(mid.normalize(), "f")
            if len(text.replace(".", "").lstrip("0")) <= 19:
                out.append(text)
    return out


def test_long_tokens_are_converted_in_compiled_code_exactly(tmp_path, monkeypatch):
    # tokens of 16-19 digits (what scikit-learn's dump_svmlight_file and repr() write) are
    # converted by Eisel-Lemire in the kernel, not left to Python: bit for bit float()'s
    rng = random.Random(2025)
    tokens = _eisel_lemire_tokens(rng, 40000) + [
        "9007199254740993", "9007199254740995", "9007199254740993.000", "18014398509481985",
        "4.9406564584124654e-324", "2.4703282292062328e-324", "2.2250738585072011e-308",
        "2.2250738585072014e-308", "1.7976931348623157e308", "1.000000000000000222",
        "7.2057594037927933e16", "123456789012345678e-360", "1234567890123456789e-343"]
    tokens = [t for t in tokens if np.isfinite(float(t))]
    assert sum("." in t or "e" in t for t in tokens) > 20000
    hard = []
    original = _svmlight_parse.convert_hard
    monkeypatch.setattr(_svmlight_parse, "convert_hard",
                        lambda array, slot, *rest: hard.append(slot.shape[0]) or
                        original(array, slot, *rest))
    X, y = read_svmlight(_file_of(tmp_path, tokens), 3)
    np.testing.assert_array_equal(_bits(y), _expected(tokens))
    np.testing.assert_array_equal(_bits(X.data[0::2]), _expected(tokens))
    assert sum(hard) == 0


def test_overflowing_long_tokens_are_named(tmp_path):
    path = _file_of(tmp_path, ["1", "1.7976931348623159e308", "1"])
    with pytest.raises(DataFormatError, match="line 2.*NaN or infinite"):
        read_svmlight(path, 3)
