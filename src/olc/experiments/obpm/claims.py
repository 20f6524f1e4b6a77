"""The claims of Harrington et al. 2003 (§4, §5), each tested on our records
(:class:`Outcome`) with its criterion stated; the comparisons that need a tolerance are
also applied to the paper's own numbers, so that the criterion is seen to accept what the
paper calls "comparable"."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.aggregate import t_interval
from ..engine.spec import Claim
from . import paper
from .artificial import N_FIGURE, TAUS, config_records, select
from .data import NOISE_LEVELS
from .spec import ALMA_DRIFT, LMS, OBPM_DRIFT, OBPM_WEB, PERCEPTRON

#: "comparable": within this relative difference. The paper calls ALMA and OBPM comparable
#: where its own Table 2 differs by up to 5.4 % (Web, epoch 2: 1.36 vs 1.29), and OBPM's
#: epoch 3 "compares favourably" with the SVM at up to 4.8 % (Web: 1.31 vs 1.25); a
#: criterion must accept those, so it is the next round number, 10 %.
COMPARABLE = 0.10


@dataclass
class Outcome:
    """What the claims read: §4.1 records, Figure 2/3 and Table 2 results (engine
    ``Results``; Table 2 as {dataset: (Results, {algorithm: label})}), SVM records; and
    what the outputs read besides: the loaded data ({spec name: {stream: Data}}) and how the
    runs went (:class:`~olc.experiments.engine.reproduction.RunInfo`)."""

    table_1: list | None = None
    drift: object = None
    web: object = None
    web_permuted: object = None
    batch: dict = field(default_factory=dict)
    svm: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)
    info: object = None

    @property
    def timing(self):
        i = self.info
        return {"prepare_seconds": i.prepare_seconds, "run_seconds": i.run_seconds,
                "n_jobs": i.n_jobs, "load_average_at_start": i.load_average_at_start,
                "reused": i.reused, "computed": i.computed}

    def need(self, part):
        value = getattr(self, part)
        if not value:
            raise LookupError(f"the {part.replace('_', ' ')} runs are not part of this run")
        return value


def _pct(x):
    return "—" if x is None else f"{100 * x:.2f} %"


def _chosen_error(records, family, e):
    chosen = select(records, family, e)
    if chosen is None:
        raise LookupError(f"no {family} records at e = {e:g}")
    return chosen[0], t_interval([r["test_error"] for r in chosen[1]])


def _obpm_below_perceptron_t1(o):
    rs = o.need("table_1")
    parts, ok = [], True
    for e in NOISE_LEVELS:
        _, ob = _chosen_error(rs, "OBPM", e)
        _, pe = _chosen_error(rs, "Perceptron", e)
        ok &= ob.mean < pe.mean
        parts.append(f"e={e:g}: {_pct(ob.mean)} vs {_pct(pe.mean)}")
    return ok, "OBPM vs Perceptron test error: " + "; ".join(parts)


def _overlap(a, b):
    if a.half_width is None or b.half_width is None:
        return a.mean == b.mean
    return a.low <= b.high and b.low <= a.high


def _alma_vs_obpm_t1(o):
    rs = o.need("table_1")
    parts, ok = [], True
    for e in NOISE_LEVELS:
        _, ob = _chosen_error(rs, "OBPM", e)
        _, al = _chosen_error(rs, "ALMA", e)
        holds = ob.mean < al.mean if e == 0 else _overlap(ob, al)
        ok &= holds
        parts.append(f"e={e:g}: OBPM {_pct(ob.mean)} ± {100 * (ob.half_width or 0):.2f}, "
                     f"ALMA {_pct(al.mean)} ± {100 * (al.half_width or 0):.2f}")
    theirs = ", ".join(f"{paper.TABLE_1[e]['OBPM'][0]:.2f} ± {paper.TABLE_1[e]['OBPM'][1]:.2f}"
                       f" vs {paper.TABLE_1[e]['ALMA'][0]:.2f} ± {paper.TABLE_1[e]['ALMA'][1]:.2f}"
                       for e in NOISE_LEVELS if e > 0)
    return ok, "; ".join(parts) + " [criterion: e = 0 OBPM below ALMA; e > 0 the 95 % " \
        f"intervals overlap — as the paper's own do: {theirs}]"


def _margin_n(o):
    rs = o.need("table_1")

    def mean(key, tau, N):
        return t_interval([r[key] for r in config_records(rs, "OBPM", 0.0, tau=tau, N=N)]).mean

    m = {(tau, N): mean("margin", tau, N) for tau in TAUS for N in N_FIGURE}
    u = {N: mean("updates", 0.3, N) for N in (25, 100)}
    if any(v is None for v in (*m.values(), *u.values())):
        raise LookupError("no OBPM runs for every τ and N of Figure 1")
    rising = [tau for tau in TAUS if all(m[(tau, a)] < m[(tau, b)]
                                         for a, b in zip(N_FIGURE, N_FIGURE[1:]))]
    ok = len(rising) == len(TAUS) and u[100] > u[25]
    return ok, (f"mean margin rises with N = {', '.join(map(str, N_FIGURE))} at "
                f"{len(rising)} of {len(TAUS)} τ; τ = 0.3: margin {m[(0.3, 25)]:.4f} (N=25) → "
                f"{m[(0.3, 100)]:.4f} (N=100), total updates {u[25]:.0f} → {u[100]:.0f} "
                f"(paper: {paper.TOTAL_UPDATES_TAU_03[25]} → {paper.TOTAL_UPDATES_TAU_03[100]})")


def _margin_vs_alma(o):
    rs = o.need("table_1")
    out = {}
    for family in ("OBPM", "ALMA"):
        params, rec = select(rs, family, 0.0)
        out[family] = (params, t_interval([r["margin"] for r in rec]).mean)
    ob, al = out["OBPM"][1], out["ALMA"][1]
    ok = ob is not None and al is not None and ob > al
    return ok, (f"γ_z(w̃_T) at the chosen parameters, e = 0: OBPM {ob:.4f}, ALMA {al:.4f} "
                f"(paper: {paper.MARGIN_OBPM} vs {paper.MARGIN_ALMA})")


def _small_tau_needs_n(o):
    rs = o.need("table_1")
    tau = TAUS[0]
    errs = [t_interval([r["train_mistakes"] for r in config_records(rs, "OBPM", 0.0,
                                                                     tau=tau, N=N)]).mean
            for N in N_FIGURE]
    if any(e is None for e in errs):
        raise LookupError(f"no OBPM runs at τ = {tau}")
    ok = all(a > b for a, b in zip(errs, errs[1:]))
    shown = ", ".join(f"N={N}: {e:.1f}" for N, e in zip(N_FIGURE, errs))
    return ok, f"τ = {tau}: mean training mistakes of w̃_T {shown} (e = 0)"


def _alma_more_sensitive(o):
    rs = o.need("table_1")

    def spread(family, keep):
        groups = {}
        for r in rs:
            if r["algorithm"] == family and r["noise"] == 0.0 and keep(r["params"]):
                groups.setdefault(tuple(sorted(r["params"].items())), []).append(
                    r["test_error"])
        means = [sum(v) / len(v) for v in groups.values()]
        return max(means) - min(means), len(means)

    a, na = spread("ALMA", lambda p: True)
    b, nb = spread("OBPM", lambda p: p["N"] in (100, 200))
    return a > b, (f"range of mean test error over the grid (e = 0): ALMA {100 * a:.2f} "
                   f"points over {na} (B, C); OBPM {100 * b:.2f} points over {nb} (τ, N ∈ "
                   "{100, 200})")


def _final(results, stream, label, metric):
    s = results.mean(stream, label, metric)
    if s.mean is None:
        raise LookupError(f"no {label} runs on {stream}")
    return s.mean


def _drift(o):
    res = o.need("drift")
    stream = res.streams()[0]
    ob = _final(res, stream, OBPM_DRIFT, "mistakes")
    others = {lab: _final(res, stream, lab, "mistakes") for lab in (LMS, ALMA_DRIFT, PERCEPTRON)}
    ok = all(ob < v for v in others.values())
    return ok, f"mean prediction errors over the stream: OBPM {ob:.1f}; " + ", ".join(
        f"{k} {v:.1f}" for k, v in others.items())


def _web_labels(res):
    stream = res.streams()[0]
    alma = [lab for lab in res.learners(stream) if lab.startswith("ALMA")]
    if not alma:
        raise LookupError("no ALMA run on Web")
    return stream, alma[0]


def _web_streams(o):
    found = [r for r in (o.web, o.web_permuted) if r]
    if not found:
        raise LookupError("the Web (Figure 3) runs are not part of this run")
    return found


def _web_errors(attr):
    def test(o):
        res = o.need(attr)
        stream, alma = _web_labels(res)
        ob, al = res.curve(stream, OBPM_WEB, "cumulative_mistakes")[0], \
            res.curve(stream, alma, "cumulative_mistakes")[0]
        if ob.size == 0 or al.size == 0:
            raise LookupError("no Web curves")
        n = len(res.select(stream, alma))
        return bool(ob[-1] < al[-1]), (
            f"{res.spec.streams[0].display} ({n} trial(s)): after {ob.size} examples OBPM "
            f"{ob[-1]:.1f}, ALMA {al[-1]:.1f} prediction errors; OBPM ≤ ALMA at "
            f"{100 * float((ob <= al).mean()):.0f} % of the steps")
    return test


def _web_updates(o):
    ok, parts = True, []
    for res in _web_streams(o):
        stream, alma = _web_labels(res)
        ob, al = _final(res, stream, OBPM_WEB, "total_updates"), \
            _final(res, stream, alma, "total_updates")
        ok &= ob > al
        parts.append(f"{res.spec.streams[0].display}: OBPM {ob:.0f} (all members), "
                     f"ALMA {al:.0f}")
    return ok, "total updates — " + "; ".join(parts)


def _batch_values(o):
    batch = o.need("batch")
    out = {}
    for d, (res, labels) in batch.items():
        for algorithm, label in labels.items():
            for epoch in (1, 2, 3):
                s = res.mean(d, label, f"test_error_epoch_{epoch}")
                if s.mean is not None:
                    out[(d, algorithm, epoch)] = 100 * s.mean
    return out


def _paper_values():
    return {k: v[0] for k, v in paper.TABLE_2.items() if k[0] != "c-elegans"}


def _obpm_below_perceptron_t2(o):
    ours = _batch_values(o)
    bad = [f"{d} epoch {e}: {ours[(d, 'OBPM', e)]:.2f} vs {ours[(d, 'Perceptron', e)]:.2f}"
           for (d, a, e) in ours if a == "OBPM" and
           ours[(d, "OBPM", e)] >= ours[(d, "Perceptron", e)]]
    n = sum(1 for k in ours if k[1] == "OBPM")
    return not bad, ("OBPM below the Perceptron in all " f"{n} (data set, epoch) cells"
                     if not bad else "not in: " + "; ".join(bad))


def _comparable(values, a, b, cells):
    worst = 0.0
    for (d, e) in cells:
        x, y = values.get((d, a, e)), values.get((d, b, e))
        if x is None or y is None:
            continue
        worst = max(worst, abs(x - y) / min(x, y))
    return worst


def _obpm_alma_t2(o):
    ours = _batch_values(o)
    cells = sorted({(d, e) for (d, a, e) in ours})
    mine = _comparable(ours, "OBPM", "ALMA", cells)
    theirs = _comparable(_paper_values(), "OBPM", "ALMA", cells)
    return mine <= COMPARABLE, (f"largest relative difference OBPM vs ALMA: {100 * mine:.1f} % "
                                f"(paper's own numbers: {100 * theirs:.1f} %) [criterion: "
                                f"≤ {100 * COMPARABLE:.0f} % in every cell]")


def _obpm_svm(o):
    ours = _batch_values(o)
    svm = o.need("svm")
    parts, worst, worst_paper = [], 0.0, 0.0
    for d, rec in svm.items():
        x = ours.get((d, "OBPM", 3))
        if x is None or rec is None:
            continue
        s = 100 * rec["test_error"]
        worst = max(worst, abs(x - s) / s)
        worst_paper = max(worst_paper, abs(paper.TABLE_2[(d, "OBPM", 3)][0] - paper.SVM[d])
                          / paper.SVM[d])
        parts.append(f"{d}: OBPM {x:.2f} %, SVM {s:.2f} % (C={rec['C']:g})")
    if not parts:
        raise LookupError("no SVM and OBPM epoch-3 results")
    return worst <= COMPARABLE, "; ".join(parts) + (
        f" — largest relative difference {100 * worst:.1f} % (paper's: "
        f"{100 * worst_paper:.1f} %) [criterion: ≤ {100 * COMPARABLE:.0f} %]")


CLAIMS = [
    Claim("OBPM's test error is below the Perceptron's at every noise level (Table 1).",
          "§4.1, Table 1", _obpm_below_perceptron_t1),
    Claim("ALMA and OBPM are similar with label noise; without noise OBPM is better "
          "(Table 1).", "§4.1", _alma_vs_obpm_t1),
    Claim("Increasing N increases the margin (at every τ of Fig. 1), at the price of more "
          "updates (τ = 0.3: 1334 → 5306 updates for N = 25 → 100).", "§4.1, Fig. 1(b)",
          _margin_n),
    Claim("OBPM reaches a larger margin than ALMA on the toy data (0.02 vs 0.006).",
          "§4.1, Fig. 1(b)", _margin_vs_alma),
    Claim("If τ is too small, N must grow for w̃ to reach the version space (training "
          "mistakes of w̃_T fall as N grows at the smallest τ).", "§4.1, Fig. 1",
          _small_tau_needs_n),
    Claim("ALMA's test error is more sensitive to its parameters than OBPM's "
          "[criterion: a wider range of mean test error over the paper's grids, e = 0].",
          "§4.1", _alma_more_sensitive),
    Claim("On the drifting concept OBPM makes fewer prediction errors than LMS, ALMA and "
          "the Perceptron.", "§4.2, Fig. 2", _drift),
    Claim("On Web, OBPM's online prediction errors are lower than ALMA's — w8a in the "
          "file's order, as the paper's Fig. 3.", "§4.3, Fig. 3(a)", _web_errors("web")),
    Claim("The same on w8a in random orders (our variant: the file keeps its positives in "
          "one block).", "§4.3, Fig. 3(a)", _web_errors("web_permuted")),
    Claim("On Web, OBPM makes more updates than ALMA (the cost of its lower error).",
          "§4.3, Fig. 3(b)", _web_updates),
    Claim("In the batch setting OBPM is better than the standard Perceptron (Table 2).",
          "§4.3, Table 2", _obpm_below_perceptron_t2),
    Claim("In the batch setting ALMA and OBPM are comparable (Table 2).", "§4.3, Table 2",
          _obpm_alma_t2),
    Claim("OBPM compares favourably with the soft-margin SVM when trained in the batch "
          "setting (epoch 3 vs SVM).", "§4.3, §5", _obpm_svm),
]
