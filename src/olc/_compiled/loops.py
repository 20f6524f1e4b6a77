"""The online loops: one per input layout, generic over the update rule.

Each row is processed in order: the rule predicts with the current state, then updates it.
Per row the loop records the prediction (±1), the raw score, whether an update happened and
the rule's aux value. Optionally (``check_n > 0`` rows in ``check_*``), after every update the
new classifier is tested on a fixed evaluation set and the first step at which it classifies
every evaluation point with positive margin is returned (the τ of seed 002 §6); the test stops
at the first violating point, and is skipped once τ is found.
"""
import numba as nb
import numpy as np

from .dispatch import rule_score, rule_step


@nb.njit(cache=True)
def _check_dense(rule, cX, cy, vecs, scal, hp, fast):
    for i in range(cX.shape[0]):
        if cy[i] * rule_score(rule, None, cX[i], vecs, scal, hp, fast) <= 0.0:
            return False
    return True


@nb.njit(cache=True)
def _check_csr(rule, cdata, cindices, cindptr, cy, vecs, scal, hp, fast):
    for i in range(cindptr.shape[0] - 1):
        a, b = cindptr[i], cindptr[i + 1]
        s = rule_score(rule, cindices[a:b], cdata[a:b], vecs, scal, hp, fast)
        if cy[i] * s <= 0.0:
            return False
    return True


@nb.njit(cache=True)
def run_dense(rule, X, y, vecs, scal, hp, fast, pred, score, updated, aux,
              check_X, check_y, check, step_offset):
    """Returns τ (1-based step, counting from ``step_offset``) or -1 if not reached."""
    tau = -1
    for i in range(X.shape[0]):
        s, p, u, a = rule_step(rule, None, X[i], y[i], vecs, scal, hp, fast)
        score[i] = s
        pred[i] = np.int8(p)
        updated[i] = u
        aux[i] = a
        if check and u and tau < 0:
            if _check_dense(rule, check_X, check_y, vecs, scal, hp, fast):
                tau = step_offset + i + 1
    return tau


@nb.njit(cache=True)
def run_csr(rule, data, indices, indptr, y, vecs, scal, hp, fast, pred, score, updated, aux,
            check_data, check_indices, check_indptr, check_y, check, step_offset):
    tau = -1
    for i in range(indptr.shape[0] - 1):
        a0, b0 = indptr[i], indptr[i + 1]
        s, p, u, a = rule_step(rule, indices[a0:b0], data[a0:b0], y[i], vecs, scal, hp, fast)
        score[i] = s
        pred[i] = np.int8(p)
        updated[i] = u
        aux[i] = a
        if check and u and tau < 0:
            if _check_csr(rule, check_data, check_indices, check_indptr, check_y,
                          vecs, scal, hp, fast):
                tau = step_offset + i + 1
    return tau


@nb.njit(cache=True)
def score_dense(rule, X, vecs, scal, hp, fast, out):
    for i in range(X.shape[0]):
        out[i] = rule_score(rule, None, X[i], vecs, scal, hp, fast)


@nb.njit(cache=True)
def score_csr(rule, data, indices, indptr, vecs, scal, hp, fast, out):
    for i in range(indptr.shape[0] - 1):
        a, b = indptr[i], indptr[i + 1]
        out[i] = rule_score(rule, indices[a:b], data[a:b], vecs, scal, hp, fast)
