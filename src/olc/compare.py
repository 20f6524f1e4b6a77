"""Side-by-side comparison of learners on one stream in the online protocol.

Combines the other rooms only: learners (``make``), evaluation (``progressive``, metrics) and
report (JSON, figure). The command ``olc compare`` is a thin wrapper around
:func:`compare_learners`.
"""
import ast
from pathlib import Path

import numpy as np

from .evaluate import final_margin, progressive
from .learners.registry import info, make
from ._util.progress import LazyProgress
from .report import write_json


def parse_value(text):
    """A command-line value: Python literal if it parses (1, 0.5, True, None, 'x'), else the
    raw string; ``true``/``false`` are accepted too."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def parse_param_assignments(assignments, names):
    """``["C=0.1", "e-omm:rho=0.5"]`` → {name: {param: value}} for the given learner names.

    ``k=v`` goes to every learner that has parameter k (an error if none has it);
    ``ALGO:k=v`` to that learner only (an error if it has no such parameter).
    """
    result = {name: {} for name in names}
    for text in assignments:
        left, eq, raw = text.partition("=")
        target, _, key = left.rpartition(":")
        target, key = target.strip(), key.strip()
        if not eq or not key:
            raise ValueError(f"--param {text!r}: expected k=v or ALGO:k=v")
        value = parse_value(raw)
        targets = [target] if target else names
        if target and target not in result:
            raise ValueError(f"--param {text!r}: {target} is not among the learners "
                             f"being run ({', '.join(names)})")
        accepted = [n for n in targets if key in info(n).parameters]
        if not accepted:
            where = target or "any of " + ", ".join(names)
            raise ValueError(f"--param {text!r}: {where} has no parameter {key!r}")
        for n in accepted:
            result[n][key] = value
    return result


def run_one(name, params, X, y, passes=1, seed=None, track_tau=True):
    """One learner in the online protocol; returns (summary dict, learner, result).

    A regressor is run on y as real-valued targets: no τ, mistakes or margin (None); its
    summary has the squared/absolute error sums and means instead (``ProgressiveResult``)."""
    learner = make(name, **params)
    regression = info(name).kind == "regressor"
    # τ and γ̄ are binary notions: K ≥ 3 classes (one-vs-rest) report None for both
    binary = not regression and np.unique(np.asarray(y)).size <= 2
    result = progressive(learner, X, y, passes=passes, shuffle_seed=seed,
                         tau_on="data" if track_tau and binary else None)
    summary = result.summary()
    if regression:
        summary.update(params=params, error_rate=None, final_margin=None)
    else:
        summary.update(params=params, error_rate=result.mistakes / result.n_steps,
                       final_margin=final_margin(learner, X, y) if binary else None)
    if not track_tau:
        summary["tau"] = None
    return summary, learner, result


def run_one_streamed(name, params, path, chunk_rows=10_000, progress=None):
    """One learner over an svmlight file read chunk by chunk (memory bounded by the chunk):
    one pass in file order, then one more pass for the final margin γ̄ (classifiers); τ is
    not tracked (it needs the whole data set at every update). Returns (summary, learner);
    the summary has the keys of :func:`run_one`'s, ``data`` included."""
    from .data import iter_svmlight_chunks
    from .evaluate.streaming import streamed_final_margin

    learner = make(name, **params)
    result = progressive(learner, iter_svmlight_chunks(path, chunk_rows), progress=progress)
    summary = result.summary()
    summary["params"] = params
    if result.kind == "regressor":
        summary.update(error_rate=None, final_margin=None)
    else:
        binary = len(learner.classes_) <= 2  # γ̄ is a binary notion
        summary.update(error_rate=result.mistakes / max(result.n_steps, 1),
                       final_margin=streamed_final_margin(learner, iter_svmlight_chunks(
                           path, chunk_rows, n_features=learner.n_features_in_))
                       if binary else None)
    summary["data"] = {"name": Path(path).name, "rows": result.n_steps,
                       "features": int(learner.n_features_in_), "sparse": True,
                       "labels": result.labels, "streamed": True, "chunk_rows": chunk_rows}
    return summary, learner


def _run_for_compare(name, params, X, y, passes, seed, track_tau):
    summary, _, result = run_one(name, params, X, y, passes, seed, track_tau)
    return summary, result.error_curve()


def compare_learners(names, params, X, y, passes=1, seed=None, track_tau=True, n_jobs=1,
                     out_dir="olc-out", source=None, figures=None):
    """Run every learner on the same stream (same order, same permutations); write
    ``results.json`` and ``cumulative_error.png`` into ``out_dir``; return the report dict.
    Regressors' cumulative mean squared errors go to ``cumulative_squared_error.png``
    (``files["figure_regression"]``); ``files["figure"]`` is the classifiers' figure, or the
    regressors' when there is no classifier. ``figures``: what draws them (an object with
    ``plot_cumulative_error``, e.g. ``olc.report.figure_process.FigureProcess``, whose
    helper process drew only the first figure: the second, if any, is drawn here)."""
    from .report import figures as in_process

    figures = figures or in_process
    outputs = []
    with LazyProgress(len(names), "learners", unit="learners") as bar:
        if n_jobs != 1:
            from joblib import Parallel, delayed  # ~0.2 s to import: only when used

            jobs = (delayed(_run_for_compare)(n, params.get(n, {}), X, y, passes, seed,
                                              track_tau) for n in names)
            for output in Parallel(n_jobs=n_jobs, return_as="generator")(jobs):
                outputs.append(output)
                bar.advance()
        else:
            for n in names:
                outputs.append(_run_for_compare(n, params.get(n, {}), X, y, passes, seed,
                                                track_tau))
                bar.advance()
    out_dir = Path(out_dir)
    files = {"json": str(out_dir / "results.json")}
    curves = {s["algorithm"]: c for s, c in outputs if s.get("kind") != "regressor"}
    if curves:
        files["figure"] = str(figures.plot_cumulative_error(curves,
                                                            out_dir / "cumulative_error.png"))
    curves = {s["algorithm"]: c for s, c in outputs if s.get("kind") == "regressor"}
    if curves:
        figure = figures.plot_cumulative_error(
            curves, out_dir / "cumulative_squared_error.png",
            title="Online protocol: cumulative mean squared error", ylabel="Σ (y − ŷ)² / t")
        files["figure_regression"] = str(figure)
        files.setdefault("figure", str(figure))
    report = {"source": source, "passes": passes, "seed": seed,
              "results": [s for s, _ in outputs], "files": files}
    write_json(out_dir / "results.json", report)
    return report
