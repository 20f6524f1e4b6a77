"""olc reproduce lecture-bounds: each bound by hand on a tiny case, the generators' known
quantities, RWM's exact expectation against an independent computation, the adversarial
sequence against the bound, the command on a small slice, and bad input."""
import json
import math
import os

import numpy as np
import pytest
from typer.testing import CliRunner

import olc
from olc.cli import app
from olc.experiments.lecture_bounds import paper as B
from olc.experiments.lecture_bounds import data as G
from olc.experiments.lecture_bounds import spec as R


def invoke(*args):
    return CliRunner().invoke(app, list(map(str, args)))


# -- the formulas, by hand ---------------------------------------------------------------------
def test_bounds_by_hand():
    assert B.perceptron(2.0, 0.5) == 16.0                          # (2/0.5)²
    assert B.winnow(2, 8) == 2 + 3 * 2 * (3 + 1)                   # log₂8 = 3
    assert B.winnow_negative(5) == 12
    e2 = math.e ** 2                                               # ln N = 2
    assert B.weighted_majority(3, e2, 0.5) == pytest.approx(2 * 1.5 * 3 + 2 * 2 / 0.5)
    assert B.randomized_weighted_majority(3, e2, 0.5) == pytest.approx(1.5 * 3 + 2 / 0.5)
    # Littlestone & Warmuth at β = ½: (m + log₂N)/log₂(4/3) = 2.409…(m + log₂N)
    assert B.weighted_majority_lw(1, 2, 0.5) == pytest.approx(2 / math.log2(4 / 3))
    assert 1 / math.log2(4 / 3) == pytest.approx(2.41, abs=0.001)
    # RWM's bound is exactly half of WM's
    assert B.randomized_weighted_majority(7, 50, 0.3) == pytest.approx(
        B.weighted_majority(7, 50, 0.3) / 2)


def test_winnow_tiny_case_by_hand():
    """N = 4, target x₀, the row (1,0,0,0) labelled 1 repeated: w₀ = 1, 2, 4 are not > 4,
    so three mistakes (log₂4 + 1 = 3: the per-feature count of Eq. 39 is met with equality),
    then 8 > 4. Bound 2 + 3·1·(2 + 1) = 11."""
    X = np.tile([1.0, 0, 0, 0], (5, 1))
    y = np.ones(5)
    per_pass, positive, _, converged = R.until_clean(olc.make("winnow"), X, y,
                                                     np.array([0.0, 1.0]), 0, 5)
    assert per_pass == [3, 0] and positive == 3 and converged
    assert B.winnow(1, 4) == 11


def test_weighted_majority_tiny_case_by_hand():
    """Two experts, η = ½, y = −1 always; expert 0 says −1 (right), expert 1 says +1.
    WM: round 1 votes 0 → sign(0) = +1, a mistake; then (1, ½) → −½: right. M = 1.
    RWM errs with probability w₁/Φ = 2⁻ᵗ/(1 + 2⁻ᵗ): ½ + ⅓ + ⅕ = 31/30 over 3 rounds."""
    X = np.array([[-1.0, 1.0]] * 3)
    y = -np.ones(3)
    wm, expected = R.wm_mistakes_and_rwm_expectation(X, y, 0.5)
    assert wm == 1 and expected == pytest.approx(31 / 30, rel=1e-12)
    assert wm <= B.weighted_majority(0, 2, 0.5) == pytest.approx(4 * math.log(2))
    assert expected <= B.randomized_weighted_majority(0, 2, 0.5) == pytest.approx(2 * math.log(2))


def test_rwm_expectation_against_independent_weights():
    """E[M] from WM's scores equals Σ_t Σ_{wrong n} w_n/Φ with w_n = (1−η)^{mistakes of n
    before t} computed by NumPy cumulative sums; the learner's own draws average to it."""
    X, y, _ = G.expert_sequence(300, 7, 12, seed=3)
    eta = 0.3
    wrong = X != y[:, None]
    before = np.vstack([np.zeros((1, 7)), np.cumsum(wrong, axis=0)[:-1]])
    w = (1 - eta) ** before
    want = float(np.sum((w * wrong).sum(axis=1) / w.sum(axis=1)))
    _, got = R.wm_mistakes_and_rwm_expectation(X, y, eta)
    assert got == pytest.approx(want, rel=1e-10)
    draws = [int(np.count_nonzero(olc.make("randomized-weighted-majority", eta=eta, seed=s)
                                  .predict_then_learn(X, y, classes=[-1.0, 1.0]).pred != y))
             for s in range(300)]
    assert abs(np.mean(draws) - want) < 4 * np.std(draws) / math.sqrt(300)


# -- the generators' known quantities -----------------------------------------------------------
def test_generators_have_the_stated_quantities():
    X, y, w = G.margin_sequence(500, 5, 0.1, seed=1)
    assert np.linalg.norm(w) == pytest.approx(1.0)
    assert (y * (X @ w)).min() >= 0.1 and np.linalg.norm(X, axis=1).max() <= 1.0 + 1e-8
    X, y, relevant = G.disjunction_sequence(400, 30, 3, seed=2)
    assert set(np.unique(X)) == {0.0, 1.0} and len(relevant) == 3
    assert np.array_equal(y, (X[:, relevant].sum(axis=1) > 0).astype(float))
    assert 0.4 < y.mean() < 0.6                                  # density makes P(y=1) = ½
    X, y, best = G.expert_sequence(500, 20, 17, seed=4)
    mistakes = (X != y[:, None]).sum(axis=0)
    assert mistakes[best] == 17 and mistakes.min() == 17 and set(np.unique(X)) == {-1.0, 1.0}


