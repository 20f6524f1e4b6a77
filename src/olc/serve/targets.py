"""A regressor's targets in request bodies: real numbers (JSON numbers, never booleans,
strings or NaN/±inf), each refused naming its field; ints are read as float64, as the
learner reads them."""
import json
import math

from .parsing import RequestError

__all__ = ["check_target", "parse_targets"]


def check_target(value, field):
    """``value`` as a finite float64, or a RequestError naming ``field``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RequestError(422, f"{field} must be a real number (a regression target), got "
                           f"{json.dumps(value)[:40]}", field)
    try:
        target = float(value)
    except OverflowError:  # an int beyond float64
        target = math.inf
    if not math.isfinite(target):
        raise RequestError(422, f"{field} is {json.dumps(value)[:40]}: targets must be "
                           "finite", field)
    return target


def parse_targets(labels, n_rows, field="labels"):
    """A list of ``n_rows`` finite real targets (as floats)."""
    if not isinstance(labels, list):
        raise RequestError(422, f"'{field}' must be a list of real-valued targets", field)
    if len(labels) != n_rows:
        raise RequestError(422, f"'{field}' has {len(labels)} targets for {n_rows} rows", field)
    return [check_target(value, f"{field}[{i}]") for i, value in enumerate(labels)]
