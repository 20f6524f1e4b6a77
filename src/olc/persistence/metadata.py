"""The metadata of a model file (format, version, catalogue entry, kind, hyper-parameters,
layout) and its checks: everything about a file but its state arrays (``saved_state``) and
the layouts of olc 0.1.0 (``v0_1_0``). Every check raises :class:`PersistenceError` naming
the file and the field."""
import json
import zipfile

import numpy as np

from .. import __version__
from ..learners.registry import UnknownAlgorithmError, info

FORMAT = "olc-learner/2"
LEGACY_FORMATS = ("olc-learner/1",)

_META_BASE = {"format": str, "olc_version": str, "algorithm": str, "class": str,
              "params": dict}
_META_V2 = {"kind": str, "layout": (dict, type(None))}
_META_FITTED = {"n_features_in": int, "n_steps": int, "n_updates": int}
STATE_ARRAYS = ("vecs", "ints", "scal")  # a fitted learner's state, format 2


class PersistenceError(ValueError):
    pass


def layout_meta(learner):
    layout = learner._layout
    return {"fingerprint": layout.fingerprint, "describe": layout.describe()}


class Checker:
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


_MODEL_FILE = ("an olc learner file is the NumPy .npz archive that olc.save writes (a JSON "
               "'meta' entry and the learner's state arrays)")
# The first bytes of the files most often mistaken for a model file.
_SIGNATURES = ((b"\x93NUMPY", "a single NumPy array (.npy)"),
               (b"\x1f\x8b", "a gzip-compressed file"),
               (b"\x89HDF", "an HDF5 file"),
               (b"BZh", "a bzip2-compressed file"),
               (b"\xfd7zXZ", "an xz-compressed file"))


def _not_a_model(path, seems):
    return PersistenceError(f"{path}: not an olc learner file: it is {seems}; {_MODEL_FILE}")


def _what_it_seems(head):
    """What a file that is not a zip archive seems to be, from its first bytes."""
    if not head:
        return "empty"
    for signature, what in _SIGNATURES:
        if head.startswith(signature):
            return what
    if head[:1] == b"\x80" and 2 <= head[1:2][0] <= 5:
        return "a Python pickle (olc never unpickles a file)"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError:
        return "a binary file of another kind"
    return "a text file"


def read_file(path):
    """(meta dict, {name: array}) — anything unreadable is a PersistenceError."""
    try:
        with open(path, "rb") as f:
            head = f.read(64)
    except OSError as exc:
        raise PersistenceError(f"{path}: cannot be read ({type(exc).__name__}: {exc})") from None
    if not head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        raise _not_a_model(path, _what_it_seems(head))
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
        if isinstance(exc, ValueError) and "allow_pickle" in str(exc):
            # NumPy's message would advise loading the file unsafely
            raise _not_a_model(path, "a zip archive with pickled Python objects in it (olc "
                                     "never unpickles)") from None
        raise PersistenceError(f"{path}: not an olc learner file ({type(exc).__name__}: "
                               f"{exc})") from None
    if not isinstance(meta, dict):
        raise PersistenceError(f"{path}: not an olc learner file (metadata is a "
                               f"{type(meta).__name__}, not a JSON object)")
    return meta, arrays


def check_meta(check, meta, fitted):
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


def build_learner(check, entry, meta):
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


def check_layout(check, meta, learner):
    if meta["format"] in LEGACY_FORMATS:
        return
    ours = layout_meta(learner)
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
