"""Streaming: ``olc.progressive(learner, chunks)`` and
``olc run --data FILE --stream`` learn a file chunk by chunk with memory bounded by the chunk,
and give the totals of the in-memory run."""
import json
import tracemalloc

import numpy as np
import pytest
from typer.testing import CliRunner

import olc
from olc.cli import app

from _in_domain import KIND, in_domain


@pytest.mark.parametrize("name", ["perceptron", "pa-i", "e-omm", "arow", "sgd-regression",
                                  "winnow"])
def test_chunked_stream_gives_the_in_memory_totals_and_state(name):
    X, y = in_domain(name, n=500, d=8)
    whole = olc.progressive(olc.make(name), X, y)
    learner = olc.make(name)
    streamed = olc.progressive(learner, ((X[i:i + 64], y[i:i + 64]) for i in range(0, 500, 64)),
                               classes=[0, 1] if KIND[name] == "classifier" else None)
    for key in ("steps", "mistakes", "updates"):
        assert streamed.summary().get(key) == whole.summary().get(key), key
    for key in ("squared_error", "absolute_error"):  # sums over chunks: summation order
        if whole.summary().get(key) is None:
            assert streamed.summary().get(key) is None
            continue
        assert streamed.summary().get(key) == pytest.approx(whole.summary().get(key),
                                                            rel=1e-12), key
    reference = olc.make(name).fit(X, y)
    np.testing.assert_array_equal(learner._vecs, reference._vecs)
    np.testing.assert_array_equal(learner._scal, reference._scal)


def test_memory_is_bounded_by_the_chunk():
    rng = np.random.default_rng(0)
    w = rng.normal(size=200)

    def chunks(n_chunks):
        for _ in range(n_chunks):  # 2000 x 200 floats: 3.2 MB per chunk
            X = rng.normal(size=(2000, 200))
            yield X, np.where(X @ w > 0, 1, -1)

    learner = olc.make("pa-i")
    olc.progressive(learner, chunks(1))  # compile / load outside the measurement
    tracemalloc.start()
    result = olc.progressive(learner, chunks(60), progress=False)  # 192 MB in all
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert result.n_steps == 120_000
    assert peak < 20e6, f"peak {peak / 1e6:.1f} MB for 3.2 MB chunks"


def test_cli_stream_equals_the_in_memory_run(tmp_path):
    rng = np.random.default_rng(1)
    path = tmp_path / "d.svm"
    w = rng.normal(size=30)
    with open(path, "w") as fh:
        for _ in range(3000):
            cols = np.sort(rng.choice(30, 6, replace=False))
            vals = rng.normal(size=6)
            fh.write(("+1" if vals @ w[cols] > 0 else "-1") + " " +
                     " ".join(f"{c + 1}:{v:.5f}" for c, v in zip(cols, vals)) + "\n")
    base = ["run", "pa-i", "--data", str(path), "--json", "--margin"]
    res_mem = CliRunner().invoke(app, base + ["--no-stream"])
    res_str = CliRunner().invoke(app, base + ["--stream", "--chunk-rows", "700"])
    assert res_mem.exit_code == 0 and res_str.exit_code == 0, res_str.output
    mem, streamed = json.loads(res_mem.stdout), json.loads(res_str.stdout)
    for key in ("steps", "mistakes", "updates", "error_rate", "final_margin"):
        assert streamed[key] == mem[key], key
    assert streamed["data"]["rows"] == 3000 and streamed["data"]["features"] == 30
    assert streamed["chunks"] == 5


def test_stream_refuses_several_passes(tmp_path):
    path = tmp_path / "d.svm"
    path.write_text("+1 1:1\n-1 1:-1\n")
    res = CliRunner().invoke(app, ["run", "pa", "--data", str(path), "--stream",
                                   "--passes", "2"])
    assert res.exit_code == 2 and "neither --passes nor --seed" in res.output
