"""Input checks that say what is wrong and where (row, column)."""
import numpy as np
import scipy.sparse as sp


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
    """"row R, column C (value)" for the first non-finite value of row ``row``."""
    hit = first_nonfinite(X[row:row + 1])
    if hit is None:
        return f"row {row}"
    _, col, value = hit
    return f"row {row}, column {col} ({value})"


def first_nonfinite(X):
    """(row, column, value) of the first NaN/inf entry of a dense or CSR matrix, else None."""
    if sp.issparse(X):
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
        raise InputError(f"{what} contains a non-finite value ({value}) at row {row}, column {col}; "
                         "olc learners need finite features")


def check_nonempty(X):
    if X.shape[0] == 0:
        raise InputError("empty batch: X has 0 rows (at least one example is needed)")


def as_binary_labels(y, classes):
    """Map labels to ±1 (classes[0] → −1, classes[1] → +1); unknown labels are reported by row."""
    y = np.asarray(y)
    pos = y == classes[1]
    neg = y == classes[0]
    unknown = ~(pos | neg)
    if unknown.any():
        row = int(np.flatnonzero(unknown)[0])
        raise InputError(f"y[{row}] = {y[row]!r} is not one of the learner's classes "
                         f"{list(classes)}")
    return np.where(pos, 1.0, -1.0)


def binary_classes(labels, where):
    """Sorted unique labels, which must be exactly two."""
    labels = np.asarray(labels)
    if labels.dtype.kind == "f" and np.isnan(labels).any():
        row = int(np.flatnonzero(np.isnan(labels))[0])
        raise InputError(f"{where} contains NaN at position {row}")
    classes = np.unique(labels)
    if classes.size != 2:
        raise InputError(f"olc learners are binary classifiers: {where} has {classes.size} "
                         f"distinct label(s) {list(classes)[:10]}, exactly 2 are needed")
    return classes
