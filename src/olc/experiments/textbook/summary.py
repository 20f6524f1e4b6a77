"""What ``summary.md`` of ``olc reproduce textbook`` says besides the claims: the settings
and what the figures show, from the records."""
from __future__ import annotations

import numpy as np

from . import spec as R


def header(results, settings):
    return [f"Seed {settings['seed']}; {settings['replications']} replication seeds; "
            f"λ = {R.LAMBDA}; Gaussian basis σ = {R.WIDTH}; Fig. 31.9: {settings['passes']} "
            "passes. The points are drawn from the chapter's data processes with NumPy (not "
            "MATLAB's random streams), so they are not the book's own points.", "",
            "## What the figures show", "", *notes(results), ""]


def notes(results):
    """Lines for summary.md that explain what the figures show, from the records."""
    lines = []
    if "31.8" in results:
        m = results["31.8"]["record"]["measures"]["PA"]
        reps = [r["PA"]["clean_error_without_outliers"] for r in results["31.8"]["replications"]]
        over = (f"; median over {len(reps)} seeds {np.median(reps):.3f}" if reps else "")
        lines.append(
            f"- Fig. 31.8: PA's boundary is poor even without the outliers (clean error "
            f"{m['clean_error_without_outliers']:.3f} trained without them, {m['clean_error']:.3f} "
            f"with them{over}): one pass with steps 1/(‖x‖² + λ) ≈ 1/230 moves the intercept "
            "(the appended 1) too slowly for classes centred at x¹ = −15 and −5; AROW's "
            "covariance scales the intercept's step up. The influence measure isolates the "
            "outliers' own effect.")
    if "31.5" in results:
        m = results["31.5"]["record"]["measures"]
        lines.append(
            f"- Fig. 31.5: one PA pass from θ₀ ~ N(0, I) leaves RMSE {m['rmse_truth']:.3f} against "
            f"the noiseless function (θ₀ alone: {m['rmse_start_truth']:.3f}); each step "
            "corrects only its residual's share r/(‖k‖² + λ).")
    if "31.9" in results:
        m = results["31.9"]["record"]["measures"]
        lines.append(f"- Fig. 31.9: after {m['passes']} passes AROW regression's RMSE against "
                     f"the noiseless function is {m['rmse_truth']:.3f} (noise σ = 0.05).")
    return lines
