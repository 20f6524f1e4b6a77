"""The runs of ``olc reproduce lecture-bounds``: one per table row, each a generated
sequence (:mod:`.data`), a catalogue learner run on it, and the bound of the notes
(:mod:`.paper`) computed from quantities measured on the sequence.

Learners: ``perceptron`` (no bias, η = 1, update on mistakes only: the notes' Algorithm 3),
``winnow`` (β = 1, threshold N = the number of features: Algorithm 4 as analysed),
``weighted-majority`` and ``randomized-weighted-majority`` (η as the row says; Algorithms
1–2).

[Decision] Mistake bounds hold for *every* sequence, so the Perceptron and Winnow rows cycle
the sequence until a pass without mistakes (pass 1 in order, later passes permuted by the
row's seed): the measured M is every mistake the learner will ever make on that sequence,
the strictest test. A pass cap of ⌊bound⌋ + 2 cannot be reached unless the bound fails.

[Decision] RWM's expected mistakes are computed exactly, not sampled. RWM's weights do not
depend on its draws (every wrong expert is penalised whatever was predicted, Algorithm 2
line 9) and equal WM's with the same η (Algorithm 1 line 8), so the probability that RWM
errs at round t is Σ_{n wrong} w_n/Φ = (1 − y_t·s_t)/2, where s_t = Σ x_n w_n/Φ is
Weighted Majority's decision value before round t's update (its ``score``). E[M] is the sum
over t. The learner's own draws, averaged over seeds, are shown beside it as a check.
"""
from __future__ import annotations

import math

import numpy as np

from ... import __version__
from ...learners import make, max_margin
from ..engine import Run
from ..engine.aggregate import t_interval
from . import paper as B
from . import data as G

RESULTS_VERSION = 1
ROWS = 2000                                   # T, the sequences' length
PERCEPTRON_GRID = tuple((d, g) for d in (2, 20, 200) for g in (0.05, 0.1, 0.2))
WINNOW_GRID = tuple((N, k) for N in (64, 1024) for k in (1, 4, 16))
#: (N experts, the best expert's mistakes as a fraction of T, η)
EXPERT_GRID = tuple((N, f, 0.5) for N in (10, 100, 1000) for f in (0.0, 0.02, 0.1)) + \
    tuple((100, f, 0.2) for f in (0.0, 0.02, 0.1))
ADVERSARIAL_DIMENSIONS = (10, 100, 1000)
RWM_SEEDS = 100
BOUNDS = ("perceptron", "winnow", "weighted-majority", "randomized-weighted-majority",
          "adversarial")
_FAMILY = {name: i for i, name in enumerate(BOUNDS)}


def derived_seed(*words) -> int:
    return int(np.random.SeedSequence([int(w) for w in words]).generate_state(1)[0])


def as_signs(y, positive):
    return np.where(np.asarray(y) == positive, 1, -1).astype(np.int8)


def until_clean(learner, X, y, classes, order_seed, max_passes):
    """Passes of predict-then-learn (pass 1 in order, later passes permuted) until one
    makes no mistake or ``max_passes`` is reached. Returns (mistakes per pass, mistakes on
    the positive class, updates, converged)."""
    rng = np.random.default_rng(order_seed)
    signs = as_signs(y, classes[1])
    per_pass, positive, updates = [], 0, 0
    for p in range(max_passes):
        order = np.arange(len(y)) if p == 0 else rng.permutation(len(y))
        rec = learner.predict_then_learn(X[order], y[order], classes=classes)
        wrong = rec.pred != signs[order]
        per_pass.append(int(np.count_nonzero(wrong)))
        positive += int(np.count_nonzero(wrong & (signs[order] > 0)))
        updates += int(np.count_nonzero(rec.updated))
        if per_pass[-1] == 0:
            return per_pass, positive, updates, True
    return per_pass, positive, updates, False


def largest_margin_through_origin(X, y):
    """γ* = max over unit w of min_t y_t w·x_t: the exact hard-margin SVM (olc.max_margin,
    with bias) of the data and its reflection (−x, −y), whose optimal bias is 0 by
    symmetry, so its margin is the margin through the origin."""
    solution = max_margin(np.vstack([X, -X]), np.concatenate([y, -y]))
    return float(solution.margin) if solution.separable else None


def _perceptron():
    return make("perceptron", fit_intercept=False, eta=1.0, update="mistake")


def _perceptron_on(X, y, order_seed, bound, with_max_margin):
    per_pass, _, updates, converged = until_clean(_perceptron(), X, y, np.array([-1.0, 1.0]),
                                                  order_seed, int(math.floor(bound)) + 2)
    out = {"mistakes": sum(per_pass), "passes": len(per_pass), "converged": converged,
           "updates": updates, "first_pass_mistakes": per_pass[0]}
    if with_max_margin:
        out["gamma_max"] = largest_margin_through_origin(X, y)
    return out


def perceptron_row(T, d, gamma, seed, with_max_margin=True):
    X, y, w = G.margin_sequence(T, d, gamma, derived_seed(seed, 0))
    R = float(np.linalg.norm(X, axis=1).max())
    g = float(np.min(y * (X @ w)))
    bound = B.perceptron(R, g)
    row = {"T": T, "d": d, "gamma_target": gamma, "R": R, "gamma": g, "bound": bound}
    row.update(_perceptron_on(X, y, derived_seed(seed, 1), bound, with_max_margin))
    if row.get("gamma_max"):
        row["bound_max_margin"] = B.perceptron(R, row["gamma_max"])
    return row


