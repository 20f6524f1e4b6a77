"""Registry, checksums, data home, fetch and (simulated) downloads."""

from __future__ import annotations

import gzip
import io
import lzma
import pickle
import re
import shutil
from pathlib import Path
from urllib.error import URLError

import pytest

from olc import data
from olc.data import _download, _verified, dataset_files
from olc.data._compression import sha256_content, sha256_file
from olc.data.errors import ChecksumError, DatasetNotFoundError, UnknownDatasetError

ALL_FILES = [(spec.name, f) for spec in map(data.get_spec, data.datasets()) for f in spec.files]
# Data sets registered without checksums (not obtainable when registered: SRAA).
UNRECORDED = {n for n, f in ALL_FILES if f.sha256 is None}
RECORDED_FILES = [(n, f) for n, f in ALL_FILES if n not in UNRECORDED]


def _ids(item):
    return f"{item[0]}/{item[1].name}"


# --------------------------------------------------------------------------- registry


def test_registered_names():
    assert data.datasets() == ["20newsgroups", "a9a", "adult", "mnist-test", "sraa", "usps", "w8a"]
    assert UNRECORDED == {"sraa"}
    for name in data.datasets():
        spec = data.get_spec(name)
        if name in UNRECORDED:
            assert all(f.sha256 is None and f.url and f.note for f in spec.files)
            continue
        assert spec.name == name and spec.citation and spec.files
        for split, needed in spec.splits.items():
            assert spec.n_rows[split] > 0
            assert needed and all(spec.file(n) for n in needed)
        for f in spec.files:
            assert re.fullmatch(r"[0-9a-f]{64}", f.sha256)
            assert re.fullmatch(r"[0-9a-f]{64}", f.content_sha256)
            assert f.url is None or f.url.startswith(("http://", "https://"))
            assert f.optional or f.url, f"required file {f.name} needs a download URL"


def test_original_sources_are_used():
    libsvm = "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary/"
    assert data.get_spec("a9a").file("a9a.xz").url == libsvm + "a9a"
    assert data.get_spec("w8a").file("w8a.t.xz").url == libsvm + "w8a.t"
    assert data.get_spec("adult").file("adult.data.xz").url.startswith("https://archive.ics.uci.edu/")
    assert data.get_spec("20newsgroups").file("20news-bydate.tar.gz").url.startswith("http://qwone.com/")
    assert "lecun.com" in data.get_spec("mnist-test").file("t10k-images-idx3-ubyte.gz").url


def test_unknown_names_are_clear():
    with pytest.raises(UnknownDatasetError, match="registered datasets: 20newsgroups, a9a"):
        data.load("a9b")
    with pytest.raises(UnknownDatasetError, match="no split 'valid'"):
        data.fetch("a9a", "valid")
    with pytest.raises(UnknownDatasetError, match="no split 'train'"):
        data.load("mnist-test", "train")


def test_data_home(monkeypatch, tmp_path):
    monkeypatch.setenv("OLC_DATA", str(tmp_path))
    assert data.data_home() == tmp_path
    monkeypatch.delenv("OLC_DATA")
    import platformdirs

    assert data.data_home() == Path(platformdirs.user_cache_dir("olc"))


# --------------------------------------------------------------------------- shared files


@pytest.mark.parametrize("item", RECORDED_FILES, ids=_ids)
def test_shared_file_matches_registry(shared_home, item):
    name, f = item
    path = shared_home / data.get_spec(name).folder / f.name
    if not path.exists():
        pytest.skip(f"{path} is not in the shared folder")
    assert path.stat().st_size == f.size
    assert sha256_file(path) == f.sha256
    digest, size = sha256_content(path)
    assert (digest, size) == (f.content_sha256, f.content_size)
    dataset_files.check_file(path, f, deep=True)


def test_every_shared_file_is_registered(shared_home):
    registered = {(data.get_spec(n).folder, f.name) for n, f in ALL_FILES}
    on_disk = {
        (p.parent.name, p.name)
        for p in shared_home.glob("*/*")
        if p.is_file() and p.name != "README.md"
    }
    assert on_disk <= registered, on_disk - registered


