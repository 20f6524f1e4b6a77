"""The claim of ``olc reproduce kernel-budget``: "at the same budget the regularized kernel PA
with oldest removal is at least as accurate as the Forgetron" (Shen & Dietterich 2009, §5:
their regularized PA "forgets" old support vectors as the Forgetron does, and they propose
to "control the number of support vectors by removing the oldest one" and compare).

Tested per data set, kernel and budget on the paired per-trial differences of the test-half
error rates, d_t = error(regularized PA) − error(Forgetron) (both learners see trial t's
stream), with the engine's Student-t interval of their mean (:func:`.aggregate.t_interval`):
**better** when the whole interval is below 0, **worse** when it is above 0, **tie**
otherwise (with one trial: the sign of d). The claim holds in a cell unless it is *worse*;
it is supported for a data set and kernel when it holds at every budget, and overall when
it holds in every cell.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.aggregate import t_interval
from ..engine.spec import Claim
from .spec import DATA_LABELS, FORGETRON, KERNEL_LABELS, KERNELS, REGULARIZED, config_label
from .data import DRIFT_DATASETS

SOURCE = "Shen & Dietterich 2009, §5 (proposed, not run there)"


@dataclass
class Outcome:
    """What the tables, figures and claims read: ``drift`` {data set: engine Results},
    ``table`` {data set: Results}, ``gammas`` {data set: (γ, grid scores)}, ``skipped``
    {label: why}, the settings and the runner's info."""

    settings: dict
    info: object = None
    drift: dict = field(default_factory=dict)
    table: dict = field(default_factory=dict)
    gammas: dict = field(default_factory=dict)
    skipped: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Cell:
    dataset: str
    kernel: str
    budget: int
    ours: object        # Summary of the regularized PA's error rate
    theirs: object      # the Forgetron's
    diff: object        # Summary of the paired differences
    verdict: str        # "better", "tie", "worse"

    @property
    def holds(self):
        return self.verdict != "worse"


def paired(results, stream, a, b, metric="error_rate"):
    """The per-trial differences a − b of ``metric`` over the trials both have."""
    va = {r["trial"]: r.get(metric) for r in results.select(stream, a)}
    vb = {r["trial"]: r.get(metric) for r in results.select(stream, b)}
    return [va[t] - vb[t] for t in sorted(va) if t in vb and va[t] is not None
            and vb[t] is not None]


def classify(diff):
    if diff.mean is None:
        return None
    if diff.half_width is None:
        return "better" if diff.mean < 0 else "worse" if diff.mean > 0 else "tie"
    if diff.mean + diff.half_width < 0:
        return "better"
    if diff.mean - diff.half_width > 0:
        return "worse"
    return "tie"


def cells(outcome, datasets=None, kernels=None):
    """Every tested (data set, kernel, budget) of the run."""
    out = []
    for d in datasets or outcome.drift:
        results = outcome.drift.get(d)
        if results is None:
            continue
        stream = results.streams()[0]
        for k in kernels or outcome.settings["kernels"]:
            for b in outcome.settings["budgets"]:
                ours, theirs = config_label(REGULARIZED, k, b), config_label(FORGETRON, k, b)
                if not results.select(stream, ours) or not results.select(stream, theirs):
                    continue
                diff = t_interval(paired(results, stream, ours, theirs))
                v = classify(diff)
                if v is not None:
                    out.append(Cell(d, k, b, results.mean(stream, ours, "error_rate"),
                                    results.mean(stream, theirs, "error_rate"), diff, v))
    return out


def _pct(x):
    return "—" if x is None else f"{100 * x:.2f}"


def signed_pp(x):
    """A difference of rates in percentage points, "+0.00" rather than "-0.00"."""
    return f"{round(100 * x, 2) + 0.0:+.2f}"


def describe(cell):
    d = cell.diff
    ci = "" if d.half_width is None else f" ± {100 * d.half_width:.2f}"
    return (f"B={cell.budget}: {_pct(cell.ours.mean)} vs {_pct(cell.theirs.mean)} %, "
            f"d = {signed_pp(d.mean)}{ci} pp ({cell.verdict})")


def _verdict(found):
    if not found:
        raise LookupError("no budget of this data set and kernel is part of this run")
    n_worse = sum(not c.holds for c in found)
    return n_worse == 0, f"{len(found) - n_worse}/{len(found)} budgets hold: " + "; ".join(
        describe(c) for c in found)


def _claim_for(dataset, kernel):
    def test(outcome):
        return _verdict(cells(outcome, [dataset], [kernel]))

    test.__name__ = f"holds_{dataset}_{kernel}"
    return Claim(f"{DATA_LABELS[dataset]}, {KERNEL_LABELS[kernel]} kernel: at the same budget "
                 "the regularized kernel PA with oldest removal is at least as accurate as "
                 "the Forgetron", SOURCE, test)


def overall(outcome):
    found = cells(outcome)
    if not found:
        raise LookupError("no budgeted drift runs in this run")
    worse = [c for c in found if not c.holds]
    better = sum(c.verdict == "better" for c in found)
    text = (f"{len(found) - len(worse)} of {len(found)} (data set, kernel, budget) cells hold "
            f"({better} significantly better, {len(found) - len(worse) - better} ties)")
    if worse:
        text += "; worse: " + "; ".join(f"{DATA_LABELS[c.dataset]} {KERNEL_LABELS[c.kernel]} "
                                        f"{describe(c)}" for c in worse)
    return not worse, text


CLAIMS = [Claim("At the same budget the regularized kernel PA with oldest removal is at "
                "least as accurate as the Forgetron (every data set, kernel and budget)",
                SOURCE, overall),
          *(_claim_for(d, k) for d in DRIFT_DATASETS for k in KERNELS)]
