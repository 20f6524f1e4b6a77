"""Ho-Nguyen et al. 2025, Example 5.1 (``olc reproduce omm-example-5-1``): the counts against a
hand-written perceptron and the paper's formula, and the command end to end."""
import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from olc.experiments.omm_adult import example_5_1 as ex


def perceptron_updates(X, y):
    """The paper's perceptron, by hand: w₁ = 0, w ← w + y·x when y·w·x ≤ 0."""
    w = np.zeros(2)
    updates = wrong = 0
    for x, label in zip(X, y):
        s = w @ x
        wrong += int((1.0 if s >= 0 else -1.0) != label)
        if label * s <= 0:
            w = w + label * x
            updates += 1
    return updates, wrong


@pytest.mark.parametrize("c", [3, 10, 33])
def test_row_against_the_paper_and_a_hand_written_perceptron(c):
    row = ex.run_c(c)
    c2 = 2.0 ** math.ceil(math.log2(c))     # the robust construction's power of two
    assert row["c_used"] == c2 and row["r"] == 2 / c2
    m = math.floor((c2 ** 2 + 4 / c2 ** 2 + 5) / (2 * (1 + 1 / c2 ** 2)))
    assert row["m_lower_bound"] == m == row["steps"]
    # Alternating z¹ = ((c, 1), +1), z³ = ((c + r, −1), −1), m steps.
    X = np.array([[c2, 1.0] if t % 2 == 0 else [c2 + 2 / c2, -1.0] for t in range(m)])
    y = np.array([1.0 if t % 2 == 0 else -1.0 for t in range(m)])
    assert (row["perceptron_updates"], row["perceptron_wrong_predictions"]) == \
        perceptron_updates(X, y)
    assert row["perceptron_updates"] == m          # an update at every step t ≤ m
    assert row["classical_bound"] == pytest.approx((c2 + 2 / c2) ** 2 + 1)
    for name in ex.OMM_LEARNERS:
        assert row[f"{name}_mistakes"] <= 2 and row[f"{name}_mistakes_random"] <= 2


def test_c_as_given_shows_the_float64_knife_edge():
    row = ex.run_c(3)           # docs/numerics.md: c = 3 stops after two updates
    assert row["perceptron_updates_c_as_given"] == 2 < row["m_lower_bound_c_as_given"]


def test_rejects_c_at_most_two(tmp_path):
    with pytest.raises(ValueError, match="c > 2"):
        ex.run([2.0], tmp_path)


def test_cli(tmp_path):
    from olc.cli import app

    res = CliRunner().invoke(app, ["reproduce", "omm-example-5-1", "--c", "3", "--c", "20",
                                   "--out", str(tmp_path)], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    saved = json.loads((tmp_path / "results.json").read_text())
    assert [r["c"] for r in saved["rows"]] == [3.0, 20.0]
    assert saved["checks"] == {"perceptron_updates_at_least_m": True,
                               "omm_at_most_two_mistakes": True}
    assert (tmp_path / "example_5_1.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "example_5_1.csv").read_text().count("\n") == 3
    assert "Perceptron updates" in res.output
