"""Mutated model files of every learner: truncated, reshaped, retyped,
renamed or dropped arrays, edited metadata. Loading and using the file (predict, then
partial_fit) in a subprocess gives a PersistenceError or an exact round trip, never a crash
or another exception."""
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import olc

from _in_domain import KIND, NAMES, fit_kwargs, in_domain

_saved = {}


def original(name, folder, worker):
    """(bytes of the saved file, meta, arrays, the worker's digest of it) per learner."""
    if name not in _saved:
        X, y = in_domain(name)
        learner = olc.make(name)
        learner.partial_fit(X, y, **fit_kwargs(name))
        path = olc.save(learner, folder / name)
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            arrays = {k: data[k] for k in data.files if k != "meta"}
        reply = worker.ask(path, name)
        assert reply["status"] == "loaded", reply
        _saved[name] = (path.read_bytes(), meta, arrays, reply["digest"])
    return _saved[name]


def _reshape(a, rows, cols):
    if a.ndim == 2:
        out = np.zeros((max(a.shape[0] + rows, 0), max(a.shape[1] + cols, 0)), dtype=a.dtype)
        r, c = min(a.shape[0], out.shape[0]), min(a.shape[1], out.shape[1])
        out[:r, :c] = a[:r, :c]
        return out
    out = np.zeros(max(a.size + rows, 0), dtype=a.dtype)
    out[:min(a.size, out.size)] = a.ravel()[:out.size]
    return out


array_edit = st.one_of(
    st.tuples(st.just("reshape"), st.integers(-3, 3), st.integers(-3, 3)),
    st.tuples(st.just("ravel")),
    st.tuples(st.just("dtype"), st.sampled_from(["float32", "int64", "float64", ">f8", "<i8",
                                                 "int32", "U3", "bool"])),
    st.tuples(st.just("drop")),
    st.tuples(st.just("rename"), st.sampled_from(["vec", "VECS", "state", "meta2"])),
    st.tuples(st.just("nonfinite"), st.sampled_from([np.nan, np.inf, -np.inf]),
              st.integers(0, 10**6)),
)
meta_edit = st.one_of(
    st.tuples(st.just("n_features_in"), st.sampled_from([2**31, 2**40, 0, -1, 1, 5, 7, 6])),
    st.tuples(st.just("classes"), st.sampled_from([[0, 1, 2], [1], [], [1, 1], [1, 0],
                                                   [0.0, np.nan]])),
    st.tuples(st.just("kind"), st.sampled_from(["classifier", "regressor", "other", 3])),
    st.tuples(st.just("algorithm"), st.sampled_from(NAMES)),
    st.tuples(st.just("n_steps"), st.sampled_from([-1, 1.5, None, "3", True])),
    st.tuples(st.just("drop_key"), st.sampled_from(["format", "params", "layout", "kind",
                                                    "n_features_in", "class"])),
    st.tuples(st.just("params"), st.sampled_from([None, [], {"x": 1}])),
)


def mutate(meta, arrays, field, edit):
    meta, arrays = json.loads(json.dumps(meta)), {k: v.copy() for k, v in arrays.items()}
    what = edit[0]
    if field in ("vecs", "ints", "scal", "classes"):
        if field not in arrays or (field == "classes" and what == "dtype"):
            return meta, arrays  # nothing to edit / a valid other model (labels 0., 1.)
        a = arrays[field]
        if what == "reshape":
            arrays[field] = _reshape(a, edit[1], edit[2])
        elif what == "ravel":
            arrays[field] = a.ravel()
        elif what == "dtype":
            arrays[field] = a.astype(edit[1]) if a.dtype.kind != "U" or edit[1] == "U3" else a
        elif what == "drop":
            del arrays[field]
        elif what == "rename":
            arrays[edit[1]] = arrays.pop(field)
        elif what == "nonfinite" and a.size and a.dtype.kind == "f":
            a.ravel()[edit[2] % a.size] = edit[1]  # ravel of a fresh copy is a view
    elif what == "classes":  # metadata-level edits of the labels
        arrays["classes"] = np.array(edit[1])
    elif what == "drop_key":
        meta.pop(edit[1], None)
    else:
        meta[what] = edit[1]
    return meta, arrays


def _same_file(meta, arrays, meta2, arrays2):
    """Whether the mutation left the saved content as it was (same metadata, same arrays with
    the same names, dtypes, shapes and bits)."""
    if json.dumps(meta, sort_keys=True) != json.dumps(meta2, sort_keys=True):
        return False
    if arrays.keys() != arrays2.keys():
        return False
    return all(a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
               for a, b in ((arrays[k], arrays2[k]) for k in arrays))


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(name=st.sampled_from(NAMES),
       mutation=st.one_of(
           st.tuples(st.sampled_from(["vecs", "ints", "scal", "classes"]), array_edit),
           st.tuples(st.just("meta"), meta_edit),
           st.tuples(st.just("truncate"), st.floats(0, 1))))
def test_mutated_files_are_refused_or_round_trip_exactly(name, mutation, tmp_path_factory,
                                                          load_worker):
    folder = tmp_path_factory.getbasetemp() / "fuzz"
    folder.mkdir(exist_ok=True)
    data, meta, arrays, digest = original(name, folder, load_worker)
    path = folder / "mutated.npz"
    field, edit = mutation
    if field == "truncate":
        path.write_bytes(data[:int(edit * (len(data) - 1))])
    else:
        meta2, arrays2 = mutate(meta, arrays, field, edit)
        assume(not _same_file(meta, arrays, meta2, arrays2))  # an edit that edits nothing
        with open(path, "wb") as fh:
            np.savez(fh, meta=np.array(json.dumps(meta2)), **arrays2)
    reply = load_worker.ask(path, name)
    assert reply["status"] in ("refused", "loaded"), (name, mutation, reply)
    if reply["status"] == "loaded":
        assert reply["digest"] == digest, f"{name}: {mutation} loaded as another model"
    else:
        assert str(path) in reply["message"]


@pytest.mark.parametrize("name", NAMES)
def test_unmutated_files_round_trip_in_the_worker(name, tmp_path_factory, load_worker):
    folder = tmp_path_factory.getbasetemp() / "fuzz"
    folder.mkdir(exist_ok=True)
    data, *_ , digest = original(name, folder, load_worker)
    path = folder / f"copy-{name}.npz"
    path.write_bytes(data)
    assert load_worker.ask(path, name) == {"status": "loaded", "digest": digest}
    assert KIND[name] in ("classifier", "regressor")
