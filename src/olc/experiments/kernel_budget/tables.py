"""The tables of ``olc reproduce kernel-budget`` (markdown and CSV, from the runs' records
through the engine's aggregation; intervals are the engine's, a rate's kept in [0, 1]
where the engine knows rates):

* ``drift_table``: per data set, kernel, learner and budget, the test-half error rate
  (mean over trials, 95 % interval) and the tuned parameter most often chosen;
* ``budget_table``: per data set (with its γ), learner and budget, the online mistake rate
  of the pass, the test accuracy after it, the support vectors and the seconds.
"""
from __future__ import annotations

from collections import Counter

from ..engine.report import write_rows
from .protocols import NO_POOL
from .spec import (BUDGETED, DATA_LABELS, KERNEL_LABELS, UNBUDGETED, config_label)


def pct(summary):
    return None if summary.mean is None else 100 * summary.mean


def interval(summary, scale=100.0, digits=2):
    """"[low, high]" of a Summary (scaled), or "—" without one."""
    if summary.low is None:
        return "—"
    return f"[{scale * summary.low:.{digits}f}, {scale * summary.high:.{digits}f}]"


def _chosen(results, stream, label):
    counts = Counter()
    for r in results.select(stream, label):
        chosen = (r.get("extra") or {}).get("chosen")
        if chosen:
            counts[", ".join(f"{k}={v:g}" for k, v in sorted(chosen.items()))] += 1
    if not counts:
        return None
    value, n = counts.most_common(1)[0]
    return f"{value} ({n}/{sum(counts.values())})"


def drift_rows(outcome):
    rows = []
    for d, results in outcome.drift.items():
        stream = results.streams()[0]
        for k in outcome.settings["kernels"]:
            for method in (*BUDGETED, *UNBUDGETED):
                budgets = outcome.settings["budgets"] if method in BUDGETED else (None,)
                for b in budgets:
                    label = config_label(method, k, b)
                    if not results.select(stream, label):
                        continue
                    s = results.mean(stream, label, "error_rate")
                    rows.append({"dataset": DATA_LABELS[d], "kernel": KERNEL_LABELS[k],
                                 "learner": method, "budget": "none" if b is None else b,
                                 "trials": s.n, "error_pct": pct(s),
                                 "error_low_pct": None if s.low is None else 100 * s.low,
                                 "error_high_pct": None if s.high is None else 100 * s.high,
                                 "interval": interval(s),
                                 "chosen": _chosen(results, stream, label)})
    return rows


DRIFT_COLUMNS = [("dataset", "data set"), ("kernel", "kernel"), ("learner", "learner"),
                 ("budget", "budget"), ("trials", "trials"),
                 ("error_pct", "test-half error (%)"), ("interval", "95 % interval (%)"),
                 ("chosen", "tuned value most chosen")]


def table_rows(outcome):
    rows = []
    for d, results in outcome.table.items():
        stream = results.streams()[0]
        gamma = outcome.gammas.get(d, (None,))[0]
        for label in results.learners(stream):
            recs = results.select(stream, label)
            sweep = recs[0]["sweep"] or {}
            budget = next(iter(sweep.values())) if sweep else None   # B, or FOGD's D
            row = {"dataset": d, "gamma": gamma, "learner": recs[0]["group"],
                   "budget": "none" if budget is None else budget, "trials": len(recs)}
            for m, scale in (("online_mistake_rate", 100), ("test_accuracy", 100),
                             ("support_vectors", 1), ("seconds", 1), ("total_seconds", 1)):
                if m == "support_vectors" and recs[0]["algorithm"] in NO_POOL:
                    # its count is not a pool size (a stored run may hold its empty pool, 0)
                    row[m] = row[f"{m}_low"] = row[f"{m}_high"] = None
                    row[f"{m}_cell"] = "—"
                    continue
                s = results.mean(stream, label, m)
                row[m] = None if s.mean is None else scale * s.mean
                row[f"{m}_low"] = None if s.low is None else scale * s.low
                row[f"{m}_high"] = None if s.high is None else scale * s.high
                row[f"{m}_cell"] = _cell(s, scale)
            rows.append(row)
    return rows


def _cell(s, scale):
    if s.mean is None:
        return "—"
    digits = 2 if scale == 100 else 3
    if scale != 100:   # counts and seconds: mean ± the Student-t half-width
        half = "" if s.half_width is None else f" ± {s.half_width:.{digits}g}"
        return f"{s.mean:.{digits}g}{half}"
    if s.low is None:
        return f"{scale * s.mean:.{digits}f}"
    return f"{scale * s.mean:.{digits}f} [{scale * s.low:.{digits}f}, {scale * s.high:.{digits}f}]"


TABLE_COLUMNS = [("dataset", "data set"), ("learner", "learner"), ("budget", "B"),
                 ("trials", "permutations"),
                 ("online_mistake_rate_cell", "online mistakes (%) [95 %]"),
                 ("test_accuracy_cell", "test accuracy (%) [95 %]"),
                 ("support_vectors_cell", "support vectors (± 95 %)"),
                 ("seconds_cell", "learning s (± 95 %)"),
                 ("total_seconds_cell", "pass + test s")]
CSV_DRIFT = ["dataset", "kernel", "learner", "budget", "trials", "error_pct", "error_low_pct",
             "error_high_pct", "chosen"]
CSV_TABLE = ["dataset", "gamma", "learner", "budget", "trials"] + [
    f"{m}{s}" for m in ("online_mistake_rate", "test_accuracy", "support_vectors", "seconds",
                        "total_seconds") for s in ("", "_low", "_high")]


def table_intro(outcome):
    lines = ["# Budget table: one online pass over the permuted training file, then the test "
             "file", "",
             "Mean over permutations [95 % interval]. Online mistakes: of the one pass; test "
             "accuracy: the model after the pass, frozen; support vectors: stored rows after "
             "the pass (libsvm's count for SVC; none for LinearSVC and FOGD, whose B is its "
             "number of random features); learning s: the pass (SVMs: the fit), compiled "
             "work only for olc's learners.",
             ""]
    for d, (g, scores) in outcome.gammas.items():
        grid = ", ".join(f"{s['gamma']:g}: {s['mistakes']}" for s in scores)
        lines.append(f"- {d}: γ = {g:g}, chosen by the unbudgeted kernel perceptron's online "
                     f"mistakes on the first {scores[0]['rows']} training rows of a fixed "
                     f"permutation (seed 0; the files are sorted in blocks) "
                     f"(γ: mistakes — {grid}).")
    return "\n".join(lines) + "\n\n"


def tables(outcome, settings, out_dir):
    from ...report import write_csv

    files = {}
    if outcome.drift:
        rows = drift_rows(outcome)
        md, _ = write_rows(rows, DRIFT_COLUMNS, out_dir, "drift_table",
                             "# Test-half error on the drift streams (tune on the first "
                             "half, test online on the second)\n\nMean over trials, the "
                             "engine's 95 % interval.\n\n")
        csv = f"{out_dir}/drift_table.csv"
        write_csv(csv, rows, CSV_DRIFT)
        files["drift_table"], files["drift_table_csv"] = str(md), csv
    if outcome.table:
        rows = table_rows(outcome)
        md, _ = write_rows(rows, TABLE_COLUMNS, out_dir, "budget_table", table_intro(outcome))
        csv = f"{out_dir}/budget_table.csv"
        write_csv(csv, rows, CSV_TABLE)
        files["budget_table"], files["budget_table_csv"] = str(md), csv
    return files
