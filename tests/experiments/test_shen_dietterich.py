"""olc reproduce shen-dietterich: the whole pipeline on a small USPS slice, and bad input."""
import csv
import json
import os

import pytest

from olc.data.errors import DatasetNotFoundError
from olc.experiments.shen_dietterich.command import parse_grids
from olc.experiments.engine.reproduction import reproduce
from olc.experiments.shen_dietterich.reproduction import REPRODUCTION, select_datasets


def run(out, grids=None, n_jobs=1, **options):
    """``olc reproduce shen-dietterich`` with ``grids`` as --grid items."""
    items = [f"{k}={','.join(map(str, v))}" for k, v in (grids or {}).items()]
    return reproduce(REPRODUCTION, out, {"grid": items, **options}, n_jobs=n_jobs,
                     progress=False)

# the spec's public knobs, kept small: 2 trials of 4 × 25 rows, one or two values per grid
SMALL = {"alpha": (0.1,), "l2_beta": (1.0, 4.0), "l1_beta": (16.0,),
         "norma_eta": (0.1,), "norma_lam": (0.001,), "l2_sigma_rel": (0.0, 0.01),
         "l1_sigma_rel": (0.0001,), "ig_k": (8, 64), "game_k": (8,)}
ROWS = {"usps": 25}


@pytest.fixture
def shared_data(monkeypatch):
    home = os.environ.get("OLC_DATA") or os.path.join(os.path.dirname(__file__), "..", "..",
                                                        "..", "shared", "datasets")
    if not os.path.isdir(os.path.join(home, "usps")):
        pytest.skip("USPS is not in the data home")
    monkeypatch.setenv("OLC_DATA", home)


def test_pipeline_on_a_small_usps_slice(shared_data, tmp_path):
    out = tmp_path / "out"
    report = run(out, trials=2, datasets="usps", grids=SMALL, n_jobs=1,
                 rows_per_phase=ROWS)
    # per reading: 4 Figure-1 PA learners + 2 + 1 σ points = 7 configurations; once: NORMA,
    # 2 IG + 1 game: 18 configurations × 2 trials
    assert report["computed"] == 36 and report["reused"] == 0
    for name in ("figure1.png", "figure2.png", "figure3.png", "summary.md", "results.json",
                 "table.md", "paper_comparison.md", "figure1-margin.png", "figure2-margin.png",
                 "figure3-margin.png", "paper_comparison-margin.md"):
        assert (out / name).is_file(), name
    # the trial-0 stream follows the drift process: 100 rows, phase 1 has only 3s and 8s
    rows = list(csv.DictReader(open(out / "streams" / "usps-trial0.csv")))
    assert len(rows) == 100
    assert {r["original_label"] for r in rows[:25]} <= {"3", "8"}
    assert {r["original_label"] for r in rows[75:]} <= {"7", "9"}
    assert all((r["y"] == "1") == (r["original_label"] in ("3", "7")) for r in rows)
    records = json.loads((out / "results.json").read_text())["records"]
    tuned = [r for r in records if r["learner"] == "L2-constrained PA"]
    assert all(r["extra"]["chosen"]["beta"] in (1.0, 4.0) for r in tuned)
    ig = [r for r in records if r["group"].startswith("Information gain")]
    assert sorted({r["features"] for r in ig}) == [8.0, 64.0]
    for r in records:   # the second half is evaluated: 50 rows
        assert 0 <= r["mistakes"] <= 50 and r["error_rate"] == pytest.approx(r["mistakes"] / 50)
    summary = (out / "summary.md").read_text()
    assert summary.count("| §4") >= 3 * 8   # both readings' claims, and side by side
    assert "## The two readings of the update condition" in summary
    # each PA learner runs under both readings: update on errors / on margin violations
    by = {(r["learner"], r["trial"]): r for r in records}
    for label in ("PA", "L2-constrained PA"):
        for t in (0, 1):
            e, m = by[(label, t)], by[(label + ", margin updates", t)]
            assert e["params"]["update"] == "mistake" and m["params"]["update"] == "hinge"
    # a rerun reuses every run and writes the same tables
    table = (out / "table.csv").read_text()
    again = run(out, trials=2, datasets="usps", grids=SMALL, n_jobs=1,
                rows_per_phase=ROWS)
    assert again["reused"] == 36 and again["computed"] == 0
    assert (out / "table.csv").read_text() == table


