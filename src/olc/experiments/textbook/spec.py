"""The runs of ``olc reproduce textbook``: each figure's run on the chapter's data process
with a fixed seed, and replications over seeds that measure the chapter's claims.

Learners (all from the catalogue, λ = 1 as in every code of the chapter):

- Fig. 31.3/31.4, PA classification θ ← θ + y·max(0, 1 − θᵀxy)/(‖x‖² + λ)·x (Fig. 31.2):
  ``pa-ii`` with C = 1/(2λ) (PA-II's τ = ℓ/(‖x‖² + 1/(2C))), ``fit_intercept=False`` on x
  with the appended 1 (``x(:,3)=1``), so the intercept counts in ‖x‖² as in the code.
- Fig. 31.7/31.8, AROW classification (Fig. 31.6): ``arow`` (r = λ, full Σ = I at the
  start over (x¹, x², 1)), same input; the PA of Fig. 31.8 is Fig. 31.3's.
- Fig. 31.5, PA regression with the ℓ2 loss (§31.2.2): ``pa-l2-regression`` (lam = λ).
- Fig. 31.9, AROW regression (§31.3.3): ``arow-regression`` (r = λ, full covariance).
  Both on the Gaussian basis :class:`olc.features.GaussianBasis` (σ = 0.3, centres = the
  training inputs, ``hh = 2·0.3²``), no intercept (the codes have none).

[Decision] Starting point. The regression codes start from θ₀ = ``randn(n,1)``; the
catalogue's regressors start from 0. Both updates are affine in the residual y − θᵀx with
a gain that does not depend on θ (PA: x/(‖x‖² + λ); AROW: Σx/β, Σ's update ignores y), so
learning from θ₀ on (x, y) is exactly learning from 0 on (x, y − θ₀ᵀx) and adding θ₀:
θ₀ + θ' with θ' ← θ' + ((y − θ₀ᵀx) − θ'ᵀx)·g. :func:`learn_from` does that; the tests check
it against the chapter's loop written out in NumPy.

[Decision] "Iterations" (§31.2.1: "after three iterations, almost the same solution as the
final one") are rounds of the code's ``for i=1:n`` loop, i.e. examples processed.
"""
from __future__ import annotations

import math

import numpy as np

from ... import __version__
from ...features import GaussianBasis
from ...learners import make
from ..engine import Run
from . import data as D

#: Bumped when the meaning of a stored run changes.
RESULTS_VERSION = 1
LAMBDA = 1.0              # ``l=1`` in Figs. 31.3, 31.5, 31.7, 31.9
WIDTH = 0.3               # ``hh=2*0.3^2``
PASSES_31_9 = 100         # ``for j=1:100``
SHOWN_ITERATIONS = (1, 2, 3)
FRESH_POINTS = 10_000     # fresh points of a process, where classifiers are compared
FIGURES = ("31.4", "31.5", "31.8", "31.9")
#: The chapter's claims are measured on this many replications (seeds) by default.
REPLICATIONS = 100


def derived_seed(*words) -> int:
    """A seed from integers (``numpy.random.SeedSequence``), e.g. (seed, replication)."""
    return int(np.random.SeedSequence([int(w) for w in words]).generate_state(1)[0])


def replication_seeds(seed, replications):
    return [derived_seed(seed, r) for r in range(replications)]


# -- the learners ---------------------------------------------------------------------------
def pa_classifier(lam=LAMBDA):
    return make("pa-ii", C=1.0 / (2.0 * lam), fit_intercept=False)


def arow_classifier(lam=LAMBDA):
    return make("arow", r=lam, covariance="full", fit_intercept=False)


def pa_regressor(lam=LAMBDA):
    return make("pa-l2-regression", lam=lam, fit_intercept=False)


def arow_regressor(lam=LAMBDA):
    return make("arow-regression", r=lam, covariance="full", fit_intercept=False)


