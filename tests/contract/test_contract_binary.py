"""Binary CSR input (every stored value 1): the loops of a family with ``binary_rows`` pass
such rows to the rules without their values (``kernels``: val = None), skipping the
multiplications by 1. That must change nothing: x·1.0 = x, a·1.0 = a and a sum of n ones is
n, exactly, so records, models and decision values are bit-identical to the values path —
in the default mode as well as in strict mode — and, in strict mode, to dense input.
"""
import numpy as np
import pytest
import scipy.sparse as sp

import olc
from olc._compiled.driver.inputs import LoopInput, binary_rows
from olc._compiled.kernels.vector import all_ones
from olc._compiled.layouts.omm import OmmScal
from olc._compiled.rule_ids import FAMILIES, family_of

from ._support import (ALGORITHMS, assert_same_bits, assert_same_model, assert_same_records,
                       each_algorithm)

BINARY_FAMILIES = sorted(name for name, f in FAMILIES.items() if f.binary_rows)
BINARY_ALGORITHMS = [name for name in ALGORITHMS
                     if family_of(olc.make(name)._rule).name in BINARY_FAMILIES]


def binary_stream(seed, n=80, d=12, density=0.3):
    """0/1 rows with a few empty rows and repeated rows (sometimes relabelled), labels from a
    random hyperplane with some flipped: every learner updates and skips."""
    rng = np.random.default_rng(seed)
    X = (rng.random((n, d)) < density).astype(np.float64)
    X[rng.choice(np.arange(2, n), size=3, replace=False)] = 0.0
    for _ in range(3):
        i, j = rng.choice(n, size=2, replace=False)
        X[j] = X[i]
    w = rng.standard_normal(d)
    y = np.where(X @ w + 0.05 * rng.standard_normal(n) >= 0.1, 1, 0)
    y[0], y[1] = 0, 1
    return X, y


def _run_batches(name, X, y, splits=(0, 25, 26, 80)):
    learner = olc.make(name)
    records = [learner.predict_then_learn(X[a:b], y[a:b], classes=[0, 1])
               for a, b in zip(splits[:-1], splits[1:])]
    return learner, records, learner.decision_function(X)


