"""The lecture-bounds table (measured beside each bound, whether it holds), its figure and
the notes' claims tested on the rows. ``records``: {family: [row dicts of :mod:`.runs`]}."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ...report.figures import plot_panels
from ..engine.spec import Claim
from .bounds import FORMULAS

NOTES = "Kitani's notes"


#: Bounds are computed in float64 (e.g. (R/γ)² with γ = 1/√d gives d(1 ± 2⁻⁵²)); a measured
#: count equal to the exact bound must count as meeting it.
ROUNDING = 1e-9


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


def plot(rows, out_dir):
    """Measured mistakes against the bound, one panel per algorithm, log-log, with y = x."""
    groups = [("Perceptron (Theorem 1)", ("perceptron", "perceptron (adversarial)")),
              ("Winnow (Eq. 42)", ("winnow",)), ("Weighted Majority (Eq. 1)",
                                                 ("weighted-majority",)),
              ("Randomized WM, E[M] (Eq. 2)", ("randomized-weighted-majority (E[M], exact)",))]
    panels = []
    for title, names in groups:
        pts = [r for r in rows if r["algorithm"] in names]
        if not pts:
            continue
        top = max(max(r["bound"] for r in pts), 1.0) * 1.5
        series = [{"x": [0.8, top], "y": [0.8, top], "label": "measured = bound",
                   "style": {"color": "grey", "linestyle": "--", "marker": None}}]
        for name in names:
            sub = [r for r in pts if r["algorithm"] == name]
            if sub:
                series.append({"x": [r["bound"] for r in sub],
                               "y": [max(r["measured"], 0.8) for r in sub],
                               "label": name.split(" (")[0] if "adversarial" not in name
                               else "adversarial (x_t = e_t)",
                               "style": {"linestyle": "none", "marker": "o" if "adv" not in
                                         name else "*", "markersize": 6 if "adv" not in name
                                         else 10}})
        panels.append({"title": title, "ylabel": "mistakes (measured; 0 drawn at 0.8)",
                       "xlabel": "bound", "log": True, "xlog": True, "legend": "upper left",
                       "series": series})
    return plot_panels(panels, [Path(out_dir) / f"bounds.{e}" for e in ("png", "pdf")],
                       title="Kitani's lecture notes: measured mistakes against the bounds",
                       panel_width=4.0, height=3.8)


# -- claims -------------------------------------------------------------------------------------
def _holds_everywhere(algorithms, what):
    def test(rows):
        sel = [r for r in rows if r["algorithm"] in algorithms]
        if not sel:
            raise LookupError(f"no {what} rows in this run (--bounds)")
        worst = max(sel, key=lambda r: r["ratio"])
        ok = all(r["holds"] for r in sel) and all(r.get("other_holds") is not False
                                                   for r in sel)
        second = [r for r in sel if r.get("other_bound") is not None]
        extra = (f"; second bound holds on {sum(bool(r['other_holds']) for r in second)}/"
                 f"{len(second)}") if second else ""
        return ok, (f"holds on {sum(r['holds'] for r in sel)}/{len(sel)} sequences{extra}; "
                    f"largest measured/bound {worst['ratio']:.3f} ({worst['sequence']})")
    return test


def claim_tight(rows):
    sel = [r for r in rows if r["algorithm"] == "perceptron (adversarial)"]
    if not sel:
        raise LookupError("the adversarial sequence was not run (--bounds)")
    ratios = [r["ratio"] for r in sel]
    return bool(min(ratios) >= 0.99), "; ".join(
        f"d = {r['T']}: {r['measured']} mistakes, bound {r['bound']:.6g}" for r in sel)


def _pairs(rows):
    """(WM row, RWM row) on the same sequence."""
    wm = {r["pair"]: r for r in rows if r["algorithm"] == "weighted-majority"}
    return [(wm[r["pair"]], r) for r in rows
            if r["algorithm"].startswith("randomized") and r["pair"] in wm]


def claim_half_bound(rows):
    pairs = _pairs(rows)
    if not pairs:
        raise LookupError("needs both weighted-majority rows (--bounds)")
    ratios = [r["bound"] / w["bound"] for w, r in pairs]
    return bool(max(ratios) <= 0.5 + 1e-12), (
        f"Eq. (2) / Eq. (1) = {min(ratios):.4f}–{max(ratios):.4f} on {len(ratios)} sequences "
        "((1+η)m + ln N/η is exactly half of 2(1+η)m + 2 ln N/η)")


def claim_half_measured(rows):
    pairs = _pairs(rows)
    if not pairs:
        raise LookupError("needs both weighted-majority rows (--bounds)")
    ratios = [r["measured"] / w["measured"] for w, r in pairs if w["measured"]]
    return bool(np.mean(ratios) <= 0.6), (
        f"E[M_RWM]/M_WM = {min(ratios):.2f}–{max(ratios):.2f} (mean {np.mean(ratios):.2f}) on "
        f"{len(ratios)} sequences: on these sequences randomizing does not halve the mistakes; "
        "the halving is of the worst-case bound")


CLAIMS = [
    Claim("Perceptron: M ≤ (R/γ)² on separable sequences", f"{NOTES}, §3.2 Theorem 1",
          _holds_everywhere(("perceptron", "perceptron (adversarial)"), "perceptron")),
    Claim("Theorem 1 is tight: a sequence on which the Perceptron makes (R/γ)² mistakes",
          f"{NOTES}, §3.2 Theorem 1 (our construction)", claim_tight),
    Claim("Winnow: m < 2 + 3k(log₂N + 1) for a k-literal disjunction (and m⁻ < 2 + 2m⁺)",
          f"{NOTES}, §4.2 Eqs. (37), (42)", _holds_everywhere(("winnow",), "winnow")),
    Claim("Weighted Majority: M ≤ 2(1+η)m + 2 ln N/η (and Littlestone & Warmuth's 2.41(m + "
          "log₂N) at η = ½)", f"{NOTES}, §1.1 Eq. (1); Littlestone & Warmuth 1994, §2",
          _holds_everywhere(("weighted-majority",), "weighted-majority")),
    Claim("Randomized WM: E[M] ≤ (1+η)m + ln N/η", f"{NOTES}, §1.2 Eq. (2)",
          _holds_everywhere(("randomized-weighted-majority (E[M], exact)",),
                            "randomized-weighted-majority")),
    Claim("Randomizing 'can cut the number of mistakes in half' — as a bound",
          f"{NOTES}, §1.2", claim_half_bound),
    Claim("Randomizing 'can cut the number of mistakes in half' — measured",
          f"{NOTES}, §1.2", claim_half_measured),
]
