"""``olc run``'s τ and final margin γ̄: computed on request (``--tau``, ``--margin``), each an
extra cost over the data; when not asked, None and named in ``not_computed`` (JSON) and in
the table. Also ``--n-features`` and streaming a Vowpal Wabbit file."""
import json

import numpy as np
import pytest
from typer.testing import CliRunner

import olc
from olc.cli import app
from olc.data import read_svmlight


def _run(args, tmp_path):
    res = CliRunner().invoke(app, [str(a) for a in args],
                             env={"OLC_CACHE": str(tmp_path / "cache"),
                                  "OLC_COMPILE_NOTICE": "0"})
    assert res.exit_code == 0, (res.output, res.exception)
    return res


def _separable(path, n=400, d=6, seed=0):
    """Rows with a margin of at least 0.3 about a random hyperplane through 0 (τ is reached)."""
    rng = np.random.default_rng(seed)
    w = rng.normal(size=d)
    w /= np.linalg.norm(w)
    lines = []
    while len(lines) < n:
        x = rng.uniform(-1, 1, size=d)
        if abs(x @ w) < 0.3:
            continue
        lines.append(("+1" if x @ w > 0 else "-1") + " " +
                     " ".join(f"{j + 1}:{v:.6f}" for j, v in enumerate(x)))
    path.write_text("\n".join(lines) + "\n")
    return path


def test_tau_and_margin_are_computed_only_when_asked(tmp_path):
    path = _separable(tmp_path / "s.svm")
    plain = json.loads(_run(["run", "perceptron", "--data", path, "--json", "--passes", "5"],
                            tmp_path).stdout)
    assert plain["tau"] is None and plain["final_margin"] is None
    assert set(plain["not_computed"]) == {"tau", "final_margin"}
    model = tmp_path / "m.npz"
    asked = json.loads(_run(["run", "perceptron", "--data", path, "--json", "--passes", "5",
                             "--tau", "--margin", "--save-model", model], tmp_path).stdout)
    assert "not_computed" not in asked
    assert asked["mistakes"] == plain["mistakes"] and asked["updates"] == plain["updates"]
    X, y = read_svmlight(path)
    learner = olc.load(model)
    w, b = learner.coef_.ravel(), float(np.ravel(learner.intercept_)[0])
    expected = np.min(y * (X @ w + b)) / np.linalg.norm(w)  # γ̄ from the saved model, by NumPy
    assert expected > 0 and asked["final_margin"] == pytest.approx(expected, rel=1e-12)
    library = olc.progressive(olc.make("perceptron"), X, y, passes=5, tau_on="data")
    assert library.tau is not None and asked["tau"] == library.tau
    table = _run(["run", "perceptron", "--data", path], tmp_path).stdout
    assert "not computed: not asked (--tau)" in table
    assert "not computed: not asked (--margin)" in table


def test_n_features_sets_the_width_in_memory_and_streamed(tmp_path):
    path = _separable(tmp_path / "s.svm", d=5)
    for extra in ([], ["--stream", "--chunk-rows", "64"]):
        out = json.loads(_run(["run", "pa", "--data", path, "--json", "--n-features", 9,
                               *extra], tmp_path).stdout)
        assert out["data"]["features"] == 9, extra
    res = CliRunner().invoke(app, ["run", "pa", "--data", str(path), "--n-features", "3"])
    assert res.exit_code == 2 and "beyond n_features=3" in res.output


def test_a_vw_file_streams_as_it_is_read_whole(tmp_path):
    rng = np.random.default_rng(2)
    lines = []
    for _ in range(900):
        names = rng.choice(50, size=5, replace=False)
        score = np.sin(names).sum()
        lines.append(f"{1 if score > 0 else -1} |f " + " ".join(f"x{c}" for c in names) +
                     f" |g n:{rng.normal():.4f}")
    path = tmp_path / "d.vw"
    path.write_text("\n".join(lines) + "\n")
    base = ["run", "pa-i", "--data", path, "--json", "--bits", 12, "--margin"]
    whole = json.loads(_run(base + ["--no-stream"], tmp_path).stdout)
    streamed = json.loads(_run(base + ["--stream", "--chunk-rows", "128"], tmp_path).stdout)
    for key in ("steps", "mistakes", "updates", "error_rate", "final_margin"):
        assert streamed[key] == whole[key], key
    assert streamed["chunks"] == 8 and streamed["data"]["features"] == 4096
