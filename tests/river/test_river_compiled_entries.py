"""The one-example entries (``_compiled/loops/one_row.py``) reuse the rule step the loops compiled,
and sort long rows correctly without allocating (the heapsort path)."""
import numpy as np
import pytest
from numba.core import event

import olc
import olc.river
from olc._compiled import families
from olc._compiled.driver import one_row as one_row_entries
from olc._compiled.rule_ids import family_of

RANK_SORT_MAX = families.load_one_row("linear").RANK_SORT_MAX

from _support import assert_same_bits, assert_same_state, csr_of, learn


# Families whose family_step is a compiled call (not inlined into the loops).
@pytest.mark.parametrize("name", ["romma", "regularized-pa", "winnow", "arow"])
def test_entries_reuse_the_loops_rule_step(name):
    """After the family's CSR loop has run, compiling ``learn_one`` / ``score_one`` adds no
    new signature to the family's rule dispatcher: the scratch row has the loops' CSR row
    types (read-only uint32 / float64 slices). A writable row would compile the family's
    rules a second time (it did: 11–22 s per family; checked: this test then fails)."""
    import scipy.sparse as sp

    learner = olc.make(name)
    X = sp.csr_matrix(np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0]]))
    learner.fit(X, np.array([1, -1, 1]))
    dispatcher = families.load(family_of(learner._rule).name).rule_step
    # Compile events, not the dispatcher's overloads: a signature loaded from the disk cache
    # (the loops compiled in another process) is added to the overloads without compiling.
    compiled = []

    class _Compiles(event.Listener):
        def on_start(self, ev):
            if ev.data["dispatcher"] is dispatcher:
                compiled.append(ev.data["args"])

        def on_end(self, ev):
            pass

    with event.install_listener("numba:compile", _Compiles()):
        vecs, scal = learner._initial_state(3)
        one_row_entries.bind(learner._rule, vecs, np.array(learner._initial_ints(3)), scal,
                             learner._hyperparameters())
        model = olc.river.make(name, features=["a", "b", "c"])
        model.learn_one({"a": 1.0, "c": 1.0}, True)
    assert compiled == []


@pytest.mark.parametrize("name", ["pa-i", "alma2"])
def test_long_rows_in_any_key_order(name):
    """Rows longer than RANK_SORT_MAX, their keys in random order, learn the canonical
    (column-sorted) CSR row, as partial_fit does."""
    rng = np.random.default_rng(7)
    n_features = 3 * RANK_SORT_MAX
    names = [f"k{j}" for j in range(n_features)]
    stream = []
    for _ in range(25):
        keys = rng.permutation(names)[: int(rng.integers(RANK_SORT_MAX + 1, n_features))]
        x = {str(k): float(v) for k, v in zip(keys, rng.standard_normal(len(keys)))}
        stream.append((x, bool(rng.random() < 0.5)))
    model = olc.river.make(name, features=names)
    scores = learn(model, stream)
    ref = olc.make(name)
    record = ref.predict_then_learn(csr_of(stream, model._columns),
                                    np.array([y for _, y in stream]), classes=[False, True])
    assert_same_bits(scores, record.score, name)
    assert_same_state(model.to_olc(), ref, name)
