"""olc reproduce kernel-budget: the pipeline end to end on small slices (numbers checked
against the records and an independent NumPy kernel perceptron), the claim's verdicts shown
to follow the data (hand-made records flip them), and bad input."""
import json
import os

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import stats

from olc.experiments.engine.aggregate import Results
from olc.experiments.engine.reproduction import evaluate, reproduce
from olc.experiments.engine.sources import Data
from olc.experiments.kernel_budget import data as kb_data
from olc.experiments.kernel_budget.claims import CLAIMS, Outcome, cells
from olc.experiments.kernel_budget.reproduction import REPRODUCTION
from olc.experiments.kernel_budget.spec import FORGETRON, REGULARIZED, config_label

HOME = os.environ.get("OLC_DATA") or os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                                  "shared", "datasets")
NEEDED = ("usps", "20newsgroups", "a9a", "w8a")

SMALL = {"trials": 2, "table_trials": 2, "budgets": "5,10", "table_budgets": "20",
         "limit": 300, "rows_per_phase": {"usps": 30, "20newsgroups": 30},
         "svc_subsample": 300}


@pytest.fixture
def shared_data(monkeypatch):
    missing = [d for d in NEEDED if not os.path.isdir(os.path.join(HOME, d))]
    if missing:
        pytest.skip(f"not in the data home: {missing}")
    monkeypatch.setenv("OLC_DATA", HOME)


def numpy_kernel_perceptron_mistakes(X, y, gamma):
    """The unbudgeted RBF kernel perceptron, written from its definition: the prediction
    sign(f(x)) (sign(0) = +1) is a mistake when it differs from y; y·f(x) ≤ 0 stores x with
    coefficient y."""
    X = X.toarray() if sp.issparse(X) else np.asarray(X)
    stored, coef, mistakes = [], [], 0
    for x, label in zip(X, y):
        f = sum(c * np.exp(-gamma * np.sum((s - x) ** 2)) for s, c in zip(stored, coef))
        mistakes += (1.0 if f >= 0 else -1.0) != label
        if label * f <= 0:
            stored.append(x)
            coef.append(label)
    return mistakes


def test_gamma_selection_against_a_numpy_kernel_perceptron():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 5))
    y = np.where(np.sum(X[:, :2] ** 2, axis=1) > 1.5, 1.0, -1.0)   # a circle: RBF territory
    data = Data(sp.csr_matrix(np.vstack([X, X[:50]])), np.concatenate([y, y[:50]]), "toy",
                {"n_train": 400})
    gamma, scores = kb_data.select_gamma(data, grid=(0.01, 0.3, 3.0), seed=5)
    rows = np.random.default_rng(5).permutation(400)[:40]
    expected = [numpy_kernel_perceptron_mistakes(X[rows], y[rows], g) for g in (0.01, 0.3, 3.0)]
    assert [s["mistakes"] for s in scores] == expected
    assert all(s["rows"] == 40 for s in scores)
    assert gamma == (0.01, 0.3, 3.0)[int(np.argmin(expected))]


def test_quick_slice_end_to_end(shared_data, tmp_path):
    out = tmp_path / "out"
    report = reproduce(REPRODUCTION, out, dict(SMALL), n_jobs=1, progress=False)
    # drift: 2 data sets × 2 kernels × (5 budgeted × 2 budgets + 2) × 2 trials = 96;
    # table: 2 data sets × (14 budgeted × 1 budget + 2 + 2 SVMs) configurations × 2 trials
    n_table = sum(1 for _ in json.loads((out / "results.json").read_text())["table"]["a9a"])
    assert report["computed"] == 96 + 2 * n_table and n_table % 2 == 0
    for name in ("summary.md", "results.json", "drift_table.md", "drift_table.csv",
                 "budget_table.md", "budget_table.csv", "error_vs_budget.png",
                 "error_vs_budget.pdf"):
        assert (out / name).is_file(), name
    saved = json.loads((out / "results.json").read_text())
    for dataset, records in saved["drift"].items():
        assert len(records) == 48
        for r in records:   # 4 phases × 30 rows, the second half measured
            assert r["error_rate"] == pytest.approx(r["mistakes"] / 60)
        tuned = [r for r in records if r["group"].startswith("Regularized kernel PA")]
        assert all(r["extra"]["chosen"]["alpha"] in (0.0001, 0.001, 0.01, 0.1) for r in tuned)
    for dataset, records in saved["table"].items():
        gamma = saved["gammas"][dataset]
        assert gamma["gamma"] == min(gamma["grid"], key=lambda s: (s["mistakes"],
                                                                  s["gamma"]))["gamma"]
        for r in records:
            sv = r["support_vectors"]
            if r["sweep"].get("budget") is not None and sv is not None and \
                    r["algorithm"] not in ("fogd",):
                assert sv <= r["sweep"]["budget"], r["learner"]
            if r["online_mistake_rate"] is not None:
                assert r["online_mistake_rate"] == pytest.approx(
                    r["extra"]["online_mistakes"] / r["extra"]["train_rows"])
            assert 0.0 <= r["test_accuracy"] <= 1.0
            right = r["test_accuracy"] * r["extra"]["test_rows"]   # a count of test rows
            assert right == pytest.approx(round(right), abs=1e-9)
    # the claim's cells: recomputed from the records with scipy's t quantile
    summary = (out / "summary.md").read_text()
    for dataset, records in saved["drift"].items():
        for kernel in ("rbf", "poly"):
            for b in (5, 10):
                ours = {r["trial"]: r["error_rate"] for r in records
                        if r["learner"] == config_label(REGULARIZED, kernel, b)}
                theirs = {r["trial"]: r["error_rate"] for r in records
                          if r["learner"] == config_label(FORGETRON, kernel, b)}
                d = np.array([ours[t] - theirs[t] for t in sorted(ours)])
                half = stats.t.ppf(0.975, d.size - 1) * d.std(ddof=1) / np.sqrt(d.size)
                text = f"{round(100 * d.mean(), 2) + 0.0:+.2f}" + ("" if not np.isfinite(half) else
                                                   f" ± {100 * half:.2f}")
                assert f"| {b} |" in summary and text in summary
    assert "## The claim, cell by cell" in summary
    # a second call reuses every run
    again = reproduce(REPRODUCTION, out, dict(SMALL), n_jobs=1, progress=False)
    assert again["computed"] == 0 and again["reused"] == report["computed"]