def test_registry_digests_are_the_readme_digests(shared_home):
    for name in sorted(set(data.datasets()) - UNRECORDED):
        spec = data.get_spec(name)
        readme = (shared_home / spec.folder / "README.md").read_text()
        hexes = set(re.findall(r"\b[0-9a-f]{64}\b", readme))
        for f in spec.files:
            assert f.sha256 in hexes, (name, f.name)
            assert f.content_sha256 in hexes, (name, f.name)


def test_fetch_from_read_only_shared_home(shared_home):
    before = sorted(p.name for p in shared_home.rglob("*"))
    paths = data.fetch("a9a")
    assert paths == {
        "a9a.xz": shared_home / "a9a" / "a9a.xz",
        "a9a.t.xz": shared_home / "a9a" / "a9a.t.xz",
    }
    assert data.fetch("a9a", "test") == {"a9a.t.xz": shared_home / "a9a" / "a9a.t.xz"}
    assert sorted(p.name for p in shared_home.rglob("*")) == before  # nothing written there


def test_verification_is_cached(shared_home, monkeypatch):
    data.fetch("usps")
    markers = list(_verified.cache_dir().glob(".verified/*.json"))
    assert len(markers) == 1

    calls = []
    real = dataset_files.sha256_file
    monkeypatch.setattr(dataset_files, "sha256_file", lambda p: calls.append(p) or real(p))
    _verified._memo.clear()  # a new process: only the marker file remains
    data.fetch("usps")
    assert calls == []
    data.fetch("usps", verify="always")
    assert len(calls) == 1


# --------------------------------------------------------------------------- temp data homes


def test_corrupt_file_raises_checksum_error(empty_home):
    folder = empty_home / "a9a"
    folder.mkdir()
    bad = folder / "a9a.xz"
    bad.write_bytes(b"not the a9a data\n")
    with pytest.raises(ChecksumError) as err:
        data.fetch("a9a", "train")
    msg = str(err.value)
    expected = data.get_spec("a9a").file("a9a.xz").sha256
    assert str(bad) in msg and expected in msg and sha256_file(bad) in msg
    assert err.value.expected == expected and err.value.actual == sha256_file(bad)


def test_wrong_content_in_other_encoding_raises(empty_home):
    folder = empty_home / "a9a"
    folder.mkdir()
    (folder / "a9a.gz").write_bytes(gzip.compress(b"+1 1:1\n"))
    with pytest.raises(ChecksumError, match="decompressed content of .*a9a.gz"):
        data.fetch("a9a", "train")


def test_missing_file_offline_says_what_to_put_where(empty_home):
    with pytest.raises(DatasetNotFoundError) as err:
        data.load("a9a", "test")
    msg = str(err.value)
    target = empty_home / "a9a" / "a9a.t.xz"
    assert str(target) in msg
    assert "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary/a9a.t" in msg
    assert str(empty_home / "a9a" / "a9a.t") in msg  # the plain original is accepted too
    assert "URLError" in msg and "OLC_DATA" in msg
    assert err.value.path == target
    assert isinstance(err.value, FileNotFoundError)
    assert not any((empty_home / "a9a").glob("*.part"))


def test_a_folder_where_the_data_file_should_be_is_named_as_a_folder(empty_home):
    folder = empty_home / "a9a"
    (folder / "a9a.t.xz").mkdir(parents=True)   # e.g. an archive unpacked into a folder
    (folder / "a9a.t").mkdir()
    with pytest.raises(DatasetNotFoundError) as err:
        data.load("a9a", "test")
    msg = str(err.value)
    for name in ("a9a.t.xz", "a9a.t"):
        assert f"{folder / name} is a folder, not the data file" in msg, msg


def test_download_false_does_not_touch_network(empty_home, monkeypatch):
    def boom(*a, **k):  # pragma: no cover - must not be called
        raise AssertionError("network used")

    monkeypatch.setattr(_download, "urlopen", boom)
    with pytest.raises(DatasetNotFoundError, match="download=False"):
        data.fetch("w8a", "train", download=False)


