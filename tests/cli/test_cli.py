"""The command line, driven as a user would (typer's runner, real files)."""
import json
import os
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import olc
from olc.cli import app

runner = CliRunner()
SHARED = Path(os.environ.get("OLC_DATA", Path(__file__).parents[3] / "shared" / "datasets"))
SMALL = "synthetic:n=3000,d=10"


def invoke(*args):
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_algorithms_lists_the_catalogue():
    res = invoke("algorithms", "--json")
    assert res.exit_code == 0
    listed = json.loads(res.stdout)
    assert [e["name"] for e in listed] == [e.name for e in olc.algorithms()]
    assert all(e["citation"] and e["summary"] and e["references"] for e in listed)
    assert {"perceptron", "pa", "pa-i", "pa-ii", "e-omm", "ce-omm"} <= {e["name"] for e in listed}


def test_compare_default_learners_writes_json_and_figure(tmp_path):
    res = invoke("compare", "--data", SMALL, "--out", str(tmp_path))
    assert res.exit_code == 0, res.output
    report = json.loads((tmp_path / "results.json").read_text())
    names = [r["algorithm"] for r in report["results"]]
    assert names == ["perceptron", "pa", "pa-i", "pa-ii", "ce-omm", "e-omm"]
    for row in report["results"]:
        assert row["steps"] == 3000
        assert 0 <= row["mistakes"] <= row["steps"]
        assert {"updates", "final_margin", "tau", "seconds"} <= set(row)
    png = (tmp_path / "cumulative_error.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000
    for name in names:
        assert name in res.stdout


def test_compare_results_match_the_library(tmp_path):
    from olc.data.sources import load_source

    invoke("compare", "pa-i", "e-omm", "--data", SMALL, "--param", "C=0.25",
           "--param", "e-omm:rho=0.5", "--passes", "2", "--seed", "3", "--out", str(tmp_path))
    report = json.loads((tmp_path / "results.json").read_text())
    X, y, _ = load_source(SMALL)
    for row, (name, params) in zip(report["results"], [("pa-i", {"C": 0.25}),
                                                        ("e-omm", {"rho": 0.5})]):
        assert row["params"] == params
        result = olc.progressive(olc.make(name, **params), X, y, passes=2, shuffle_seed=3)
        assert row["mistakes"] == result.mistakes and row["updates"] == result.updates


def test_run_json_and_saved_model(tmp_path):
    model = tmp_path / "m.npz"
    res = invoke("run", "ce-omm", "--data", SMALL, "--json", "--save-model", str(model))
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert summary["algorithm"] == "ce-omm" and summary["steps"] == 3000
    learner = olc.load(model)
    assert learner.n_steps_ == 3000 and learner.get_params()["rho"] == 0.0


@pytest.mark.parametrize("args, message", [
    (("run", "nope"), "unknown algorithm 'nope'"),
    (("run", "pa-i", "--param", "rho=1", "--data", SMALL), "has no parameter 'rho'"),
    (("run", "pa-i", "--param", "C", "--data", SMALL), "expected k=v"),
    (("run", "pa-i", "--data", "no/such/file.svm"), "neither a dataset name"),
    (("run", "pa-i", "--data", "synthetic:q=1"), "unknown option"),
    (("compare", "pa-i", "--param", "e-omm:rho=1", "--data", SMALL), "not among the learners"),
])
def test_bad_arguments_exit_with_a_clear_message(args, message):
    res = runner.invoke(app, list(args))
    assert res.exit_code == 2
    assert message in " ".join(res.output.split())


def test_run_on_an_svmlight_file(tmp_path):
    path = tmp_path / "tiny.svm"
    path.write_text("+1 1:1 2:0.5\n-1 1:-1 3:2\n+1 2:1\n-1 3:1\n")
    res = invoke("run", "perceptron", "--data", str(path), "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["steps"] == 4


def test_run_multiclass_file_counts_online_mistakes(tmp_path):
    """K = 3 labels run one-vs-rest from the command line; the online mistakes equal those of
    scikit-learn's Perceptron (one-vs-rest, the same rule) fed one row at a time, predicting
    before each partial_fit — an independent implementation of the protocol."""
    from sklearn.linear_model import Perceptron

    rng = np.random.default_rng(3)
    X = rng.standard_normal((60, 4))
    y = np.argmax(X[:, :3], axis=1) + 1  # labels 1, 2, 3
    path = tmp_path / "three.svm"
    path.write_text("".join(f"{label} " + " ".join(f"{j + 1}:{float(v)!r}" for j, v in enumerate(row))
                            + "\n" for row, label in zip(X, y)))
    res = invoke("run", "perceptron", "--data", str(path), "--json")
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    ref, mistakes = Perceptron(shuffle=False, tol=None), 0
    for i in range(60):
        if i > 0:
            mistakes += int(ref.predict(X[i:i + 1])[0] != y[i])
        ref.partial_fit(X[i:i + 1], y[i:i + 1], classes=[1, 2, 3])
    first_wrong = y[0] != 1  # before any update every score is 0: the first class is predicted
    assert summary["steps"] == 60
    assert summary["mistakes"] == mistakes + int(first_wrong)


def test_run_malformed_file_names_the_line(tmp_path):
    path = tmp_path / "bad.svm"
    path.write_text("+1 1:1\n-1 1:x\n")
    res = runner.invoke(app, ["run", "perceptron", "--data", str(path)])
    assert res.exit_code == 2
    assert "line 2" in res.output


@pytest.mark.skipif(not (SHARED / "a9a").is_dir(), reason="a9a not in OLC_DATA")
def test_run_e_omm_on_a9a(monkeypatch):
    monkeypatch.setenv("OLC_DATA", str(SHARED))
    res = invoke("run", "e-omm", "--data", "a9a", "--json")
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert summary["steps"] == 32561 and summary["data"]["features"] == 123
    # a9a is not separable, so OMM's guarantees do not apply; the run must still complete
    # with a defined record, and beat the best constant predictor ("−1": 7841 mistakes, the
    # number of positives).
    assert 0 < summary["mistakes"] < 7841