def test_bad_input_is_refused_before_any_run(shared_data, tmp_path, monkeypatch):
    with pytest.raises(ValueError, match=r"--datasets: unknown data set\(s\) \['mnist'\]"):
        select_datasets("usps,mnist")
    with pytest.raises(ValueError, match="--grid 'l2_beta=1,x': values must be numbers"):
        parse_grids(["l2_beta=1,x"])
    with pytest.raises(ValueError, match="KEY one of alpha"):
        parse_grids(["beta=1"])
    with pytest.raises(ValueError, match="k must be ≥ 1"):
        parse_grids(["ig_k=0,4"])
    # a grid value the learner rejects (α < 0) is refused by the engine before any run
    with pytest.raises(ValueError, match="alpha"):
        run(tmp_path / "bad", trials=1, datasets="usps", grids={**SMALL, "alpha": (-1.0,)},
            n_jobs=1, rows_per_phase=ROWS)
    assert not (tmp_path / "bad").exists()
    # --out that is a file
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(ValueError, match="is a file, not a folder"):
        run(f, trials=1, datasets="usps", grids=SMALL, n_jobs=1, rows_per_phase=ROWS)
    # missing data: the registry's message says which file to put where
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("OLC_DATA", str(empty))
    monkeypatch.setattr("olc.data._download.urlopen", _no_network)
    with pytest.raises(DatasetNotFoundError, match=r"usps/usps.h5.xz"):
        select_datasets("usps")
    with pytest.raises(ValueError, match="none of the requested data sets is available"):
        select_datasets("sraa")


def _no_network(*args, **kwargs):
    from urllib.error import URLError

    raise URLError("network disabled in tests")


def test_text_pool_is_cached_by_the_raw_files_and_rebuilt_when_they_change(tmp_path,
                                                                           monkeypatch):
    """The vectorised pool is read back from derived_home (equal to a fresh vectorisation),
    keyed by the archive's bytes; a damaged entry is discarded and rebuilt."""
    import tarfile
    import io

    import numpy as np

    from olc._util.cache import CacheDiscardedWarning
    from olc.data import load
    from olc.data.loaders import SRAA_CLASSES
    from olc.data.text import binary_term_matrix
    from olc.experiments.shen_dietterich import data as sd_data

    def archive(words):
        (tmp_path / "home" / "sraa").mkdir(parents=True, exist_ok=True)
        with tarfile.open(tmp_path / "home" / "sraa" / "sraa.tar.gz", "w:gz") as tar:
            for c in SRAA_CLASSES:
                for k in range(2):
                    body = f"Subject: {k}\n\n{c} {words} {k}x\n".encode("latin-1")
                    info = tarfile.TarInfo(f"sraa/{c}/{k:05d}")
                    info.size = len(body)
                    tar.addfile(info, io.BytesIO(body))

    monkeypatch.setenv("OLC_DATA", str(tmp_path / "home"))
    monkeypatch.setenv("OLC_CACHE", str(tmp_path / "cache"))
    archive("first words")
    groups = ["realauto", "simauto"]
    built = sd_data.text_pool("sraa", groups)
    docs, target, names = load("sraa", "all")
    keep = [i for i, t in enumerate(target) if names[t] in groups]
    X, vocabulary = binary_term_matrix([docs[i] for i in keep])
    assert (built.X != X).nnz == 0 and built.info["vocabulary_size"] == vocabulary.size
    assert built.y.tolist() == ["realauto", "realauto", "simauto", "simauto"]
    (entry,) = (tmp_path / "cache" / "derived").glob("text-pool-sraa-*.npz")

    def no_build(*args):
        raise AssertionError("rebuilt although cached")

    with monkeypatch.context() as m:
        m.setattr(sd_data, "_build_pool", no_build)
        again = sd_data.text_pool("sraa", groups)
    assert again.fingerprint == built.fingerprint
    archive("other text entirely")   # new bytes → a new key, a new entry
    changed = sd_data.text_pool("sraa", groups)
    assert changed.fingerprint != built.fingerprint
    entries = set((tmp_path / "cache" / "derived").glob("text-pool-sraa-*.npz"))
    assert len(entries) == 2
    (current,) = entries - {entry}
    current.write_bytes(b"damaged")
    with pytest.warns(CacheDiscardedWarning):
        healed = sd_data.text_pool("sraa", groups)
    assert healed.fingerprint == changed.fingerprint and np.load(current)["key"].size == 1
