"""Ho-Nguyen et al. 2025 (the OMM paper), Example 5.1: the perceptron can be forced to make
Ω(c²) mistakes on three points on which Algorithm 1 (n-OMM, e-OMM, ce-OMM) makes at most two.

The points (``olc.data.example_5_1``): z¹ = ((c, 1), +1), z² = ((c, −1), −1),
z³ = ((c + r, −1), −1) with r = 2/c, c > 2; (w*, b*) = ((0, 1), 0), γ* = 1, D = r < 1, so
Algorithm 1 makes at most two mistakes on any sequence of them (§5.2). The perceptron "using
the a priori information b* = 0" (no bias; update w ← w + y·x when y·w·x ≤ 0) on the
sequence z¹, z³, z¹, z³, ... updates at every step t ≤ m = ⌊(c² + 4/c² + 5)/(2(1 + 1/c²))⌋
(``example_5_1_perceptron_mistake_lower_bound``), while its classical bound is
r²(D̄/D)² = (c + r)² + 1.

What is counted. The paper counts the perceptron's *updates* (y·w·x ≤ 0) as its mistakes;
on every z¹ round of this sequence the score is exactly 0, which olc (sign(0) = +1) predicts
correctly, so the perceptron's wrong predictions are about m/2. Both are reported. For the
OMM learners, mistakes are wrong predictions (their updates on z¹ are not mistakes).

Floating point (docs/numerics.md). The run sits on a knife edge: in exact arithmetic the
score on z¹ is exactly 0 after every z³; in float64 with an arbitrary c, r = 2/c and c + r
are rounded, the score becomes a tiny positive or negative number, and the perceptron either
stops updating after two rounds (c = 3, 10) or errs on every round (c = 5). The robust
construction (``robust=True``) rounds c up to a power of two (≤ 2¹³), where r, c + r and
every partial sum of the run are exact, so the float64 run *is* the exact-arithmetic run and
the perceptron updates exactly m times. The table shows both: the robust run (the claim)
and the perceptron on c as given (the pitfall).
"""
from __future__ import annotations

import math
from pathlib import Path

from ..._util.atomic import write_text
from ...data import (example_5_1, example_5_1_params,
                    example_5_1_perceptron_mistake_lower_bound)
from ...evaluate import progressive
from ...learners import make
from ...report import markdown_table, plot_panels, write_csv, write_json

DEFAULT_CS = (3.0, 5.0, 10.0, 20.0, 50.0, 100.0)
OMM_LEARNERS = ("e-omm", "ce-omm", "n-omm")
RANDOM_SEED = 0


def _perceptron():
    # Example 5.1's perceptron: no bias (b* = 0 known), η = 1, update when y·w·x ≤ 0.
    return make("perceptron", fit_intercept=False, eta=1.0, update="margin")


def run_c(c, seed=RANDOM_SEED):
    """One row: the perceptron and the OMM learners on the alternating sequence of length m
    (robust construction), the OMM learners also on a random sequence of the three points of
    the same length (at least 1,000), and the perceptron on c as given (not rounded)."""
    c_used, r = example_5_1_params(c, robust=True)
    m = example_5_1_perceptron_mistake_lower_bound(c_used)
    X, y = example_5_1(c, m, robust=True)
    p = progressive(_perceptron(), X, y, progress=False)
    row = {"c": float(c), "c_used": c_used, "r": r, "m_lower_bound": m,
           "classical_bound": (c_used + r) ** 2 + 1.0, "steps": m,
           "perceptron_updates": p.updates, "perceptron_wrong_predictions": p.mistakes}
    Xr, yr = example_5_1(c, max(m, 1000), order="random", seed=seed, robust=True)
    for name in OMM_LEARNERS:
        row[f"{name}_mistakes"] = progressive(make(name), X, y, progress=False).mistakes
        row[f"{name}_mistakes_random"] = progressive(make(name), Xr, yr,
                                                     progress=False).mistakes
    c_plain, _ = example_5_1_params(c)
    m_plain = example_5_1_perceptron_mistake_lower_bound(c_plain)
    Xp, yp = example_5_1(c, m_plain)
    row["m_lower_bound_c_as_given"] = m_plain
    row["perceptron_updates_c_as_given"] = progressive(_perceptron(), Xp, yp,
                                                       progress=False).updates
    return row


