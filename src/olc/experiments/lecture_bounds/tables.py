"""The lecture-bounds table: per generated sequence, the mistakes measured beside each bound,
whether it holds and their ratio. ``records``: {family: [row dicts of :mod:`.spec`]}."""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.report import write_rows
from .paper import FORMULAS

#: Bounds are computed in float64 (e.g. (R/γ)² with γ = 1/√d gives d(1 ± 2⁻⁵²)); a measured
#: count equal to the exact bound must count as meeting it.
ROUNDING = 1e-9


@dataclass(frozen=True)
class Measured:
    """The outcome of the runs: the records by family and the table's rows."""

    records: dict
    rows: list


def within(measured, bound):
    """measured ≤ bound, up to the bound's rounding."""
    return measured <= bound * (1.0 + ROUNDING)


def _ratio(measured, bound):
    return None if measured is None or not bound else measured / bound


def table_rows(records):
    """One row per sequence and algorithm: measured, the notes' bound, whether it holds,
    their ratio, and a second bound where one applies (Perceptron: the largest margin;
    WM: Littlestone & Warmuth's)."""
    rows = []
    for r in records.get("perceptron", []):
        rows.append({"algorithm": "perceptron", "sequence":
                     f"separable, d = {r['d']}, target γ = {r['gamma_target']}",
                     "T": r["T"], "passes": r["passes"], "quantities":
                     f"R = {r['R']:.4f}, γ = {r['gamma']:.4f}", "measured": r["mistakes"],
                     "bound": r["bound"], "formula": FORMULAS["perceptron"],
                     "holds": within(r["mistakes"], r["bound"]),
                     "other_formula": FORMULAS["perceptron-max-margin"]
                     if r.get("bound_max_margin") else None,
                     "other_bound": r.get("bound_max_margin"),
                     "other_holds": None if r.get("bound_max_margin") is None
                     else within(r["mistakes"], r["bound_max_margin"])})
    for r in records.get("adversarial", []):
        rows.append({"algorithm": "perceptron (adversarial)", "sequence":
                     f"x_t = e_t, y_t = −1, d = {r['d']}", "T": r["T"], "passes": r["passes"],
                     "quantities": f"R = {r['R']:.4f}, γ = {r['gamma']:.4f}",
                     "measured": r["mistakes"], "bound": r["bound"],
                     "formula": FORMULAS["perceptron"], "holds": within(r["mistakes"], r["bound"]),
                     "other_formula": FORMULAS["perceptron-max-margin"]
                     if r.get("bound_max_margin") else None,
                     "other_bound": r.get("bound_max_margin"),
                     "other_holds": None if r.get("bound_max_margin") is None
                     else within(r["mistakes"], r["bound_max_margin"])})
    for r in records.get("winnow", []):
        rows.append({"algorithm": "winnow", "sequence":
                     f"{r['k']}-literal disjunction, N = {r['N']}", "T": r["T"],
                     "passes": r["passes"], "quantities":
                     f"m⁺ = {r['mistakes_positive']}, m⁻ = {r['mistakes_negative']}",
                     "measured": r["mistakes"], "bound": r["bound"],
                     "formula": FORMULAS["winnow"], "holds": r["mistakes"] < r["bound"],
                     "other_formula": "m⁻ < 2 + 2m⁺ — §4.2 Eq. (37)",
                     "other_bound": r["bound_negative"],
                     "other_holds": r["mistakes_negative"] < r["bound_negative"]})
    for i, r in enumerate(records.get("weighted-majority", [])):
        rows.append({"algorithm": "weighted-majority", "pair": i, "sequence":
                     f"N = {r['N']} experts (herd), best m = {r['m']}, η = {r['eta']}", "T": r["T"],
                     "passes": 1, "quantities": f"η = {r['eta']}, m = {r['m']}",
                     "measured": r["wm_mistakes"], "bound": r["wm_bound"],
                     "formula": FORMULAS["weighted-majority"],
                     "holds": within(r["wm_mistakes"], r["wm_bound"]),
                     "other_formula": FORMULAS["weighted-majority-lw"],
                     "other_bound": r["wm_bound_lw"],
                     "other_holds": within(r["wm_mistakes"], r["wm_bound_lw"])})
    for i, r in enumerate(records.get("randomized-weighted-majority", [])):
        ci = r["rwm_sampled_ci95"]
        rows.append({"algorithm": "randomized-weighted-majority (E[M], exact)", "pair": i,
                     "sequence":
                     f"N = {r['N']} experts (herd), best m = {r['m']}, η = {r['eta']}", "T": r["T"],
                     "passes": 1, "quantities":
                     f"η = {r['eta']}, m = {r['m']}; sampled over {r['rwm_seeds']} seeds: "
                     f"{r['rwm_sampled_mean']:.2f}" + (f" ± {ci:.2f}" if ci else ""),
                     "measured": r["rwm_expected"], "bound": r["rwm_bound"],
                     "formula": FORMULAS["randomized-weighted-majority"],
                     "holds": within(r["rwm_expected"], r["rwm_bound"])})
    for row in rows:
        row["ratio"] = _ratio(row["measured"], row["bound"])
    return rows


COLUMNS = [("algorithm", "algorithm"), ("sequence", "sequence"), ("T", "T"),
           ("passes", "passes"), ("quantities", "measured quantities"),
           ("measured", "mistakes (measured)"), ("bound", "bound"), ("ratio", "measured/bound"),
           ("holds", "holds"), ("formula", "bound (source)"), ("other_bound", "second bound"),
           ("other_holds", "holds"), ("other_formula", "second bound (source)")]


def write_table(measured, settings, out_dir):
    from .reproduction import TITLE

    md, csv_path = write_rows(
        measured.rows, COLUMNS, out_dir, "bounds",
        f"## {TITLE}\n\nAll mistakes measured in this run; each bound computed from "
        "quantities measured on the same sequence (R, γ, m, k, N). Perceptron and Winnow: "
        "every mistake until a pass without one. Randomized WM: the exact expectation (from "
        "the weights), the learner's own draws averaged beside it.\n\n")
    return {"table": md, "csv": csv_path}
