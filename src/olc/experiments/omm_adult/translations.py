"""The OMM paper's data transformations (Ho-Nguyen et al. 2025, Lemma 3.1, Eq. 1 and
App. B.2): the exact geometry of a separable data set and its variants, all translations.

- Geometry (Lemma 3.1, Eq. 1): the exact max-margin classifier (w*, b*) of all points with
  its margin γ and dual certificates v₊, v₋ (``olc.max_margin``); D₊, D₋ the exact class
  diameters, D = max(D₊, D₋), D̄ = maxₜ‖xₜ‖₂, r = D/γ (Eq. 1c).
- Variants (App. B.2), all translations, so each variant is ``X_norm + shift``:
  - margin normalization: x ↦ x + ζ·y·w*/‖w*‖₂ with ζ = 1 − γ. Nothing is *scaled*: each
    class is translated rigidly along ±w*, the positives by +ζw*/‖w*‖, the negatives by
    −ζw*/‖w*‖. So D₊, D₋ (hence D) are unchanged, every functional margin grows by ζ, the
    classifier (w*, b*) is still the max-margin one with margin γ* = γ + ζ = 1, the
    certificates become v₊ + ζw*, v₋ − ζw* (same convex weights), and r = D/γ* becomes D.
  - bias control: "original" keeps b* (≠ 0); "zero" translates every point by
    −½(v₊ + v₋), after which b* = 0. The midpoint ½(v₊ + v₋) is the same before and after
    normalization (the two certificates move by ±ζw*), so the order of these two steps
    does not matter.
  - feature scaling: x ↦ x + θ(x̄ − (x̄ᵀw*/‖w*‖²)w*), θ ∈ {0, .25, .5, .75, 1}, a translation
    orthogonal to w* (b* unchanged). [Decision] x̄ is the point of largest ℓ2 norm of the
    data *as it is before this step* (normalized, bias-controlled): B.2 defines x̄ on the
    preprocessed data, but its stated bound D̄_new ≥ (‖x̄‖² + θ²‖x̄⊥‖²)^½ holds for a point
    of the data being translated (‖x̄ + θx̄⊥‖² = ‖x̄‖² + (2θ + θ²)‖x̄⊥‖²), so x̄ is taken
    there; the bound is checked for every variant.
  Every variant is verified numerically (:func:`verify_variant`): the certificates rebuilt
  from the variant's own points with the original convex weights give w*, γ* = 1 and the
  expected b*, and the classifier reaches that margin on every point (a duality gap of
  rounding size, which proves optimality); D is recomputed exactly on the variant.

A variant needs only the margin-normalized points and their geometry (any object with
``X``, ``y`` and ``normalized``, e.g. :class:`.geometry.Problem`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

THETAS = (0.0, 0.25, 0.5, 0.75, 1.0)     # App. B.2's feature-scaling factors
BIASES = ("zero", "original")            # App. B.2's bias control

# Tolerances of the numerical checks (relative to the data's scale D̄ where it matters).
TOL_COEF = 1e-9        # ‖w_variant − w*‖ (unit vectors)
TOL_REL = 1e-10        # |γ − 1|, duality gap, |b − b_expected| relative to max(1, D̄)
TOL_DIAMETER = 1e-9    # |D_variant − D| / D


def class_diameter(A, block=256):
    """max_{i,j}‖aᵢ − aⱼ‖₂ over the rows of A, exactly (Eq. 1a/1b for one class).

    A lower bound L comes from a few farthest-point sweeps. With rᵢ = ‖aᵢ − c‖ (c the
    centroid), a pair can beat L only if rᵢ + rⱼ > L (triangle inequality); with the points
    sorted by r, descending, the partners of a point form a prefix of that order, so each
    block of points is compared (Gram blocks) with its prefix only, and the scan stops at
    the first block without partners. The farthest pair found is measured again directly.
    On the Adult classes: 0.08 s instead of 11 s for all 26k × 26k pairs.
    """
    A = np.asarray(A, dtype=np.float64)
    n = A.shape[0]
    if n < 2:
        return 0.0
    c = A.mean(axis=0)
    radius = np.linalg.norm(A - c, axis=1)
    i, lower = int(np.argmax(radius)), 0.0
    for _ in range(3):
        dist = np.linalg.norm(A - A[i], axis=1)
        j = int(np.argmax(dist))
        lower, i = max(lower, float(dist[j])), j
    order = np.argsort(-radius, kind="stable")
    r, B = radius[order], A[order] - c
    sq = np.einsum("ij,ij->i", B, B)
    slack = 1e-9 * (r[0] + 1.0)   # rounding of the radii: never prune a candidate
    best, pair = -1.0, None
    for s in range(0, n, block):
        e = min(s + block, n)
        prefix = min(int(np.searchsorted(-r, r[s] - lower + slack, side="left")), e)
        if prefix == 0:
            break
        d2 = sq[s:e, None] + sq[None, :prefix] - 2.0 * (B[s:e] @ B[:prefix].T)
        k = int(np.argmax(d2))
        if d2.flat[k] > best:
            best, pair = float(d2.flat[k]), (s + k // prefix, k % prefix)
    if pair is None:
        return lower
    return max(lower, float(np.linalg.norm(B[pair[0]] - B[pair[1]])))


@dataclass(frozen=True)
class Geometry:
    """The quantities of Lemma 3.1 and Eq. (1) for one data set (ℓ2 norm).

    ``coef``/``intercept``: the max-margin classifier (w*, b*), ‖w*‖₂ = 1; ``gamma``: its
    margin γ*; ``v_pos``/``v_neg``: the dual certificates, ``weights`` their convex weights
    per point (v₊ = Σ_{y=+1} weights·x); ``D_pos``, ``D_neg``: class diameters; ``D_bar``:
    maxₜ‖xₜ‖₂; ``max_violation``: the solver's optimality residual.
    """

    coef: np.ndarray
    intercept: float
    gamma: float
    v_pos: np.ndarray
    v_neg: np.ndarray
    weights: np.ndarray
    D_pos: float
    D_neg: float
    D_bar: float
    max_violation: float = 0.0

    @property
    def D(self):
        return max(self.D_pos, self.D_neg)

    @property
    def r(self):
        return self.D / self.gamma

    def scalars(self):
        return {"gamma": self.gamma, "b_star": self.intercept, "D": self.D,
                "D_pos": self.D_pos, "D_neg": self.D_neg, "D_bar": self.D_bar, "r": self.r,
                "D_bar_over_D": self.D_bar / self.D, "max_violation": self.max_violation}


def geometry_of(X, y):
    """The exact max-margin solution of (X, y) (labels ±1) and D₊, D₋, D̄."""
    from ...learners import max_margin

    sol = max_margin(X, y)
    if not sol.separable:
        raise ValueError("the data set is not linearly separable")
    if list(sol.classes) != [-1.0, 1.0]:
        raise ValueError(f"labels must be -1/+1, got {sol.classes}")
    return Geometry(coef=sol.coef, intercept=float(sol.intercept), gamma=float(sol.margin),
                    v_pos=sol.v_pos, v_neg=sol.v_neg, weights=sol.weights,
                    D_pos=class_diameter(X[y > 0]), D_neg=class_diameter(X[y < 0]),
                    D_bar=float(np.linalg.norm(X, axis=1).max()),
                    max_violation=float(sol.max_violation))


def normalize_margin(X, y, geometry):
    """App. B.2's margin normalization: x ↦ x + ζ·y·w*/‖w*‖₂, ζ = 1 − γ (so γ* = 1)."""
    zeta = 1.0 - geometry.gamma
    w = geometry.coef / np.linalg.norm(geometry.coef)
    return X + zeta * np.asarray(y, dtype=np.float64)[:, None] * w[None, :]


