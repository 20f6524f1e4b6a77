"""The parse cache of any data file (olc.data.files.read_file, olc.data.parsed_cache): the
second read of an unchanged file maps the entry (arrays equal to a fresh parse); a changed
file — new size, new time stamp, or the same size and time stamp with a sampled block
changed — is parsed again, never served stale; a damaged entry is discarded with a one-line
warning and rebuilt; options are part of the entry; an unwritable cache costs the parse."""
import os
import warnings

import numpy as np
import pytest

from olc._util.cache import CacheDiscardedWarning
from olc.data import parsed_cache, read_svmlight
from olc.data.files import read_file


def _write(path, n=200, seed=0):
    rng = np.random.default_rng(seed)
    lines = []
    for _ in range(n):
        cols = np.sort(rng.choice(50, 5, replace=False)) + 1
        lines.append(f"{rng.choice([-1, 1])} " + " ".join(f"{c}:{v:.3f}" for c, v in
                                                          zip(cols, rng.normal(size=5))))
    path.write_text("\n".join(lines) + "\n")
    return path


def _same(got, expected):
    (X, y), (X0, y0) = got, expected
    assert X.shape == X0.shape
    for name in ("data", "indices", "indptr"):
        np.testing.assert_array_equal(getattr(X, name), getattr(X0, name))
    np.testing.assert_array_equal(y, y0)


def _entries():
    from olc.data.registry import derived_home

    return sorted((derived_home() / "parsed-files").glob("*.olcp"))


def test_second_read_maps_the_entry(tmp_path):
    path = _write(tmp_path / "f.svm")
    first = read_file(path)
    (entry,) = _entries()
    stamp = entry.stat().st_mtime_ns
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        second = read_file(path)
    assert entry.stat().st_mtime_ns == stamp  # read, not rewritten
    _same(first, read_svmlight(path))
    _same(second, read_svmlight(path))
    assert not second[0].data.flags.writeable  # memory-mapped, read-only


@pytest.mark.parametrize("change", ["append", "same size and time"])
def test_a_changed_file_is_parsed_again(tmp_path, change):
    path = _write(tmp_path / "f.svm")
    read_file(path)
    before = os.stat(path)
    if change == "append":
        with open(path, "a") as fh:
            fh.write("1 60:1\n")
    else:  # a byte of the first block changed, size and mtime_ns kept
        raw = bytearray(path.read_bytes())
        raw[raw.index(b":") + 1] = ord("7") if raw[raw.index(b":") + 1] != ord("7") else ord("8")
        path.write_bytes(bytes(raw))
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
        assert os.stat(path).st_size == before.st_size
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a stale entry is replaced silently
        got = read_file(path)
    _same(got, read_svmlight(path))
    assert len(_entries()) == 1  # replaced, not added


def _corrupt(entry, how):
    raw = bytearray(entry.read_bytes())
    if how == "truncated":
        entry.write_bytes(bytes(raw[: len(raw) // 2]))
    elif how == "garbage":
        entry.write_bytes(b"\0" * 200)
    elif how == "index out of range":
        import json

        size = int.from_bytes(raw[8:16], "little")
        header = json.loads(raw[16:16 + size])
        start = -(-(16 + size) // 64) * 64
        dtype, count, offset = header["arrays"]["indices"]
        at = start + offset + 3 * np.dtype(dtype).itemsize
        raw[at:at + 4] = (10 ** 6).to_bytes(4, "little")
        entry.write_bytes(bytes(raw))
    elif how == "nan value":
        import json

        size = int.from_bytes(raw[8:16], "little")
        header = json.loads(raw[16:16 + size])
        start = -(-(16 + size) // 64) * 64
        at = start + header["arrays"]["data"][2]
        raw[at:at + 8] = np.array([np.nan]).tobytes()
        entry.write_bytes(bytes(raw))


@pytest.mark.parametrize("how", ["truncated", "garbage", "index out of range", "nan value"])
def test_a_damaged_entry_is_discarded_with_a_warning_and_rebuilt(tmp_path, how):
    path = _write(tmp_path / "f.svm")
    read_file(path)
    (entry,) = _entries()
    stamp = entry.stat().st_mtime_ns
    _corrupt(entry, how)
    with pytest.warns(CacheDiscardedWarning, match="discarding the cache entry") as caught:
        got = read_file(path)
    assert len(caught) == 1
    _same(got, read_svmlight(path))
    (rebuilt,) = _entries()
    assert rebuilt.stat().st_mtime_ns != stamp
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _same(read_file(path), read_svmlight(path))


def test_options_are_part_of_the_entry(tmp_path):
    path = _write(tmp_path / "f.svm")
    narrow = read_file(path)
    wide = read_file(path, n_features=80)
    assert wide[0].shape[1] == 80 and narrow[0].shape[1] == 50
    assert len(_entries()) == 2
    _same(read_file(path, n_features=80), read_svmlight(path, 80))


def test_no_cache_writes_nothing_and_unwritable_cache_only_costs_the_parse(tmp_path, monkeypatch):
    path = _write(tmp_path / "f.svm")
    _same(read_file(path, cache=False), read_svmlight(path))
    assert _entries() == []
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder should be")
    monkeypatch.setenv("OLC_CACHE", str(blocked))
    _same(read_file(path), read_svmlight(path))


def test_the_stamp_samples_the_first_and_last_blocks(tmp_path):
    path = tmp_path / "big.bin"
    raw = bytearray(os.urandom(parsed_cache.SAMPLE_BYTES * 40))
    path.write_bytes(bytes(raw))
    stamp = parsed_cache.source_stamp(path)
    for at in (0, len(raw) - 1):
        changed = bytearray(raw)
        changed[at] ^= 1
        path.write_bytes(bytes(changed))
        os.utime(path, ns=(0, 0))
        assert parsed_cache.source_stamp(path)["sample"] != stamp["sample"]
