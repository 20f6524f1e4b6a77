"""Save and load learners in a safe format: one ``.npz`` holding the state arrays and a JSON
metadata string. Loading never unpickles, and it checks the whole file before anything
reaches compiled code.

Format ``olc-learner/2`` (written by :func:`save`):

- ``meta``: JSON object — ``format``, ``olc_version``, ``algorithm`` (catalogue name),
  ``class``, ``kind`` ("classifier" / "regressor"), ``params`` (JSON values only),
  ``layout`` (the rule's :attr:`~olc._compiled.layouts.base.Layout.fingerprint` and
  :meth:`~olc._compiled.layouts.base.Layout.describe`); fitted learners add ``n_features_in``,
  ``n_steps``, ``n_updates``.
- fitted learners: ``vecs`` (float64, 2-D), ``ints`` (int64), ``scal`` (float64, 1-D), and
  for classifiers ``classes`` (the sorted labels, numbers or strings). A one-vs-rest
  classifier (K ≥ 3 classes, ``olc.learners.multiclass``) stores its K binary states stacked:
  ``vecs`` 3-D, ``ints`` and ``scal`` with one more leading axis of length K, each class's
  state checked as a binary learner's.

:func:`load` checks every field (presence, type, dtype, shape against the layout and the
learner's own initial state, finiteness, class count, kind, the layout fingerprint, the
hyper-parameters) and raises :class:`PersistenceError` naming the file, the field, what was
expected and what was found. Files of olc 0.1.0 (``olc-learner/1``: no ``ints``, 16 scalar
slots) are upgraded on load (see :func:`olc._saved_state.upgrade_v1`).
"""
import json
import zipfile
from pathlib import Path

import numpy as np

from . import __version__
from ._atomic import atomic_open
from ._saved_state import as_native, check_classes, check_ovr_state, check_state, upgrade_v1
from .learners.registry import UnknownAlgorithmError, info, name_of

FORMAT = "olc-learner/2"
LEGACY_FORMATS = ("olc-learner/1",)

_META_BASE = {"format": str, "olc_version": str, "algorithm": str, "class": str,
              "params": dict}
_META_V2 = {"kind": str, "layout": (dict, type(None))}
_META_FITTED = {"n_features_in": int, "n_steps": int, "n_updates": int}
_STATE = ("vecs", "ints", "scal")


class PersistenceError(ValueError):
    pass


# -- save ------------------------------------------------------------------------------------

