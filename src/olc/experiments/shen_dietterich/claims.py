"""The claims of Shen & Dietterich (2009) §4, each a test on our records
(``test(results) -> (verdict, evidence)``)."""
from __future__ import annotations

import numpy as np

from ..engine.spec import Claim
from . import spec as S
from .figures import sweep_points

REGULARIZED = (S.OBJECTIVE, S.L2, S.L1)


def _err(results, stream, learner):
    s = results.mean(stream, learner, "error_rate")
    if s.n == 0:
        raise LookupError(f"no runs of {learner!r} on {stream}")
    return s.mean


def _fmt(results, stream, learners):
    return ", ".join(f"{l.split(' ')[0]} {_err(results, stream, l):.4f}" for l in learners)


def regularized_beat_pa(results):
    ok, ev = True, []
    for s in results.streams():
        pa = _err(results, s, S.PA)
        better = all(_err(results, s, l) < pa for l in REGULARIZED)
        ok &= better
        ev.append(f"{s}: PA {pa:.4f} vs {_fmt(results, s, REGULARIZED)}; PA-hinge "
                  f"{_err(results, s, S.PA_HINGE):.4f}")
    return ok, "; ".join(ev)


def gap_largest_early(results):
    ok, ev = True, []
    for s in results.streams():
        pa, _ = results.curve(s, S.PA)
        best = min(REGULARIZED, key=lambda l: _err(results, s, l))
        reg, _ = results.curve(s, best)
        early = int(max(1, 0.1 * pa.size)) - 1
        g_early, g_end = pa[early] - reg[early], pa[-1] - reg[-1]
        ok &= bool(g_early > g_end)
        ev.append(f"{s}: PA − {best.split(' ')[0]} = {g_early:+.4f} after 10 % of the test, "
                  f"{g_end:+.4f} at the end")
    return ok, "; ".join(ev)


def l2_at_least_objective(results):
    ok = all(_err(results, s, S.L2) <= _err(results, s, S.OBJECTIVE) for s in results.streams())
    return ok, "; ".join(f"{s}: {_fmt(results, s, (S.L2, S.OBJECTIVE))}"
                         for s in results.streams())


def norma_least_accurate(results):
    ok = all(_err(results, s, S.NORMA) > max(_err(results, s, l) for l in REGULARIZED)
             for s in results.streams())
    return ok, "; ".join(f"{s}: NORMA {_err(results, s, S.NORMA):.4f} vs "
                         f"{_fmt(results, s, REGULARIZED)}" for s in results.streams())


def l2_close_to_l1(results):
    ok, ev = True, []
    for s in results.streams():
        d = _err(results, s, S.L2) - _err(results, s, S.L1)
        close = abs(d) <= 0.02
        ok &= close if s != "20newsgroups" else (close and d < 0)
        ev.append(f"{s}: L2 − L1 = {d:+.4f}")
    return ok, "; ".join(ev) + " (close: |Δ| ≤ 0.02; 20NG: L2 < L1)"


def _interp(points, x):
    f = np.log([p[0] for p in points if p[0] > 0])
    e = [p[2] for p in points if p[0] > 0]
    return float(np.interp(np.log(x), f, e)) if len(f) else np.nan


def _few(points, d_features):
    return [p for p in points if 0 < p[0] <= 0.25 * d_features]


def _n_features(results, stream):
    pts = sweep_points(results, stream, S.L2_SIGMA)
    return max(p[0] for p in pts) if pts else np.nan


def regularized_beats_selection_with_few_features(results):
    ok, ev = True, []
    for s in results.streams():
        l2 = sweep_points(results, s, S.L2_SIGMA)
        ig, game = sweep_points(results, s, S.IG), sweep_points(results, s, S.GAME)
        few = _few(l2, _n_features(results, s))
        if not few or not ig or not game:
            return None, f"{s}: no L2 σ point with ≤ 25 % of the features"
        wins = [p[2] < min(_interp(ig, p[0]), _interp(game, p[0])) for p in few]
        ok &= sum(wins) > len(wins) / 2
        ev.append(f"{s}: L2 below both baselines at {sum(wins)}/{len(wins)} of its points with "
                  f"≤ 25 % of the features (" + ", ".join(
                      f"{p[0]:.0f} feat.: {p[2]:.3f} vs IG {_interp(ig, p[0]):.3f}, game "
                      f"{_interp(game, p[0]):.3f}" for p in few) + ")")
    return ok, "; ".join(ev)


def l1_unstable_with_few_features(results):
    ok, ev = True, []
    for s in results.streams():
        l1, l2 = sweep_points(results, s, S.L1_SIGMA), sweep_points(results, s, S.L2_SIGMA)
        few = _few(l1, _n_features(results, s))
        if not few:
            return None, f"{s}: no L1 σ point with ≤ 25 % of the features"
        worse = [p[2] > _interp(l2, p[0]) for p in few]
        ok &= sum(worse) > len(worse) / 2
        ev.append(f"{s}: L1 worse than L2 at {sum(worse)}/{len(worse)} of its points with few "
                  "features (" + ", ".join(f"{p[0]:.0f} feat.: L1 {p[2]:.3f} ± {p[3]:.3f} vs L2 "
                                          f"{_interp(l2, p[0]):.3f}" for p in few) + ")")
    return ok, "; ".join(ev)


