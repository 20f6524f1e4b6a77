"""The engine specs of ``olc reproduce kernel-budget``.

**Drift part** (Shen & Dietterich 2009, §5's proposal, on their §4 protocol): per data set one
spec, the drift stream of ``olc reproduce shen-dietterich``, :class:`TuneThenTest` (each
learner's own parameters tuned on the first half by its online mistakes there, the winner
continues on the second half, which alone is measured), 40 trials. Learners, each with an
RBF and a polynomial kernel, no intercept (the paper's f has none), the budgeted ones at
every budget of :data:`BUDGETS` (a sweep: one configuration per budget):

* the regularized kernel PA (problem (3.1) in kernel form) and the L2-constrained kernel PA
  (Lemma 3.2), with oldest removal (§5), updated on mistakes (§2: "we do a PA update when
  the classifier makes an error"), α and β tuned;
* the self-tuned Forgetron (no parameter); the randomized budget perceptron (its seed the
  trial's); kernel NORMA with the budget (oldest removed), λ tuned, η fixed;
* the unbudgeted kernel perceptron and kernel PA (Crammer et al.'s, hinge updates).

[Decision] Kernel parameters are fixed per data set, not tuned (tuning them would multiply
every grid; the comparison is between budget rules at one kernel): RBF γ = 1/median‖x − z‖²
and polynomial (γ·x·z + 1)³ with γ = 1/mean‖x‖², measured on trial 0's stream (300 rows;
USPS median‖x − z‖² 51, mean‖x‖² 53; 20 Newsgroups after the vocabulary cut 166 and 109),
rounded: USPS γ = 0.02 for both; 20NG RBF γ = 0.006, polynomial γ = 0.01.

**Budget table** (a9a, w8a): one spec per data set, :class:`~.protocols.PassThenTest` over 10
permutations of the training file; every budgeted learner at B = 100 and 500, the unbudgeted
kernel perceptron and PA, FOGD and NOGD at the same B, LinearSVC and SVC(rbf) (on a
subsample). All kernels RBF with γ from :func:`.data.select_gamma`. [Decision] The online
learners keep their catalogue defaults (one pass, nothing tuned; listed in ``summary.md``);
the SVMs use C = 1.
"""
from __future__ import annotations

from ..engine.protocols import TuneThenTest
from ..engine.spec import ExperimentSpec, LearnerSpec
from . import data as kb_data
from .models import linear_svc, rbf_svc, seeded_learner
from .protocols import TABLE_METRICS, PassThenTest

SEED = 0
TRIALS = 40
TABLE_TRIALS = 10
BUDGETS = (25, 50, 100, 200)
TABLE_BUDGETS = (100, 500)
SVC_SUBSAMPLE = 5000
#: ``--quick``: 3 trials on drift streams of a quarter of the rows per phase, 3 permutations
#: of 2,000-row slices of a9a and w8a (SVC on 1,000 of them).
QUICK = {"trials": 3, "table_trials": 3, "limit": 2000, "svc_subsample": 1000,
         "rows_per_phase": {"usps": 125, "20newsgroups": 200}}

KERNELS = ("rbf", "poly")
DATA_LABELS = {"usps": "USPS", "20newsgroups": "20 Newsgroups", "a9a": "a9a", "w8a": "w8a"}
KERNEL_LABELS = {"rbf": "RBF", "poly": "polynomial"}
KERNEL_PARAMS = {
    "usps": {"rbf": {"kernel": "rbf", "gamma": 0.02},
             "poly": {"kernel": "poly", "gamma": 0.02, "degree": 3, "coef0": 1.0}},
    "20newsgroups": {"rbf": {"kernel": "rbf", "gamma": 0.006},
                     "poly": {"kernel": "poly", "gamma": 0.01, "degree": 3, "coef0": 1.0}},
}

ALPHA_GRID = (0.0001, 0.001, 0.01, 0.1)
L2_BETA_GRID = (2.0, 5.0, 12.0, 30.0)
NORMA_LAMBDA_GRID = (0.001, 0.01, 0.1)
NORMA_ETA = 0.5

