"""§4.1 of Harrington et al. 2003 ("Parameter selection"): Table 1 and Figure 1 on the
artificial problem of :mod:`.data`, as engine runs (:class:`olc.experiments.engine.Run`).

One run = one Monte Carlo run (trial) × one learner family (Perceptron; ALMA's whole (B, C)
grid; OBPM's whole τ grid for one N), on all noise levels: the trial's data are drawn once
(:func:`~.data.artificial_problem`), and every configuration learns the training sample
(one epoch, online, in order) and is then measured with its last weights (§4: "Training and
test errors and margins ... were measured using the last weights as the hypothesis"):

- ``train_mistakes``: errors of the final hypothesis on the training sample, against the
  labels it learned (noisy when e > 0);
- ``test_error``: its error rate on the (clean) test sample;
- ``margin``: γ_z(w̃_T), :func:`normalized_margin` on the training sample;
- ``updates``: updates made during the epoch (OBPM: of all its members together, §4.1's
  "total number of updates of all the perceptrons");
- ``online_mistakes``: prediction mistakes made while learning.

Parameter selection (:func:`select`) follows §4: "the final reported parameters were chosen
based on the best training error for that experiment" — one choice per noise level and
algorithm, over the Monte Carlo runs. [Decision] "Best training error" = the lowest mean
over the runs of the final hypothesis' training error (so the test sample never enters the
choice). Ties (e.g. OBPM configurations that all reach zero training error without noise)
go to the larger mean training margin γ_z(w̃_T) — the quantity the paper's method aims to
enlarge (§2) — then to the first in grid order. OBPM's choice is among N ∈ {100, 200} (§4:
"N ∈ {100, 200}"); N = 25 and 50 run for Figure 1 only.
"""
from __future__ import annotations

import math

import numpy as np

from ... import __version__
from ..engine import Run
from ..engine.store import jsonable
from .data import DIMENSION, MARGIN, NOISE_LEVELS, TEST_SIZE, TRAIN_SIZE, artificial_problem

#: §4: "τ (ranging from 0.01 to 0.5 in non-uniform steps)"; includes every τ of Tables 1-2.
TAUS = (0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)
N_SELECTION = (100, 200)          # §4: "N ∈ {100, 200}"
N_FIGURE = (25, 50, 100, 200)     # Figure 1 "for several N" (§4.1 names 25 and 100)
#: §4: "B was adjusted from 0.5 up to 20 in non-uniform steps" (includes every B the paper
#: reports), "C ∈ {√2/4, √2/2, √2, 2√2}".
ALMA_B = (0.5, 0.625, 0.83, 1.0, 1.11, 1.25, 1.5, 2.0, 3.33, 5.0, 10.0, 20.0)
ALMA_C = (math.sqrt(2) / 4, math.sqrt(2) / 2, math.sqrt(2), 2 * math.sqrt(2))
FAMILIES = ("Perceptron", "ALMA", "OBPM")
RESULTS_VERSION = 1
CLASSES = np.array([-1.0, 1.0])


def alma_params(B, C, fit_intercept):
    """olc's ``alma2`` parameters for the paper's ALMA(B, C).

    §2: ALMA is the generalised perceptron with ρ_k = (1 − δ)B/√k and η_k = C/√k (Gentile
    2001's ALMA₂ with α = δ). The paper reports and tunes only B and C. [Decision] Its B is
    the update-margin constant itself, ρ_k = B/√k (a fixed, unreported δ would only rescale
    the B grid). Gentile's rule uses α and B only through (1 − α)·B, so this is exactly
    ``alma2(alpha=0.5, B=2B, C=C)``."""
    return {"alpha": 0.5, "B": 2.0 * float(B), "C": float(C), "fit_intercept": fit_intercept}


def obpm_params(tau, N, fit_intercept, seed=None):
    """olc's ``obpm`` parameters for the paper's OBPM(τ, N): perceptron members with η = 1
    (§3: "we take 𝓛 the base learner to be the perceptron update rule and fix η = 1")."""
    out = {"N": int(N), "tau": float(tau), "base": "perceptron",
           "base_params": {"fit_intercept": fit_intercept}}
    if seed is not None:
        out["seed"] = int(seed) % 2**53
    return out


def normalized_margin(X, y, coef, intercept=0.0):
    """γ_z(w) of Harrington et al. 2003, §1: min_i y_i(w·x_i)/‖w‖₂ over the sample z — the
    smallest signed distance of an example to the hyperplane of w (negative when w
    misclassifies some example). A bias b is the weight of an extra attribute +1
    (footnote 4): the margin is then min_i y_i(w·x_i + b)/‖(w, b)‖₂. None when w = 0 (and
    b = 0), where the ratio is undefined.

    [Decision] Figure 1(b)'s γ_z(w̃_T) is taken on the training sample z (z is the training
    sequence throughout the paper, and "margins ... were measured using the last weights"),
    with the labels the learner saw; Figure 1 is noise-free, so those are the true ones."""
    coef = np.asarray(coef, dtype=np.float64).ravel()
    b = float(np.ravel(intercept)[0]) if np.ndim(intercept) else float(intercept)
    norm = math.hypot(float(np.linalg.norm(coef)), b)
    if norm == 0.0:
        return None
    scores = np.asarray(X @ coef).ravel() + b
    return float(np.min(np.asarray(y, dtype=np.float64) * scores)) / norm