def pa_weights_three_vs_eight(results):
    from .final_models import discrimination_maps, final_models

    if "usps" not in results.streams():
        return None, "no USPS stream"
    maps = discrimination_maps(results)
    trials = sorted({r["trial"] for r in results.select("usps", S.PA)})
    excess = {S.PA: [], S.L2: [], S.L1: []}
    for t in trials:
        models = final_models(results, t)
        for name in excess:
            w = np.abs(models[name])
            excess[name].append(np.corrcoef(w, maps[(3, 8)])[0, 1]
                                - np.corrcoef(w, maps[(7, 9)])[0, 1])
    m = {k: float(np.mean(v)) for k, v in excess.items()}
    ok = m[S.PA] > m[S.L2] and m[S.PA] > m[S.L1]
    return ok, (f"corr(|w|, IG 3-vs-8) − corr(|w|, IG 7-vs-9), mean over {len(trials)} trials: "
                + ", ".join(f"{k.split(' ')[0]} {v:+.3f}" for k, v in m.items()))


CLAIMS = [
    Claim("The regularized online algorithms outperform PA on every data set.",
          "§4, Comparison", regularized_beat_pa),
    Claim("The difference is particularly large at the beginning of the online testing, then "
          "decreases.", "§4, Comparison", gap_largest_early),
    Claim("The L2-norm-constrained method slightly outperforms the objective-regularized one.",
          "§4, Comparison", l2_at_least_objective),
    Claim("NORMA is less accurate than our (regularized large-margin) algorithms.",
          "§4, Comparison", norma_least_accurate),
    Claim("L2 constraint is competitive with L1; on 20NewsGroups L2 is slightly better.",
          "§4, Comparison", l2_close_to_l1),
    Claim("With few features the regularized (σ-removal) method beats information gain and "
          "the game-theoretic selection.", "§4, Feature Selection; Fig. 2",
          regularized_beats_selection_with_few_features),
    Claim("The L1-constrained method becomes unstable and much worse than L2 when few "
          "features are kept.", "§4, Feature Selection; Fig. 2", l1_unstable_with_few_features),
    Claim("At the end PA still puts large weights on pixels that discriminate 3 from 8 "
          "(regularized models: 7 vs 9).", "§4, Adapting; Fig. 3", pa_weights_three_vs_eight),
]


def _edge_share(results, stream, learner, grids):
    """Share of trials whose tuned values sit at an edge of their grid."""
    recs = [r for r in results.select(stream, learner) if r.get("extra", {}).get("chosen")]
    at_edge = [any(v in (grids[k][0], grids[k][-1]) for k, v in r["extra"]["chosen"].items()
                   if k in grids) for r in recs]
    return sum(at_edge), len(at_edge)


def why_we_disagree(results):
    """Markdown lines saying plainly, with this run's numbers, why §4's comparison claims
    come out differently here (appended to summary.md)."""
    lines = ["## Why our comparison differs from §4", "",
             "We implement the learners as §2–§3 define them: the regularized learners (3.1), "
             "(3.9), (3.10) and our \"PA\" update only when the classifier errs (§2: \"we do a "
             "PA update when the classifier makes an error\"); NORMA (Kivinen et al. 2004) "
             "takes a gradient step whenever the hinge loss is positive and shrinks w at "
             "every step; \"PA (hinge updates)\" is Crammer et al.'s (2006) PA, which also "
             "updates on every margin violation. Regularization parameters are tuned on the "
             "first half by online mistakes, as §4's Approach says. On our streams the "
             "learners that update on margin violations are clearly more accurate on the "
             "drifting second half than every update-on-error learner, regularized or not, "
             "while the regularizers move update-on-error PA by about a percentage point "
             "either way:", ""]
    for s in results.streams():
        regs = ", ".join(f"{l.split(' ')[0]} {_err(results, s, l):.4f}" for l in REGULARIZED)
        lines.append(f"- {s}: PA on errors {_err(results, s, S.PA):.4f}; regularized on "
                     f"errors {regs}; PA on margin violations {_err(results, s, S.PA_HINGE):.4f}; "
                     f"NORMA {_err(results, s, S.NORMA):.4f}.")
    spec = results.spec
    grids = {c.label: c.tune for c in spec.learner_configs()} if spec is not None else {}
    edges = []
    for s in results.streams():
        for l in (S.OBJECTIVE, S.L2, S.L1, S.NORMA):
            if l in grids:
                k, n = _edge_share(results, s, l, grids[l])
                edges.append(f"{s} {l.split(' ')[0]} {k}/{n}")
    lines += ["", "The grids reach PA's behaviour (α down to 10⁻⁴, where (3.1) is PA up to a "
              "factor 1/(1+α) per update; L2 β up to 8 and L1 β up to 256, balls larger than "
              "the norms PA reached on these streams when we checked, see "
              "olc.experiments.shen_dietterich.spec), so the gap is not a grid too narrow "
              "to contain PA. "
              "Trials whose tuned value sits at an edge of its grid: " + "; ".join(edges) + ".",
              "", "So where §4 finds the regularized learners better than PA and NORMA least "
              "accurate, we find them level with update-on-error PA and behind NORMA; we "
              "cannot tell from the paper whether its runs updated on margin violations "
              "rather than on errors (which would explain its ranking) — we follow its text."]
    return lines