def learn_from(learner, K, y, theta0, passes=1):
    """θ₀ + the weights ``learner`` learns from 0 on (K, y − Kθ₀) over ``passes`` passes in
    the given order (one compiled call on the repeated stream): the regressor started at θ₀
    (module docstring)."""
    residual = y - K @ theta0
    learner.partial_fit(np.tile(K, (passes, 1)), np.tile(residual, passes))
    return theta0 + learner.coef_.ravel()


# -- measures ---------------------------------------------------------------------------------
def predictions(theta, X):
    return np.where(X @ theta >= 0.0, 1.0, -1.0)   # olc's sign(0) = +1


def error_rate(theta, X, y):
    return float(np.mean(predictions(theta, X) != y))


def normal_angle(a, b):
    """Degrees between the normals (θ¹, θ²) of two boundaries θᵀ(x¹, x², 1) = 0, oriented
    (0: same side is positive, 180: opposite)."""
    a, b = np.asarray(a[:2], float), np.asarray(b[:2], float)
    norms = np.linalg.norm(a) * np.linalg.norm(b)
    if norms == 0.0:
        return None            # a boundary without direction (θ¹ = θ² = 0)
    c = float(a @ b) / norms
    return math.degrees(math.acos(min(1.0, max(-1.0, c))))


def crossing(theta):
    """Where the boundary crosses the x¹ axis (x² = 0): −θ³/θ¹ (None when θ¹ = 0)."""
    return None if theta[0] == 0.0 else float(-theta[2] / theta[0])


def rmse(a, b):
    return float(np.sqrt(np.mean((np.asarray(a) - np.asarray(b)) ** 2)))


# -- Fig. 31.4 --------------------------------------------------------------------------------
def pa_classification(seed, lam=LAMBDA, shown=SHOWN_ITERATIONS):
    """θ after each shown iteration and at the end, and the claim's measures: training
    error of each, the angle between θ after the last shown iteration and the final θ,
    and their agreement on fresh points of the process."""
    X, y = D.pa_classification(seed)
    learner = pa_classifier(lam)
    thetas, done = {}, 0
    for i in shown:
        learner.partial_fit(X[done:i], y[done:i], classes=[-1.0, 1.0])
        done = i
        thetas[str(i)] = learner.coef_.ravel().tolist()
    learner.partial_fit(X[done:], y[done:])
    final = learner.coef_.ravel()
    thetas["final"] = final.tolist()
    early = np.asarray(thetas[str(shown[-1])])
    Xf, _ = D.pa_classification(derived_seed(seed, 1), n=FRESH_POINTS)
    measures = {f"train_error_{k}": error_rate(np.asarray(t), X, y) for k, t in thetas.items()}
    measures.update(
        early_iterations=shown[-1],
        angle_early_final=normal_angle(early, final),
        agreement_early_final=float(np.mean(predictions(early, Xf) == predictions(final, Xf))),
        updates=int(learner.n_updates_))
    return {"X": X[:, :2], "y": y, "thetas": thetas, "measures": measures}


# -- Fig. 31.8 --------------------------------------------------------------------------------
CLASSIFIERS_31_8 = {"PA": pa_classifier, "AROW": arow_classifier}


def outliers(seed, lam=LAMBDA):
    """PA and AROW on Fig. 31.7's stream, each also on the same stream without the two
    outliers. Measures per learner: error on fresh clean points of the process
    (``clean_error``), the outliers' influence = the share of those points on which the
    learner trained with and without the outliers disagree (``influence``), the error on the
    48 inliers of the stream, the boundary's crossing of the x¹ axis (ideal: −10, midway
    between the class centres) and how the two outliers are classified."""
    X, y, out = D.arow_outliers(seed)
    Xc, yc = D.arow_clean_sample(derived_seed(seed, 2))
    thetas, measures = {}, {}
    for name, factory in CLASSIFIERS_31_8.items():
        with_outliers = factory(lam).partial_fit(X, y, classes=[-1.0, 1.0]).coef_.ravel()
        without = factory(lam).partial_fit(X[~out], y[~out], classes=[-1.0, 1.0]).coef_.ravel()
        thetas[name] = with_outliers.tolist()
        thetas[f"{name} without outliers"] = without.tolist()
        measures[name] = {
            "clean_error": error_rate(with_outliers, Xc, yc),
            "clean_error_without_outliers": error_rate(without, Xc, yc),
            "influence": float(np.mean(predictions(with_outliers, Xc)
                                       != predictions(without, Xc))),
            "inlier_error": error_rate(with_outliers, X[~out], y[~out]),
            "outliers_predicted_positive": int(np.sum(predictions(with_outliers, X[out]) > 0)),
            "crossing": crossing(with_outliers)}
    return {"X": X[:, :2], "y": y, "outlier": out, "thetas": thetas, "measures": measures}


