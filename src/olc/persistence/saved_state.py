"""A saved learner's state arrays (``vecs``, ``ints``, ``scal``, ``classes``), checked before
compiled code sees them: dtypes, shapes against the learner's own initial state, finiteness,
the support sets of the integer state, the learner's own invariants, each class's state of a
one-vs-rest classifier. Errors go through the checker of :mod:`olc.persistence`
(``fail``: a field and what was expected; ``refuse``: a message), which names the file."""
import numpy as np

from .._compiled.layouts.support_check import check_support_sets


class _ClassChecker:
    """A checker whose field names say which class's learner they belong to."""

    def __init__(self, check, label):
        self.path, self._check, self._label = check.path, check, label

    def fail(self, field, expected, found=None):
        self._check.fail(f"{field} of the learner of class {self._label!r}", expected, found)

    def refuse(self, message):
        self._check.refuse(message)


def as_native(check, name, array, kind, ndim):
    """The array as native float64/int64 of ``ndim`` dimensions (byte order may differ)."""
    want = {"f": "float64", "i": "int64"}[kind]
    if not isinstance(array, np.ndarray) or array.dtype.kind != kind or array.dtype.itemsize != 8:
        check.fail(name, f"dtype {want}", getattr(array, "dtype", type(array).__name__))
    if array.ndim != ndim:
        check.fail(name, f"{ndim}-D", f"shape {array.shape}")
    return np.ascontiguousarray(array, dtype=want)


def _expected_shapes(check, learner, n_features, vecs, ints, scal):
    """The state shapes the learner expects for ``n_features`` columns, computed only when
    the file's ``vecs`` is at least that wide (so any allocation is bounded by the file's
    own data)."""
    if vecs.shape[0] < 1:
        check.fail("vecs", "at least one row", f"shape {vecs.shape}")
    axis = learner._features_axis  # the kernel learners' pools are stored by feature
    if n_features > vecs.shape[axis]:
        check.fail("vecs", f"at least n_features_in = {n_features} "
                   f"{'columns' if axis == 1 else 'rows'}",
                   f"shape {vecs.shape}")
    try:
        return learner._loaded_state_shapes(n_features, vecs, ints, scal)
    except MemoryError:
        check.fail("metadata 'n_features_in'", "a size whose state fits in memory",
                   n_features)
    except ValueError as error:  # a capacity the arrays cannot have
        check.refuse(str(error))


def check_state(check, learner, n_features, vecs, ints, scal):
    """A binary learner's (or one regressor's) state as it will be used: native, contiguous,
    of the learner's shapes for ``n_features`` columns, finite, its invariants kept."""
    vecs = as_native(check, "vecs", vecs, "f", 2)
    ints = as_native(check, "ints", ints, "i", np.ndim(learner._initial_ints(1)))
    scal = as_native(check, "scal", scal, "f", 1)
    (rows, width), ints_shape, (n_scal,) = _expected_shapes(check, learner, n_features,
                                                             vecs, ints, scal)
    if vecs.shape[1] != width:
        check.fail("vecs", f"{width} columns for n_features_in = {n_features}",
                   f"shape {vecs.shape}")
    if vecs.shape[0] != rows:
        check.fail("vecs", f"{rows} rows", f"shape {vecs.shape}")
    if ints.shape != ints_shape:
        check.fail("ints", f"shape {ints_shape}", f"shape {ints.shape}")
    if scal.shape[0] != n_scal:
        check.fail("scal", f"{n_scal} slots", f"{scal.shape[0]}")
    for name, array in (("vecs", vecs), ("scal", scal)):
        bad = np.flatnonzero(~np.isfinite(array.ravel()))
        if bad.size:
            where = np.unravel_index(int(bad[0]), array.shape)
            check.fail(name, "finite values",
                       f"{array[where].item()!r} at index {tuple(map(int, where))}")
    problem = (check_support_sets(learner._layout, vecs, ints)
               or learner._check_loaded_state(vecs, ints, scal))
    if problem:
        check.refuse(problem)
    return vecs, ints, scal


def check_ovr_state(check, learner, n_features, classes, vecs, ints, scal):
    """The stacked states of a one-vs-rest classifier: K = len(classes) along a first axis,
    each class's state checked as a binary learner's (``check_state``)."""
    if learner._ovr_refusal:
        check.fail("classes", f"2 labels ({type(learner).__name__} cannot learn more: "
                   f"{learner._ovr_refusal})", f"{len(classes)}")
    n_classes = len(classes)
    vecs = as_native(check, "vecs", vecs, "f", 3)
    ints = as_native(check, "ints", ints, "i", np.ndim(learner._initial_ints(1)) + 1)
    scal = as_native(check, "scal", scal, "f", 2)
    for name, array in (("vecs", vecs), ("ints", ints), ("scal", scal)):
        if array.shape[0] != n_classes:
            check.fail(name, f"{n_classes} class states along the first axis (one per class)",
                       f"shape {array.shape}")
    for c in range(n_classes):
        check_state(_ClassChecker(check, classes[c].item()), learner, n_features, vecs[c],
                     ints[c], scal[c])
    return vecs, ints, scal


def check_classes(check, entry, arrays):
    """A classifier's labels (at least two, numbers or strings, finite, sorted, distinct);
    None for a regressor."""
    if entry.kind == "regressor":
        return None
    classes = arrays["classes"]
    if classes.ndim != 1 or classes.shape[0] < 2:
        check.fail("classes", "the labels of a classifier (at least 2)", f"shape {classes.shape}")
    if classes.dtype.kind not in "biufU":
        check.fail("classes", "numbers or strings", f"dtype {classes.dtype}")
    if classes.dtype.kind == "f" and not np.isfinite(classes).all():
        check.fail("classes", "finite labels", classes.tolist())
    if not np.all(classes[:-1] < classes[1:]):
        check.fail("classes", "distinct labels in sorted order", classes.tolist()[:20])
    return classes
