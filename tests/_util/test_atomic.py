"""Atomic writes: a writer that dies at any moment leaves the old file or
the new one, never a truncated file — models, results JSON, tables, figures, caches."""
import json
import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import olc
from olc._util import atomic as _atomic
from olc.report import plot_cumulative_error, write_csv, write_json

ROOT = Path(__file__).resolve().parents[2]


class Crash(Exception):
    pass


@pytest.fixture
def crash_after(monkeypatch):
    """Make every write through ``open`` / ``np.savez`` fail after ``n`` bytes, as a kill
    in the middle of writing would (the bytes before it reach the file)."""
    import builtins

    def arm(n):
        real_open = builtins.open

        def dying_open(file, mode="r", *args, **kwargs):
            fh = real_open(file, mode, *args, **kwargs)
            if "w" not in mode and "+" not in mode:
                return fh
            budget = [n]
            write = fh.write

            def limited(data):
                if budget[0] <= len(data):
                    write(data[:budget[0]])
                    fh.flush()
                    raise Crash("killed while writing")
                budget[0] -= len(data)
                return write(data)
            fh.write = limited
            return fh
        monkeypatch.setattr(builtins, "open", dying_open)
    return arm


def _writers(tmp_path):
    X = np.random.default_rng(0).normal(size=(50, 4))
    learner = olc.make("perceptron").fit(X, (X[:, 0] > 0).astype(int))
    return {
        "model": (tmp_path / "m.npz", lambda p: olc.save(learner, p)),
        "json": (tmp_path / "r.json", lambda p: write_json(p, {"x": list(range(2000))})),
        "csv": (tmp_path / "t.csv", lambda p: write_csv(p, [{"a": i} for i in range(2000)],
                                                        ["a"])),
        "figure": (tmp_path / "f.png", lambda p: plot_cumulative_error({"a": np.ones(50)}, p)),
        "text": (tmp_path / "s.md", lambda p: _atomic.write_text(p, "x" * 100_000)),
    }


@pytest.mark.parametrize("kind", ["model", "json", "csv", "figure", "text"])
def test_a_write_that_dies_midway_leaves_the_old_file(kind, tmp_path, crash_after):
    path, write = _writers(tmp_path)[kind]
    write(path)
    old = path.read_bytes()
    crash_after(100)
    with pytest.raises(Crash):
        write(path)
    assert path.read_bytes() == old
    assert [p.name for p in tmp_path.iterdir()] == [path.name], "no temporary file is left"


def test_new_files_have_ordinary_permissions(tmp_path):
    mask = os.umask(0o027)
    try:
        _atomic.write_text(tmp_path / "a.txt", "hi")
    finally:
        os.umask(mask)
    assert stat.S_IMODE(os.stat(tmp_path / "a.txt").st_mode) == 0o640


_KILLED_WRITER = r"""
import sys, numpy as np, olc
from olc.report import write_csv, write_json
folder = sys.argv[1]
d = 3_000_000
versions = []
for k in (1, 2):  # two models that differ (n_steps 1 vs 2), 24 MB files: slow to save
    X = np.zeros((k, d)); X[:, 0] = 1.0
    versions.append(olc.make("perceptron").partial_fit(X, [1] * k, classes=[0, 1]))
rows = [[{"v": k, "i": i} for i in range(20_000)] for k in (1, 2)]
first = True
while True:
    for k in (0, 1):
        olc.save(versions[k], f"{folder}/model.npz")
        write_json(f"{folder}/results.json", {"v": k, "x": list(range(20_000))})
        write_csv(f"{folder}/table.csv", rows[k], ["v", "i"])
        if first:
            print("ready", flush=True)
            first = False
"""


def _check_complete(folder):
    loaded = olc.load(folder / "model.npz")
    assert loaded.n_steps_ in (1, 2)
    payload = json.loads((folder / "results.json").read_text())
    assert payload["v"] in (0, 1) and len(payload["x"]) == 20_000
    lines = (folder / "table.csv").read_text().splitlines()
    assert len(lines) == 20_001 and lines[-1].endswith(",19999")


def test_files_survive_sigkill_at_random_moments(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    rng = random.Random(0)
    for _ in range(8):
        proc = subprocess.Popen([sys.executable, "-c", _KILLED_WRITER, str(tmp_path)],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                                text=True)
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.0, 1.0))  # one cycle of the three writes: ~1 s
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        _check_complete(tmp_path)


def test_leftovers_of_killed_writers_are_removed_when_old(tmp_path):
    old = tmp_path / ".r.json.abcd1234.part"
    recent = tmp_path / ".r.json.efgh5678.part"
    old.write_text("partial")
    recent.write_text("partial")
    os.utime(old, (time.time() - 2 * _atomic.STALE_SECONDS,) * 2)
    write_json(tmp_path / "r.json", {"a": 1})
    assert not old.exists() and recent.exists(), "a recent one may be another writer's"
