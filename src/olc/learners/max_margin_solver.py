"""The exact ℓ2 max-margin classifier of a data set (Ho-Nguyen et al. 2025, Lemma 3.1 and
Eq. 3) and its dual certificates, by a working-set method on n-OMM's nearest-point solver
(``olc._compiled.rules.omm_geometry.nearest_point``, compiled on first use)."""
import warnings
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .omm import NonSeparableWarning
from ._framework.validation import InputError, binary_classes, check_finite


@dataclass(frozen=True)
class MaxMarginSolution:
    """The exact ℓ2 max-margin classifier of a data set and its dual certificates.

    ``coef`` (w, ‖w‖₂ = 1) and ``intercept`` (b): every point has y(w·x + b) ≥ ``margin``
    (γ), with equality on the support. ``v_pos``/``v_neg``: the certificates of Eq. (3),
    ``v_pos = Σ weights[i]·X[i]`` over the positive class (``classes[1]``), likewise
    ``v_neg``; ``weights`` are convex on each class and positive exactly on ``support``.
    ``separable`` is False when the two hulls intersect (then w = 0, b = 0, γ = 0).
    ``max_violation``: the largest margin deficit γ − y(w·x + b) over the data (≤ 0 up to
    rounding: the optimality certificate). ``rounds``/``major_cycles``/``working_set``:
    work done by the solver.
    """

    coef: np.ndarray
    intercept: float
    margin: float
    v_pos: np.ndarray
    v_neg: np.ndarray
    weights: np.ndarray
    support: np.ndarray
    classes: np.ndarray
    separable: bool
    max_violation: float
    rounds: int
    major_cycles: int
    working_set: int


def max_margin(X, y, *, batch=64):
    """The exact hard-margin SVM with bias (ℓ2) of (X, y) and its dual certificates
    (Ho-Nguyen et al. 2025, Lemma 3.1 and Eq. 3), by a working-set method on the n-OMM
    solver.

    Working set: start from one point per class, solve the nearest-point problem on the
    working set exactly (``nearest_point.wolfe``, warm-started), price every point of X,
    add the ``batch`` most violating ones, repeat until no point violates the margin by more
    than 1e-12 (relative; then the working set's solution is exact for X to rounding). A
    CSR X is densified (the solver prices dense rows). Labels: any two values;
    ``classes[1]`` is the positive class. Returns a :class:`MaxMarginSolution`.
    """
    if sp.issparse(X):
        X = X.toarray()
    X = np.ascontiguousarray(np.asarray(X, dtype=np.float64))
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise InputError(f"X must be a non-empty 2-D array, got shape {X.shape}")
    check_finite(X)
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise InputError(f"y must be 1-D with one label per row of X ({X.shape[0]}), got "
                         f"shape {y.shape}")
    classes = binary_classes(y, "y")
    ys = np.where(y == classes[1], 1.0, -1.0)
    batch = int(batch)
    if batch < 1:
        raise InputError(f"batch must be a positive integer, got {batch}")

    o = X.mean(axis=0)
    Z = X - o
    znorm2 = np.einsum("ij,ij->i", Z, Z)
    sigma = float(np.sqrt(znorm2.mean()))
    if not sigma > 0.0:
        sigma = 1.0
    scale = float(np.sqrt(znorm2.max() + sigma * sigma))
    if not np.isfinite(scale):
        raise InputError("X is too large: squared distances overflow (rescale X)")
    # Start from the two points that are deepest inside the other class along the
    # difference of the class means (any pair would do).
    pos, neg = ys > 0, ys < 0
    w0 = X[pos].mean(axis=0) - X[neg].mean(axis=0)
    s0 = Z @ w0
    i_pos = int(np.flatnonzero(pos)[np.argmin(s0[pos])])
    i_neg = int(np.flatnonzero(neg)[np.argmax(s0[neg])])
    n, d = X.shape
    from .._compiled import families  # the solver: compiled on first use
    from .._compiled.rules.omm_geometry import nearest_point

    families.ensure_cached("omm_variants")
    lam, u, status, rounds, majors, nw = nearest_point.max_margin_core(
        X, ys, o, sigma, scale, i_pos, i_neg, batch, 10 * n + 100, 50 * (n + d) + 100)
    lam_pos, lam_neg = lam * pos, lam * neg
    v_pos = o + lam_pos @ Z
    v_neg = o + lam_neg @ Z
    nu = float(np.linalg.norm(u))
    support = np.flatnonzero(lam > 0.0)
    separable = status != nearest_point.COLLAPSED and nu > nearest_point.COLLAPSE * scale
    if not separable:
        warnings.warn("max_margin: the two classes are not linearly separable (their convex "
                      "hulls intersect); returning w = 0, b = 0, γ = 0.",
                      NonSeparableWarning, stacklevel=2)
        w, b, gamma = np.zeros(d), 0.0, 0.0
        worst = float("nan")
    else:
        w = u / nu
        b = float(-w @ o - 0.5 * (w @ (v_pos - o) + w @ (v_neg - o)))
        gamma = 0.5 * nu
        worst = float(gamma - np.min(ys * (Z @ w + (b + w @ o))))
    return MaxMarginSolution(w, b, gamma, v_pos, v_neg, lam, support, classes, bool(separable),
                             worst, int(rounds), int(majors), int(nw))