def _plain(value):
    """Hyper-parameter values as plain JSON values (NumPy scalars → int/float/bool/str)."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _layout_meta(learner):
    layout = learner._layout
    return {"fingerprint": layout.fingerprint, "describe": layout.describe()}


def _storable_classes(learner):
    classes = np.asarray(learner.classes_)
    if classes.dtype.kind == "O":
        # e.g. strings from pandas: store as a NumPy type if that loses nothing.
        converted = np.array(classes.tolist())
        if converted.dtype.kind in "biufU" and converted.tolist() == classes.tolist():
            classes = converted
    if classes.dtype.kind not in "biufU":
        raise PersistenceError(f"cannot save classes of dtype {classes.dtype}: only numbers "
                               "and strings are stored (no pickle)")
    return classes


def save(learner, path):
    """Write ``learner`` (fitted or not) to ``path`` (``.npz`` is appended if missing).

    The file is written atomically: a kill while saving leaves the previous file (if any)
    or the new one, never a truncated one."""
    path = Path(path)
    if path.suffix != ".npz":
        path = path.with_suffix(path.suffix + ".npz")
    entry = info(name_of(learner))
    meta = {"format": FORMAT, "olc_version": __version__, "algorithm": entry.name,
            "class": type(learner).__name__, "kind": entry.kind,
            "params": _plain(learner.get_params(deep=False)), "layout": _layout_meta(learner)}
    arrays = {}
    if learner._is_initialised():
        arrays = {"vecs": learner._vecs, "ints": learner._ints, "scal": learner._scal}
        if entry.kind == "classifier":
            arrays["classes"] = _storable_classes(learner)
        meta["n_steps"] = int(learner.n_steps_)
        meta["n_updates"] = int(learner.n_updates_)
        meta["n_features_in"] = int(learner.n_features_in_)
        names = getattr(learner, "feature_names_in_", None)
        if names is not None:  # the DataFrame columns it was fitted on (checked by predict)
            meta["feature_names_in"] = [str(n) for n in names]
    try:
        meta_json = json.dumps(meta, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise PersistenceError(f"hyper-parameters must be JSON values to be saved: {exc}") from None
    if not path.parent.is_dir():
        raise PersistenceError(f"cannot save to {path}: folder {path.parent} does not exist")
    with atomic_open(path, "wb") as fh:
        np.savez(fh, meta=np.array(meta_json), **arrays)
    return path


# -- load ------------------------------------------------------------------------------------

class _Checker:
    """Raises PersistenceError("FILE: FIELD: expected …, found …") (``fail``) or
    PersistenceError("FILE: MESSAGE") (``refuse``)."""

    def __init__(self, path):
        self.path = path

    def fail(self, field, expected, found=None):
        tail = "" if found is None else f", found {found}"
        raise PersistenceError(f"{self.path}: {field}: expected {expected}{tail}")

    def refuse(self, message):
        raise PersistenceError(f"{self.path}: {message}") from None

    def type_of(self, meta, key, kind):
        value = meta[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
        if not ok:
            names = " or ".join("null" if k is type(None) else k.__name__ for k in kinds)
            self.fail(f"metadata {key!r}", f"a JSON {names}", f"{value!r}")
        return value


def _read(path):
    """(meta dict, {name: array}) — anything unreadable is a PersistenceError."""
    try:
        data = np.load(path, allow_pickle=False)
        if not isinstance(data, np.lib.npyio.NpzFile):
            raise ValueError("a single array, not an .npz archive")
        with data:
            if "meta" not in data.files:
                raise ValueError("no 'meta' entry")
            meta_array = data["meta"]
            if (not isinstance(meta_array, np.ndarray) or meta_array.dtype.kind != "U"
                    or meta_array.ndim != 0):
                raise ValueError("'meta' is not a JSON string")
            meta = json.loads(str(meta_array))
            arrays = {k: data[k] for k in data.files if k != "meta"}
            for key, value in arrays.items():
                if not isinstance(value, np.ndarray):  # NpzFile gives raw bytes for non-.npy
                    raise ValueError(f"entry {key!r} is not a NumPy array")
    except (OSError, ValueError, KeyError, EOFError, MemoryError, UnicodeError,
            zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError) as exc:
        raise PersistenceError(f"{path}: not an olc learner file ({type(exc).__name__}: "
                               f"{exc})") from None
    if not isinstance(meta, dict):
        raise PersistenceError(f"{path}: not an olc learner file (metadata is a "
                               f"{type(meta).__name__}, not a JSON object)")
    return meta, arrays


def _check_meta(check, meta, fitted):
    fmt = meta.get("format")
    if fmt != FORMAT and fmt not in LEGACY_FORMATS:
        raise PersistenceError(f"{check.path}: unknown format {fmt!r}, expected {FORMAT} "
                               f"(or {', '.join(LEGACY_FORMATS)})")
    spec = dict(_META_BASE, **({} if fmt in LEGACY_FORMATS else _META_V2),
                **(_META_FITTED if fitted else {}))
    optional = {"feature_names_in"} if fitted and fmt == FORMAT else set()
    missing = sorted(set(spec) - set(meta))
    unknown = sorted(set(meta) - set(spec) - optional)
    if missing or unknown:
        check.fail("metadata keys", f"{sorted(spec)}",
                   f"{'missing ' + str(missing) if missing else ''}"
                   f"{'; ' if missing and unknown else ''}"
                   f"{'unknown ' + str(unknown) if unknown else ''}")
    for key, kind in spec.items():
        check.type_of(meta, key, kind)
    try:
        entry = info(meta["algorithm"])
    except UnknownAlgorithmError as exc:
        raise PersistenceError(f"{check.path}: metadata 'algorithm': {exc}") from None
    if meta["class"] != entry.cls.__name__:
        check.fail("metadata 'class'", f"{entry.cls.__name__!r} for {entry.name!r}",
                   repr(meta["class"]))
    if "kind" in meta and meta["kind"] != entry.kind:
        check.fail("metadata 'kind'", f"{entry.kind!r} ({entry.name} is a {entry.kind})",
                   repr(meta["kind"]))
    if fitted:
        if meta["n_features_in"] < 1:
            check.fail("metadata 'n_features_in'", "an integer ≥ 1", meta["n_features_in"])
        if not 0 <= meta["n_updates"] <= meta["n_steps"]:
            check.fail("metadata 'n_steps', 'n_updates'", "0 ≤ n_updates ≤ n_steps",
                       f"n_steps = {meta['n_steps']}, n_updates = {meta['n_updates']}")
        names = meta.get("feature_names_in")
        if names is not None and not (isinstance(names, list) and
                                      len(names) == meta["n_features_in"] and
                                      all(isinstance(n, str) for n in names)):
            check.fail("metadata 'feature_names_in'",
                       f"a list of {meta['n_features_in']} strings (one per feature)",
                       f"{names!r}"[:200])
    return entry


def _build(check, entry, meta):
    """The learner with the file's hyper-parameters, validated as ``fit`` validates them."""
    params = meta["params"]
    allowed = set(entry.parameters) | {k for k, _ in entry.preset}
    unknown = sorted(set(params) - allowed)
    if unknown:
        check.fail("metadata 'params'",
                   f"parameters of {entry.name} ({', '.join(sorted(allowed))})",
                   f"unknown {unknown}")
    for key, value in entry.preset:
        if key in params and params[key] != value:
            check.fail(f"metadata 'params' {key!r}", f"{value!r} (fixed for {entry.name})",
                       repr(params[key]))
    try:
        learner = entry.cls(**params)
        learner._hyperparameters()
    except (TypeError, ValueError) as exc:
        raise PersistenceError(f"{check.path}: metadata 'params': {exc}") from None
    return learner


