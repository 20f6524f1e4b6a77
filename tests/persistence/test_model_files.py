"""Model files: ``olc.load`` checks every field before compiled code sees
it; a bad file is a PersistenceError naming the file, the field, what was expected and what
was found. Files that crashed the process are loaded in a subprocess (``load_worker``)."""
import json
import pickle
import re
import zipfile
from pathlib import Path

import numpy as np
import pytest

import olc
from olc.learners.registry import info
from olc.persistence import FORMAT, PersistenceError

from _in_domain import KIND, NAMES, fit_kwargs, in_domain

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "v0_1_0"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text())


def fitted(name):
    X, y = in_domain(name)
    learner = olc.make(name)
    learner.partial_fit(X, y, **fit_kwargs(name))
    return learner


def read(path):
    with np.load(path, allow_pickle=False) as data:
        return json.loads(str(data["meta"])), {k: data[k] for k in data.files if k != "meta"}


def write(path, meta, arrays):
    with open(path, "wb") as fh:
        np.savez(fh, meta=np.array(json.dumps(meta)), **arrays)
    return path


def edited(tmp_path, name, edit):
    """Save a fitted ``name``, apply ``edit(meta, arrays)`` (in place) and write it back."""
    path = olc.save(fitted(name), tmp_path / name)
    meta, arrays = read(path)
    edit(meta, arrays)
    return write(tmp_path / f"{name}-edited.npz", meta, arrays)


# -- files saved by olc 0.1.0 -----------------------------------------------------------------

@pytest.mark.usefixtures("default_arithmetic")
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_files_of_olc_0_1_0_load_and_reproduce_their_values(name):
    learner = olc.load(FIXTURES / f"{name}.npz")
    probe = np.array(EXPECTED[name]["probe"])
    values = (learner.decision_function(probe) if info(name).kind == "classifier"
              else learner.predict(probe))
    assert [float(v) for v in values] == EXPECTED[name]["values"]


#: Catalogue entries added after olc 0.1.0: no file of that version can exist for them.
AFTER_0_1_0 = {"multiclass-pa", "multiclass-pa-i", "multiclass-pa-ii",
               *(e.name for e in olc.algorithms()
                 if e.family in ("kernel", "kernel_extra", "feature_map"))}


def test_every_catalogue_entry_has_a_fixture():
    assert set(EXPECTED) == set(NAMES) - AFTER_0_1_0


# -- the crashes and silent misreads of the issue (in a subprocess) ---------------------------

CRASHES = {
    "n_features_in 2**31": ("perceptron", lambda m, a: m.update(n_features_in=2**31)),
    "vecs cut to one column": ("pa-i", lambda m, a: a.update(vecs=a["vecs"][:, :1])),
    "scal cut to one slot": ("e-omm", lambda m, a: a.update(scal=a["scal"][:1])),
    "NaN in vecs": ("perceptron", lambda m, a: a["vecs"].__setitem__((0, 0), np.nan)),
    "classifier saved as regressor": ("pa", lambda m, a: m.update(kind="regressor")),
    "three classes": ("perceptron", lambda m, a: a.update(classes=np.array([0, 1, 2]))),
    "regressor given classes": ("pa-regression",
                                lambda m, a: a.update(classes=np.array([0, 1]))),
    "algorithm swapped to a regressor": ("pa", lambda m, a: m.update(
        algorithm="pa-regression", **{"class": "PARegressor"})),
    # The integer state's values: compiled code indexes vecs with them.
    "support list past d": ("romma", lambda m, a: a["ints"].__setitem__(1, 10**9)),
    "support count past d": ("romma", lambda m, a: a["ints"].__setitem__(0, 10**9)),
    "support positions out of step": ("l1-constrained-pa",
                                      lambda m, a: a["ints"].__setitem__(slice(7, 13), 0)),
    "nonzero weight outside the support": ("pumma", lambda m, a: _unlist_first(a)),
    "n-OMM corral past the stored rows": ("n-omm", lambda m, a: a["ints"].__setitem__(
        slice(4, 6 + 8), 10**6)),
    "n-OMM more stored than the capacity": ("n-omm", lambda m, a: a["ints"].__setitem__(
        0, 10**6)),
    "negative expert weight": ("weighted-majority",
                               lambda m, a: a["vecs"].__setitem__((0, 0), -1.0)),
}


