"""Shared helpers for the benchmark scripts: machine/version info, synthetic data, and the
bare hand-written Numba loops used as the speed reference.

The bare loops are written plainly, the way a user would write them: no fastmath, no
recording of predictions, no validation. They do the same arithmetic as olc's rules:
    perceptron: update when y(w·x + b) ≤ 0:  w += y·x, b += y
    PA-I:       ℓ = 1 − y(w·x + b); if ℓ > 0 and ‖x‖² > 0: τ = min(C, ℓ/‖x‖²),
                w += τ·y·x, b += τ·y   (bias not counted in ‖x‖², as in olc and scikit-learn)
"""
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np
import scipy.sparse as sp

SEED = 20240601
REPO = Path(__file__).resolve().parent.parent


# -- machine and versions --------------------------------------------------------------------
def _cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def _mem_total_gib():
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 2**20, 1)
    except OSError:
        pass
    return None


def machine_info():
    info = {
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "cpu_model": _cpu_model(),
        "cpu_count": os.cpu_count(),
        "mem_total_gib": _mem_total_gib(),
    }
    try:
        info["cpu_affinity"] = len(os.sched_getaffinity(0))
    except AttributeError:
        pass
    try:
        info["load_average_at_start"] = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        pass
    return info


def _git(*args):
    try:
        out = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True,
                             timeout=10)
        return out.stdout.strip() if out.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        return None


def versions():
    import scipy
    import sklearn

    import olc

    v = {"olc": olc.__version__, "numpy": np.__version__, "scipy": scipy.__version__,
         "numba": numba.__version__, "scikit-learn": sklearn.__version__}
    try:
        import river

        v["river"] = river.__version__
    except ImportError:
        v["river"] = None
    commit = _git("rev-parse", "HEAD")
    if commit:
        status = _git("status", "--porcelain", "--", "src")
        v["olc_git_commit"] = commit
        v["olc_src_dirty"] = bool(status)
    v["olc_strict_arithmetic"] = olc.strict_arithmetic()
    v["numba_threading_layer_env"] = os.environ.get("NUMBA_THREADING_LAYER")
    return v


# -- synthetic data --------------------------------------------------------------------------
def labels_from_scores(score, rng, noise):
    """±1 labels (int64) from a hyperplane score plus Gaussian noise of ``noise``·std(score)."""
    score = score + noise * score.std() * rng.standard_normal(score.shape[0])
    return np.where(score >= 0.0, 1, -1).astype(np.int64)