def _measure(learner, problem, y_learned):
    record = learner.predict_then_learn(problem.X_train, y_learned, classes=CLASSES)
    coef = learner.coef_.ravel()
    b = float(np.ravel(learner.intercept_)[0])
    train = np.where(problem.X_train @ coef + b >= 0.0, 1.0, -1.0)
    test = np.where(problem.X_test @ coef + b >= 0.0, 1.0, -1.0)
    obpm = type(learner).__name__ == "OnlineBayesPointMachine"
    return {"train_mistakes": int(np.count_nonzero(train != y_learned)),
            "test_error": float(np.count_nonzero(test != problem.y_test)) / len(test),
            "margin": normalized_margin(problem.X_train, y_learned, coef, b),
            "updates": int(np.sum(record.aux)) if obpm else int(np.count_nonzero(
                record.updated)),
            "online_mistakes": int(np.count_nonzero(record.pred != y_learned))}


def configurations(family, N=None, learner_seed=None):
    """[(paper-level parameters, olc name, olc parameters)] of one family's grid."""
    if family == "Perceptron":
        return [({}, "perceptron", {"eta": 1.0, "fit_intercept": False})]
    if family == "ALMA":
        return [({"B": B, "C": C}, "alma2", alma_params(B, C, False))
                for B in ALMA_B for C in ALMA_C]
    if family == "OBPM":
        return [({"tau": tau, "N": N}, "obpm", obpm_params(tau, N, False, learner_seed))
                for tau in TAUS]
    raise ValueError(f"unknown family {family!r}; known: {', '.join(FAMILIES)}")


def run_trial(trial, seed, learner_seed, family, N=None, sizes=(TRAIN_SIZE, TEST_SIZE),
              noise_levels=NOISE_LEVELS):
    """One engine run: every configuration of ``family`` (for OBPM: of the given N) on
    every noise level of Monte Carlo run ``trial`` (data from ``seed``); a list of
    records."""
    from ...learners import make

    problem = artificial_problem(seed, DIMENSION, MARGIN, *sizes)
    records = []
    for noise in noise_levels:
        y_learned = problem.noisy_train_labels(noise)
        for paper_params, name, params in configurations(family, N, learner_seed):
            rec = {"trial": trial, "noise": noise, "algorithm": family,
                   "params": paper_params}
            rec.update(_measure(make(name, **params), problem, y_learned))
            records.append(rec)
    return records


def _check(value):
    if not isinstance(value, list) or not value or not all(isinstance(r, dict) for r in value):
        return "not a list of records"
    return None


def runs(trials, seed, sizes=(TRAIN_SIZE, TEST_SIZE)):
    """The engine runs of §4.1: per trial, Perceptron, ALMA, and OBPM for each N of
    :data:`N_FIGURE` (trial t's data from ``stream_seed(seed, t)``, OBPM's draws from
    ``learner_seed(seed, t)``)."""
    from ..engine.spec import learner_seed, stream_seed

    base = {"results_version": RESULTS_VERSION, "olc": __version__, "part": "table-1",
            "problem": {"d": DIMENSION, "m": MARGIN, "n_train": sizes[0],
                        "n_test": sizes[1], "noise": list(NOISE_LEVELS)},
            "grids": {"tau": list(TAUS), "B": list(ALMA_B), "C": list(ALMA_C)}}
    out = []
    for t in range(trials):
        ss, ls = stream_seed(seed, t), learner_seed(seed, t)
        for family, N in [("Perceptron", None), ("ALMA", None),
                          *(("OBPM", n) for n in N_FIGURE)]:
            key = dict(base, trial=t, seed=seed, stream_seed=ss, learner_seed=ls,
                       family=family, N=N)
            name = f"table-1/{family}{'' if N is None else f'-N{N}'}/trial{t}"
            out.append(Run(jsonable(key), run_trial, (t, ss, ls, family, N, tuple(sizes)),
                           name, _check))
    return out


# -- aggregation -------------------------------------------------------------------------

def _by_config(records, family, noise):
    groups = {}
    for r in records:
        if r["algorithm"] == family and r["noise"] == noise:
            groups.setdefault(tuple(sorted(r["params"].items())), []).append(r)
    return groups


def select(records, family, noise):
    """The configuration §4 would report for ``family`` at label noise ``noise``: (paper
    parameters, its records), by the rule of the module docstring; None without records."""
    groups = _by_config(records, family, noise)
    if family == "OBPM":
        groups = {k: v for k, v in groups.items() if dict(k)["N"] in N_SELECTION}
    best = None
    for order, (key, rs) in enumerate(groups.items()):
        margins = [r["margin"] for r in rs if r["margin"] is not None]
        score = (sum(r["train_mistakes"] for r in rs) / len(rs),
                 -(sum(margins) / len(margins)) if margins else math.inf, order)
        if best is None or score < best[0]:
            best = (score, dict(key), rs)
    return None if best is None else (best[1], best[2])


def config_records(records, family, noise, **params):
    """The records of one configuration (e.g. ``tau=0.3, N=100``) at ``noise``."""
    return [r for r in records if r["algorithm"] == family and r["noise"] == noise and
            all(r["params"].get(k) == v for k, v in params.items())]
