"""``paper_comparison.md``: our Figure 1 end points and Figure 2 key points next to what the
paper's text states (it prints no numbers for them; its statements go in [paper] columns)."""
from __future__ import annotations

from pathlib import Path

from ..._util.atomic import write_text
from . import spec as S
from .figures import sweep_points

PAPER_FIG1 = {
    S.PA: "worst of the large-margin methods on all data sets",
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


def _base(label, reading):
    return label[:len(label) - len(reading.suffix)] if reading.suffix and \
        label.endswith(reading.suffix) else label


def write_comparison(results, out_dir, reading=S.ERRORS):
    stem = "paper_comparison" if reading is S.ERRORS else f"paper_comparison-{reading.name}"
    lines = [f"# Shen & Dietterich (2009) §4 ({reading.text}): our numbers next to the "
             "paper's statements", "",
             "The paper reports no numeric error rates for Figures 1–2; its text's statements "
             "are given in the [paper] columns. Means over trials with their 95 % interval "
             "(olc.experiments.engine.aggregate).",
             "", "## Figure 1: cumulative error rate at the end of the second half", "",
             "| stream | learner | ours | 95 % interval | [paper] |", "|---|---|---|---|---|"]
    for s in results.streams():
        for learner in reading.figure1:
            m = results.mean(s, learner, "error_rate")
            if m.n:
                ci = f"[{m.low:.4f}, {m.high:.4f}]" if m.low is not None else "—"
                lines.append(f"| {s} | {learner} | {m.mean:.4f} | {ci} | "
                             f"{PAPER_FIG1[_base(learner, reading)]} |")
    lines += ["", "## Figure 2: features used per iteration → error rate (second half)", "",
              "| stream | method | points (features: error) | [paper] |", "|---|---|---|---|"]
    for s in results.streams():
        for group in reading.figure2:
            pts = sweep_points(results, s, group)
            text = "; ".join(f"{f:.0f}: {e:.3f}" for f, _, e, _ in pts)
            lines.append(f"| {s} | {group} | {text} | {PAPER_FIG2[_base(group, reading)]} |")
    return write_text(Path(out_dir) / f"{stem}.md", "\n".join(lines) + "\n")


def tables(results, settings, out_dir):
    """``paper_comparison.md`` (errors reading) and ``paper_comparison-margin.md``."""
    return {("paper_comparison" if r is S.ERRORS else f"paper_comparison_{r.name}"):
            write_comparison(results, out_dir, r) for r in S.READINGS}