def test_adversarial_sequence_meets_the_bound():
    """x_t = e_t, y_t = −1: d mistakes, R = 1, γ = 1/√d (also the largest margin, by the
    exact max-margin solver), so M = (R/γ)² = d."""
    row = R.adversarial_row(40, seed=0)
    assert row["mistakes"] == 40 and row["passes"] == 2 and row["converged"]
    assert row["R"] == 1.0 and row["gamma"] == pytest.approx(1 / math.sqrt(40))
    assert row["bound"] == pytest.approx(40.0, rel=1e-12)
    assert row["gamma_max"] == pytest.approx(1 / math.sqrt(40), rel=1e-8)


def test_rows_measure_what_the_bounds_need():
    row = R.perceptron_row(300, 3, 0.1, seed=5, with_max_margin=False)
    X, y, w = G.margin_sequence(300, 3, 0.1, R.derived_seed(5, 0))
    assert row["R"] == np.linalg.norm(X, axis=1).max()
    assert row["gamma"] == (y * (X @ w)).min() >= 0.1
    assert row["bound"] == pytest.approx((row["R"] / row["gamma"]) ** 2)
    assert row["converged"] and 0 < row["mistakes"] <= row["bound"]
    assert row["updates"] == row["mistakes"]          # update on mistakes only (Algorithm 3)
    row = R.winnow_row(300, 16, 2, seed=6)
    assert row["mistakes"] == row["mistakes_positive"] + row["mistakes_negative"]
    assert row["mistakes"] < row["bound"] == 2 + 3 * 2 * 5


# -- the command ------------------------------------------------------------------------------
def test_command_on_a_small_slice(tmp_path):
    out = tmp_path / "out"
    res = invoke("reproduce", "lecture-bounds", "--out", out, "--rows", 200,
                 "--rwm-seeds", 5, "--no-max-margin")
    assert res.exit_code == 0, res.output
    assert "runs: 30 (0 reused from the store, 30 computed)" in res.output
    for name in ("bounds.md", "bounds.csv", "bounds.png", "bounds.pdf", "summary.md"):
        assert (out / name).is_file(), name
    report = json.loads((out / "results.json").read_text())
    table = report["table"]
    assert len(table) == 9 + 3 + 6 + 12 + 12
    # Each bound compared with its measured count here, not through the table's own "holds"
    # (Winnow's Eqs. (37), (42) are strict; the others allow equality, up to the bound's
    # rounding of 1e-12), and "holds" must say the same.
    for r in table:
        strict = r["algorithm"] == "winnow"
        ok = (r["measured"] < r["bound"] if strict
              else r["measured"] <= r["bound"] * (1 + 1e-12))
        assert ok, r
        assert r["holds"] is ok, r
    # every Winnow row: m⁻ < 2 + 2m⁺ recomputed from the records' own counts
    for rec in report["records"]["winnow"]:
        assert rec["mistakes_negative"] < 2 + 2 * rec["mistakes_positive"]
        assert rec["bound"] == pytest.approx(2 + 3 * rec["k"] * (math.log2(rec["N"]) + 1))
    # every Weighted Majority row against Eq. (1) and Littlestone & Warmuth's bound, recomputed
    for rec in report["records"]["weighted-majority"]:
        m, n, eta = rec["m"], rec["N"], rec["eta"]
        assert rec["wm_mistakes"] <= 2 * (1 + eta) * m + 2 * math.log(n) / eta
        beta = 1 - eta
        assert rec["wm_mistakes"] <= (math.log(n) + m * math.log(1 / beta)) / \
            math.log(2 / (1 + beta)) * (1 + 1e-12)
    for rec in report["records"]["randomized-weighted-majority"]:
        m, n, eta = rec["m"], rec["N"], rec["eta"]
        assert rec["rwm_expected"] <= (1 + eta) * m + math.log(n) / eta
    adversarial = [r for r in table if r["algorithm"] == "perceptron (adversarial)"]
    assert [r["measured"] for r in adversarial] == [10, 100, 1000]
    # every Perceptron bound is recomputable from the row's own R and γ
    for rec in report["records"]["perceptron"]:
        assert rec["bound"] == pytest.approx((rec["R"] / rec["gamma"]) ** 2)
    summary = (out / "summary.md").read_text()
    assert summary.count("| Kitani's notes, §") == 7


def test_bad_input_one_line_and_nothing_written(tmp_path):
    def one_line(res):
        lines = [ln for ln in res.output.splitlines() if ln.strip()]
        assert res.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: "), \
            res.output
        return lines[0]

    out = tmp_path / "never"
    line = one_line(invoke("reproduce", "lecture-bounds", "--out", out, "--bounds",
                           "perceptron,halving"))
    assert "--bounds: unknown bound(s) ['halving']; choose from perceptron, winnow" in line
    assert not out.exists()
    assert "--n-jobs must be a positive integer or -1" in one_line(invoke(
        "reproduce", "lecture-bounds", "--out", out, "--n-jobs", 0))
    assert not out.exists()
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert "is a file, not a folder" in one_line(invoke("reproduce", "lecture-bounds",
                                                        "--out", afile))
    if os.geteuid() != 0:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        assert "read-only" in one_line(invoke("reproduce", "lecture-bounds", "--out",
                                              ro / "out"))
        ro.chmod(0o700)
        assert list(ro.iterdir()) == []