def _unlist_first(arrays):
    """Empty PUMMA's support of w (count 0, positions 0) while w keeps its nonzeros."""
    d = arrays["vecs"].shape[1]
    arrays["ints"][0] = 0
    arrays["ints"][3 + d:3 + 2 * d] = 0  # v_pos (v_list is block 0, v_pos block 1)


@pytest.mark.parametrize("case", sorted(CRASHES))
def test_inconsistent_files_are_refused_never_crash(case, tmp_path, load_worker):
    name, edit = CRASHES[case]
    path = edited(tmp_path, name, edit)
    reply = load_worker.ask(path, name)
    assert reply["status"] == "refused", reply
    assert str(path) in reply["message"], "the message names the file"


def test_messages_name_field_expected_and_found(tmp_path):
    path = edited(tmp_path, "perceptron", lambda m, a: m.update(n_features_in=2**31))
    with pytest.raises(PersistenceError, match=r"vecs: expected at least n_features_in = "
                                               r"2147483648 columns, found shape \(1, 6\)"):
        olc.load(path)
    path = edited(tmp_path, "perceptron", lambda m, a: a.update(classes=np.array([0, 1, 2])))
    # three classes make a one-vs-rest file, whose state must be stacked per class
    with pytest.raises(PersistenceError, match=r"vecs: expected 3-D, found shape \(1, 6\)"):
        olc.load(path)
    path = edited(tmp_path, "perceptron", lambda m, a: a["scal"].__setitem__(0, np.inf))
    with pytest.raises(PersistenceError, match=r"scal: expected finite values, found inf"):
        olc.load(path)
    path = edited(tmp_path, "pa", lambda m, a: m.update(kind="regressor"))
    with pytest.raises(PersistenceError, match=r"'kind': expected 'classifier'"):
        olc.load(path)


