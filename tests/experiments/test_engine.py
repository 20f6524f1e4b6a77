"""The experiment engine (olc.experiments.engine): protocols checked against the same
learners run directly, Student-t intervals against hand values, the run store's reuse,
joblib and Dask giving the same records, and the TOML spec's errors."""
import json
from dataclasses import replace
import math
from pathlib import Path

import numpy as np
import pytest

import olc
from olc.experiments.engine import (Classes, ExperimentSpec, Head, LearnerSpec, Permute,
                                    Progressive, StreamSpec, SyntheticSource, TrainThenTest,
                                    TuneThenTest, stream_seed)
from olc.experiments.engine.aggregate import curve_band, t_interval
from olc.experiments.engine.experiment import run_experiment
from olc.experiments.engine.sources import ArraySource

ROOT = Path(__file__).parents[2]


def small_spec(protocol=None, trials=3, learners=None, n=600):
    return ExperimentSpec(
        "small", streams=[StreamSpec("syn", SyntheticSource({"n": n, "d": 5, "offset": 0.0,
                                                              "margin": 0.0}), (Permute(),))],
        learners=learners or [LearnerSpec("perceptron"),
                              LearnerSpec("pa-i", label="PA-I", tune={"C": [0.001, 1.0]})],
        protocol=protocol or TuneThenTest(0.5), trials=trials,
        metrics=("mistakes", "error_rate", "seconds", "cumulative_error"))


# ----------------------------------------------------------------------------- statistics

def test_student_t_interval_by_hand():
    s = t_interval([1.0, 2.0, 3.0, 4.0])
    # t_{3, 0.975} = 3.182446305 (tables); s = sqrt(5/3)
    assert s.mean == 2.5 and s.n == 4
    assert s.half_width == pytest.approx(3.182446305 * math.sqrt(5 / 3) / 2, rel=1e-9)
    one = t_interval([7.0, None])
    assert one.mean == 7.0 and one.half_width is None
    mean, half = curve_band([[1.0, 2.0], [3.0, 2.0]])
    np.testing.assert_allclose(mean, [2.0, 2.0])
    assert half[1] == 0.0 and half[0] == pytest.approx(12.70620474 * math.sqrt(2) / math.sqrt(2))


# ----------------------------------------------------------------------------- protocols

def _stream(trial, n=600):
    X, y = olc.data.sources.synthetic_stream(n=n, d=5, offset=0.0, margin=0.0)
    order = np.random.default_rng(stream_seed(0, trial)).permutation(n)
    return X[order], y[order]


def test_tune_then_test_equals_a_direct_computation(tmp_path):
    rep = run_experiment(small_spec(), tmp_path, progress=False)
    assert rep["computed"] == 6 and rep["reused"] == 0
    for trial in range(3):
        X, y = _stream(trial)
        cut = 300
        # Perceptron: no grid; one progressive run over the whole stream, mistakes counted
        # on the second half only.
        res = olc.progressive(olc.make("perceptron"), X, y)
        rec = next(r for r in rep["records"] if r["learner"] == "perceptron"
                   and r["trial"] == trial)
        assert rec["mistakes"] == int(np.count_nonzero(res.pred[cut:] != y[cut:]))
        # PA-I: the C with fewer online mistakes on the first half (first on ties), then
        # its second-half mistakes.
        runs = {C: olc.progressive(olc.make("pa-i", C=C), X, y) for C in (0.001, 1.0)}
        first = {C: int(np.count_nonzero(r.pred[:cut] != y[:cut])) for C, r in runs.items()}
        best = min((0.001, 1.0), key=lambda C: (first[C], C != 0.001))
        rec = next(r for r in rep["records"] if r["learner"] == "PA-I" and r["trial"] == trial)
        assert rec["extra"]["chosen"] == {"C": best}
        assert rec["mistakes"] == int(np.count_nonzero(runs[best].pred[cut:] != y[cut:]))
        assert rec["error_rate"] == rec["mistakes"] / 300


def test_progressive_and_train_then_test(tmp_path):
    rep = run_experiment(small_spec(Progressive(), learners=[LearnerSpec("perceptron")]),
                         tmp_path / "p", progress=False)
    X, y = _stream(1)
    res = olc.progressive(olc.make("perceptron"), X, y)
    assert rep["records"][1]["mistakes"] == res.mistakes
    rep = run_experiment(small_spec(TrainThenTest(0.5, epochs=1),
                                    learners=[LearnerSpec("perceptron")]),
                         tmp_path / "t", progress=False)
    X, y = _stream(2)
    model = olc.make("perceptron")
    olc.progressive(model, X[:300], y[:300])
    assert rep["records"][2]["mistakes"] == int(np.count_nonzero(model.predict(X[300:]) !=
                                                                 y[300:]))