def normalized_geometry(geometry, X_normalized):
    """The geometry after :func:`normalize_margin`, derived (not re-solved): same (w*, b*),
    γ* = 1, certificates v± ± ζw*, same D₊, D₋; D̄ of the normalized points."""
    zeta = 1.0 - geometry.gamma
    w = geometry.coef / np.linalg.norm(geometry.coef)
    return replace(geometry, gamma=1.0, v_pos=geometry.v_pos + zeta * w,
                   v_neg=geometry.v_neg - zeta * w,
                   D_bar=float(np.linalg.norm(X_normalized, axis=1).max()))


@dataclass(frozen=True)
class Variant:
    """One of the ten data sets of App. B.2: ``problem.X + shift``."""

    bias: str            # "zero" or "original"
    theta: float
    shift: np.ndarray
    D_bar: float         # maxₜ‖xₜ + shift‖₂
    intercept: float     # b* of the variant (w* and γ* = 1 are the problem's)
    x_bar_norm: float    # ‖x̄‖ of the point used for feature scaling
    x_bar_perp_norm: float

    @property
    def tag(self):
        return f"{self.bias}-theta{self.theta:g}"


def variant_shift(problem, bias, theta):
    """(shift, ‖x̄‖, ‖x̄⊥‖) of App. B.2's bias control and feature scaling (see module doc)."""
    if bias not in BIASES:
        raise ValueError(f"bias must be one of {BIASES}, got {bias!r}")
    g = problem.normalized
    d = problem.X.shape[1]
    u = -0.5 * (g.v_pos + g.v_neg) if bias == "zero" else np.zeros(d)
    norms = np.linalg.norm(problem.X + u, axis=1)
    x_bar = problem.X[int(np.argmax(norms))] + u
    w = g.coef
    x_perp = x_bar - (x_bar @ w) / (w @ w) * w
    return u + float(theta) * x_perp, float(norms.max()), float(np.linalg.norm(x_perp))


