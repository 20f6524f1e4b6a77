"""Save and load learners in a safe format: one ``.npz`` holding the state arrays and a JSON
metadata string (registry name, hyper-parameters, olc version). Loading never unpickles."""
import json
from pathlib import Path

import numpy as np

from . import __version__
from ._compiled.driver import NO_INTS
from .learners.registry import info, name_of

FORMAT = "olc-learner/1"


class PersistenceError(ValueError):
    pass


def save(learner, path):
    """Write ``learner`` (fitted or not) to ``path`` (``.npz`` is appended if missing)."""
    path = Path(path)
    if path.suffix != ".npz":
        path = path.with_suffix(path.suffix + ".npz")
    meta = {"format": FORMAT, "olc_version": __version__, "algorithm": name_of(learner),
            "class": type(learner).__name__, "params": learner.get_params(deep=False)}
    arrays = {}
    if learner._is_initialised() and not hasattr(learner, "classes_"):  # a regressor
        arrays = {"vecs": learner._vecs, "ints": learner._ints, "scal": learner._scal}
    elif learner._is_initialised():
        classes = np.asarray(learner.classes_)
        if classes.dtype.kind == "O":
            # e.g. strings from pandas: store as a NumPy type if that loses nothing.
            converted = np.array(classes.tolist())
            if converted.dtype.kind in "biufU" and converted.tolist() == classes.tolist():
                classes = converted
        if classes.dtype.kind not in "biufU":
            raise PersistenceError(f"cannot save classes of dtype {classes.dtype}: only numbers "
                                   "and strings are stored (no pickle)")
        arrays = {"vecs": learner._vecs, "ints": learner._ints, "scal": learner._scal,
                  "classes": classes}
    if arrays:
        meta["n_steps"] = int(learner.n_steps_)
        meta["n_updates"] = int(learner.n_updates_)
        meta["n_features_in"] = int(learner.n_features_in_)
    try:
        meta_json = json.dumps(meta)
    except TypeError as exc:
        raise PersistenceError(f"hyper-parameters must be JSON values to be saved: {exc}") from None
    np.savez(path, meta=np.array(meta_json), **arrays)
    return path


def load(path):
    """Rebuild a learner saved by :func:`save`; its state is restored bit for bit."""
    path = Path(path)
    try:
        data = np.load(path, allow_pickle=False)
        if not isinstance(data, np.lib.npyio.NpzFile):
            raise ValueError("a single array, not an .npz archive")
        with data:
            meta = json.loads(str(data["meta"]))
            arrays = {k: data[k] for k in data.files if k != "meta"}
    except (OSError, ValueError, KeyError) as exc:
        raise PersistenceError(f"{path}: not an olc learner file ({exc})") from None
    if meta.get("format") != FORMAT:
        raise PersistenceError(f"{path}: unknown format {meta.get('format')!r}, expected {FORMAT}")
    entry = info(meta["algorithm"])
    learner = entry.cls(**meta["params"])
    if arrays:
        learner._vecs = np.ascontiguousarray(arrays["vecs"], dtype=np.float64)
        learner._scal = np.ascontiguousarray(arrays["scal"], dtype=np.float64)
        # Files of olc 0.1.0 have no integer state (no rule kept any then).
        learner._ints = np.ascontiguousarray(arrays.get("ints", NO_INTS), dtype=np.int64)
        if "classes" in arrays:  # regressors have none
            learner.classes_ = arrays["classes"]
        learner.n_features_in_ = meta["n_features_in"]
        learner.n_steps_ = meta["n_steps"]
        learner.n_updates_ = meta["n_updates"]
    return learner