def test_curves_and_outputs(tmp_path):
    rep = run_experiment(small_spec(), tmp_path, progress=False)
    for name in ("table.md", "table.csv", "timing.md", "cumulative_error.png",
                 "cumulative_error.pdf", "results.json", "summary.md"):
        assert (tmp_path / name).stat().st_size > 0, name
    saved = json.loads((tmp_path / "results.json").read_text())
    assert len(saved["records"]) == 6
    mean, half = rep["results"].curve("syn", "perceptron")
    finals = [r["error_rate"] for r in rep["records"] if r["learner"] == "perceptron"]
    assert mean[-1] == pytest.approx(np.mean(finals))          # the curve ends at the rate
    assert half[-1] == pytest.approx(t_interval(finals).half_width)
    assert "seconds" not in (tmp_path / "table.csv").read_text()


def test_classes_transform_keeps_original_labels():
    X = np.arange(12.0).reshape(6, 2)
    y = np.array([3, 8, 5, 3, 8, 5])
    from olc.experiments.engine.sources import Data
    from olc.experiments.engine.transforms import apply_transforms

    s = apply_transforms(Data(X, y, "t"), [Classes([3], [8]), Head(3)],
                         np.random.default_rng(0))
    assert s.origin.tolist() == [0, 1, 3] and s.labels.tolist() == [3, 8, 3]
    assert s.y.tolist() == [1.0, -1.0, 1.0]


# ----------------------------------------------------------------------------- store, runners

def test_rerun_reuses_every_run_and_gives_identical_tables(tmp_path):
    run_experiment(small_spec(), tmp_path, progress=False)
    before = {p: (tmp_path / p).read_bytes() for p in ("table.md", "table.csv")}
    again = run_experiment(small_spec(), tmp_path, progress=False)
    assert again["reused"] == 6 and again["computed"] == 0
    assert before == {p: (tmp_path / p).read_bytes() for p in before}
    # another protocol is another key: nothing reused
    other = run_experiment(small_spec(TuneThenTest(0.4)), tmp_path, progress=False)
    assert other["reused"] == 0


def test_joblib_processes_give_the_same_records(tmp_path):
    one = run_experiment(small_spec(), tmp_path / "a", progress=False)
    two = run_experiment(small_spec(), tmp_path / "b", n_jobs=2, progress=False)
    strip = [{k: v for k, v in r.items() if k != "seconds"} for r in one["records"]]
    assert strip == [{k: v for k, v in r.items() if k != "seconds"} for r in two["records"]]


def test_dask_local_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        rep = run_experiment(small_spec(), tmp_path / "d", scheduler=client, progress=False)
    ref = run_experiment(small_spec(), tmp_path / "r", progress=False)
    assert [r["mistakes"] for r in rep["records"]] == [r["mistakes"] for r in ref["records"]]
    assert (tmp_path / "d" / "table.csv").read_bytes() == \
        (tmp_path / "r" / "table.csv").read_bytes()


