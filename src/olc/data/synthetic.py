"""Seeded synthetic streams for tests and experiments.

Every generator takes ``seed`` (anything ``numpy.random.default_rng`` accepts)
and returns ``(X, y)`` with X float64 of shape (n, d) and y float64 in
{-1, +1}; the same seed gives the same arrays. ``return_truth=True`` adds a
third element, :class:`Truth`, describing the hyperplane the data were built
around, so tests can check margins against it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator

import numpy as np

from .._util.sparse import issparse

__all__ = [
    "Truth",
    "separable",
    "noisy",
    "example_5_1",
    "example_5_1_params",
    "example_5_1_perceptron_mistake_lower_bound",
    "stream_of",
]

# Points are pushed a little further than `margin` (relative to the radius) so
# that the guarantee y (w.x + b) >= margin still holds after float rounding of
# the push and of a translation by `offset`.
_SLACK = 1e-9


@dataclass(frozen=True)
class Truth:
    """The hyperplane (w, b) a synthetic stream was built around.

    ``w`` has unit L2 norm, so ``y * (X @ w + b)`` are geometric margins; every
    point of :func:`separable` has one of at least ``margin``. ``flipped`` marks
    the labels :func:`noisy` flipped (None for separable data).
    """

    w: np.ndarray
    b: float
    margin: float
    flipped: np.ndarray | None = None


def _uniform_ball(rng: np.random.Generator, n: int, d: int, radius: float) -> np.ndarray:
    # Gaussian direction times radius * U^(1/d): uniform in the d-ball.
    g = rng.standard_normal((n, d))
    norms = np.linalg.norm(g, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    u = rng.random((n, 1)) ** (1.0 / d)
    return g / norms * (radius * u)


def _offset_vector(offset, d: int) -> np.ndarray | None:
    if offset is None:
        return None
    v = np.asarray(offset, dtype=np.float64)
    if v.ndim == 0:
        v = np.full(d, float(v))
    if v.shape != (d,):
        raise ValueError(f"offset must be a scalar or a vector of length d={d}, got shape {v.shape}")
    if not np.isfinite(v).all():
        raise ValueError("offset must be finite")
    return v


def _check_n_d(n, d):
    if int(n) != n or n < 0:
        raise ValueError(f"n must be a non-negative integer, got {n!r}")
    if int(d) != d or d < 1:
        raise ValueError(f"d must be a positive integer, got {d!r}")
    return int(n), int(d)


def separable(
    n: int,
    d: int,
    margin: float = 0.1,
    *,
    offset=None,
    radius: float = 1.0,
    bias: float | None = None,
    seed=None,
    return_truth: bool = False,
):
    """Linearly separable data with geometric margin at least ``margin``.

    Construction (exactly this, in this order, from one ``default_rng(seed)``):

    1. ``w`` = a standard normal vector in R^d, normalised to unit length.
    2. ``b`` = ``bias`` if given, else ``s * u * R0 / sqrt(d + 2)`` with a random
       sign ``s``, ``u ~ Uniform(0.25, 1)`` and ``R0 = radius - margin``.
       ``R0 / sqrt(d + 2)`` is the standard deviation of ``w.x`` for ``x``
       uniform in the ball, so the hyperplane misses the origin yet the smaller
       class keeps roughly 15-45% of the points in any dimension (a tiny ``n``
       may still draw one class only).
    3. ``n`` points uniform in the ball of radius ``R0`` around the origin; the
       label is ``y = sign(w.x + b)`` (+1 for an exact 0).
    4. Each point is pushed away from the hyperplane along ``y w`` by
       ``margin`` plus a slack of ``1e-9 radius`` (so that the guarantee
       survives float rounding, also for ``margin=0`` and after a translation
       by up to ~1e6 radius): every point has ``y (w.x + b) >= margin`` and
       norm at most ``radius`` (+ the slack). This opens an
       empty slab of width ``2 margin`` around the hyperplane.
    5. If ``offset`` (scalar or length-d vector) is given, every point is
       translated by it and the returned hyperplane becomes
       ``(w, b - w.offset)``; margins do not change. The result equals
       ``separable(...)[0] + offset`` exactly, so translation-invariance tests
       can compare ``seed``-equal streams with different offsets.

    ``margin`` must satisfy ``0 <= margin < radius`` and ``|bias| < radius - margin``.
    The true maximum margin may exceed ``margin`` (the guarantee is a lower
    bound, attained up to the random gap of the nearest point).
    """
    n, d = _check_n_d(n, d)
    margin, radius = float(margin), float(radius)
    if not (0.0 <= margin < radius) or not math.isfinite(radius):
        raise ValueError(f"need 0 <= margin < radius, got margin={margin}, radius={radius}")
    v = _offset_vector(offset, d)
    rng = np.random.default_rng(seed)
    r0 = radius - margin

    w = rng.standard_normal(d)
    w /= np.linalg.norm(w)
    if bias is None:
        # sigma = std of w.x for x uniform in the d-ball of radius r0; scaling b by
        # it keeps both classes sizeable in any dimension (in high d the ball's
        # mass concentrates near every hyperplane through its centre).
        sigma = r0 / math.sqrt(d + 2)
        b = float(rng.choice((-1.0, 1.0)) * rng.uniform(0.25, 1.0) * sigma)
    else:
        b = float(bias)
        if not abs(b) < r0:
            raise ValueError(f"|bias| must be < radius - margin = {r0} so that both classes can occur")

    X = _uniform_ball(rng, n, d, r0)
    s = X @ w + b
    y = np.where(s >= 0, 1.0, -1.0)
    # The slack does not depend on the offset, so that separable(..., offset=v)
    # is exactly separable(...) + v; it covers the rounding of w.x + b after a
    # translation (~1e-16 |offset|) for any |offset| up to ~1e6 radius.
    push = margin + _SLACK * radius
    X += (y * push)[:, None] * w[None, :]
    if v is not None:
        X += v
        b = b - float(w @ v)
    if return_truth:
        return X, y, Truth(w, b, margin)
    return X, y


def noisy(
    n: int,
    d: int,
    flip: float = 0.1,
    *,
    margin: float = 0.0,
    offset=None,
    radius: float = 1.0,
    bias: float | None = None,
    seed=None,
    return_truth: bool = False,
):
    """:func:`separable` data with label noise: exactly ``round(flip * n)`` labels flipped.

    Built from two independent child generators of ``default_rng(seed)``
    (``Generator.spawn(2)``): the first makes the points and clean labels with
    :func:`separable` (same arguments), the second picks a uniformly random
    subset of ``round(flip * n)`` rows (without replacement) whose labels are
    negated. So the points do not depend on ``flip``. The truth's ``flipped``
    is the boolean mask of those rows, so
    the data are separable again once they are removed. ``0 <= flip <= 1``.
    """
    if not 0.0 <= float(flip) <= 1.0:
        raise ValueError(f"flip must be in [0, 1], got {flip!r}")
    n, d = _check_n_d(n, d)
    rng = np.random.default_rng(seed)
    # one child seed for the clean data, one for the flips: the clean part stays
    # equal to separable(...) with the same child seed, whatever flip is
    data_seed, flip_seed = rng.spawn(2)
    X, y, truth = separable(
        n, d, margin, offset=offset, radius=radius, bias=bias, seed=data_seed, return_truth=True
    )
    k = int(round(float(flip) * n))
    flipped = np.zeros(n, dtype=bool)
    flipped[np.random.default_rng(flip_seed).choice(n, size=k, replace=False)] = True
    y = np.where(flipped, -y, y)
    if return_truth:
        return X, y, Truth(truth.w, truth.b, truth.margin, flipped)
    return X, y


# --------------------------------------------------------------------------- OMM Example 5.1

_MAX_ROBUST_C = 2.0**13


def example_5_1_params(c: float, robust: bool = False) -> tuple[float, float]:
    """``(c, r)`` with ``r = 2 / c`` for :func:`example_5_1`.

    ``robust=True`` replaces ``c`` by the smallest power of two >= ``c`` (at most
    2**13), so that ``r = 2/c`` is a power of two too: ``c * r == 2`` exactly and,
    more importantly, every sum and product in a perceptron run on the example
    (coordinates of the form ``c - j r``, ``t - 1``) is exact in float64.
    """
    c = float(c)
    if not (c > 0 and math.isfinite(c)):
        raise ValueError(f"c must be positive and finite, got {c!r}")
    if robust:
        if c > _MAX_ROBUST_C:
            raise ValueError(
                f"robust=True supports c <= {_MAX_ROBUST_C:g}: beyond that a perceptron's "
                "dot products on this example need more than 53 mantissa bits"
            )
        c = 2.0 ** math.ceil(math.log2(c))
    return c, 2.0 / c


def example_5_1(c: float, n: int, *, order: str = "alternating", seed=None, robust: bool = False):
    """The three-point stream of the OMM paper's Example 5.1 (Ho-Nguyen et al. 2025).

    Points: ``z1 = ((c, 1), +1)``, ``z2 = ((c, -1), -1)``, ``z3 = ((c + r, -1), -1)``
    with ``r = 2/c``. The max-margin classifier is ``w* = (0, 1), b* = 0`` with
    margin 1; for ``c > 2`` the OMM algorithms make at most two mistakes on any
    sequence of these points, while the perceptron (no bias, update when
    ``y w.x <= 0``) makes at least
    :func:`example_5_1_perceptron_mistake_lower_bound` mistakes on the
    alternating order.

    order: ``'alternating'`` gives z1, z3, z1, z3, ... (the perceptron's
    adversarial order, starting with z1); ``'random'`` draws each of the ``n``
    points uniformly from {z1, z2, z3} with ``default_rng(seed)``.

    Floating point: the analysis relies on exact arithmetic, where the
    perceptron's score on z1 after every z3 is exactly 0 (so it updates). In
    float64 with an arbitrary ``c`` that is no longer true: ``r = 2/c`` is
    rounded, and even when ``c * r == 2`` happens to hold (c = 3), sums such as
    ``c - (c + r)`` differ from ``-r`` by an ulp; the score on z1 becomes a tiny
    positive number, the perceptron stops updating, and it makes 2 mistakes
    instead of the predicted ~c^2/2 (measured: c = 3, 7.5 and 10 give 2 mistakes
    instead of 6, 30 and 52). ``robust=True`` rounds ``c`` up to a power of two
    (see :func:`example_5_1_params`) where everything is exact and the
    perceptron makes exactly the predicted mistakes.
    """
    if int(n) != n or n < 0:
        raise ValueError(f"n must be a non-negative integer, got {n!r}")
    c, r = example_5_1_params(c, robust)
    points = np.array([[c, 1.0], [c, -1.0], [c + r, -1.0]])
    labels = np.array([1.0, -1.0, -1.0])
    if order == "alternating":
        idx = np.where(np.arange(int(n)) % 2 == 0, 0, 2)
    elif order == "random":
        idx = np.random.default_rng(seed).integers(0, 3, size=int(n))
    else:
        raise ValueError(f"order must be 'alternating' or 'random', got {order!r}")
    return points[idx].copy(), labels[idx].copy()


def example_5_1_perceptron_mistake_lower_bound(c: float) -> int:
    """``floor((c^2 + 4/c^2 + 5) / (2 (1 + 1/c^2)))`` from Example 5.1.

    On ``example_5_1(c, n, order='alternating')`` with ``n >= m`` (m this value),
    the perceptron errs at every step ``t <= m`` in exact arithmetic. Computed
    with exact rationals from the float ``c``, so the floor is never off by
    one through rounding.
    """
    q = Fraction(float(c))
    if q <= 0:
        raise ValueError(f"c must be positive, got {c!r}")
    return math.floor((q**2 + 4 / q**2 + 5) / (2 * (1 + 1 / q**2)))


# --------------------------------------------------------------------------- streaming


def stream_of(X, y, chunk_rows: int) -> Iterator[tuple]:
    """Yield ``(X[i:i+k], y[i:i+k])`` chunks of at most ``chunk_rows`` rows, in order.

    Works for dense arrays and scipy sparse matrices (converted to CSR once, so
    chunks are CSR). Arguments are checked at call time, slicing happens lazily.
    """
    if not isinstance(chunk_rows, (int, np.integer)) or isinstance(chunk_rows, bool) or chunk_rows < 1:
        raise ValueError(f"chunk_rows must be a positive integer, got {chunk_rows!r}")
    if issparse(X):
        X = X.tocsr()
    else:
        X = np.asarray(X)
    y = np.asarray(y)
    if X.ndim != 2 or y.ndim != 1 or X.shape[0] != y.shape[0]:
        raise ValueError(f"need X of shape (n, d) and y of shape (n,), got {X.shape} and {y.shape}")

    def chunks():
        for i in range(0, X.shape[0], int(chunk_rows)):
            yield X[i : i + chunk_rows], y[i : i + chunk_rows]

    return chunks()