def test_all_ones():
    assert all_ones(np.ones(0))
    assert all_ones(np.ones(1000))
    assert all_ones(np.ones(3 * 1024))
    assert all_ones(np.ones(3 * 1024 + 5))
    # A value other than 1 anywhere, block boundaries (1,024) and the tail after the last
    # whole block included, is found.
    for n in (1, 255, 1023, 1024, 1025, 2048 + 513, 3 * 1024):
        for pos in {0, n // 2, 1023 % n, 1024 % n, 2047 % n, 2048 % n, n - 1}:
            for other in (0.0, -1.0, 2.0, np.nextafter(1.0, 2.0), np.nan, np.inf):
                v = np.ones(n)
                v[pos] = other
                assert not all_ones(v), (n, pos, other)


def test_fast_sparse_dot_is_the_written_order():
    """The compiled fast CSR dot (a vector intrinsic) sums in exactly the order written out in
    ``sparse_dot_split_reference`` — compared bit for bit with that code run as Python and
    compiled by numba (scalar), for every tail length, with values, binary (val None) and
    stored ones — so its bits do not depend on the machine or on LLVM's choices."""
    import numba

    from olc._compiled.kernels.vector import sparse_dot_split, sparse_dot_split_reference

    reference = numba.njit(sparse_dot_split_reference)

    @numba.njit
    def fast(v, idx, val):
        return sparse_dot_split(v, idx, val), sparse_dot_split(v, idx, None)

    rng = np.random.default_rng(0)
    v = rng.standard_normal(500) * 10.0 ** rng.integers(-8, 8, 500)
    for n in [*range(0, 21), 50, 51, 52, 53, 64, 257]:
        for _ in range(5):
            idx = rng.integers(0, v.size, n).astype(np.uint32)
            val = rng.standard_normal(n)
            with_values, binary = fast(v, idx, val)
            assert_same_bits(with_values, reference(v, idx, val), f"values, n={n}")
            assert_same_bits(with_values, sparse_dot_split_reference(v, idx, val), f"n={n}")
            assert_same_bits(binary, reference(v, idx, None), f"binary, n={n}")
            assert_same_bits(binary, fast(v, idx, np.ones(n))[0], f"ones, n={n}")


def test_binary_rows_are_detected_per_family():
    X, _ = binary_stream(0)
    binary, valued = LoopInput(sp.csr_matrix(X)), LoopInput(sp.csr_matrix(2.0 * X))
    for name in ("perceptron", "pa-i", "e-omm"):
        rule = olc.make(name)._rule
        assert binary_rows(rule, binary) and not binary_rows(rule, valued), name
    romma = olc.make("romma")._rule  # a family whose rules read the values themselves
    assert "margin" not in BINARY_FAMILIES and not binary_rows(romma, binary)
    assert not binary_rows(olc.make("perceptron")._rule, LoopInput(X))  # dense


@pytest.mark.parametrize("strict", [False, True], ids=["default", "strict"])
@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("name", BINARY_ALGORITHMS)
def test_binary_path_bit_identical_to_values_path(name, seed, strict, monkeypatch):
    """The values path is forced by telling the loops that no input is binary."""
    assert {"perceptron", "pa-i", "e-omm"} <= set(BINARY_ALGORITHMS)
    X, y = binary_stream(seed)
    Xs = sp.csr_matrix(X)
    with olc.strict_mode(strict):
        fast_learner, fast_records, fast_scores = _run_batches(name, Xs, y)
        with monkeypatch.context() as m:
            m.setattr(LoopInput, "binary", lambda self: False)
            ref_learner, ref_records, ref_scores = _run_batches(name, Xs, y)
    for k, (a, b) in enumerate(zip(fast_records, ref_records)):
        assert_same_records(a, b, f"batch {k}")
    assert_same_model(fast_learner, ref_learner)
    assert_same_bits(fast_scores, ref_scores, "decision_function")
    assert any(r.updated.any() for r in ref_records)


@pytest.mark.parametrize("strict", [False, True], ids=["default", "strict"])
def test_omm_binary_rows_in_a_unit_fixed_by_earlier_data(strict, monkeypatch):
    """e-OMM keeps its state in units 2^−E fixed by the first nonzero row (rules/omm.py): rows
    of magnitude 2^600 fix a unit ≠ 1, then binary rows must give the values path's bits."""
    Xv, yv = binary_stream(3, n=20)
    Xv = Xv * 2.0**600
    X, y = binary_stream(4)

    def run():
        learner = olc.make("e-omm")
        learner.predict_then_learn(sp.csr_matrix(Xv), yv, classes=[0, 1])
        return learner, learner.predict_then_learn(sp.csr_matrix(X), y)

    with olc.strict_mode(strict):
        fast, fast_record = run()
        # max |x| = 2^600 ∈ [2^600, 2^601): exponent 601, E = 2·(601 − 450) = 302.
        assert fast._scal[OmmScal.UNIT] == 2.0**-302
        with monkeypatch.context() as m:
            m.setattr(LoopInput, "binary", lambda self: False)
            ref, ref_record = run()
    assert_same_records(fast_record, ref_record)
    assert_same_model(fast, ref)
    assert fast_record.updated.any()


@each_algorithm
def test_binary_csr_and_dense_bit_identical_in_strict_mode(name):
    X, y = binary_stream(2)
    with olc.strict_mode():
        dense, rd, sd = _run_batches(name, X, y)
        sparse, rs, ss = _run_batches(name, sp.csr_matrix(X), y)
    for k, (a, b) in enumerate(zip(rd, rs)):
        assert_same_records(a, b, f"batch {k} dense vs CSR")
    assert_same_model(dense, sparse, "dense vs CSR")
    assert_same_bits(sd, ss, "decision_function dense vs CSR")