def test_dask_scheduler_given_by_its_address(tmp_path):
    """``--scheduler tcp://…``: the engine opens its own client on the address and runs there
    (a scheduler listening on the loopback only)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                                  protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        rep = run_experiment(small_spec(), tmp_path / "d", scheduler=address, progress=False)
    ref = run_experiment(small_spec(), tmp_path / "r", progress=False)
    assert [r["mistakes"] for r in rep["records"]] == [r["mistakes"] for r in ref["records"]]
    assert (tmp_path / "d" / "table.csv").read_bytes() == \
        (tmp_path / "r" / "table.csv").read_bytes()


@pytest.mark.parametrize("scheduler", ["", "   ", 8786])
def test_a_malformed_scheduler_is_refused_before_anything_runs(scheduler, tmp_path):
    with pytest.raises(ValueError, match=r"--scheduler .*give an address such as tcp://"):
        run_experiment(small_spec(), tmp_path / "out", scheduler=scheduler, progress=False)
    assert not (tmp_path / "out").exists()


def test_a_scheduler_without_dask_installed_says_what_to_install(tmp_path, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "distributed" else real(name, *a))
    with pytest.raises(RuntimeError, match=r"--scheduler needs dask.distributed: pip install"):
        run_experiment(small_spec(), tmp_path / "out", scheduler="tcp://127.0.0.1:8786",
                       progress=False)
    assert not (tmp_path / "out").exists()


# ----------------------------------------------------------------------------- bad input

def test_bad_input_is_refused_before_anything_is_written(tmp_path):
    out = tmp_path / "out"
    bad = [
        (small_spec(learners=[LearnerSpec("no-such-learner")]), "unknown algorithm"),
        (small_spec(learners=[LearnerSpec("pa-i", tune={"C": [1.0, -1.0]})]), "PA|pa-i"),
        (small_spec(Progressive(), learners=[LearnerSpec("pa-i", tune={"C": [1.0]})]),
         "does not tune"),
        (small_spec(learners=[LearnerSpec("perceptron", params={"nope": 1})]), "nope"),
    ]
    for spec, message in bad:
        with pytest.raises((ValueError, KeyError), match=message):
            run_experiment(spec, out, progress=False)
    assert not out.exists()
    afile = tmp_path / "afile"
    afile.write_text("x")
    with pytest.raises(ValueError, match="is a file"):
        run_experiment(small_spec(), afile, progress=False)


def test_missing_data_names_the_file(tmp_path, monkeypatch):
    from olc.data.errors import DataError
    from olc.experiments.engine import DatasetSource

    monkeypatch.setenv("OLC_DATA", str(tmp_path / "empty"))
    spec = ExperimentSpec("m", [StreamSpec("u", DatasetSource("usps"))],
                          [LearnerSpec("perceptron")], Progressive())
    with pytest.raises((DataError, OSError), match="usps"):
        run_experiment(spec, tmp_path / "out", progress=False)
    assert not (tmp_path / "out").exists()


def test_array_source_and_custom_method(tmp_path):
    """A custom per-run procedure (method=) with its own per-step series."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 4))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    spec = ExperimentSpec("c", [StreamSpec("a", ArraySource(X, y))],
                          [LearnerSpec("first-coordinate", method=first_coordinate)],
                          Progressive(), metrics=("mistakes", "mean:features"))
    rep = run_experiment(spec, tmp_path, progress=False)
    assert rep["records"][0]["mistakes"] == 0 and rep["records"][0]["mean:features"] == 1.0


class _FirstCoordinate:
    def learn(self, X, y):
        from olc.experiments.engine import Steps

        pred = np.where(X[:, 0] >= 0, 1, -1).astype(np.int8)
        return Steps(pred=pred, series={"features": np.ones(len(y))})

    def predict(self, X):
        return np.where(X[:, 0] >= 0, 1.0, -1.0)


def first_coordinate(params, seed):
    return _FirstCoordinate()


def test_sweep_points_and_figure(tmp_path):
    from olc.experiments.engine.report import plot_sweeps

    spec = small_spec(Progressive(), learners=[LearnerSpec("pa-i", label="PA-I",
                                                           sweep={"C": [0.01, 1.0]})])
    rep = run_experiment(spec, tmp_path, progress=False)
    labels = sorted({r["learner"] for r in rep["records"]})
    assert labels == ["PA-I (C=0.01)", "PA-I (C=1)"]
    points = rep["results"].sweep("syn", "PA-I", "mistakes", "error_rate")
    assert [p[0] for p in points] == [{"C": 0.01}, {"C": 1.0}]
    for sweep, x, y in points:
        rs = [r for r in rep["records"] if r["sweep"] == sweep]
        assert x.mean == pytest.approx(np.mean([r["mistakes"] for r in rs]))
    paths = plot_sweeps(rep["results"], ["PA-I"], "mistakes", "error_rate", tmp_path, "sweep")
    assert [p.suffix for p in paths] == [".png", ".pdf"] and all(p.stat().st_size for p in paths)


# ----------------------------------------------------------------------------- reproductions

def _beats(results):
    """A claim as a paper module writes one: PA-I's mean error rate below the Perceptron's."""
    a = results.mean("syn", "PA-I", "error_rate")
    b = results.mean("syn", "perceptron", "error_rate")
    return a.mean < b.mean, f"PA-I {a.mean:.4f} vs Perceptron {b.mean:.4f}"


def _missing(results):
    raise LookupError("no run of NORMA in this experiment")


def _figure(results, settings, out_dir):
    from olc.experiments.engine.report import plot_curves
    from olc.experiments.engine.metrics import metric

    return {"figure_x": plot_curves(results, metric("cumulative_error"), out_dir, "fig_x")[0]}