def adversarial_row(d, seed, with_max_margin=True):
    X, y, w = G.orthonormal_adversary(d)
    R = float(np.linalg.norm(X, axis=1).max())
    g = float(np.min(y * (X @ w)))
    bound = B.perceptron(R, g)
    row = {"T": int(d), "d": int(d), "R": R, "gamma": g, "bound": bound}
    row.update(_perceptron_on(X, y, derived_seed(seed, 1), bound, with_max_margin))
    if row.get("gamma_max"):
        row["bound_max_margin"] = B.perceptron(R, row["gamma_max"])
    return row


def winnow_row(T, N, k, seed):
    X, y, relevant = G.disjunction_sequence(T, N, k, derived_seed(seed, 0))
    bound = B.winnow(k, N)
    per_pass, positive, updates, converged = until_clean(
        make("winnow", beta=1.0, N=None), X, y, np.array([0.0, 1.0]), derived_seed(seed, 1),
        int(math.floor(bound)) + 2)
    M = sum(per_pass)
    return {"T": T, "N": N, "k": k, "relevant": relevant, "positive_share": float(y.mean()),
            "mistakes": M, "mistakes_positive": positive, "mistakes_negative": M - positive,
            "bound": bound, "bound_negative": B.winnow_negative(positive),
            "passes": len(per_pass), "converged": converged, "updates": updates}


def wm_mistakes_and_rwm_expectation(X, y, eta):
    """(Weighted Majority's mistakes, Randomized WM's exact expected mistakes) on expert
    predictions X ∈ {−1,+1}^{T×N}, labels y ∈ {−1,+1}, from one WM run: E[M] = Σ_t (1 −
    y_t·s_t)/2 with s_t WM's decision value (module docstring)."""
    rec = make("weighted-majority", eta=eta).predict_then_learn(X, y,
                                                                classes=np.array([-1.0, 1.0]))
    wm = int(np.count_nonzero(rec.pred != as_signs(y, 1.0)))
    return wm, float(np.sum((1.0 - y * rec.score) / 2.0))


def experts_row(T, N, fraction, eta, seed, rwm_seeds=RWM_SEEDS):
    m_design = int(round(fraction * T))
    X, y, best = G.expert_sequence(T, N, m_design, derived_seed(seed, 0))
    m = int((X != y[:, None]).sum(axis=0).min())
    classes = np.array([-1.0, 1.0])
    wm, expected = wm_mistakes_and_rwm_expectation(X, y, eta)
    sampled = [int(np.count_nonzero(
        make("randomized-weighted-majority", eta=eta, seed=s)
        .predict_then_learn(X, y, classes=classes).pred != as_signs(y, 1.0)))
        for s in range(rwm_seeds)]
    mc = t_interval(sampled)
    return {"T": T, "N": N, "eta": eta, "m_design": m_design, "best_expert": best, "m": m,
            "wm_mistakes": wm, "wm_bound": B.weighted_majority(m, N, eta),
            "wm_bound_lw": B.weighted_majority_lw(m, N, eta),
            "rwm_expected": expected, "rwm_bound": B.randomized_weighted_majority(m, N, eta),
            "rwm_sampled_mean": mc.mean, "rwm_sampled_ci95": mc.half_width,
            "rwm_seeds": rwm_seeds}


def runs(bounds, seed, T=ROWS, rwm_seeds=RWM_SEEDS, with_max_margin=True):
    """One engine Run per table row of the chosen ``bounds``."""
    base = {"reproduction": "lecture-bounds", "results_version": RESULTS_VERSION,
            "olc": __version__, "seed": seed}
    out = []
    if "perceptron" in bounds:
        for i, (d, g) in enumerate(PERCEPTRON_GRID):
            s = derived_seed(seed, _FAMILY["perceptron"], i)
            out.append(Run(dict(base, job="perceptron", T=T, d=d, gamma=g,
                                max_margin=with_max_margin), perceptron_row,
                           (T, d, g, s, with_max_margin), f"perceptron-d{d}-g{g}"))
    if "winnow" in bounds:
        for i, (N, k) in enumerate(WINNOW_GRID):
            s = derived_seed(seed, _FAMILY["winnow"], i)
            out.append(Run(dict(base, job="winnow", T=T, N=N, k=k), winnow_row,
                           (T, N, k, s), f"winnow-N{N}-k{k}"))
    if "weighted-majority" in bounds or "randomized-weighted-majority" in bounds:
        for i, (N, f, eta) in enumerate(EXPERT_GRID):
            s = derived_seed(seed, _FAMILY["weighted-majority"], i)
            out.append(Run(dict(base, job="experts", T=T, N=N, fraction=f, eta=eta,
                                rwm_seeds=rwm_seeds), experts_row,
                           (T, N, f, eta, s, rwm_seeds), f"experts-N{N}-m{f}-eta{eta}"))
    if "adversarial" in bounds:
        for i, d in enumerate(ADVERSARIAL_DIMENSIONS):
            s = derived_seed(seed, _FAMILY["adversarial"], i)
            out.append(Run(dict(base, job="adversarial", d=d, max_margin=with_max_margin),
                           adversarial_row, (d, s, with_max_margin), f"adversarial-d{d}"))
    return out
