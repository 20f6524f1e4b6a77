"""Input checks that say what is wrong and where (row, column), and the small validators of
hyper-parameters that the declarative constraints (``_parameter_constraints``) do not cover."""
import numpy as np

from ..._util.sparse import issparse


class InputError(ValueError):
    """Bad input to a learner: the message names the row and column."""


class StreamStoppedError(InputError):
    """The online loop met a row it cannot use and stopped *before* it.

    Rows are learned in order, so the rows before it were learned: ``rows_learned`` says how
    many, and ``record`` holds their StepRecord, so no result is lost.
    """

    def __init__(self, message, row, rows_learned, record=None):
        super().__init__(message)
        self.row = row
        self.rows_learned = rows_learned
        self.record = record


def describe_bad_row(X, row):
    """"NaN at row R, column C" for the first non-finite value of row ``row``."""
    hit = first_nonfinite(X[row:row + 1])
    if hit is None:
        return f"a non-finite value at row {row}"
    _, col, value = hit
    kind = "NaN" if np.isnan(value) else ("inf" if value > 0 else "-inf")
    return f"{kind} at row {row}, column {col}"


def first_nonfinite(X):
    """(row, column, value) of the first NaN/inf entry of a dense or CSR matrix, else None."""
    if issparse(X):
        bad = np.flatnonzero(~np.isfinite(X.data))
        if bad.size == 0:
            return None
        k = int(bad[0])
        row = int(np.searchsorted(X.indptr, k, side="right") - 1)
        return row, int(X.indices[k]), float(X.data[k])
    bad = ~np.isfinite(X)
    if not bad.any():
        return None
    row, col = np.argwhere(bad)[0]
    return int(row), int(col), float(X[row, col])


def check_finite(X, what="X"):
    hit = first_nonfinite(X)
    if hit is not None:
        row, col, value = hit
        kind = "NaN" if np.isnan(value) else "inf"
        raise InputError(f"{what} contains {kind} at row {row}, column {col}; "
                         "olc learners need finite features")


def check_nonempty(X):
    if X.shape[0] == 0:
        raise InputError("empty batch: X has 0 rows (at least one example is needed)")


def as_binary_labels(y, classes):
    """Map labels to ±1 (classes[0] → −1, classes[1] → +1); unknown labels are reported by row."""
    y = np.asarray(y)
    pos = y == classes[1]
    # Labels already ±1 as numbers (the common case on large streams): one comparison less.
    if (y.dtype.kind in "iuf" and classes[0] == -1 and classes[1] == 1):
        known = np.abs(y) == 1
    else:
        known = pos | (y == classes[0])
    if not known.all():
        row = int(np.flatnonzero(~known)[0])
        raise InputError(f"y[{row}] = {y[row]!r} is not one of the learner's classes "
                         f"{list(classes)}")
    out = pos.astype(np.float64)
    out *= 2.0
    out -= 1.0
    return out


def check_label_types(labels, where):
    """Object labels (what pandas gives) must be all strings or all numbers, none None — as
    scikit-learn requires ("Mix of label input types"); otherwise sorting them fails with a
    bare TypeError, or a None becomes a class."""
    if labels.dtype.kind != "O" or labels.size == 0:
        return
    flat = labels.ravel()
    with np.errstate(invalid="ignore"):  # NaN labels are looked for, not computed with
        kinds = np.frompyfunc(_label_kind, 1, 1)(flat)
    if (kinds == "none").any():
        row = int(np.flatnonzero(kinds == "none")[0])
        raise InputError(f"{where} contains None at position {row}; labels must be numbers "
                         "or strings")
    if (kinds == "nan").any():
        row = int(np.flatnonzero(kinds == "nan")[0])
        raise InputError(f"{where} contains NaN at position {row}")
    if (kinds == "other").any():
        row = int(np.flatnonzero(kinds == "other")[0])
        raise InputError(f"{where}[{row}] = {flat[row]!r} is not a valid label (a "
                         f"{type(flat[row]).__name__}); labels must be numbers or strings")
    if (kinds == "string").any() and (kinds == "number").any():
        row_s = int(np.flatnonzero(kinds == "string")[0])
        row_n = int(np.flatnonzero(kinds == "number")[0])
        raise InputError(f"Mix of label input types (string and number) in {where}: "
                         f"{where}[{row_s}] = {flat[row_s]!r}, {where}[{row_n}] = "
                         f"{flat[row_n]!r}")


def _label_kind(value):
    if value is None:
        return "none"
    if isinstance(value, (str, np.str_)):
        return "string"
    if isinstance(value, (float, np.floating)) and value != value:
        return "nan"
    if isinstance(value, (int, float, np.number, np.bool_)):  # bool is an int
        return "number"
    return "other"


def classifier_classes(labels, where, hint=None, binary=False):
    """Sorted unique labels: at least two (``binary``: exactly two); messages follow
    scikit-learn's."""
    labels = np.asarray(labels)
    check_label_types(labels, where)
    if labels.dtype.kind == "f" and np.isnan(labels).any():
        row = int(np.flatnonzero(np.isnan(labels))[0])
        raise InputError(f"{where} contains NaN at position {row}")
    classes = np.unique(labels)
    if classes.size > 2:
        from sklearn.utils.multiclass import type_of_target  # only to word the error
    if classes.size > 2 and type_of_target(labels, input_name=where).startswith("continuous"):
        raise InputError(f"Unknown label type: {where} is continuous ({classes.size} distinct "
                         "non-integer values); olc learners are classifiers")
    if classes.size > 2 and binary:
        raise InputError(f"Only binary classification is supported: {where} has "
                         f"{classes.size} classes {list(classes)[:10]}")
    if classes.size < 2:
        extra = f" ({hint})" if hint else ""
        need = "exactly 2" if binary else "at least 2"
        raise InputError(f"{where} contains only 1 class {classes.tolist()}; {need} classes "
                         f"are needed{extra}")
    return classes


def binary_classes(labels, where, hint=None):
    """Sorted unique labels, which must be exactly two (messages follow scikit-learn's)."""
    return classifier_classes(labels, where, hint, binary=True)


# -- hyper-parameters -------------------------------------------------------------------------

#: Seeds are stored exactly in the float64 hyper-parameter array: integers below 2**53.
SEED_LIMIT = 2 ** 53


def check_seed(value, name="seed"):
    """A seed for the counter-based generator: an integer in [0, 2**53) (stored exactly in a
    float64 hyper-parameter array); returned as a float."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InputError(f"{name} must be an integer in [0, 2**53), got {value!r}")
    if not 0 <= int(value) < SEED_LIMIT:
        raise InputError(f"{name} must be an integer in [0, 2**53), got {value!r}")
    return float(value)
