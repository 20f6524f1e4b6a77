"""``error_vs_budget.png``/``.pdf``: one panel per drift data set and kernel, the test-half
error rate against the budget (log axis) for each budgeted learner, with the engine's 95 %
interval as a band; the unbudgeted kernel perceptron and PA as dashed lines with their bands
(their pools are as large as their updates)."""
from __future__ import annotations

from pathlib import Path

from ...report import plot_panels
from .spec import BUDGETED, DATA_LABELS, KERNEL_LABELS, UNBUDGETED, config_label

COLORS = {"Regularized kernel PA": "C0", "L2-constrained kernel PA": "C1", "Forgetron": "C3",
          "Randomized budget perceptron": "C2", "Kernel NORMA": "C4",
          "Kernel perceptron (no budget)": "C7", "Kernel PA (no budget)": "C5"}


def _band(summaries):
    if any(s.low is None for s in summaries):
        return None, None
    return [100 * s.low for s in summaries], [100 * s.high for s in summaries]


def panels(outcome):
    budgets = list(outcome.settings["budgets"])
    out = []
    for d, results in outcome.drift.items():
        stream = results.streams()[0]
        for k in outcome.settings["kernels"]:
            series = []
            for method in (*BUDGETED, *UNBUDGETED):
                if method in BUDGETED:
                    labels = [config_label(method, k, b) for b in budgets]
                    x = budgets
                else:
                    labels = [config_label(method, k)] * 2
                    x = [budgets[0], budgets[-1]]
                if not all(results.select(stream, lab) for lab in labels):
                    continue
                sums = [results.mean(stream, lab, "error_rate") for lab in labels]
                lower, upper = _band(sums)
                style = {"color": COLORS[method]}
                if method in UNBUDGETED:
                    style.update(linestyle="--", marker=None)
                series.append({"x": x, "y": [100 * s.mean for s in sums], "label": method,
                               "lower": lower, "upper": upper, "style": style})
            if series:
                out.append({"title": f"{DATA_LABELS[d]}, {KERNEL_LABELS[k]} kernel",
                            "ylabel": "test-half error (%)", "xlabel": "budget B (rows)",
                            "xlog": True, "xticks": budgets, "series": series})
    return out


def figures(outcome, settings, out_dir):
    found = panels(outcome)
    if not found:
        return {}
    paths = plot_panels(found, [Path(out_dir) / f"error_vs_budget.{e}" for e in ("png", "pdf")],
                        title="Error on the test half against the budget: mean over trials, "
                              "95 % band", xlabel="budget B", panel_width=4.4, height=4.0)
    return {"error_vs_budget_png": str(paths[0]), "error_vs_budget_pdf": str(paths[1])}