def test_a_reproduction_runs_on_the_engine(tmp_path):
    from olc.experiments.engine import Claim, Reproduction, reproduce

    repro = Reproduction(
        "toy", "A toy paper", spec=lambda trials=3: small_spec(trials=trials),
        paper={("syn", "PA-I", "error_rate"): 0.123},
        claims=[Claim("PA-I beats the Perceptron", "§1", _beats),
                Claim("NORMA is worst", "§2", _missing)],
        figures=_figure, streams_to_write=lambda settings: ("syn",))
    report = reproduce(repro, tmp_path, {"trials": 2}, progress=False)
    assert report["computed"] == 4
    table = (tmp_path / "table.md").read_text()
    assert "error rate [paper]" in table and "| 0.123 |" in table
    header = (tmp_path / "table.csv").read_text().splitlines()[0]
    assert "error_rate_paper" in header and "mistakes_paper" not in header
    summary = (tmp_path / "summary.md").read_text()
    ok, evidence = _beats(report["outcome"])
    assert f"| 1 | PA-I beats the Perceptron | §1 | {'supported' if ok else '**not supported**'} | {evidence} |" in summary
    assert "| 2 | NORMA is worst | §2 | n/a | no run of NORMA in this experiment |" in summary
    assert (tmp_path / "fig_x.png").exists()
    rows = (tmp_path / "streams" / "syn-trial0.csv").read_text().splitlines()
    order = np.random.default_rng(stream_seed(0, 0)).permutation(600)
    assert rows[0] == "position,row,original_label,y"
    assert [int(r.split(",")[1]) for r in rows[1:]] == order.tolist()


# ----------------------------------------------------------------------------- series, curves

def test_series_mean_is_null_for_models_without_the_series(tmp_path):
    """mean:<series> of a model that reports no such series is None (null in results.json,
    an empty cell in table.csv), and the models that report it keep their mean."""
    from olc.experiments.engine.metrics import SeriesMean
    from olc.experiments.engine.protocols import RunOutput

    rng = np.random.default_rng(1)
    X = rng.normal(size=(100, 3))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    spec = ExperimentSpec("s", [StreamSpec("a", ArraySource(X, y))],
                          [LearnerSpec("perceptron"),
                           LearnerSpec("first-coordinate", method=first_coordinate)],
                          Progressive(), metrics=("mistakes", "mean:features"))
    rep = run_experiment(spec, tmp_path, progress=False)
    by = {r["learner"]: r for r in rep["records"]}
    assert by["perceptron"]["mean:features"] is None
    assert by["first-coordinate"]["mean:features"] == 1.0
    saved = json.loads((tmp_path / "results.json").read_text())
    assert [r["mean:features"] for r in saved["records"]] == [None, 1.0]
    rows = (tmp_path / "table.csv").read_text().splitlines()
    header = rows[0].split(",")
    cells = dict(zip(header, rows[1].split(",")))
    assert cells["learner"] == "perceptron" and cells["mean:features"] == ""
    empty = RunOutput(y=np.array([]), pred=np.array([]), updated=None,
                      series={"features": np.array([])}, seconds=0.0, extra={})
    assert SeriesMean("features")(empty) is None
    two = RunOutput(y=np.ones(2), pred=np.ones(2), updated=None,
                    series={"features": np.array([2.0, 5.0])}, seconds=0.0, extra={})
    assert SeriesMean("features")(two) == 3.5


def _curve_results():
    """Hand-made records: learner A (no sweep) and a sweep S whose k=2 ends lower."""
    from olc.experiments.engine.aggregate import Results

    recs, curves = [], {}
    ends = {"A": [0.3, 0.3], "S (k=1)": [0.4, 0.2], "S (k=2)": [0.5, 0.1]}
    for label, (start, end) in ends.items():
        group = label.split(" ")[0]
        for t in range(2):
            recs.append({"stream": "x", "learner": label, "group": group, "trial": t})
            curves.setdefault(("x", label), {}).setdefault("cumulative_error", []).append(
                [start, end])
    return Results(recs, curves)


def test_curves_figure_shows_one_per_learner_by_default():
    from olc.experiments.engine.report import curve_learners

    res = _curve_results()
    assert curve_learners(res, "x", "cumulative_error") == ["A", "S (k=2)"]
    assert curve_learners(res, "x", "cumulative_error", "all") == ["A", "S (k=1)", "S (k=2)"]
    assert curve_learners(res, "x", "cumulative_error", ["S (k=1)"]) == ["S (k=1)"]
    assert curve_learners(res, "x", "cumulative_error", ["S", "A"]) == ["S (k=2)", "A"]


def test_curves_choice_is_validated_and_drawn(tmp_path):
    spec = small_spec(Progressive(), trials=2,
                      learners=[LearnerSpec("perceptron"),
                                LearnerSpec("pa-i", label="PA-I", sweep={"C": [0.01, 1.0]})])
    with pytest.raises(ValueError, match=r"curves: unknown learner label\(s\) \['PA-II'\]"):
        run_experiment(replace(spec, curves=("PA-II",)), tmp_path / "no", progress=False)
    assert not (tmp_path / "no").exists()
    rep = run_experiment(replace(spec, curves=("PA-I (C=1)",)), tmp_path, progress=False)
    assert (tmp_path / "cumulative_error.png").stat().st_size > 0
    assert rep["experiment"]["curves"] == ["PA-I (C=1)"]
