"""Contract 1: dense and CSR input give identical results.

Bit-identical under ``olc.strict_mode()``; in the default mode dense dot products may be
reassociated (SIMD), so scores and weights agree to ~1e-12 relative and the discrete outputs
(prediction, update flag) agree exactly on streams without exact ties.
"""
import numpy as np
import pytest
import scipy.sparse as sp

import olc

from ._support import (assert_close, assert_same_bits, assert_same_model, assert_same_records,
                       csr, each_algorithm, each_binary_record_algorithm, KERNEL_MODELS,
                       model_arrays,
                       stream)

SEEDS = [0, 1, 2]


def _run(name, X, y, check=None):
    learner = olc.make(name)
    record = learner.predict_then_learn(X, y, classes=[0, 1], check=check)
    return learner, record


@each_binary_record_algorithm
@pytest.mark.parametrize("seed", SEEDS)
def test_dense_and_csr_bit_identical_in_strict_mode(name, seed):
    X, y = stream(seed)
    with olc.strict_mode():
        dense, rd = _run(name, X, y, check=(X[:10], y[:10]))
        sparse, rs = _run(name, csr(X), y, check=(csr(X[:10]), y[:10]))
        assert_same_records(rd, rs, "dense vs CSR")
        assert_same_model(dense, sparse, "dense vs CSR")
        assert_same_bits(dense.decision_function(X), sparse.decision_function(csr(X)),
                         "decision_function dense vs CSR")
        # The model trained on one layout scores the other layout identically too.
        assert_same_bits(dense.decision_function(csr(X)), dense.decision_function(X),
                         "decision_function of one model on both layouts")
    assert rd.updated.any(), "stream should exercise the update branch"
    if name == "obpm":
        # An ensemble round "updates" when any member does; the skip branch is exercised per
        # member (record.aux: number of members that updated, out of N).
        assert (rd.aux < dense.N).all(), "some member should skip every round"
    elif name in KERNEL_MODELS:
        # The kernel PA family and NORMA update on a positive hinge loss, which an RBF model
        # (γ = 1, 60 rows) keeps on nearly every row; their skip branch is compared with the
        # linear learners' in tests/learners/kernel/test_kernel_pool.py.
        pass
    else:
        assert not rd.updated.all(), "stream should exercise the skip branch"


@each_algorithm
@pytest.mark.parametrize("seed", SEEDS)
def test_dense_and_csr_agree_in_default_mode(name, seed):
    X, y = stream(seed)
    dense, rd = _run(name, X, y)
    sparse, rs = _run(name, csr(X), y)
    assert_same_bits(rd.pred, rs.pred, "pred")
    assert_same_bits(rd.updated, rs.updated, "updated")
    assert_close(rd.score, rs.score, "score")
    assert_close(rd.aux, rs.aux, "aux")
    for a, b, what in zip(model_arrays(dense), model_arrays(sparse), ("coef_", "intercept_")):
        assert_close(a, b, what)
    assert_close(dense.decision_function(X), sparse.decision_function(csr(X)),
                 "decision_function")


@each_algorithm
def test_every_sparse_container_and_non_canonical_csr(name):
    """csr_array, COO/CSC (converted), unsorted indices and duplicate entries (summed) all give
    the canonical-CSR result; the caller's matrix is not modified."""
    X, y = stream(5, n=40, d=6)
    # Values that are exact binary fractions, so that summing split duplicates is exact.
    X = np.round(X * 8) / 8
    with olc.strict_mode():
        ref_learner, ref = _run(name, csr(X), y)

        # Unsorted column indices and each stored value split into two duplicate entries.
        C = csr(X)
        rows, cols, vals = [], [], []
        for i in range(C.shape[0]):
            a, b = C.indptr[i], C.indptr[i + 1]
            for k in reversed(range(a, b)):
                rows += [i, i]
                cols += [C.indices[k], C.indices[k]]
                vals += [C.data[k] / 2, C.data[k] / 2]
        indptr = np.searchsorted(rows, np.arange(C.shape[0] + 1))
        messy = sp.csr_matrix((np.array(vals), np.array(cols, dtype=np.int32), indptr),
                              shape=C.shape)
        assert not messy.has_canonical_format
        before = (messy.data.copy(), messy.indices.copy(), messy.indptr.copy())

        for variant in (sp.csr_array(X), sp.coo_matrix(X), sp.csc_matrix(X), messy):
            learner, record = _run(name, variant, y)
            assert_same_records(ref, record, type(variant).__name__)
            assert_same_model(ref_learner, learner, type(variant).__name__)
        for got, want in zip((messy.data, messy.indices, messy.indptr), before):
            assert_same_bits(got, want, "caller's CSR matrix was modified")


@each_algorithm
def test_dense_and_csr_interleaved_batches(name):
    """Switching layout between batches changes nothing (strict mode)."""
    X, y = stream(7)
    with olc.strict_mode():
        ref, r_ref = _run(name, X, y)
        mixed = olc.make(name)
        parts = []
        for k, (a, b) in enumerate([(0, 15), (15, 30), (30, 45), (45, 60)]):
            Xb = X[a:b] if k % 2 == 0 else csr(X[a:b])
            parts.append(mixed.predict_then_learn(Xb, y[a:b], classes=[0, 1]))
        assert_same_bits(np.concatenate([p.score for p in parts]), r_ref.score, "score")
        assert_same_bits(np.concatenate([p.pred for p in parts]), r_ref.pred, "pred")
        assert_same_model(ref, mixed)
