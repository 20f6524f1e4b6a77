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
  classifier (K ≥ 3 classes, ``olc.learners._framework.multiclass``) stores its K binary
  states stacked:
  ``vecs`` 3-D, ``ints`` and ``scal`` with one more leading axis of length K, each class's
  state checked as a binary learner's.

:func:`load` checks every field (presence, type, dtype, shape against the layout and the
learner's own initial state, finiteness, class count, kind, the layout fingerprint, the
hyper-parameters) and raises :class:`PersistenceError` naming the file, the field, what was
expected and what was found. Files of olc 0.1.0 (``olc-learner/1``: no ``ints``, 16 scalar
slots) are upgraded on load by :mod:`olc.persistence.v0_1_0`, the one module that knows
their layouts; the state arrays are checked by :mod:`olc.persistence.saved_state`.
"""
import json
from pathlib import Path

import numpy as np

from .. import __version__
from .._util.atomic import atomic_open
from .metadata import (
    FORMAT,
    LEGACY_FORMATS,
    STATE_ARRAYS,
    Checker,
    PersistenceError,
    build_learner,
    check_layout,
    check_meta,
    layout_meta,
    read_file,
)
from .saved_state import as_native, check_classes, check_ovr_state, check_state
from ..learners.registry import info, name_of

__all__ = ["FORMAT", "LEGACY_FORMATS", "PersistenceError", "load", "save"]


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
            "params": _plain(learner.get_params(deep=False)), "layout": layout_meta(learner)}
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


def load(path):
    """Rebuild a learner saved by :func:`save`; its state is restored bit for bit.

    Every field is checked first (see the module docstring); any inconsistency raises
    :class:`PersistenceError` naming the file and the field."""
    path = Path(path)
    check = Checker(path)
    meta, arrays = read_file(path)
    fitted = bool(arrays)
    entry = check_meta(check, meta, fitted)
    legacy = meta["format"] in LEGACY_FORMATS
    expected = set() if not fitted else (
        {"vecs", "scal"} if legacy else set(STATE_ARRAYS)) | (
        {"classes"} if entry.kind == "classifier" else set())
    if set(arrays) != expected:
        missing, unknown = sorted(expected - set(arrays)), sorted(set(arrays) - expected)
        check.fail("arrays", f"{sorted(expected) or 'none (an unfitted learner)'} for a "
                   f"{'fitted ' if fitted else ''}{entry.kind}",
                   f"missing {missing}, unexpected {unknown}" if missing else
                   f"unexpected {unknown}")
    learner = build_learner(check, entry, meta)
    check_layout(check, meta, learner)
    if not fitted:
        return learner
    classes = check_classes(check, entry, arrays)
    n_features = meta["n_features_in"]
    if legacy:
        arrays["vecs"] = as_native(check, "vecs", arrays["vecs"], "f", 2)
        arrays["scal"] = as_native(check, "scal", arrays["scal"], "f", 1)
        from .v0_1_0 import upgrade_v1

        arrays["vecs"], arrays["ints"], arrays["scal"] = upgrade_v1(check, learner, arrays)
        if arrays["ints"] is None:
            arrays["ints"] = learner._initial_ints(n_features)  # no integer state
    from ..learners._framework.multiclass import stacked  # numba: only once a fitted file is read

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