REGULARIZED = "Regularized kernel PA"
L2 = "L2-constrained kernel PA"
FORGETRON = "Forgetron"
RANDOMIZED = "Randomized budget perceptron"
NORMA = "Kernel NORMA"
PERCEPTRON = "Kernel perceptron (no budget)"
PA = "Kernel PA (no budget)"
BUDGETED = (REGULARIZED, L2, FORGETRON, RANDOMIZED, NORMA)
UNBUDGETED = (PERCEPTRON, PA)

_MISTAKE = {"update": "mistake"}


def group(method, kernel):
    """The engine label of a learner at one kernel (its budget sweep shares it)."""
    return f"{method} · {KERNEL_LABELS[kernel]}"


def config_label(method, kernel, budget=None):
    """The label of one configuration (the engine's: sweep point in parentheses)."""
    g = group(method, kernel)
    return g if budget is None else f"{g} (budget={budget})"


def drift_learners(dataset, budgets=BUDGETS, kernels=KERNELS):
    out = []
    for k in kernels:
        kp = KERNEL_PARAMS[dataset][k]
        sweep = {"budget": tuple(budgets)}
        out += [
            LearnerSpec("kernel-regularized-pa", params={**kp, **_MISTAKE},
                        tune={"alpha": ALPHA_GRID}, sweep=sweep, label=group(REGULARIZED, k)),
            LearnerSpec("kernel-l2-constrained-pa", params={**kp, **_MISTAKE},
                        tune={"beta": L2_BETA_GRID}, sweep=sweep, label=group(L2, k)),
            LearnerSpec("forgetron", params=dict(kp), sweep=sweep, label=group(FORGETRON, k)),
            LearnerSpec("randomized-budget-perceptron", method=seeded_learner,
                        params={"learner": "randomized-budget-perceptron", **kp},
                        sweep=sweep, label=group(RANDOMIZED, k)),
            LearnerSpec("kernel-norma", params={**kp, "eta": NORMA_ETA},
                        tune={"lam": NORMA_LAMBDA_GRID}, sweep=sweep, label=group(NORMA, k)),
            LearnerSpec("kernel-perceptron", params=dict(kp), label=group(PERCEPTRON, k)),
            LearnerSpec("kernel-pa", params=dict(kp), label=group(PA, k)),
        ]
    return out


def drift_spec(dataset, trials=TRIALS, budgets=BUDGETS, kernels=KERNELS, seed=SEED,
               rows_per_phase=None):
    return ExperimentSpec(
        name=f"kernel-budget-drift-{dataset}",
        streams=[kb_data.drift_stream(dataset, rows_per_phase)],
        learners=drift_learners(dataset, budgets, kernels), protocol=TuneThenTest(0.5),
        trials=trials, seed=seed, metrics=("mistakes", "error_rate", "seconds"),
        title=f"Kernel learners on a budget, Shen & Dietterich's drift stream: {dataset}")


# -- the budget table --------------------------------------------------------------------
#: (label, catalogue name, extra parameters, seeded). The budget is the ``budget`` parameter,
#: FOGD's its number of random features ``n_components`` (:data:`BUDGET_PARAMETER`).
TABLE_BUDGETED = (
    ("Forgetron", "forgetron", {}, False),
    ("Randomized budget perceptron", "randomized-budget-perceptron", {}, True),
    ("Stoptron", "stoptron", {}, False),
    ("Kernel perceptron, oldest removed", "kernel-perceptron", {}, False),
    ("Kernel PA, oldest removed", "kernel-pa", {}, False),
    ("Regularized kernel PA, oldest removed", "kernel-regularized-pa", {}, False),
    ("L2-constrained kernel PA, oldest removed", "kernel-l2-constrained-pa", {}, False),
    ("Kernel NORMA", "kernel-norma", {}, False),
    ("Projectron (η = 0.1)", "projectron", {"eta": 0.1}, False),
    ("Projectron++ (η = 0.1)", "projectron++", {"eta": 0.1}, False),
    ("Budget PA", "budget-pa", {}, False),
    ("Kernel OBPM", "kernel-obpm", {}, True),
    ("FOGD (D = B random features)", "fogd", {}, True),
    ("NOGD", "nogd", {}, False),
)
TABLE_UNBUDGETED = (("Kernel perceptron (no budget)", "kernel-perceptron"),
                    ("Kernel PA (no budget)", "kernel-pa"))
