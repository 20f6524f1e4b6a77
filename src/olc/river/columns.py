"""River's examples as the compiled code takes them: feature names → state columns, a dict
→ (cols, raw) byte strings (``_compiled/loops/one_row.py``), a pandas frame → a CSR block; and the
messages for bad values.

Columns are numbered in order of first appearance and never renumbered, so a model may cache
a row's ``cols`` by its tuple of keys: on a stream whose dicts repeat their keys (most tabular
streams) the per-example Python work is then ``tuple(x)``, one dict lookup and one
``struct.pack`` of the values. ``struct.pack`` also validates: it accepts exactly the values
that convert to a float64 by ``__float__``/``__index__`` (bool, int, float, NumPy scalars) and
rejects strings, None, containers — which ``numpy.fromiter`` would not (it parses "1.5").
"""
import math
import struct
from collections.abc import Mapping

import numpy as np

from ..learners._framework.validation import InputError

VALUES = {}   # n -> struct.Struct(f"{n}d"): n float64 values
COLUMNS = {}  # n -> struct.Struct(f"{n}q"): n int64 columns
CACHE_LIMIT = 64  # distinct key tuples cached per model


def values_struct(n):
    """The ``struct.Struct`` packing n float64 values (shared by every model)."""
    fmt = VALUES.get(n)
    if fmt is None:
        fmt = VALUES[n] = struct.Struct(f"{n}d")
    return fmt


def columns_struct(n):
    """The ``struct.Struct`` packing n int64 columns (shared by every model)."""
    fmt = COLUMNS.get(n)
    if fmt is None:
        fmt = COLUMNS[n] = struct.Struct(f"{n}q")
    return fmt


def is_number(value):
    try:
        struct.pack("d", value)
    except (struct.error, TypeError):
        return False
    return True


def describe(value):
    return f"{value!r} ({type(value).__name__})"


def bad_value_error(x):
    """The error for a dict with a value that is not a number or not finite: names the first
    such key (in the dict's order) and its value; None when every value is fine."""
    if not isinstance(x, Mapping):
        return InputError(f"x must be a dict of feature values, got {type(x).__name__}")
    for name, value in x.items():
        if not is_number(value):
            return InputError(f"feature {name!r} = {describe(value)} is not a number; olc "
                              "learners take numeric feature values (bool, int, float)")
        if not math.isfinite(float(value)):
            return InputError(f"feature {name!r} = {value!r} is not finite; olc learners "
                              "need finite feature values")
    return None


def pack_values(x):
    """``raw`` for dict x, or the error naming the bad key."""
    try:
        return values_struct(len(x)).pack(*x.values())
    except (struct.error, TypeError, AttributeError):
        raise bad_value_error(x) from None


class Columns:
    """Feature name → state column, numbered in order of first appearance.

    ``index`` is a plain dict (a dict subclass would make every lookup slower), so mapping a
    row whose features all have columns is one ``struct.pack(*map(index.get, x))``: C calls
    only, and a key without a column gives None, which ``pack`` refuses."""

    def __init__(self, names=()):
        self.index = {}
        self.names = []
        self.extend(names)

    def __len__(self):
        return len(self.names)

    def __contains__(self, name):
        return name in self.index

    def __getitem__(self, name):
        return self.index[name]

    def get(self, name, default=None):
        return self.index.get(name, default)

    def extend(self, names):
        """Give the names without a column the next columns, in order."""
        index = self.index
        for name in names:
            if name not in index:
                index[name] = len(self.names)
                self.names.append(name)

    def forget(self, n):
        """Drop the columns from ``n`` on (the last ones added): a rejected example leaves no
        column behind."""
        for name in self.names[n:]:
            del self.index[name]
        del self.names[n:]

    def unknown(self, names):
        """The names without a column, in order."""
        return [name for name in names if name not in self.index]

    def known_columns(self, x):
        """``cols`` for dict x; struct.error when a key has no column."""
        return columns_struct(len(x)).pack(*map(self.index.get, x))

    def learn_columns(self, x):
        """``cols`` for dict x, the keys without a column given the next ones (dict order)."""
        try:
            return columns_struct(len(x)).pack(*map(self.index.get, x))
        except struct.error:
            self.extend(x)
            return columns_struct(len(x)).pack(*map(self.index.get, x))


# -- frames (learn_many / predict_many) ---------------------------------------------------------

def frame_values(X):
    """(column names, float64 block) of a pandas DataFrame, checked: hashable unique names,
    numeric values (columns of strings or objects that are not numbers are refused, as in
    ``learn_one``), all finite. Errors name the column and the row's index label."""
    names = list(X.columns)
    if len(set(names)) != len(names):
        seen = set()
        dup = next(n for n in names if n in seen or seen.add(n))
        raise InputError(f"the frame has the column {dup!r} twice")
    for name in names:
        column = X[name]
        if column.dtype.kind not in "biuf":
            for label, value in column.items():
                if not is_number(value):
                    raise InputError(f"feature {name!r} = {describe(value)} at row {label!r} is "
                                     "not a number; olc learners take numeric feature values")
    block = X.to_numpy(dtype=np.float64, na_value=np.nan)
    finite = np.isfinite(block)
    if not finite.all():
        r, c = np.argwhere(~finite)[0]
        raise InputError(f"feature {names[c]!r} = {float(block[r, c])!r} at row "
                         f"{X.index[r]!r} is not finite; olc learners need finite feature values")
    return names, block


def frame_csr(columns, names, block):
    """The rows of ``block`` (columns ``names``) as a canonical CSR matrix over the state's
    columns: nonzero cells only (the row ``learn_one`` makes of the same dict), columns in
    increasing order; names without a column are left out."""
    import scipy.sparse as sp

    cols = np.array([columns.get(n, -1) for n in names], dtype=np.int64)
    keep = np.flatnonzero(cols >= 0)
    order = keep[np.argsort(cols[keep], kind="stable")]
    n, m = block.shape[0], order.size
    data = np.ascontiguousarray(block[:, order]).ravel()
    indices = np.tile(cols[order].astype(np.uint32), n)
    indptr = np.arange(0, (n + 1) * m, m, dtype=np.int64)
    X = sp.csr_matrix((data, indices, indptr), shape=(n, max(len(columns), 1)))
    X.eliminate_zeros()
    return X