def test_unwritable_home_is_reported(empty_home, monkeypatch):
    def not_writable(url, folder):
        raise _download.DestinationNotWritable(30, f"cannot write into {folder}: Read-only file system")

    monkeypatch.setattr(_download, "download_to_temp", not_writable)
    with pytest.raises(DatasetNotFoundError, match="Read-only file system"):
        data.fetch("adult", "train")


class _FakeResponse(io.BytesIO):
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _serve(monkeypatch, payloads: dict[str, bytes]):
    seen = []

    def fake_urlopen(request, timeout=None):
        url = request.full_url
        seen.append(url)
        if url not in payloads:
            raise URLError(f"no route to {url}")
        return _FakeResponse(payloads[url])

    monkeypatch.setattr(_download, "urlopen", fake_urlopen)
    return seen


def test_download_of_plain_original_is_verified_and_kept(empty_home, shared_src, monkeypatch):
    f = data.get_spec("a9a").file("a9a.t.xz")
    plain = lzma.decompress((shared_src / "a9a" / "a9a.t.xz").read_bytes())
    seen = _serve(monkeypatch, {f.url: plain})
    paths = data.fetch("a9a", "test")
    assert seen == [f.url]
    assert paths == {"a9a.t.xz": empty_home / "a9a" / "a9a.t"}  # kept as LIBSVM ships it
    assert (empty_home / "a9a" / "a9a.t").read_bytes() == plain
    assert sorted(p.name for p in (empty_home / "a9a").iterdir()) == ["a9a.t"]
    X, y = data.load("a9a", "test")
    assert X.shape == (16281, 123)


def test_download_falls_back_to_mirror(empty_home, shared_src, monkeypatch):
    spec = data.get_spec("mnist-test")
    payloads = {
        f.mirrors[0]: (shared_src / "mnist" / f.name).read_bytes() for f in spec.files_for("test")
    }
    seen = _serve(monkeypatch, payloads)
    X, y = data.load("mnist-test")
    assert X.shape == (10000, 784)
    assert len(seen) == 4  # original refused, mirror served, for both files


def test_download_with_wrong_bytes_raises_and_leaves_nothing(empty_home, monkeypatch):
    f = data.get_spec("w8a").file("w8a.xz")
    _serve(monkeypatch, {f.url: b"-1 1:1\n"})
    with pytest.raises(ChecksumError) as err:
        data.fetch("w8a", "train")
    assert f.content_sha256 in str(err.value) and "downloaded from" in str(err.value)
    assert list((empty_home / "w8a").iterdir()) == []


def test_plain_and_recompressed_local_variants_are_accepted(empty_home, shared_src):
    plain = lzma.decompress((shared_src / "a9a" / "a9a.xz").read_bytes())
    folder = empty_home / "a9a"
    folder.mkdir()
    (folder / "a9a.gz").write_bytes(gzip.compress(plain))
    shutil.copyfile(shared_src / "a9a" / "a9a.t.xz", folder / "a9a.t.xz")
    assert data.fetch("a9a") == {"a9a.xz": folder / "a9a.gz", "a9a.t.xz": folder / "a9a.t.xz"}
    X, y = data.load("a9a")
    assert X.shape == (32561, 123) and (y == 1).sum() == 7841


def test_errors_survive_pickling():  # joblib workers send exceptions back by pickle
    from olc.data.errors import DataFormatError

    errors = [
        ChecksumError("/x/a9a.xz", "a" * 64, "b" * 64, what="file", detail="d"),
        DatasetNotFoundError("put it there", path=Path("/x/a9a.xz"), url="https://e/a9a"),
        DataFormatError("/x/f.svm", 3, "1 1:nan", "NaN or infinite label/value"),
        UnknownDatasetError("unknown dataset 'x'"),
    ]
    for e in errors:
        back = pickle.loads(pickle.dumps(e))
        assert type(back) is type(e) and str(back) == str(e)
    assert pickle.loads(pickle.dumps(errors[0])).expected == "a" * 64
    assert pickle.loads(pickle.dumps(errors[1])).path == Path("/x/a9a.xz")
    assert pickle.loads(pickle.dumps(errors[2])).line == 3
