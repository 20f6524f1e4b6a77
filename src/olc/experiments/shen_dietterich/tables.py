"""``paper_comparison.md``: our Figure 1 end points and Figure 2 key points next to what the
paper's text states (it prints no numbers for them; its statements go in [paper] columns)."""
from __future__ import annotations

from pathlib import Path

from ..._util.atomic import write_text
from . import spec as S
from .figures import sweep_points

PAPER_FIG1 = {
    S.PA: "worst of the large-margin methods on all data sets",
    S.PA_HINGE: "(not in the paper)",
    S.OBJECTIVE: "beats PA; slightly worse than L2",
    S.L2: "beats PA; ≥ objective-regularized; ≈ L1 (better on 20NG)",
    S.L1: "beats PA; ≈ L2",
    S.NORMA: "less accurate than the regularized PA learners",
}
PAPER_FIG2 = {
    S.L2_SIGMA: "accuracy not hurt even when most features are removed",
    S.L1_SIGMA: "slightly better with many features; unstable, much worse than L2 with few",
    S.IG: "extremely bad with few features (better only on 20NG)",
    S.GAME: "better than information gain, worse than the regularized methods",
}


def write_comparison(results, out_dir):
    lines = ["# Shen & Dietterich (2009) §4: our numbers next to the paper's statements", "",
             "The paper reports no numeric error rates for Figures 1–2; its text's statements "
             "are given in the [paper] columns. Means over trials ± Student-t 95 % half-widths.",
             "", "## Figure 1: cumulative error rate at the end of the second half", "",
             "| stream | learner | ours | [paper] |", "|---|---|---|---|"]
    for s in results.streams():
        for learner in S.FIGURE1:
            m = results.mean(s, learner, "error_rate")
            if m.n:
                hw = f" ± {m.half_width:.4f}" if m.half_width is not None else ""
                lines.append(f"| {s} | {learner} | {m.mean:.4f}{hw} | {PAPER_FIG1[learner]} |")
    lines += ["", "## Figure 2: features used per iteration → error rate (second half)", "",
              "| stream | method | points (features: error) | [paper] |", "|---|---|---|---|"]
    for s in results.streams():
        for group in S.FIGURE2:
            pts = sweep_points(results, s, group)
            text = "; ".join(f"{f:.0f}: {e:.3f}" for f, _, e, _ in pts)
            lines.append(f"| {s} | {group} | {text} | {PAPER_FIG2[group]} |")
    return write_text(Path(out_dir) / "paper_comparison.md", "\n".join(lines) + "\n")


def tables(results, settings, out_dir):
    return {"paper_comparison": write_comparison(results, out_dir)}