# -- Figs. 31.5 and 31.9 ----------------------------------------------------------------------
def sinc_regression(seed, method, lam=LAMBDA, width=WIDTH, passes=PASSES_31_9):
    """Fig. 31.5 (``method="pa"``: one pass over the permuted points) or Fig. 31.9
    (``"arow"``: ``passes`` passes in the points' order) on the Gaussian basis; the fitted
    function on the chapter's grid, its RMSE against the noiseless function and on the
    training points; for AROW also the closed form it must equal (recursive least squares
    from the prior N(θ₀, I): θ = (λI + P·KᵀK)⁻¹(λθ₀ + P·Kᵀy) after P passes, by
    ``numpy.linalg.solve``) and the largest difference."""
    x, y, theta0 = D.sinc_data(seed, permute=(method == "pa"))
    basis = GaussianBasis(width=width).fit(x[:, None])
    K = basis.transform(x[:, None])
    if method == "pa":
        passes = 1
        theta = learn_from(pa_regressor(lam), K, y, theta0)
    else:
        theta = learn_from(arow_regressor(lam), K, y, theta0, passes)
    grid = D.sinc_grid()
    fit = basis.transform(grid[:, None]) @ theta
    measures = {"passes": passes, "rmse_truth": rmse(fit, D.sinc_target(grid)),
                "rmse_train": rmse(K @ theta, y),
                "rmse_start_truth": rmse(basis.transform(grid[:, None]) @ theta0,
                                         D.sinc_target(grid))}
    if method == "arow":
        n = K.shape[0]
        closed = np.linalg.solve(lam * np.eye(n) + passes * K.T @ K,
                                 lam * theta0 + passes * K.T @ y)
        measures["rls_max_abs_difference"] = float(np.max(np.abs(theta - closed)))
        measures["rls_scale"] = float(np.max(np.abs(closed)))
    return {"x": x, "y": y, "grid_fit": fit, "theta": theta, "measures": measures}


# -- the run functions (JSON-able values) ---------------------------------------------------
def _strip(result):
    return result["measures"]


def run_figure(figure, seed, lam=LAMBDA, width=WIDTH, passes=PASSES_31_9):
    if figure == "31.4":
        return pa_classification(seed, lam)
    if figure == "31.8":
        return outliers(seed, lam)
    return sinc_regression(seed, "pa" if figure == "31.5" else "arow", lam, width, passes)


def run_replications(figure, seeds, lam=LAMBDA, width=WIDTH, passes=PASSES_31_9):
    """The measures of ``figure``'s run for each seed (no arrays)."""
    return [_strip(run_figure(figure, s, lam, width, passes)) for s in seeds]


def runs(figures, seed, replications, lam=LAMBDA, width=WIDTH, passes=PASSES_31_9):
    """Per figure: its run at ``seed`` and its replications (one engine Run each)."""
    base = {"reproduction": "textbook", "results_version": RESULTS_VERSION,
            "olc": __version__, "lam": lam, "width": width, "passes_31_9": passes}
    out = []
    for f in figures:
        out.append(Run(dict(base, job="figure", figure=f, seed=seed), run_figure,
                       (f, seed, lam, width, passes), f"figure-{f}"))
        if replications:
            seeds = replication_seeds(seed, replications)
            out.append(Run(dict(base, job="replications", figure=f, seed=seed,
                                replications=replications), run_replications,
                           (f, seeds, lam, width, passes), f"replications-{f}"))
    return out