LINEAR_SVC = "LinearSVC (batch)"
#: [Decision] Left out of the table unless ``--skip`` says otherwise: the Projectron's pool is
#: bounded by η, not by B, and each of its updates costs O(pool²) (the inverse Gram matrix).
#: Measured at η = 0.1, γ = 0.3 on 5,000 permuted a9a rows: 1,036 rows stored, 1.5 s CPU
#: (Projectron++: 1,041, 2.5 s), so a pass over 32,561 rows grows far beyond B = 500.
DEFAULT_SKIP = ("projectron", "projectron++")
#: [Decision] FOGD's B is its number of random features D (memory: D directions of d
#: features against B stored rows of d features).
BUDGET_PARAMETER = {"fogd": "n_components"}
SKIP_REASON = {"projectron": "its pool is bounded by η, not by B, and an update costs "
                             "O(pool²): at η = 0.1 it stored 1,036 of 5,000 permuted a9a rows "
                             "(1.5 s CPU), so a full pass outgrows B = 500 by far; "
                             "`--skip ''` runs it",
               "projectron++": "as the Projectron (1,041 of 5,000 rows, 2.5 s CPU); "
                               "`--skip ''` runs it"}


def svc_label(subsample):
    return f"SVC rbf (batch, {subsample} rows)" if subsample else "SVC rbf (batch)"


def registered(name):
    from ...learners.registry import info
    from ...learners.registry.lookup import UnknownAlgorithmError

    try:
        info(name)
    except UnknownAlgorithmError:
        return False
    return True


def _params_of(name):
    from ...learners.registry import info

    return info(name).parameters


def table_learners(gamma, budgets=TABLE_BUDGETS, subsample=SVC_SUBSAMPLE, skip=()):
    """(learner specs, {label: why skipped}) — a catalogue name this build lacks, or one in
    ``skip``, is skipped."""
    kp = {"kernel": "rbf", "gamma": gamma}
    out, skipped = [], {}
    for label, name, extra, seeded in TABLE_BUDGETED:
        if name in skip:
            skipped[label] = SKIP_REASON.get(name, f"'{name}' left out by --skip")
            continue
        if not registered(name):
            skipped[label] = f"'{name}' is not in this build's catalogue"
            continue
        accepted = _params_of(name)
        params = {k: v for k, v in kp.items() if k in accepted}
        params.update(extra)
        # a learner without a budget parameter (the Projectron: its η bounds the pool)
        # runs once, its pool size reported as its support vectors
        key = BUDGET_PARAMETER.get(name, "budget")
        sweep = {key: tuple(budgets)} if key in accepted else {}
        if seeded and "seed" in accepted:
            out.append(LearnerSpec(name, method=seeded_learner, label=label,
                                   params={"learner": name, **params}, sweep=sweep))
        else:
            out.append(LearnerSpec(name, params=params, label=label, sweep=sweep))
    for label, name in TABLE_UNBUDGETED:
        out.append(LearnerSpec(name, params=dict(kp), label=label))
    out.append(LearnerSpec("linear-svc", method=linear_svc, params={"C": 1.0},
                           label=LINEAR_SVC))
    out.append(LearnerSpec("svc", method=rbf_svc, label=svc_label(subsample),
                           params={"C": 1.0, "gamma": gamma, "subsample": subsample}))
    return out, skipped


def table_spec(dataset, gamma, trials=TABLE_TRIALS, budgets=TABLE_BUDGETS, seed=SEED,
               limit=None, subsample=SVC_SUBSAMPLE, skip=()):
    if limit is not None and kb_data.train_size(dataset, limit) <= subsample:
        subsample = None     # the slice is small enough: SVC sees all its training rows
    learners, _ = table_learners(gamma, budgets, subsample, skip)
    return ExperimentSpec(
        name=f"kernel-budget-table-{dataset}", streams=[kb_data.table_stream(dataset, limit)],
        learners=learners, protocol=PassThenTest(), trials=trials, seed=seed,
        metrics=TABLE_METRICS, title=f"Kernel learners on a budget: {dataset}")