def _check_layout(check, meta, learner):
    if meta["format"] in LEGACY_FORMATS:
        return
    ours = _layout_meta(learner)
    theirs = meta["layout"]
    ours_fp = None if ours is None else ours["fingerprint"]
    theirs_fp = theirs.get("fingerprint") if isinstance(theirs, dict) else None
    if ours_fp != theirs_fp:
        diff = ""
        described = isinstance(theirs, dict) and isinstance(theirs.get("describe"), dict)
        if ours is not None and described:
            fields = sorted(k for k in ours["describe"]
                            if ours["describe"][k] != theirs["describe"].get(k))
            diff = f" (they differ in: {', '.join(fields)})" if fields else ""
        raise PersistenceError(
            f"{check.path}: saved by olc {meta['olc_version']} for the state layout "
            f"{theirs_fp} of {meta['algorithm']}; this olc ({__version__}) uses layout "
            f"{ours_fp}{diff}. The file cannot be read as this version's state: load it "
            f"with olc {meta['olc_version']}, or refit.")


def load(path):
    """Rebuild a learner saved by :func:`save`; its state is restored bit for bit.

    Every field is checked first (see the module docstring); any inconsistency raises
    :class:`PersistenceError` naming the file and the field."""
    path = Path(path)
    check = _Checker(path)
    meta, arrays = _read(path)
    fitted = bool(arrays)
    entry = _check_meta(check, meta, fitted)
    legacy = meta["format"] in LEGACY_FORMATS
    expected = set() if not fitted else (
        {"vecs", "scal"} if legacy else set(_STATE)) | (
        {"classes"} if entry.kind == "classifier" else set())
    if set(arrays) != expected:
        missing, unknown = sorted(expected - set(arrays)), sorted(set(arrays) - expected)
        check.fail("arrays", f"{sorted(expected) or 'none (an unfitted learner)'} for a "
                   f"{'fitted ' if fitted else ''}{entry.kind}",
                   f"missing {missing}, unexpected {unknown}" if missing else
                   f"unexpected {unknown}")
    learner = _build(check, entry, meta)
    _check_layout(check, meta, learner)
    if not fitted:
        return learner
    classes = check_classes(check, entry, arrays)
    n_features = meta["n_features_in"]
    if legacy:
        arrays["vecs"] = as_native(check, "vecs", arrays["vecs"], "f", 2)
        arrays["scal"] = as_native(check, "scal", arrays["scal"], "f", 1)
        arrays["vecs"], arrays["ints"], arrays["scal"] = upgrade_v1(check, learner, arrays)
        if arrays["ints"] is None:
            arrays["ints"] = learner._initial_ints(n_features)  # no integer state
    from .learners.multiclass import stacked  # numba: only once a fitted file is read

    if classes is not None and stacked(learner, len(classes)):
        if legacy:
            check.fail("classes", "2 labels (olc 0.1.0 files are binary)", len(classes))
        vecs, ints, scal = check_ovr_state(check, learner, n_features, classes,
                                            arrays["vecs"], arrays["ints"], arrays["scal"])
    else:
        vecs, ints, scal = check_state(check, learner, n_features, arrays["vecs"],
                                        arrays["ints"], arrays["scal"])
    learner._vecs, learner._ints, learner._scal = vecs, ints, scal
    if classes is not None:
        learner.classes_ = classes
    learner.n_features_in_ = n_features
    if meta.get("feature_names_in") is not None:
        learner.feature_names_in_ = np.array(meta["feature_names_in"], dtype=object)
    learner.n_steps_ = meta["n_steps"]
    learner.n_updates_ = meta["n_updates"]
    return learner
