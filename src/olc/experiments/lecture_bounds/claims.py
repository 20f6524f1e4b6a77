"""The lecture notes' claims, each tested on the table's rows (:mod:`.tables`) of this run:
every bound holds, Theorem 1 is met on the adversarial sequence, and what randomizing
Weighted Majority halves."""
from __future__ import annotations

import numpy as np

from ..engine.spec import Claim

NOTES = "Kitani's notes"


def _holds_everywhere(algorithms, what):
    def test(measured):
        sel = [r for r in measured.rows if r["algorithm"] in algorithms]
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


def claim_tight(measured):
    sel = [r for r in measured.rows if r["algorithm"] == "perceptron (adversarial)"]
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


def claim_half_bound(measured):
    pairs = _pairs(measured.rows)
    if not pairs:
        raise LookupError("needs both weighted-majority rows (--bounds)")
    ratios = [r["bound"] / w["bound"] for w, r in pairs]
    return bool(max(ratios) <= 0.5 + 1e-12), (
        f"Eq. (2) / Eq. (1) = {min(ratios):.4f}–{max(ratios):.4f} on {len(ratios)} sequences "
        "((1+η)m + ln N/η is exactly half of 2(1+η)m + 2 ln N/η)")


def claim_half_measured(measured):
    pairs = _pairs(measured.rows)
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
