"""Request bodies of ``olc serve``: read within the size limit, decoded, and checked field by
field. Every problem is a :class:`RequestError` naming the field (a JSON path such as
``rows[3][7]``) — raised before anything is changed."""
import json
import math

import numpy as np

__all__ = ["RequestError", "check_finite", "read_json", "parse_rows", "parse_labels", "require"]


class RequestError(Exception):
    """A request the service refuses: HTTP ``status``, one line, and the field it is about."""

    def __init__(self, status, message, field=None, headers=None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.field = field
        self.headers = headers or {}

    def body(self):
        return {"error": self.message, "field": self.field}


async def read_body(request, limit):
    """The raw body, refused (413) beyond ``limit`` bytes: by its Content-Length before
    reading, and by the bytes actually streamed (a chunked or lying client)."""
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            size = int(declared)
        except ValueError:
            raise RequestError(400, "Content-Length is not a number", "Content-Length") from None
        if size > limit:
            raise RequestError(413, f"the body has {size} bytes; the limit is {limit}", "body")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise RequestError(413, f"the body exceeds the limit of {limit} bytes", "body")
        chunks.append(chunk)
    return b"".join(chunks)


async def read_json(request, limit):
    """The body as a JSON object. NaN/Infinity literals (not JSON, but what many encoders
    write) are read as floats, so that the check of their field names them."""
    raw = await read_body(request, limit)
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise RequestError(400, f"the body is not valid JSON: {exc}", "body") from None
    if not isinstance(body, dict):
        raise RequestError(400, f"the body must be a JSON object, got {type(body).__name__}",
                           "body")
    return body


def check_finite(value, field):
    """Refuse NaN/±inf anywhere inside ``value`` (a parameter object), naming the place."""
    if isinstance(value, float) and not math.isfinite(value):
        raise RequestError(422, f"{field} is {value}: not a finite number", field)
    if isinstance(value, dict):
        for key, item in value.items():
            check_finite(item, f"{field}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            check_finite(item, f"{field}[{i}]")


def require(body, key, kinds, what):
    """``body[key]``, which must be of one of ``kinds`` (bool is never a number here)."""
    if key not in body:
        raise RequestError(422, f"'{key}' is missing: {what}", key)
    value = body[key]
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        raise RequestError(422, f"'{key}' must be {what}, got {json.dumps(value)[:60]}", key)
    return value


def _number(value, field):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RequestError(422, f"{field} must be a number, got {json.dumps(value)[:40]}", field)
    value = float(value)  # an int beyond float's range raises OverflowError
    if not math.isfinite(value):
        raise RequestError(422, f"{field} is {value}: features must be finite", field)
    return value


class Vocabulary:
    """A model's named features → columns: new names take the next free column; the width
    (``n_features``) bounds it. ``new`` collects the names a request added (to be logged)."""

    def __init__(self, columns, width):
        self.known = columns  # the model's vocabulary (read only here)
        self.added = {}  # names this request adds
        self.width = width
        self.new = []

    def column(self, name, field):
        col = self.known.get(name)
        if col is None:
            col = self.added.get(name)
        if col is None:
            col = len(self.known) + len(self.added)
            if self.width is None or col >= self.width:
                raise RequestError(422, f"{field}: a new feature name, and the model's "
                                   f"vocabulary is full (n_features={self.width})", field)
            self.added[name] = col
            self.new.append((name, col))
        return col


def parse_rows(rows, width, vocabulary, max_rows, field="rows"):
    """``ROWS`` of the contract → a float64 array (every row dense) or a CSR matrix (any row
    sparse or named), ``width`` columns (None: fixed by the first dense row)."""
    if not isinstance(rows, list):
        raise RequestError(422, f"'{field}' must be a list of rows", field)
    if not rows:
        raise RequestError(422, f"'{field}' is empty", field)
    if len(rows) > max_rows:
        raise RequestError(413, f"'{field}' has {len(rows)} rows; the limit is {max_rows}",
                           field)
    if all(isinstance(row, list) for row in rows):
        return _dense(rows, width, field)
    if width is None:
        raise RequestError(422, f"{field}: sparse and named rows need the model's n_features "
                           "(give it when creating the model)", field)
    indptr, indices, values = [0], [], []
    for i, row in enumerate(rows):
        where = f"{field}[{i}]"
        if isinstance(row, list):
            if len(row) != width:
                raise RequestError(422, f"{where} has {len(row)} values; the model has "
                                   f"{width} features", where)
            dense = [_number(v, f"{where}[{j}]") for j, v in enumerate(row)]
            pairs = [(j, v) for j, v in enumerate(dense) if v != 0.0]
        elif isinstance(row, dict) and "features" in row:
            pairs = _named(row, where, vocabulary)
        elif isinstance(row, dict) and "indices" in row:
            pairs = _sparse(row, where, width)
        else:
            raise RequestError(422, f"{where} must be a list of numbers, {{indices, values}} "
                               "or {features}", where)
        for j, v in sorted(pairs):
            indices.append(j)
            values.append(v)
        indptr.append(len(indices))
    from scipy.sparse import csr_matrix

    X = csr_matrix((np.array(values, np.float64), np.array(indices, np.int32),
                    np.array(indptr, np.int64)), shape=(len(rows), width))
    X.sum_duplicates()
    return X


def _dense(rows, width, field):
    expected = width if width is not None else len(rows[0])
    for i, row in enumerate(rows):
        if len(row) != expected:
            raise RequestError(422, f"{field}[{i}] has {len(row)} values; "
                               f"{'the model has' if width is not None else 'row 0 has'} "
                               f"{expected}", f"{field}[{i}]")
    if expected == 0:
        raise RequestError(422, f"{field}[0] has no values", f"{field}[0]")
    try:
        X = np.array(rows, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        X = None
    if X is None or X.shape != (len(rows), expected):
        for i, row in enumerate(rows):
            for j, v in enumerate(row):
                _number(v, f"{field}[{i}][{j}]")
        raise RequestError(422, f"{field}: not a table of numbers", field)  # pragma: no cover
    # NumPy reads true/false as 1/0: look for JSON booleans only in rows holding a 0 or a 1
    suspects = np.flatnonzero(((X == 0.0) | (X == 1.0)).any(axis=1))
    for i in suspects.tolist():
        for j, v in enumerate(rows[i]):
            if isinstance(v, bool):
                _number(v, f"{field}[{i}][{j}]")
    bad = ~np.isfinite(X)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise RequestError(422, f"{field}[{i}][{j}] is {X[i, j]}: features must be finite",
                           f"{field}[{i}][{j}]")
    return X


def _sparse(row, where, width):
    indices, values = row.get("indices"), row.get("values")
    if not isinstance(indices, list) or not isinstance(values, list):
        raise RequestError(422, f"{where} needs 'indices' and 'values' lists", where)
    if len(indices) != len(values):
        raise RequestError(422, f"{where}: {len(indices)} indices but {len(values)} values",
                           f"{where}.values")
    pairs, seen = [], set()
    for k, (j, v) in enumerate(zip(indices, values)):
        if isinstance(j, bool) or not isinstance(j, int) or not 0 <= j < width:
            raise RequestError(422, f"{where}.indices[{k}] = {json.dumps(j)[:30]} is not a "
                               f"column in [0, {width})", f"{where}.indices[{k}]")
        if j in seen:
            raise RequestError(422, f"{where}.indices[{k}]: column {j} appears twice",
                               f"{where}.indices[{k}]")
        seen.add(j)
        pairs.append((j, _number(v, f"{where}.values[{k}]")))
    return pairs


def _named(row, where, vocabulary):
    features = row["features"]
    if not isinstance(features, dict):
        raise RequestError(422, f"{where}.features must be an object of name: value",
                           f"{where}.features")
    pairs = []
    for name, v in features.items():
        field = f"{where}.features.{name}"
        value = _number(v, field)
        pairs.append((vocabulary.column(name, field), value))
    return pairs


def parse_labels(labels, n_rows, classes, field="labels"):
    """Labels: a list of ``n_rows`` strings or numbers (in ``classes`` once fixed)."""
    if not isinstance(labels, list):
        raise RequestError(422, f"'{field}' must be a list of labels", field)
    if len(labels) != n_rows:
        raise RequestError(422, f"'{field}' has {len(labels)} labels for {n_rows} rows", field)
    kinds = set()
    for i, label in enumerate(labels):
        check_label(label, f"{field}[{i}]", classes)
        kinds.add(isinstance(label, str))
        if len(kinds) > 1:
            raise RequestError(422, f"{field}[{i}]: labels mix strings and numbers",
                               f"{field}[{i}]")
    return labels


def check_label(label, field, classes):
    if isinstance(label, bool) or not isinstance(label, (int, float, str)) or (
            isinstance(label, float) and not math.isfinite(label)):
        raise RequestError(422, f"{field} must be a string or a finite number, got "
                           f"{json.dumps(label)[:40]}", field)
    if classes is not None and label not in classes:
        raise RequestError(422, f"{field} = {json.dumps(label)} is not one of the model's "
                           f"classes {json.dumps(classes)}", field)
