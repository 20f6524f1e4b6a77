"""olc.river learns exactly what olc's own ``partial_fit`` learns on the same stream: the
decision value before each example and the final state arrays, bit for bit, for every
learner — ``learn_one`` on dicts and ``learn_many`` on frames (DESIGN.md: one rule, one
compiled step, whatever the interface)."""
import numpy as np
import pandas as pd
import pytest

from _support import (CLASSIFIERS, EXTRA, FIXED, REGRESSORS, assert_same_bits,
                      assert_same_state, csr_of, dict_stream, kind, learn, learner, wrap)

ALL = CLASSIFIERS + REGRESSORS + list(EXTRA)


def _reference(name, stream, columns):
    ref = learner(name)
    X = csr_of(stream, columns)
    y = np.array([y for _, y in stream])
    classes = [False, True] if kind(name) == "classifier" else None
    return ref, ref.predict_then_learn(X, y, classes=classes)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.filterwarnings("ignore:X does not have valid feature names")
def test_learn_one_is_partial_fit(name):
    stream, order = dict_stream(name, seed=1)
    model = wrap(name, features=order if name in FIXED else None)
    scores = learn(model, stream)
    ref, record = _reference(name, stream, model._columns)
    assert model._columns.names == order
    assert_same_bits(scores, record.score, f"{name}: decision values")
    assert_same_state(model.to_olc(), ref, name)
    # The learned olc model predicts as the River model does.
    probe = [x for x, _ in stream[-10:]]
    fitted = model.to_olc()
    values = getattr(fitted, "decision_function", fitted.predict)  # regressors: predict
    assert_same_bits(values(csr_of([(x, 0) for x in probe], model._columns)),
                     np.array([model.decision_one(x) for x in probe]), f"{name}: after")


@pytest.mark.parametrize("name", ALL)
def test_learn_many_is_learn_one(name):
    """Frames of fixed columns (each chunk its own set, zeros stored), learned with
    learn_many, give the state learn_one gives on the same rows as dicts."""
    stream, order = dict_stream(name, seed=3)
    chunks = []
    for start in range(0, len(stream), 15):
        part = stream[start:start + 15]
        cols = list(dict.fromkeys(k for x, _ in part for k in x))
        chunks.append(([{c: float(x.get(c, 0.0)) for c in cols} for x, _ in part],
                       [y for _, y in part], cols))
    features = order if name in FIXED else None
    one, many = wrap(name, features=features), wrap(name, features=features)
    for rows, ys, cols in chunks:
        for x, y in zip(rows, ys):
            one.learn_one(x, y)
        many.learn_many(pd.DataFrame(rows, columns=cols), pd.Series(ys))
    assert many._columns.names == one._columns.names
    assert_same_state(many.to_olc(), one.to_olc(), name)
    probe = pd.DataFrame([{c: float(x.get(c, 0.0)) for c in order} for x, _ in stream[:20]])
    expected = np.array([one.decision_one(row) for row in probe.to_dict("records")])
    if kind(name) == "regressor":
        assert_same_bits(many.predict_many(probe).to_numpy(), expected, name)
    else:
        assert list(many.predict_many(probe)) == [one.predict_one(r) for r in
                                                  probe.to_dict("records")]
        proba = many.predict_proba_many(probe)
        assert list(proba.columns) == [False, True]
        assert_same_bits(proba[True].to_numpy(),
                         np.array([one.predict_proba_one(r)[True]
                                   for r in probe.to_dict("records")]), name)
