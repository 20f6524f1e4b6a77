"""One-vs-rest of the ``kernel`` family with one kernel row per example shared by the K
classes (``rules/kernel_shared.py``, ``loops/kernel_ovr.py``): the guard, the scratch and the
calls; ``driver/k_class.py`` comes here first.

The guard (:func:`shares_rows`): a ``kernel``-family rule, every class at the same STEPS (so
a BORN step names the same stored row in every class) and every pool's BORN strictly
increasing along ORDER (what the merge relies on; true of every state the rules write, checked
so that a hand-edited file falls back rather than mixing rows). Otherwise, or with
:data:`SHARE` off, the classes compute their own kernel rows (``loops/one_vs_rest.py``).

``n_jobs`` > 1: groups of classes on threads (``k_class._run_groups``), each group sharing
its kernel rows among its own classes (sharing across threads would need them to meet at
every row). Measured (``benchmarks/kernel_ovr_sharing.py``, docs/architecture.md): two
threads sharing within their groups were as fast as or faster than one thread sharing all
classes (USPS 1.06–1.41×, 20 Newsgroups 1.11–1.74×) and than two threads not sharing.
"""
import numpy as np

from ...config import strict_arithmetic
from .. import loader
from ..layouts.kernel import BORN, HEADER, ORDER, capacity
from ..layouts.kernel import KernelScal as KS
from ..rule_ids import family_of

#: Whether one-vs-rest shares the kernel rows when the guard allows. A module attribute: the
#: tests and the benchmark set it False to run the per-class path on the same states.
SHARE = True
#: Sharing pays on a row when the classes' kernel rows hold at least this many times the
#: dots the shared row computes (``loops/kernel_ovr.py``; the merge costs the rest), measured
#: (``benchmarks/kernel_ovr_sharing.py``) for the pool by feature, whose own row is one
#: contiguous vectorized sweep, and a missing slot's a gather: on USPS 3 ran at 0.97–1.02×
#: the per-class speed, 1.5 at 0.91–1.0×, sharing every row at ~0.7×. The CSR pool's dots
#: are per slot either way: it always shares (1.1–3.1× faster on 20 Newsgroups). 0: always
#: share (the tests).
SHARE_GAIN = 3.0


def _gain(ints):
    return 0.0 if ints.shape[-1] > 0 else float(SHARE_GAIN)


def shares_rows(rule, vecs, ints, scal):
    """Whether the K stacked states ``scal`` (K, n_scalars) can share their kernel rows."""
    if not SHARE or family_of(rule).name != "kernel" or scal.ndim != 2:
        return False
    steps = scal[:, KS.STEPS]
    if np.any(steps != steps[0]):
        return False
    cap = capacity(scal)
    for row in scal:
        n = int(row[KS.N_STORED])
        order = row[HEADER + ORDER * cap:HEADER + ORDER * cap + n].astype(np.int64)
        born = row[HEADER + BORN * cap + order]
        if np.any(born[1:] <= born[:-1]):
            return False
    return True


def _scratch(scal):
    """The merge's buffers (``loops/kernel_ovr.py``): two (BORN, k) lists of Σ_c capacity
    entries, then (slots, positions, acc, sq) of one capacity."""
    cap = capacity(scal)
    total = scal.shape[0] * cap
    return (np.empty(total), np.empty(total), np.empty(total), np.empty(total),
            (np.empty(cap, np.int64), np.empty(cap, np.int64), np.empty(cap), np.empty(cap)))


def _loops():
    return loader.instantiate(loader.KERNEL_OVR, "kernel")


def runner(rule, X, labels, order, start, stop, fast):
    """``run(state, hp, record, extra)`` over positions start..stop−1 for the classes of
    ``state`` (all K, or a group of them on a thread: ``k_class._run_groups``), ``extra`` =
    (unused, learned, first class) as the per-class loops take it; returns (reached, class,
    status) as they do."""
    loops = _loops()

    def run(state, hp, record, extra):
        _, learned, first_class = extra
        scratch, gain = _scratch(state[2]), _gain(state[1])
        if X.sparse:
            return loops.run_csr_shared(rule, X.data, X.indices, X.indptr, labels, order,
                                        start, stop, state, hp, fast, record, scratch,
                                        gain, learned, first_class)
        return loops.run_dense_shared(rule, X.dense, labels, order, start, stop, state, hp,
                                      fast, record, scratch, gain, learned,
                                      first_class)
    return run


def decision_values_shared(rule, X, vecs, ints, scal, hp):
    """``k_class.decision_values_ovr``'s contract."""
    loops = _loops()
    out = np.empty((X.n_rows, vecs.shape[0]))
    fast = not strict_arithmetic()
    state, scratch = (vecs, ints, scal), _scratch(scal)
    if X.sparse:
        bad = loops.score_csr_shared(rule, X.data, X.indices, X.indptr, state, hp, fast,
                                     scratch, _gain(ints), out)
    else:
        bad = loops.score_dense_shared(rule, X.dense, state, hp, fast, scratch,
                                       _gain(ints), out)
    return out, int(bad)
