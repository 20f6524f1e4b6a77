"""Side-by-side comparison of learners on one stream in the online protocol.

Combines the other rooms only: learners (by catalogue name), evaluation
(:func:`olc.evaluate.summary.run_one`) and report (JSON, figure). The command ``olc compare``
(:mod:`olc.cli.compare`) is a thin wrapper around :func:`compare_learners`.
"""
from pathlib import Path

from ._util.progress import LazyProgress
from .evaluate.summary import run_one
from .report import write_json


def _run_for_compare(name, params, X, y, passes, seed, track_tau, progress=False):
    summary, _, result = run_one(name, params, X, y, passes, seed, track_tau, record="full",
                                 progress=progress)
    return summary, result.error_curve()


def compare_learners(names, params, X, y, passes=1, seed=None, track_tau=True, n_jobs=1,
                     out_dir="olc-out", source=None, figures=None, progress=None):
    """Run every learner on the same stream (same order, same permutations); write
    ``results.json`` and ``cumulative_error.png`` into ``out_dir``; return the report dict.
    Regressors' cumulative mean squared errors go to ``cumulative_squared_error.png``
    (``files["figure_regression"]``); ``files["figure"]`` is the classifiers' figure, or the
    regressors' when there is no classifier. ``figures``: what draws them (an object with
    ``plot_cumulative_error``, e.g. ``olc.report.figure_process.FigureProcess``, whose
    helper process drew only the first figure: the second, if any, is drawn here).
    ``progress``: None — a display once a run has lasted a second (rows/s of each learner in
    one process; learners done, with ``n_jobs`` ≠ 1); False — none."""
    from .report import figures as in_process

    figures = figures or in_process
    outputs = []
    with LazyProgress(len(names), "learners", unit="learners",
                      enabled=progress is not False and n_jobs != 1) as bar:
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
                                                track_tau, progress))
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