@pytest.mark.parametrize("edit, pattern", [
    (lambda m, a: m.pop("n_steps"), r"metadata keys: .*missing \['n_steps'\]"),
    (lambda m, a: m.update(extra=1), r"metadata keys: .*unknown \['extra'\]"),
    (lambda m, a: m.update(params=[1, 2]), r"metadata 'params': expected a JSON dict"),
    (lambda m, a: m.update(n_steps="40"), r"metadata 'n_steps': expected a JSON int"),
    (lambda m, a: m.update(n_updates=True), r"metadata 'n_updates': expected a JSON int"),
    (lambda m, a: m.update(n_updates=10**6), r"n_updates ≤ n_steps"),
    (lambda m, a: m.update(algorithm="nope"), r"metadata 'algorithm': unknown algorithm"),
    (lambda m, a: m.update({"class": "Perceptron"}), r"metadata 'class': expected 'PassiveAgg"),
    (lambda m, a: m["params"].update(bogus=1), r"metadata 'params': .*unknown \['bogus'\]"),
    (lambda m, a: m["params"].update(C=-1.0), r"metadata 'params': .*'C' parameter"),
    (lambda m, a: a.pop("ints"), r"arrays: expected .*missing \['ints'\]"),
    (lambda m, a: a.update(extra=np.zeros(2)), r"arrays: expected .*unexpected \['extra'\]"),
    (lambda m, a: a.update(vecs=a["vecs"].astype(np.float32)), r"vecs: expected dtype float64"),
    (lambda m, a: a.update(ints=np.zeros(3, dtype=np.int32)), r"ints: expected dtype int64"),
    (lambda m, a: a.update(vecs=a["vecs"].ravel()), r"vecs: expected 2-D"),
    (lambda m, a: a.update(vecs=np.zeros((3, 6))), r"vecs: expected 1 rows, found shape"),
    (lambda m, a: a.update(scal=np.zeros(16)), r"scal: expected 1 slots, found 16"),
    (lambda m, a: a.update(classes=np.array([1, 0])), r"classes: expected distinct labels in sorted order"),
    (lambda m, a: m["layout"].update(fingerprint="0123456789abcdef"),
     r"saved by olc .* layout 0123456789abcdef of pa-i; this olc \(.*\) uses layout"),
    (lambda m, a: m.update(format="olc-learner/9"), r"unknown format 'olc-learner/9'"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_metadata_and_arrays_are_checked(edit, pattern, tmp_path):
    path = edited(tmp_path, "pa-i", edit)
    with pytest.raises(PersistenceError, match=pattern) as exc:
        olc.load(path)
    assert str(path) in str(exc.value)


def test_layout_mismatch_names_both_versions_and_the_differing_fields(tmp_path):
    def edit(meta, arrays):
        meta["olc_version"] = "9.9.9"
        meta["layout"]["fingerprint"] = "ffffffffffffffff"
        meta["layout"]["describe"]["scalars"] = ["bias", "norm"]
    with pytest.raises(PersistenceError, match=r"saved by olc 9\.9\.9 .*ffffffffffffffff.* "
                                               r"this olc \(0\.1\.0\) uses layout [0-9a-f]{16} "
                                               r"\(they differ in: scalars\)"):
        olc.load(edited(tmp_path, "perceptron", edit))


def test_format_2_stores_layout_kind_and_plain_values(tmp_path):
    learner = olc.make("pa-i", C=np.float32(0.5), fit_intercept=np.bool_(True))
    learner.partial_fit(*in_domain("pa-i"), classes=[0, 1])
    path = olc.save(learner, tmp_path / "m")
    meta, arrays = read(path)
    assert meta["format"] == FORMAT and meta["kind"] == "classifier"
    assert meta["layout"]["fingerprint"] == learner._layout.fingerprint
    assert meta["layout"]["describe"] == learner._layout.describe()
    assert meta["params"]["C"] == 0.5 and type(meta["params"]["fit_intercept"]) is bool
    assert set(arrays) == {"vecs", "ints", "scal", "classes"}
    loaded = olc.load(path)
    assert loaded.get_params() == {"C": 0.5, "fit_intercept": True, "average": False}
    np.testing.assert_array_equal(loaded.coef_, learner.coef_)


def test_legacy_file_with_a_value_in_a_dropped_slot_is_refused(tmp_path):
    meta, arrays = read(FIXTURES / "perceptron.npz")
    arrays["scal"][5] = 1.0
    path = write(tmp_path / "p.npz", meta, arrays)
    with pytest.raises(PersistenceError, match=r"scal \(olc 0\.1\.0 file\): expected zeros "
                                               r"beyond the 1 slot\(s\) .*scal\[5\] = 1\.0"):
        olc.load(path)


def test_truncated_and_foreign_files_are_refused(tmp_path):
    path = olc.save(fitted("perceptron"), tmp_path / "m")
    data = path.read_bytes()
    for cut in (0, 10, len(data) // 2, len(data) - 1):
        bad = tmp_path / f"cut{cut}.npz"
        bad.write_bytes(data[:cut])
        with pytest.raises(PersistenceError, match="not an olc learner file"):
            olc.load(bad)
    with zipfile.ZipFile(tmp_path / "z.npz", "w") as z:  # a zip of other things
        z.writestr("meta.npy", b"garbage")
    with pytest.raises(PersistenceError, match="not an olc learner file"):
        olc.load(tmp_path / "z.npz")
    write(tmp_path / "list.npz", [1, 2], {})  # JSON, but not an object
    with pytest.raises(PersistenceError, match="metadata is a list"):
        olc.load(tmp_path / "list.npz")


def test_pickle_payload_is_refused_and_never_executed(tmp_path):
    marker = tmp_path / "executed"

    class Boom:
        def __reduce__(self):
            return (Path.touch, (marker,))

    path = tmp_path / "evil.npz"
    np.savez(path, meta=np.array(json.dumps({"format": FORMAT})),
             vecs=np.array([Boom()], dtype=object))
    with pytest.raises(PersistenceError):
        olc.load(path)
    with open(tmp_path / "raw.npz", "wb") as fh:
        pickle.dump(Boom(), fh)
    with pytest.raises(PersistenceError):
        olc.load(tmp_path / "raw.npz")
    assert not marker.exists()


def test_save_into_a_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(PersistenceError, match=r"folder .*missing does not exist"):
        olc.save(olc.make("perceptron"), tmp_path / "missing" / "m.npz")


@pytest.mark.parametrize("name", [n for n in NAMES if KIND[n] == "classifier"][:3])
def test_big_endian_arrays_load_exactly(name, tmp_path):
    learner = fitted(name)
    path = edited(tmp_path, name, lambda m, a: a.update(
        vecs=a["vecs"].astype(">f8"), scal=a["scal"].astype(">f8")))
    loaded = olc.load(path)
    np.testing.assert_array_equal(loaded._vecs, learner._vecs)
    assert loaded._vecs.dtype == np.float64 and loaded._vecs.dtype.isnative


# -- every array one row / slot too many or too few -------------------------------------------

SHAPE_CASES = [(n, {}) for n in NAMES] + [("n-omm", {"store": "all"})]  # the latter grows


@pytest.mark.parametrize("name, params", SHAPE_CASES,
                         ids=[f"{n}{'-' + str(p) if p else ''}" for n, p in SHAPE_CASES])
def test_state_one_row_or_slot_off_is_refused(name, params, tmp_path, load_worker):
    X, y = in_domain(name, n=60)
    learner = olc.make(name, **params)
    learner.partial_fit(X, y, **fit_kwargs(name))
    path = olc.save(learner, tmp_path / "m")
    meta, arrays = read(path)
    # (Along the first and the last axis: a stacked multiclass state has one more axis.)
    edits = {"vecs +1 row": ("vecs", lambda a: np.concatenate([a, np.zeros((1,) + a.shape[1:])])),
             "vecs -1 row": ("vecs", lambda a: a[:-1]),
             "vecs +1 column": ("vecs", lambda a: np.concatenate(
                 [a, np.zeros(a.shape[:-1] + (1,))], axis=-1)),
             "scal +1 slot": ("scal", lambda a: np.concatenate(
                 [a, np.zeros(a.shape[:-1] + (1,))], axis=-1)),
             "scal -1 slot": ("scal", lambda a: a[:-1]),
             "ints +1 slot": ("ints", lambda a: np.append(a.ravel(), 0))}
    failures = []
    for what, (field, edit) in edits.items():
        if edit(arrays[field]).shape == arrays[field].shape:
            continue  # nothing to remove (e.g. AROW keeps no scalars)
        bad = dict(arrays, **{field: edit(arrays[field])})
        reply = load_worker.ask(write(tmp_path / "bad.npz", meta, bad), name)
        if reply["status"] != "refused":
            failures.append(f"{what}: {reply}")
    assert not failures, f"{name} {params}: " + "; ".join(failures)


@pytest.mark.parametrize("content, seems", [
    (b"", "it is empty"),
    (b"w,x,y\n1,2,3\n", "it is a text file"),
    (b"\x93NUMPY\x01\x00v\x00{'descr': '<f8'}", r"it is a single NumPy array \(\.npy\)"),
    (b"\x1f\x8b\x08\x00\x00\x00\x00\x00", "it is a gzip-compressed file"),
    (b"\x89HDF\r\n\x1a\n", "it is an HDF5 file"),
    (b"\x80\x04\x95\x05\x00\x00\x00", "it is a Python pickle"),
    (b"\x00\x01\x02\xff\xfe", "it is a binary file of another kind"),
])
def test_a_file_that_is_not_a_model_is_named_in_olc_words(tmp_path, content, seems):
    path = tmp_path / "model.npz"
    path.write_bytes(content)
    with pytest.raises(PersistenceError) as err:
        olc.load(path)
    message = str(err.value)
    assert re.search(seems, message), message
    assert "olc.save" in message and "allow_pickle" not in message


def test_an_archive_of_pickled_objects_is_refused_without_numpys_unsafe_advice(tmp_path):
    path = tmp_path / "objects.npz"
    np.savez(path, meta=np.array({"format": "olc-learner/2"}, dtype=object))
    with pytest.raises(PersistenceError, match="pickled Python objects") as err:
        olc.load(path)
    assert "allow_pickle" not in str(err.value)


def test_a_missing_file_or_a_folder_is_named_as_such(tmp_path):
    with pytest.raises(PersistenceError, match="cannot be read .*FileNotFoundError"):
        olc.load(tmp_path / "absent.npz")
    with pytest.raises(PersistenceError, match="cannot be read .*IsADirectoryError"):
        olc.load(tmp_path)