def _outcome(ours, theirs, budgets=(25, 50), kernel="rbf", dataset="usps"):
    """Hand-made drift records: per budget, the regularized PA's and the Forgetron's error
    rates per trial."""
    records = []
    for b in budgets:
        for method, rates in ((REGULARIZED, ours[b]), (FORGETRON, theirs[b])):
            label = config_label(method, kernel, b)
            for t, e in enumerate(rates):
                records.append({"stream": dataset, "learner": label, "group": label,
                                "trial": t, "error_rate": e, "sweep": {"budget": b}})
    settings = {"budgets": budgets, "kernels": (kernel,)}
    return Outcome(settings=settings, drift={dataset: Results(records)})


def _verdicts(outcome):
    return {v.claim.text[:40]: v.supported for v in evaluate(CLAIMS, outcome)}


def test_claim_verdict_follows_the_records():
    rng = np.random.default_rng(0)
    low = list(0.10 + 0.01 * rng.normal(size=8))
    high = list(0.20 + 0.01 * rng.normal(size=8))
    better = _outcome({25: low, 50: low}, {25: high, 50: high})
    assert [c.verdict for c in cells(better)] == ["better", "better"]
    overall = evaluate(CLAIMS, better)
    assert overall[0].supported is True
    assert overall[1].supported is True                      # USPS, RBF
    assert all(v.supported is None for v in overall[2:])     # not part of these records
    # Swap one budget's numbers: the Forgetron wins there, the claim fails
    worse = _outcome({25: low, 50: high}, {25: high, 50: low})
    assert [c.verdict for c in cells(worse)] == ["better", "worse"]
    flipped = evaluate(CLAIMS, worse)
    assert flipped[0].supported is False and flipped[1].supported is False
    assert "B=50" in flipped[0].evidence and "worse" in flipped[0].evidence
    # Differences whose interval contains 0: a tie, which the claim allows
    noise = list(0.15 + 0.02 * rng.normal(size=8))
    tie = _outcome({25: noise, 50: noise}, {25: noise[::-1], 50: noise[::-1]})
    assert {c.verdict for c in cells(tie)} == {"tie"}
    assert evaluate(CLAIMS, tie)[0].supported is True


@pytest.mark.parametrize("option, value, words", [
    ("budgets", "0,25", "--budgets"), ("budgets", "a,b", "--budgets"),
    ("parts", "drift,nope", "--parts"), ("kernels", "sigmoid", "--kernels"),
    ("datasets", "mnist", "--datasets"), ("trials", 0, "--trials"),
    ("limit", 5, "--limit")])
def test_bad_options_are_refused_before_anything_is_written(tmp_path, option, value, words):
    out = tmp_path / "out"
    with pytest.raises(ValueError, match=words):
        reproduce(REPRODUCTION, out, {option: value}, progress=False)
    assert not out.exists()


def test_command_is_registered_and_quick_sets_the_slice():
    from typer.testing import CliRunner

    from olc.cli.app import app
    from olc.experiments.kernel_budget.spec import QUICK

    result = CliRunner().invoke(app, ["reproduce", "kernel-budget", "--help"])
    assert result.exit_code == 0
    for option in ("--quick", "--budgets", "--table-budgets", "--kernels", "--skip",
                   "--dataset-trials", "--n-jobs"):
        assert option in result.output
    options = REPRODUCTION.settings(quick=True, parts="drift", datasets="usps")
    assert options["trials"] == QUICK["trials"] and options["limit"] == QUICK["limit"]
    assert options["rows_per_phase"] == QUICK["rows_per_phase"]
    with pytest.raises(ValueError, match="--dataset-trials"):
        REPRODUCTION.settings(dataset_trials="usps=0")
    with pytest.raises(ValueError, match="--skip"):
        REPRODUCTION.settings(skip="perceptron")
