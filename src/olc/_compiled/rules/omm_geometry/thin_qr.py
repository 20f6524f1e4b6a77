"""The thin QR factorization of a growing and shrinking set of columns, and the dot and
norm kernels it is built on: the linear algebra of the nearest-point solver
(``nearest_point.py``: Wolfe's corral) and of n-OMM's stored points (``rules/nomm.py``).

Q is stored by rows (Q[i] is column i of Q), R is upper triangular; a column enters by
Gram–Schmidt with one reorthogonalisation and leaves by Givens rotations that restore
triangularity: O((d + k)·k) per change instead of a refactorisation. (Split out of
``nearest_point.py``, unchanged.)
"""
import math

from ...caching import jit
from ...kernels.vector import INLINE

#: A column whose Gram–Schmidt residual is ≤ TOL_DEP·‖b‖ is numerically in the span of
#: the others (``qr_add`` refuses it).
TOL_DEP = 1e-13


@jit(fastmath={"reassoc"})
def dotn(a, b, m):
    """a[:m]·b[:m] (reassociated: SIMD)."""
    s = 0.0
    for j in range(m):
        s += a[j] * b[j]
    return s


@jit(fastmath={"reassoc"})
def dot_centered(u, x, o, m):
    """u·(x − o) over the first m entries, without cancellation against a far-away origin."""
    s = 0.0
    for j in range(m):
        s += u[j] * (x[j] - o[j])
    return s


@jit()
def norm2(a, m):
    """‖a[:m]‖₂ without overflow or underflow of the squares (scaled when needed)."""
    mx = 0.0
    for j in range(m):
        v = abs(a[j])
        if v > mx:
            mx = v
    if mx == 0.0 or not math.isfinite(mx):
        return mx
    if 1e-140 < mx < 1e140:
        return math.sqrt(dotn(a, a, m))
    s = 0.0
    for j in range(m):
        t = a[j] / mx
        s += t * t
    return mx * math.sqrt(s)


@jit(inline=INLINE)
def qr_add(Q, R, k, b, m):
    """Append column b (length m) to the factorization of k columns. Gram–Schmidt with one
    reorthogonalisation ("twice is enough"). Returns False (nothing changed in rows/columns
    < k; slots k are cleared) when b is numerically dependent on the corral."""
    q = Q[k]
    for j in range(m):
        q[j] = b[j]
    for i in range(k + 1):
        R[i, k] = 0.0
    nb_ = norm2(b, m)
    for _ in range(2):
        for i in range(k):
            c = dotn(Q[i], q, m)
            R[i, k] += c
            qi = Q[i]
            for j in range(m):
                q[j] -= c * qi[j]
    rho = norm2(q, m)
    if not (rho > TOL_DEP * nb_) or not math.isfinite(rho):
        for j in range(m):
            q[j] = 0.0
        for i in range(k + 1):
            R[i, k] = 0.0
        return False
    inv = 1.0 / rho
    for j in range(m):
        q[j] *= inv
    R[k, k] = rho
    return True


@jit(inline=INLINE)
def qr_delete(Q, R, k, t, m):
    """Remove column t of a k-column factorization: shift the later columns left (R becomes
    upper Hessenberg from column t) and restore triangularity with Givens rotations, applied
    to the rows of R and to the columns (stored rows) of Q."""
    for j in range(t, k - 1):
        for i in range(j + 2):
            R[i, j] = R[i, j + 1]
    for i in range(k):
        R[i, k - 1] = 0.0
    for j in range(t, k - 1):
        a = R[j, j]
        bb = R[j + 1, j]
        if bb == 0.0:
            continue
        r = math.hypot(a, bb)
        c = a / r
        s = bb / r
        R[j, j] = r
        R[j + 1, j] = 0.0
        for col in range(j + 1, k - 1):
            x1 = R[j, col]
            x2 = R[j + 1, col]
            R[j, col] = c * x1 + s * x2
            R[j + 1, col] = -s * x1 + c * x2
        q1 = Q[j]
        q2 = Q[j + 1]
        for jj in range(m):
            x1 = q1[jj]
            x2 = q2[jj]
            q1[jj] = c * x1 + s * x2
            q2[jj] = -s * x1 + c * x2
    last = Q[k - 1]
    for jj in range(m):
        last[jj] = 0.0
