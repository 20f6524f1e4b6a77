"""The tables of ``olc reproduce textbook``: the figures' runs (``figures_table``) and each
measure over the replication seeds (``replications``); all numbers from this run."""
from __future__ import annotations

import numpy as np

from ..engine.aggregate import rate_interval, t_interval
from ..engine.report import write_rows


def figure_rows(results):
    """One row per (figure, learner, state) of the figures' own runs."""
    rows = []
    if "31.4" in results:
        m = results["31.4"]["record"]["measures"]
        for key in results["31.4"]["record"]["thetas"]:
            rows.append({"figure": "31.4", "learner": "PA (pa-ii, C = 1/2)",
                         "state": "final" if key == "final" else f"after {key} iteration(s)",
                         "train_error": m[f"train_error_{key}"]})
        rows[-1].update(agreement_early_final=m["agreement_early_final"],
                        angle_early_final=m["angle_early_final"])
    if "31.8" in results:
        for name, m in results["31.8"]["record"]["measures"].items():
            rows.append({"figure": "31.8", "learner": name, "state": "final",
                         "train_error": m["inlier_error"], "clean_error": m["clean_error"],
                         "clean_error_without_outliers": m["clean_error_without_outliers"],
                         "influence": m["influence"], "crossing": m["crossing"],
                         "outliers_predicted_positive": m["outliers_predicted_positive"]})
    for fig, learner in (("31.5", "pa-l2-regression"), ("31.9", "arow-regression")):
        if fig in results:
            m = results[fig]["record"]["measures"]
            rows.append({"figure": fig, "learner": learner,
                         "state": f"after {m['passes']} pass(es)", "rmse_train": m["rmse_train"],
                         "rmse_truth": m["rmse_truth"], "rmse_start_truth": m["rmse_start_truth"],
                         "rls_max_abs_difference": m.get("rls_max_abs_difference")})
    return rows


FIGURE_COLUMNS = [
    ("figure", "Fig."), ("learner", "learner"), ("state", "state"),
    ("train_error", "training error (31.8: on the 48 inliers)"),
    ("agreement_early_final", "agreement after 3 vs final (fresh points)"),
    ("angle_early_final", "angle after 3 vs final (°)"),
    ("clean_error", "error on clean points"),
    ("clean_error_without_outliers", "same, trained without the outliers"),
    ("influence", "outliers' influence"), ("crossing", "x¹ crossing (ideal −10)"),
    ("outliers_predicted_positive", "outliers classified +1 (of 2)"),
    ("rmse_train", "RMSE on the training points"), ("rmse_truth", "RMSE vs noiseless (grid)"),
    ("rmse_start_truth", "RMSE of θ₀ vs noiseless"),
    ("rls_max_abs_difference", "max |μ − closed-form RLS|")]


def _flat(measures, prefix=""):
    out = {}
    for k, v in measures.items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k} "))
        elif isinstance(v, (int, float)) and not isinstance(v, bool) and v is not None:
            out[f"{prefix}{k}"] = v
    return out


#: Keys of the measures that repeat a setting (not shown in the replications table).
SETTINGS_NOT_MEASURES = {"passes", "early_iterations", "rls_scale"}


#: Measures that are proportions (an error rate, an agreement): their interval stays in
#: [0, 1] (``aggregate.rate_interval``: Wilson with the effective sample size where the
#: t-interval leaves the range — with a few seeds it does, e.g. 0.24 ± 0.47).
RATE_MEASURES = ("train_error", "clean_error", "inlier_error", "agreement_early_final")


def is_rate(measure):
    """``measure``: a flattened key such as "train_error_1" or "PA clean_error"."""
    return measure.rsplit(" ", 1)[-1].startswith(RATE_MEASURES)


def replication_rows(results):
    """Per figure and measure: mean, the 95 % interval (Student-t; a rate's kept in [0, 1],
    its half-width then left out), median, min, max over the replications."""
    rows = []
    for fig, entry in results.items():
        reps = [_flat(r) for r in entry["replications"]]
        if not reps:
            continue
        for key in reps[0]:
            if key.rsplit(" ", 1)[-1] in SETTINGS_NOT_MEASURES:
                continue
            values = [r[key] for r in reps if r.get(key) is not None]
            s = (rate_interval if is_rate(key) else t_interval)(values)
            rows.append({"figure": fig, "measure": key, "n": s.n, "mean": s.mean,
                         "ci95": s.half_width if s.symmetric else None,
                         "low": s.low, "high": s.high, "median": float(np.median(values)),
                         "min": float(np.min(values)), "max": float(np.max(values))})
    return rows


REPLICATION_COLUMNS = [("figure", "Fig."), ("measure", "measure"), ("n", "seeds"),
                       ("mean", "mean"), ("ci95", "± (t)"), ("low", "95 % CI low"),
                       ("high", "95 % CI high"), ("median", "median"),
                       ("min", "min"), ("max", "max")]


def write_tables(results, settings, out_dir):
    """``figures_table.md``/``.csv`` and, with replications, ``replications.md``/``.csv``."""
    files = {"table": write_rows(figure_rows(results), FIGURE_COLUMNS, out_dir, "figures_table",
                                 f"## The figures' runs (seed {settings['seed']})\n\n"
                                 "All numbers from this run.\n\n")[0]}
    if settings["replications"]:
        files["replications"] = write_rows(
            replication_rows(results), REPLICATION_COLUMNS, out_dir, "replications",
            f"## Each figure's measures over {settings['replications']} seeds (mean, "
            "95 % CI)\n\nStudent-t intervals; a rate's (errors, agreement) is kept in "
            "[0, 1]: where the t-interval leaves the range, the Wilson interval with the "
            "seeds' effective sample size (no ± then). All numbers from this run.\n\n")[0]
    return files