COLUMNS = [
    ("c", "c asked"), ("c_used", "c (robust: next power of 2)"), ("r", "r = 2/c"),
    ("m_lower_bound", "paper's m (lower bound)"),
    ("perceptron_updates", "Perceptron updates (paper's mistakes)"),
    ("perceptron_wrong_predictions", "Perceptron wrong predictions"),
    ("classical_bound", "r²(D̄/D)² = (c+r)²+1"),
    ("e-omm_mistakes", "e-OMM"), ("ce-omm_mistakes", "ce-OMM"), ("n-omm_mistakes", "n-OMM"),
    ("e-omm_mistakes_random", "e-OMM, random order"),
    ("ce-omm_mistakes_random", "ce-OMM, random order"),
    ("n-omm_mistakes_random", "n-OMM, random order"),
    ("m_lower_bound_c_as_given", "m for c as given"),
    ("perceptron_updates_c_as_given", "Perceptron updates, c as given (float64)"),
]


def plot(rows, path):
    cs = [r["c_used"] for r in rows]
    left = {"title": "Perceptron (alternating z¹, z³)", "ylabel": "count", "log": True,
            "xlog": True, "legend": True, "series": [
                {"x": cs, "y": [r["perceptron_updates"] for r in rows],
                 "label": "Perceptron updates (paper's mistakes)"},
                {"x": cs, "y": [r["perceptron_wrong_predictions"] for r in rows],
                 "label": "Perceptron wrong predictions"},
                {"x": cs, "y": [r["m_lower_bound"] for r in rows],
                 "label": "paper's m = ⌊(c²+4/c²+5)/(2(1+1/c²))⌋",
                 "style": {"linestyle": ":", "marker": "x"}},
                {"x": cs, "y": [r["classical_bound"] for r in rows],
                 "label": "(c+r)²+1", "style": {"linestyle": "--", "marker": ""}}]}
    right = {"title": "Algorithm 1: mistakes (≤ 2)", "ylabel": "mistakes", "xlog": True,
             "legend": True, "ylim": (-0.2, 3.2), "series": [
                 {"x": cs, "y": [r[f"{n}_mistakes{s}"] for r in rows],
                  "label": f"{n}{', random order' if s else ', alternating'}",
                  "style": {"linestyle": "--" if s else "-"}}
                 for n in OMM_LEARNERS for s in ("", "_random")]}
    return plot_panels([left, right], path, xlabel="c", title=(
        "OMM paper, Example 5.1: the perceptron's mistakes grow as c², Algorithm 1's do not"))


def run(cs=None, out_dir="omm-example-5-1-out"):
    """``olc reproduce omm-example-5-1``: a row per c (> 2), table (markdown, CSV), figure
    and ``results.json`` in ``out_dir``; returns the report dict."""
    cs = list(DEFAULT_CS if not cs else cs)
    for c in cs:
        if not (isinstance(c, (int, float)) and math.isfinite(c) and c > 2):
            raise ValueError(f"Example 5.1 needs c > 2 (so that r = 2/c < 1), got {c!r}")
    rows = [run_c(c) for c in cs]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    keys, heads = [k for k, _ in COLUMNS], [h for _, h in COLUMNS]
    md = out / "example_5_1.md"
    write_text(
        md, "## Ho-Nguyen et al. 2025, Example 5.1\n\nAll counts from this run. Robust construction: c is "
        "rounded up to a power of two so that float64 arithmetic is exact (docs/numerics.md);"
        " the last two columns use c as given. The paper's claims: Perceptron updates ≥ m "
        "(= m here), Algorithm 1 ≤ 2 mistakes on any sequence.\n\n"
        + markdown_table(rows, keys, heads, digits=6))
    write_csv(out / "example_5_1.csv", rows, keys)
    files = {"table": str(md), "csv": str(out / "example_5_1.csv"),
             "figure": str(plot(rows, out / "example_5_1.png")),
             "json": str(out / "results.json")}
    checks = {"perceptron_updates_at_least_m": all(r["perceptron_updates"] >= r["m_lower_bound"]
                                                   for r in rows),
              "omm_at_most_two_mistakes": all(r[f"{n}_mistakes{s}"] <= 2 for r in rows
                                              for n in OMM_LEARNERS for s in ("", "_random"))}
    report = {"paper": "Ho-Nguyen et al. 2025 (OMM paper), Example 5.1", "rows": rows,
              "checks": checks, "files": files}
    write_json(out / "results.json", report)
    return report
