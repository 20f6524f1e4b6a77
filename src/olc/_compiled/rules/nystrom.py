"""The ``nystrom`` family (layout: ``layouts/nystrom.py``): NOGD, Nyström Online Gradient
Descent (Lu, Hoi, Wang, Zhao & Liu 2016, JMLR 17(47), Algorithm 2, NOGD), on the
support-set pool of ``rules/support_set.py``.

Stage 1 (pool below B rows): kernel online gradient descent on the hinge loss, a row with
y·f(x) < 1 is stored with α = η·y. The step that stores the B-th row builds the Nyström map
of the B landmarks: their kernel matrix K̂ = VΛVᵀ (``numpy.linalg.eigh``, once, O(B²·d +
B³)), the r = min(rank, #{λ > 1e-12·λ_max}) largest eigenpairs, z(x) = Λ_r^{−1/2}V_rᵀk_B(x),
and carries f into it: w = Λ_r^{1/2}V_rᵀα (the paper's w = α(Λ^{−1/2}Vᵀ)⁻¹, with the
pseudo-inverse at r < B). Stage 2: z(x) from the kernel row (O(B·nnz(x) + r·B)), f = w·z, and
w ← w + η·y·z when y·f < 1.
"""
import math

import numpy as np

from ..caching import jit
from ..kernels.vector import COLD, INLINE, sign, sqnorm
from ..layouts.kernel import ALPHA, HEADER, KROW, N_BLOCKS, SQNORM
from ..layouts.kernel import KernelHP as KHP
from ..layouts.kernel import KernelScal as KS
from ..layouts.nystrom import EIG_RTOL, NOGD_LAYOUT
from ..rule_ids import NOGD
from .csr_pool import capacity, pool_stored_dots
from .support_set import (MUST_GROW, _weighted_sum, append, base, clear_scratch, kernel_row,
                          kernel_value, room_for)

HP = NOGD_LAYOUT.hp
INF = math.inf


@jit(inline=INLINE)
def _map(P):
    """Where MAP (cap × cap, row-major) starts in scal."""
    return HEADER + N_BLOCKS * capacity(P)


@jit(inline=INLINE)
def _w(P):
    return _map(P) + capacity(P) * capacity(P)


@jit(inline=INLINE)
def _z(P):
    return _w(P) + capacity(P)


@jit(inline=INLINE)
def _mapped(P):
    return _z(P) + capacity(P)


@jit(inline=INLINE)
def _rank(P):
    return _mapped(P) + 1


@jit(inline=INLINE)
def _mapped_score(P, scal, fast):
    """Z ← MAP·k_B(x) (k_B(x) in KROW; each row's dot as the pool's weighted sum, ``fast``:
    reassociated); returns w·z."""
    cap = capacity(P)
    n = int(scal[KS.N_STORED])
    m, kr, z, w = _map(P), base(P, KROW), _z(P), _w(P)
    k = scal[kr:kr + n]
    f = 0.0
    for i in range(int(scal[_rank(P)])):
        row = m + i * cap
        s = _weighted_sum(scal[row:row + n], k, fast)
        scal[z + i] = s
        f += scal[w + i] * s
    return f


@jit(inline=COLD)
def _build_map(P, scal, hp):
    """The Nyström map of the n = B stored rows (slots are positions: NOGD never removes)
    and w = Λ_r^{1/2}V_rᵀα from stage 1's coefficients."""
    n = int(scal[KS.N_STORED])
    cap = capacity(P)
    sq = base(P, SQNORM)
    gram = np.empty((n, n))
    dots = np.empty(n)
    for j in range(n):
        pool_stored_dots(P, j, dots, n)  # x_i·x_j, i < n (by feature or CSR: same bits)
        for i in range(j + 1):
            k = kernel_value(hp, P, dots[i], scal[sq + i], scal[sq + j])
            gram[i, j] = k
            gram[j, i] = k
    lam, vec = np.linalg.eigh(gram)  # ascending
    top = lam[n - 1]
    rank = int(hp[HP.RANK])
    m, w, a = _map(P), _w(P), base(P, ALPHA)
    s = scal[KS.SCALE]
    r = 0
    for c in range(n - 1, -1, -1):
        if r >= rank or not lam[c] > EIG_RTOL * top:
            break
        root = math.sqrt(lam[c])
        proj = 0.0
        for j in range(n):
            scal[m + r * cap + j] = vec[j, c] / root
            proj += vec[j, c] * (scal[a + j] * s)
        scal[w + r] = root * proj
        r += 1
    scal[_rank(P)] = r
    scal[_mapped(P)] = 1.0


@jit(inline=INLINE)
def nogd_score(idx, val, vecs, ints, scal, hp, fast):
    xx = sqnorm(idx, val)
    if not math.isfinite(xx):
        return xx - xx
    f = kernel_row(idx, val, xx, vecs, scal, hp, fast)
    if scal[_mapped(vecs)] != 0.0:
        f = _mapped_score(vecs, scal, fast)
    return f


@jit(inline=INLINE)
def nogd_step(idx, val, y, vecs, ints, scal, hp, fast):
    """One row of NOGD (module docstring): f from the pool (stage 1) or from z(x) (stage 2);
    on y·f < 1 the stage's gradient step, and the map built when the B-th row is stored.
    ``aux``: 1 on an update."""
    xx = sqnorm(idx, val)
    if not math.isfinite(xx):
        return xx, 1.0, False, 0.0
    f = kernel_row(idx, val, xx, vecs, scal, hp, fast)
    mapped = scal[_mapped(vecs)] != 0.0
    if mapped:
        f = _mapped_score(vecs, scal, fast)
    if not math.isfinite(f):
        return f, 1.0, False, 0.0
    upd = y * f < 1.0
    if upd:
        c = hp[HP.ETA] * y
        if mapped:
            w, z = _w(vecs), _z(vecs)
            for i in range(int(scal[_rank(vecs)])):
                scal[w + i] += c * scal[z + i]
        else:
            coef = c / scal[KS.SCALE]
            if not math.isfinite(coef):
                return INF, 1.0, False, 0.0
            if room_for(idx, val, vecs, scal, hp) == MUST_GROW:
                return INF, 1.0, False, 0.0
            append(idx, val, xx, vecs, scal, coef)
            if scal[KS.N_STORED] >= hp[KHP.BUDGET]:
                _build_map(vecs, scal, hp)
    scal[KS.STEPS] += 1.0
    return f, sign(f), upd, 1.0 if upd else 0.0


@jit(inline=INLINE)
def _clear(vecs, scal):
    z = _z(vecs)
    for i in range(int(scal[_rank(vecs)])):
        scal[z + i] = 0.0
    clear_scratch(vecs, scal)


@jit()
def family_score(rule, idx, val, vecs, ints, scal, hp, fast):
    pool = (vecs, ints)  # the pool (support_set): by feature or CSR
    f = nogd_score(idx, val, pool, ints, scal, hp, fast)
    _clear(pool, scal)
    return f


@jit()
def family_step(rule, idx, val, y, vecs, ints, scal, hp, fast):
    pool = (vecs, ints)
    if rule == NOGD:
        result = nogd_step(idx, val, y, pool, ints, scal, hp, fast)
        _clear(pool, scal)
        return result
    raise ValueError("unknown rule id in the nystrom family")
