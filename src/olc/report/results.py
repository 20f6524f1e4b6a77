"""JSON results: written atomically so an interrupted run never leaves a truncated file."""
import json
from pathlib import Path

import numpy as np

from .._util.atomic import atomic_open


def json_default(obj):
    """JSON for the NumPy scalars and arrays, paths and collections results hold."""
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, Path):
        return str(obj)
    if isinstance(obj, (tuple, set, frozenset)):
        return list(obj)
    raise TypeError(f"not JSON serializable: {type(obj).__name__}")


def write_json(path, payload):
    path = Path(path)
    text = json.dumps(payload, indent=2, default=json_default, allow_nan=False) + "\n"
    with atomic_open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path