def make_variant(problem, bias, theta):
    shift, x_bar_norm, x_perp_norm = variant_shift(problem, bias, theta)
    g = problem.normalized
    return Variant(bias=bias, theta=float(theta), shift=shift,
                   D_bar=float(np.linalg.norm(problem.X + shift, axis=1).max()),
                   intercept=float(g.intercept - g.coef @ shift),  # ‖w*‖ = 1
                   x_bar_norm=x_bar_norm, x_bar_perp_norm=x_perp_norm)


def make_variants(problem, thetas=THETAS, biases=BIASES):
    return [make_variant(problem, b, t) for b in biases for t in thetas]


def certify_max_margin(X, y, weights, coef, intercept, gamma):
    """Check that (coef, intercept) is the max-margin classifier of (X, y) with margin
    ``gamma``, by the certificate of Lemma 3.1: v± = Σ weights·x over each class (points of
    the two hulls), γ_dual = ‖v₊ − v₋‖/2 bounds every classifier's margin from above, and
    the classifier rebuilt from v± reaches ``min_margin`` on every point; the duality gap
    γ_dual − min_margin ≥ 0 is the distance from optimality."""
    pos, neg = y > 0, y < 0
    v_pos = weights[pos] @ X[pos] / weights[pos].sum()
    v_neg = weights[neg] @ X[neg] / weights[neg].sum()
    u = v_pos - v_neg
    g = 0.5 * float(np.linalg.norm(u))
    w = u / (2.0 * g)
    b = -0.5 * float(w @ (v_pos + v_neg))
    min_margin = float(np.min(y * (X @ w + b)))
    return {"gamma": g, "coef_error": float(np.linalg.norm(w - coef / np.linalg.norm(coef))),
            "intercept": b, "intercept_error": abs(b - intercept),
            "gamma_error": abs(g - gamma), "min_margin": min_margin,
            "duality_gap": g - min_margin}


def verify_variant(problem, variant):
    """App. B.2's claims for one variant, measured on the variant's own points: w*, γ* = 1,
    b* (0 for "zero", unchanged by θ), D and r = D/γ* unchanged, and the D̄ bound of the
    feature scaling. Returns a dict with the measurements and ``ok``."""
    Xv = problem.X + variant.shift
    y = problem.y
    g = problem.normalized
    cert = certify_max_margin(Xv, y, g.weights, g.coef, variant.intercept, 1.0)
    D = max(class_diameter(Xv[y > 0]), class_diameter(Xv[y < 0]))
    D_bar = float(np.linalg.norm(Xv, axis=1).max())
    scale = max(1.0, D_bar)
    bound = math.sqrt(variant.x_bar_norm ** 2 + variant.theta ** 2 * variant.x_bar_perp_norm ** 2)
    checks = {
        "coef": cert["coef_error"] <= TOL_COEF,
        "gamma": cert["gamma_error"] <= TOL_REL * scale,
        "optimal": abs(cert["duality_gap"]) <= TOL_REL * scale,
        "intercept": cert["intercept_error"] <= TOL_REL * scale
        and (variant.bias != "zero" or abs(cert["intercept"]) <= TOL_REL * scale),
        "D": abs(D - g.D) <= TOL_DIAMETER * g.D,
        "D_bar_bound": D_bar >= bound * (1 - 1e-12),
    }
    return {"bias": variant.bias, "theta": variant.theta, "D_bar": D_bar, "D": D,
            "r": D / cert["gamma"], "D_bar_over_D": D_bar / D, "b_star": cert["intercept"],
            "b_star_expected": variant.intercept, "D_bar_lower_bound": bound,
            **{k: cert[k] for k in ("gamma", "coef_error", "gamma_error", "duality_gap",
                                    "intercept_error")},
            "D_error": abs(D - g.D), "checks": checks, "ok": all(checks.values())}

