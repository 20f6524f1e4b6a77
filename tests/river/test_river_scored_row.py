"""learn_one after predict_one on the same dict steps on the row the score left in the scratch
row (``LearnerState._scored``, ``one_row.learn_row``): it must learn exactly what a model that
never scored learns, whatever happens to the dict or the model in between."""
import numpy as np
import pytest

import olc
import olc.river
from olc._compiled.loops.one_row_state import descriptor

from _support import assert_same_state


def _stream(seed, n=120, pool=30):
    """Dicts in shuffled key order with explicit zeros; features keep appearing."""
    rng = np.random.default_rng(seed)
    names = [f"k{j}" for j in range(pool)]
    stream = []
    for i in range(n):
        keys = rng.permutation(names[: min(pool, 5 + i // 3)])[: int(rng.integers(2, 12))]
        values = rng.standard_normal(len(keys)) * (rng.random(len(keys)) < 0.8)
        stream.append(({str(k): float(v) for k, v in zip(keys, values)},
                       bool(rng.random() < 0.5)))
    return stream


def _learned_alone(name, stream):
    model = olc.river.make(name)
    for x, y in stream:
        model.learn_one(x, y)
    return model.to_olc()


@pytest.mark.parametrize("name", ["pa-i", "alma2", "arow"])
def test_a_dict_changed_after_its_score_is_learned_as_it_is(name):
    """predict_one(x), then x changes (a value, a key added, a key removed, a zero made
    nonzero), then learn_one(x): the new contents are learned, not the scored row."""
    stream = _stream(1)
    model = olc.river.make(name)
    learned = []
    for i, (x, y) in enumerate(stream):
        x = dict(x)
        model.predict_one(x)
        key = next(iter(x))
        if i % 4 == 0:
            x[key] = 3.0
        elif i % 4 == 1:
            x["late"] = 1.5
        elif i % 4 == 2 and len(x) > 1:
            del x[key]
        model.learn_one(x, y)
        learned.append((x, y))
    assert_same_state(model.to_olc(), _learned_alone(name, learned), name)


@pytest.mark.parametrize("name", ["pa-i", "perceptron"])
def test_the_scored_row_serves_only_the_dict_it_was_scored_for(name):
    """Another dict scored in between, an equal copy learned, the same dict learned twice, a
    dict in another key order: each learns what a model that never scored learns."""
    stream = _stream(2)
    model = olc.river.make(name)
    learned = []
    for i, (x, y) in enumerate(stream):
        other = stream[(i + 7) % len(stream)][0]
        model.predict_one(x)
        if i % 3 == 0:
            model.predict_one(other)  # the scratch row now holds other's row
            model.learn_one(x, y)
        elif i % 3 == 1:
            model.learn_one(dict(reversed(list(x.items()))), y)  # equal mapping
        else:
            model.learn_one(dict(x), y)
            model.learn_one(x, y)  # learned twice: the second maps the dict again
            learned.append((x, y))
        learned.append((x, y))
    assert_same_state(model.to_olc(), _learned_alone(name, learned), name)


def test_a_frame_learned_in_between_keeps_the_row_right():
    """learn_many between predict_one(x) and learn_one(x) adds features (the state grows,
    the scratch row is replaced): learn_one(x) still learns x."""
    pd = pytest.importorskip("pandas")
    stream = _stream(3, n=40)
    model, alone = olc.river.make("pa-i"), olc.river.make("pa-i")
    for i, (x, y) in enumerate(stream):
        model.predict_one(x)
        if i % 10 == 5:
            frame = pd.DataFrame([{f"new{i}": 1.0, **x}])
            model.learn_many(frame, pd.Series([y]))
            alone.learn_many(frame, pd.Series([y]))
        model.learn_one(x, y)
        alone.learn_one(x, y)
    assert_same_state(model.to_olc(), alone.to_olc(), "frame")


def test_the_state_descriptor_refuses_other_array_types():
    good = (np.zeros((2, 3)), np.zeros(1, np.int64), np.zeros(2), np.zeros(1),
            np.zeros(4, np.uint32), np.zeros(3))
    desc, arrays = descriptor(*good)
    assert desc.dtype == np.int64 and arrays == good
    with pytest.raises(TypeError, match="vecs"):
        descriptor(np.zeros((3, 2)).T, *good[1:])
    with pytest.raises(TypeError, match="ints"):
        descriptor(good[0], np.zeros(1), *good[2:])
