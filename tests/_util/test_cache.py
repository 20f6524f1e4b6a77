"""Caches that heal: a cache entry that cannot be read or does not verify
(truncated, wrong shape, wrong version, valid JSON of the wrong shape) is discarded with a
one-line warning and rebuilt; the result equals a build without cache."""
import json
import warnings

import numpy as np
import pytest
from typer.testing import CliRunner

from olc._util.cache import CacheDiscardedWarning
from olc.data.synthetic import separable
from olc.experiments.omm_adult import data as adult_omm_data
from olc.experiments.omm_adult import geometry

from olc.experiments.engine.reproduction import reproduce
from olc.experiments.omm_adult.reproduction import REPRODUCTION


def run_omm(problem, out, force=False, progress=False, **options):
    """``olc reproduce omm-adult`` on ``problem`` instead of the Adult set."""
    return reproduce(REPRODUCTION, out, {"problem": problem, **options}, force=force,
                     progress=progress)


class FakeRecords:
    """Raw records in the shape of ``olc.data.adult_records`` (two numeric columns, one
    categorical), small enough to build in a blink."""

    def __init__(self, n=300, seed=0):
        rng = np.random.default_rng(seed)
        a, b = rng.normal(size=n), rng.normal(size=n)
        self.columns = {"a": a, "b": b,
                        "c": np.array(["x", "y", "z"], dtype=object)[rng.integers(0, 3, n)]}
        self.y = np.where(a + 0.5 * b > 0, 1.0, -1.0)


@pytest.fixture
def fake_adult(monkeypatch):
    records = FakeRecords()
    monkeypatch.setattr("olc.data.adult_records", lambda split="all", **kw: records)
    return records


def _damage(path, how):
    if how == "truncated":
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    elif how == "garbage":
        path.write_bytes(b"\x00" * 100)
    elif how == "empty":
        path.write_bytes(b"")
    else:  # rewrite one array with the wrong shape / the wrong version
        with np.load(path, allow_pickle=False) as f:
            arrays = {k: f[k] for k in f.files}
        if how == "wrong shape":
            arrays[next(k for k in ("X", "coef") if k in arrays)] = np.zeros(3)
        else:
            arrays["version"] = np.array(99)
            arrays["key"] = np.array("{}")
        np.savez(path, **arrays)


def _same(a, b):
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.y, b.y)
    assert a.feature_names == b.feature_names


@pytest.mark.parametrize("how", ["truncated", "garbage", "empty", "wrong shape", "wrong version"])
def test_damaged_data_set_cache_is_discarded_and_rebuilt(how, tmp_path, fake_adult):
    fresh = adult_omm_data.build(tmp_path)
    path = tmp_path / f"adult-omm-v{adult_omm_data.CACHE_VERSION}.npz"
    _damage(path, how)
    with pytest.warns(CacheDiscardedWarning, match=f"discarding the cache entry {path}"):
        rebuilt = adult_omm_data.build(tmp_path)
    _same(rebuilt, fresh)
    _same(adult_omm_data._read_cache(path, json.dumps(adult_omm_data.SVC_SETTINGS,
                                                      sort_keys=True)), fresh)


@pytest.mark.parametrize("how", ["truncated", "garbage", "wrong shape", "wrong version"])
def test_damaged_geometry_cache_is_discarded_and_recomputed(how, tmp_path, fake_adult):
    first = geometry.load_adult(cache_dir=tmp_path)
    (path,) = tmp_path.glob("adult-omm-geometry-*.npz")
    _damage(path, how)
    with pytest.warns(CacheDiscardedWarning, match="adult-omm-geometry"):
        again = geometry.load_adult(cache_dir=tmp_path)
    assert again.original.D == first.original.D
    np.testing.assert_array_equal(again.original.coef, first.original.coef)
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheDiscardedWarning)
        geometry.load_adult(cache_dir=tmp_path)  # the rewritten entry is sound


@pytest.mark.parametrize("content", ["[]", '{"key": 1', "", '{"key": KEY, "value": [1]}'])
def test_damaged_run_cache_is_discarded_and_rerun(content, tmp_path):
    X, y = separable(n=60, d=3, seed=1)[:2]
    problem = geometry.prepare(X, y)
    first = run_omm(problem, tmp_path, passes_permuted=2, thetas=(0.0,), progress=False)
    (path,) = (tmp_path / "runs" / "zero-theta0").glob("e-omm.*.json")  # e-omm.<key hash>.json
    key = json.dumps(json.loads(path.read_text())["key"])
    path.write_text(content.replace("KEY", key))
    with pytest.warns(CacheDiscardedWarning, match=r"e-omm\.[0-9a-f]{16}\.json"):
        again = run_omm(problem, tmp_path, passes_permuted=2, thetas=(0.0,),
                             progress=False)
    def results(report):  # everything but the timings
        return [{k: v for k, v in r.items() if "seconds" not in k} for r in report["records"]]
    assert results(again) == results(first)
    assert json.loads(path.read_text())["key"] == json.loads(key)


def test_cli_reports_a_damaged_cache_in_one_line_and_completes(tmp_path):
    """The issue's case: a truncated derived-data cache made every later
    ``olc reproduce omm-adult`` end in "Aborted."."""
    from olc.cli import app

    X, y = separable(n=200, d=4, seed=3)[:2]
    key = json.dumps(adult_omm_data.SVC_SETTINGS, sort_keys=True)
    np.savez(tmp_path / f"adult-omm-v{adult_omm_data.CACHE_VERSION}.npz", X=X, y=y,
             names=np.array([f"f{i}" for i in range(4)]), key=np.array(key),
             rows_without_missing=250, svc_coef=np.zeros(4), svc_intercept=0.0)
    args = ["reproduce", "omm-adult", "--out", str(tmp_path / "out"), "--cache-dir",
            str(tmp_path), "--passes-permuted", "2", "--limit", "100"]
    assert CliRunner().invoke(app, args).exit_code == 0
    (geometry,) = tmp_path.glob("adult-omm-geometry-*.npz")
    geometry.write_bytes(geometry.read_bytes()[:100])
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    warned = [line for line in res.output.splitlines() if line.startswith("warning:")]
    assert len(warned) == 1 and str(geometry) in warned[0]