def make_dense(n, d, seed, noise=0.1):
    """Gaussian rows, labels from a random hyperplane (with a small bias) plus noise."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    w = rng.standard_normal(d)
    b = 0.1 * np.sqrt(d)
    y = labels_from_scores(X @ w + b, rng, noise)
    return X, y


def make_csr(n, d, nnz, seed, noise=0.1, labels="hyperplane"):
    """Binary (1.0) CSR rows with exactly ``nnz`` distinct, sorted random columns each; labels
    from a random hyperplane plus noise (``labels="hyperplane"``) or fair coin flips
    (``labels="random"``: every learner keeps updating at the same rate whatever d is).
    int32 indices and indptr (scipy picks the index dtype), canonical format."""
    rng = np.random.default_rng(seed)
    cols = np.sort(rng.integers(0, d, size=(n, nnz), dtype=np.int64), axis=1)
    # Resample rows that drew a column twice (rare: about nnz²/(2d) of the rows).
    while True:
        dup = np.flatnonzero((np.diff(cols, axis=1) == 0).any(axis=1))
        if dup.size == 0:
            break
        cols[dup] = np.sort(rng.integers(0, d, size=(dup.size, nnz), dtype=np.int64), axis=1)
    indices = cols.ravel().astype(np.int32)
    indptr = np.arange(0, n * nnz + 1, nnz, dtype=np.int64)
    data = np.ones(n * nnz)
    X = sp.csr_matrix((data, indices, indptr), shape=(n, d))
    X.has_sorted_indices = True
    X.has_canonical_format = True
    if labels == "random":
        return X, np.where(rng.random(n) < 0.5, 1, -1).astype(np.int64)
    w = rng.standard_normal(d)
    score = w[cols].sum(axis=1)
    y = labels_from_scores(score - np.median(score), rng, noise)
    return X, y


# -- the bare hand-written Numba loops -------------------------------------------------------
@numba.njit(cache=True)
def bare_perceptron_dense(X, y, w):
    n, d = X.shape
    b = 0.0
    updates = 0
    for i in range(n):
        s = b
        for j in range(d):
            s += w[j] * X[i, j]
        if y[i] * s <= 0.0:
            for j in range(d):
                w[j] += y[i] * X[i, j]
            b += y[i]
            updates += 1
    return b, updates


@numba.njit(cache=True)
def bare_pa1_dense(X, y, w, C):
    n, d = X.shape
    b = 0.0
    updates = 0
    for i in range(n):
        s = b
        for j in range(d):
            s += w[j] * X[i, j]
        loss = 1.0 - y[i] * s
        if loss > 0.0:
            sq = 0.0
            for j in range(d):
                sq += X[i, j] * X[i, j]
            if sq > 0.0:
                tau = min(C, loss / sq)
                for j in range(d):
                    w[j] += tau * y[i] * X[i, j]
                b += tau * y[i]
                updates += 1
    return b, updates


@numba.njit(cache=True)
def bare_perceptron_csr(data, indices, indptr, y, w):
    n = indptr.shape[0] - 1
    b = 0.0
    updates = 0
    for i in range(n):
        s = b
        for k in range(indptr[i], indptr[i + 1]):
            s += w[indices[k]] * data[k]
        if y[i] * s <= 0.0:
            for k in range(indptr[i], indptr[i + 1]):
                w[indices[k]] += y[i] * data[k]
            b += y[i]
            updates += 1
    return b, updates


@numba.njit(cache=True)
def bare_pa1_csr(data, indices, indptr, y, w, C):
    n = indptr.shape[0] - 1
    b = 0.0
    updates = 0
    for i in range(n):
        s = b
        for k in range(indptr[i], indptr[i + 1]):
            s += w[indices[k]] * data[k]
        loss = 1.0 - y[i] * s
        if loss > 0.0:
            sq = 0.0
            for k in range(indptr[i], indptr[i + 1]):
                sq += data[k] * data[k]
            if sq > 0.0:
                tau = min(C, loss / sq)
                for k in range(indptr[i], indptr[i + 1]):
                    w[indices[k]] += tau * y[i] * data[k]
                b += tau * y[i]
                updates += 1
    return b, updates


# Tuned variants (diagnostics only, not the reference): what a hand loop can reach with
# reassociated dense dot products (SIMD) and unsigned 32-bit CSR indices (no negative-index
# wraparound test per access).
@numba.njit(cache=True, fastmath={"reassoc"})
def tuned_perceptron_dense(X, y, w):
    n, d = X.shape
    b = 0.0
    updates = 0
    for i in range(n):
        s = 0.0
        for j in range(d):
            s += w[j] * X[i, j]
        s += b
        if y[i] * s <= 0.0:
            for j in range(d):
                w[j] += y[i] * X[i, j]
            b += y[i]
            updates += 1
    return b, updates


@numba.njit(cache=True, fastmath={"reassoc"})
def tuned_pa1_dense(X, y, w, C):
    n, d = X.shape
    b = 0.0
    updates = 0
    for i in range(n):
        s = 0.0
        for j in range(d):
            s += w[j] * X[i, j]
        s += b
        loss = 1.0 - y[i] * s
        if loss > 0.0:
            sq = 0.0
            for j in range(d):
                sq += X[i, j] * X[i, j]
            if sq > 0.0:
                tau = min(C, loss / sq)
                for j in range(d):
                    w[j] += tau * y[i] * X[i, j]
                b += tau * y[i]
                updates += 1
    return b, updates


def run_tuned(rule, X, y_float, C=1.0):
    """Tuned bare loop: dense with reassociation, CSR with uint32 indices (indices converted
    by the caller, outside the timing). Returns the number of updates."""
    w = np.zeros(X.shape[1])
    if sp.issparse(X):
        ind = X.indices if X.indices.dtype == np.uint32 else X.indices.astype(np.uint32)
        if rule == "perceptron":
            _, u = bare_perceptron_csr(X.data, ind, X.indptr, y_float, w)
        else:
            _, u = bare_pa1_csr(X.data, ind, X.indptr, y_float, w, C)
    else:
        if rule == "perceptron":
            _, u = tuned_perceptron_dense(X, y_float, w)
        else:
            _, u = tuned_pa1_dense(X, y_float, w, C)
    return int(u)


def with_uint32_indices(X):
    """A CSR matrix sharing data/indptr with X, with a uint32 copy of its indices."""
    Xu = sp.csr_matrix(X.shape, dtype=X.dtype)
    Xu.data, Xu.indices, Xu.indptr = X.data, X.indices.astype(np.uint32), X.indptr
    return Xu


def run_bare(rule, X, y_float, C=1.0):
    """Run one bare loop over (X, y) from a zero model; returns the number of updates."""
    w = np.zeros(X.shape[1])
    if sp.issparse(X):
        if rule == "perceptron":
            _, u = bare_perceptron_csr(X.data, X.indices, X.indptr, y_float, w)
        else:
            _, u = bare_pa1_csr(X.data, X.indices, X.indptr, y_float, w, C)
    else:
        if rule == "perceptron":
            _, u = bare_perceptron_dense(X, y_float, w)
        else:
            _, u = bare_pa1_dense(X, y_float, w, C)
    return int(u)


def compile_bare(X, y_float):
    """Compile (or load from the disk cache) the bare loops for X's layout; returns seconds."""
    t0 = time.perf_counter()
    small = X[:2]
    if sp.issparse(X):
        small_u = with_uint32_indices(small)
    for rule in ("perceptron", "pa-i"):
        run_bare(rule, small, y_float[:2])
        run_tuned(rule, small_u if sp.issparse(X) else small, y_float[:2])
    return time.perf_counter() - t0


def best(times):
    return min(times)


def emit_report(report):
    """Record the load average at the end in ``report["machine"]`` and print the report as
    JSON on stdout (every benchmark's last step)."""
    try:
        report["machine"]["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        pass
    json.dump(report, sys.stdout, indent=2)
    print()
