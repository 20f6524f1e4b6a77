"""What ``summary.md`` of ``olc reproduce omm-adult`` says around the claims: the data and
geometry against the paper, the checks of App. B.2, the slowest single pass."""
from __future__ import annotations

from . import paper
from .spec import LABELS
from .tables import BIAS_HEAD


def header(outcome, settings):
    """Before the claims: the data and its geometry against the paper, and the checks of
    App. B.2 on each variant."""
    o, n = outcome.problem.original, outcome.problem.normalized
    src = outcome.problem.source
    lines = ["## Data and geometry", "",
             "| quantity | ours | paper |", "|---|---|---|",
             f"| points | {src.get('n')} | {paper.N_POINTS} |",
             f"| dimension d | {src.get('d')} | {paper.DIMENSION} |",
             f"| positive fraction | {100 * src.get('positive_fraction', float('nan')):.2f} % | "
             f"{100 * paper.POSITIVE_FRACTION:.2f} % |",
             f"| max margin γ (before normalization) | {o.gamma:.6g} | not given |",
             f"| b* | {o.intercept:.4f} | {paper.B_STAR} |",
             f"| D = max(D₊, D₋) | {o.D:.4f} (D₊ = {o.D_pos:.4f}, D₋ = {o.D_neg:.4f}) | "
             f"{paper.D} |",
             f"| D̄ = max‖x‖ (before normalization) | {o.D_bar:.4f} | not given |",
             f"| r = D/γ before normalization | {o.r:.6g} | not given |",
             f"| r = D/γ* after normalization (γ* = 1) | {n.r:.4f} | = D |",
             f"| solver optimality residual (max violation) | {o.max_violation:.2e} | |", "",
             "## App. B.2: each variant verified on its own points", "",
             "| variant | D̄/D | b* | γ* | ‖w − w*‖ | duality gap | D | checks |",
             "|---|---|---|---|---|---|---|---|"]
    for v in outcome.verifications:
        failed = [k for k, ok in v["checks"].items() if not ok]
        lines.append(f"| θ={v['theta']:g} {BIAS_HEAD[v['bias']]} | {v['D_bar_over_D']:.4f} | "
                     f"{v['b_star']:.4g} | {v['gamma']:.12f} | {v['coef_error']:.1e} | "
                     f"{v['duality_gap']:.1e} | {v['D']:.6f} | "
                     f"{'FAILED: ' + ', '.join(failed) if failed else 'ok'} |")
    return lines


def sections(outcome, settings):
    """After the claims: the slowest single pass of an efficient learner."""
    lines = []
    one = [r for r in outcome.records if r["passes"] == 1 and r["algorithm"] != "n-omm"]
    if one:
        slowest = max(one, key=lambda r: r["seconds"])
        lines += ["", f"Slowest single pass of an efficient learner: {slowest['seconds']:.4f} s "
                  f"({LABELS[slowest['algorithm']]}, θ = {slowest['theta']:g}, "
                  f"{BIAS_HEAD[slowest['bias']]}); with the τ check: "
                  f"{max(r['seconds_with_tau'] for r in one):.4f} s at most."]
    return lines

