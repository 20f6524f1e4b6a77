"""Independent references for the exactness tests: convex programs solved by cvxpy/Clarabel
and a small separable-stream generator. Nothing here imports olc: these are the yardsticks
the library is measured against."""
import cvxpy as cp
import numpy as np

# Clarabel at tight tolerances: on these tiny, well-scaled problems it reaches ~1e-13
# relative accuracy, far inside the 1e-7 the tests allow.
_CLARABEL = dict(tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12, tol_ktratio=1e-10,
                 max_iter=500)


def solve(problem):
    problem.solve(solver=cp.CLARABEL, **_CLARABEL)
    assert problem.status == cp.OPTIMAL, f"reference solver failed: {problem.status}"
    return problem.value


# -- Passive-Aggressive: the defining QPs (Crammer et al. 2006, Eqs. 2, 4, 5) ---------------

def pa_qp(w, x, y, variant, C=None, bias=0.0):
    """argmin over w' of the PA problem with the bias held fixed at ``bias``:

    PA    : ½‖w'−w‖²          s.t. 1 − y(w'·x + bias) ≤ 0
    PA-I  : ½‖w'−w‖² + Cξ     s.t. 1 − y(w'·x + bias) ≤ ξ, ξ ≥ 0
    PA-II : ½‖w'−w‖² + Cξ²    s.t. 1 − y(w'·x + bias) ≤ ξ
    """
    # Solved for the step δ = w' − w (same problem, better conditioned when ‖w‖ ≫ ‖δ‖):
    # y(w'·x + bias) = y(w·x + bias) + y δ·x.
    d = w.shape[0]
    delta = cp.Variable(d)
    margin = y * (float(w @ x) + bias) + y * (x @ delta)
    obj = 0.5 * cp.sum_squares(delta)
    if variant == "pa":
        cons = [1 - margin <= 0]
    elif variant == "pa-i":
        xi = cp.Variable()
        obj = obj + C * xi
        cons = [1 - margin <= xi, xi >= 0]
    elif variant == "pa-ii":
        xi = cp.Variable()
        obj = obj + C * cp.square(xi)
        cons = [1 - margin <= xi]
    else:  # pragma: no cover
        raise ValueError(variant)
    solve(cp.Problem(cp.Minimize(obj), cons))
    return w + delta.value


# -- Maximum margin (Ho-Nguyen et al. 2025, Eq. 2 / Lemma 3.1 / Eq. 3) -------------------------

def svm_max_margin(X, y):
    """Hard-margin SVM with bias, min ½‖w‖² s.t. yᵢ(w·xᵢ + b) ≥ 1. Returns the normalized
    max-margin classifier (w/‖w‖, b/‖w‖) and the margin γ = 1/‖w‖ (Lemma 3.1 proof)."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    # Scale the problem so that the data have unit size: Clarabel's tolerances are absolute.
    scale = max(np.abs(X).max(), 1.0)
    Xs = X / scale
    w = cp.Variable(X.shape[1])
    b = cp.Variable()
    solve(cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w)),
                     [cp.multiply(y, Xs @ w + b) >= 1]))
    nw = np.linalg.norm(w.value)
    # Undo the scaling: w·(x/s) + b = (w/s)·x + b, so the unit normal is unchanged and the
    # margin and offset scale by s.
    return w.value / nw, float(b.value) / nw * scale, scale / nw


def nearest_points(V_pos, V_neg):
    """Eq. (3): min ‖p − q‖ over p ∈ conv(V₊), q ∈ conv(V₋). Returns (p, q)."""
    V_pos = np.atleast_2d(np.asarray(V_pos, dtype=float))
    V_neg = np.atleast_2d(np.asarray(V_neg, dtype=float))
    lam = cp.Variable(V_pos.shape[0], nonneg=True)
    mu = cp.Variable(V_neg.shape[0], nonneg=True)
    solve(cp.Problem(cp.Minimize(cp.sum_squares(V_pos.T @ lam - V_neg.T @ mu)),
                     [cp.sum(lam) == 1, cp.sum(mu) == 1]))
    return V_pos.T @ lam.value, V_neg.T @ mu.value


# -- data -------------------------------------------------------------------------------------

def separable_stream(rng, n, d, margin=0.2, spread=2.0, bias=None):
    """n points, labels from a random unit (w*, b*) with |w*·x + b*| ≥ margin (so the true
    max margin is ≥ margin), b* ≠ 0. Both labels are guaranteed among the first two rows."""
    w = rng.normal(size=d)
    w /= np.linalg.norm(w)
    b = float(bias) if bias is not None else float(rng.uniform(0.5, 1.5) * rng.choice([-1, 1]))
    X, y = [], []
    while len(X) < n:
        x = rng.normal(size=d) * spread
        s = w @ x + b
        if abs(s) < margin:
            continue
        lab = 1 if s > 0 else -1
        if len(X) == 1 and lab == y[0]:
            continue  # second row has the other label
        X.append(x)
        y.append(lab)
    return np.array(X), np.array(y), w, b
