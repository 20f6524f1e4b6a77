"""What the margin rules share: the appended constant coordinate (ROMMA, ALMA), and tracked
scaled vectors whose norm is cached (ROMMA, PUMMA).

Appended coordinate. ROMMA and ALMA learn a bias as the weight of a constant coordinate κ
appended to every instance, x̃ = (x, κ) (virtually: X is never copied), with
w̃ = S·(v, raw_bias); κ = 0 is no bias coordinate.

Representation. A weight vector is w = S·v with a free scale S > 0, so that w ← c·w costs
O(1). ROMMA's and PUMMA's ‖w‖ is ~1/margin and can be huge, so S is not kept near 1: instead
v is rescaled (O(support), rare) only when ‖v‖ = ‖w‖/S would leave [RENORM_LOW, RENORM_HIGH]
(v·x then cannot overflow while the true score is finite). S stays positive, so v never holds
−0.0 (dense and CSR runs stay bit-identical). A *tracked* vector (w's v, PUMMA's stored points)
keeps its support in the integer state (``scaled.support_add_unwritten``: set semantics), so that
resetting it costs O(what was written since the last reset) — amortized O(nnz(x)) per
update — not O(d).

Cached norms. ‖w‖ (and PUMMA's w·p, w·n) are updated by formulas, not recomputed; an update
w' = c·w + d·x built with a cached ‖w‖ of relative error e has a true norm that differs from
the cached new one by a relative e·(c‖w‖/‖w'‖)² (plus rounding of the 2×2 solve,
~eps·((c‖w‖ + |d|‖x‖)/‖w'‖)²); the rule's ``err`` slot accumulates that bound. The update
needs ‖w‖ accurately only when the two constraints are nearly parallel (1 − ρ² is then a
difference of nearly equal numbers): when err > ERR_DEN·(1 − ρ²), or err > ERR_MAX, the
cached values are recomputed exactly (O(d), rare: on ordinary streams err grows by a few ulps
per update).

Degenerate geometry: two directions whose squared sine is at most COLLINEAR_TOL (angle
≲ 1e-6 rad) are collinear; two points whose squared distance is at most
COINCIDE_TOL·(‖x‖² + ‖q‖²) coincide. Both are far above the rounding error of the quantities
they are computed from (a few ulps of the larger term, given the refresh rule above).
"""
import math

from ..caching import jit
from ..kernels.vector import COLD, INLINE, dot, sqnorm
from ..kernels.scaled import support_add_unwritten, support_clear, support_merge_unwritten

COLLINEAR_TOL = 1e-12
COINCIDE_TOL = 1e-12
EPS = 2.220446049250313e-16
ERR_MAX = 1e-10  # refresh the cached norm when its error bound exceeds this
ERR_DEN = 1e-4  # ... or exceeds this fraction of 1 − ρ²


@jit(inline=INLINE)
def augmented_score(v, scale, raw_bias, kappa, idx, val, fast):
    """w̃·x̃ for w̃ = scale·(v, raw_bias) and x̃ = (x, κ)."""
    return scale * (dot(v, idx, val, fast) + raw_bias * kappa)


@jit(inline=INLINE)
def augmented_sqnorm(idx, val, kappa):
    """‖x̃‖² = ‖x‖² + κ²."""
    return sqnorm(idx, val) + kappa * kappa


@jit(inline=INLINE)
def exact_err(n):
    """The error bound of a norm just computed exactly from n terms."""
    return EPS * (2.0 + math.sqrt(n))


@jit(inline=INLINE)
def is_stale(err, den):
    """Whether a cached norm with error bound ``err`` is too coarse for 1 − ρ² = ``den``."""
    return err > ERR_MAX or err > ERR_DEN * den


@jit(inline=INLINE)
def tracked_axpy(a, b, idx, val, v, ints, count_slot, list_base, pos_base):
    """Tracked v ← v + a·(b·x), O(nnz(x)). (Two factors, so that a huge a and a tiny b need
    not be multiplied first.)"""
    support_add_unwritten(v, ints, count_slot, list_base, pos_base, idx, val)
    if idx is None:
        for j in range(val.shape[0]):
            v[j] += a * (b * val[j])
    else:
        for k in range(idx.shape[0]):
            v[idx[k]] += a * (b * val[k])


@jit(inline=INLINE)
def tracked_store(idx, val, v, ints, count_slot, list_base, pos_base):
    """Tracked v ← x: O(nnz(old) + nnz(x)); 0 + x, so v never stores −0.0."""
    support_clear(v, ints, count_slot, list_base, pos_base)
    tracked_axpy(1.0, 1.0, idx, val, v, ints, count_slot, list_base, pos_base)


@jit(inline=INLINE)
def tracked_add_tracked(a, b, u, u_count, u_list, v, ints, count_slot, list_base, pos_base):
    """Tracked v ← v + a·(b·u) for a tracked u, O(u's support)."""
    support_merge_unwritten(v, ints, count_slot, list_base, pos_base, u_count, u_list)
    for i in range(ints[u_count]):
        j = ints[u_list + i]
        v[j] += a * (b * u[j])


@jit(inline=INLINE)
def tracked_dot(v, u, ints, u_count, u_list):
    """v · u for a tracked u, O(u's support) (summed in u's list order)."""
    acc = 0.0
    for i in range(ints[u_count]):
        j = ints[u_list + i]
        acc += v[j] * u[j]
    return acc


@jit(inline=COLD)
def tracked_rescale(f1, f2, v, ints, count_slot, list_base):
    """Tracked v ← f2·(f1·v), O(support): the rare renormalization that brings ‖v‖ back to 1
    (two factors, so that neither product over- or underflows)."""
    for i in range(ints[count_slot]):
        j = ints[list_base + i]
        v[j] = (v[j] * f1) * f2


@jit(inline=COLD)
def norm_of(v, extra):
    """‖(v, extra)‖ without overflow or underflow of the squares (O(d))."""
    mx = abs(extra)
    for j in range(v.shape[0]):
        if abs(v[j]) > mx:
            mx = abs(v[j])
    if mx == 0.0:
        return 0.0
    acc = (extra / mx) * (extra / mx)
    for j in range(v.shape[0]):
        z = v[j] / mx
        acc += z * z
    return mx * math.sqrt(acc)
