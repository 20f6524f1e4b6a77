"""The parsed-data cache (olc.data.parsed_cache): a registry svmlight data set loaded from
its entry is the file parsed (compared with the parser itself, entry bypassed); the entry is
keyed by the verified content's checksum, written atomically, and a damaged one is discarded
with a one-line warning and rebuilt; an unwritable cache only costs the parsing."""
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

from olc._util.cache import CacheDiscardedWarning
from olc.data import fetch, get_spec, load, parsed_cache, read_svmlight
from olc.data.dataset_spec import DatasetSpec, RemoteFile
from olc.data.registry import derived_home


def _parsed_from_file(split):
    """a9a's split read by the svmlight parser directly (no cache involved)."""
    spec = get_spec("a9a")
    (path,) = (fetch("a9a", split)[n] for n in spec.splits[split])
    return read_svmlight(path, n_features=spec.n_features)


def _assert_same(got, expected):
    (X, y), (X0, y0) = got, expected
    assert X.shape == X0.shape and X.format == "csr"
    for name in ("data", "indices", "indptr"):
        a, b = getattr(X, name), getattr(X0, name)
        assert a.dtype == b.dtype, name
        np.testing.assert_array_equal(a, b)
    assert y.dtype == y0.dtype
    np.testing.assert_array_equal(y, y0)


def _entries():
    return sorted(derived_home().glob("parsed-*.npz"))


@pytest.mark.parametrize("split", ["train", "test"])
def test_second_load_comes_from_the_entry_and_equals_the_parse(shared_home, split):
    first = load("a9a", split)
    (entry,) = _entries()
    assert entry.name.startswith(f"parsed-a9a-{split}-")
    stamp = entry.stat().st_mtime_ns
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        second = load("a9a", split)
    assert entry.stat().st_mtime_ns == stamp  # read, not rewritten
    expected = _parsed_from_file(split)
    _assert_same(first, expected)
    _assert_same(second, expected)


def test_a_cached_load_does_not_import_scikit_learn(shared_home):
    load("a9a")
    code = ("import sys; from olc.data import load; X, y = load('a9a'); "
            "print(X.shape[0], 'sklearn' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ), timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(get_spec("a9a").n_rows["train"]), "False"]


def _damage(path, how):
    if how == "truncated":
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    elif how == "garbage":
        path.write_bytes(b"\x00" * 100)
    else:
        with np.load(path, allow_pickle=False) as f:
            arrays = {k: f[k] for k in f.files}
        if how == "index out of range":
            arrays["indices"] = arrays["indices"].copy()
            arrays["indices"][5] = 500
        elif how == "unsorted":
            row = slice(arrays["indptr"][0], arrays["indptr"][1])
            arrays["indices"] = arrays["indices"].copy()
            arrays["indices"][row] = arrays["indices"][row][::-1]
        elif how == "wrong labels":
            arrays["y"] = arrays["y"] * 2
        elif how == "wrong key":
            arrays["key"] = np.array("0" * 64)
        elif how == "wrong dtype":
            arrays["indices"] = arrays["indices"].astype(np.int64)
        np.savez(path, **arrays)


@pytest.mark.parametrize("how", ["truncated", "garbage", "index out of range", "unsorted",
                                 "wrong labels", "wrong key", "wrong dtype"])
def test_a_damaged_entry_is_discarded_and_rebuilt(shared_home, how):
    load("a9a")
    (entry,) = _entries()
    _damage(entry, how)
    with pytest.warns(CacheDiscardedWarning, match="discarding the cache entry"):
        got = load("a9a")
    _assert_same(got, _parsed_from_file("train"))
    (rebuilt,) = _entries()
    assert rebuilt == entry
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _assert_same(load("a9a"), _parsed_from_file("train"))


def test_an_unwritable_cache_only_costs_the_parsing(shared_home, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setenv("OLC_CACHE", str(blocker))
    _assert_same(load("a9a"), _parsed_from_file("train"))


def test_the_key_names_the_content_and_the_width():
    spec = get_spec("a9a")
    key = parsed_cache.entry_key(spec, "train", 123)
    assert key != parsed_cache.entry_key(spec, "test", 123)
    assert key != parsed_cache.entry_key(spec, "train", 124)
    unverified = DatasetSpec(
        name="no-checksum", description="", loader="svmlight", n_rows={"train": 1},
        n_features=3, citation="", splits={"train": ("f.svm",)},
        files=(RemoteFile(name="f.svm", sha256=None, size=None, url=None),))
    assert parsed_cache.entry_key(unverified, "train", 3) is None
    assert parsed_cache.read(unverified, "train", 3) is None
