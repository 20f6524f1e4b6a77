"""The run store: one JSON file per finished run, under ``OUT/runs/``, keyed by a hash of
the run's full spec.

A run's key is a JSON object saying everything its result depends on (data fingerprint,
stream transforms, learner and parameters, protocol, trial seed, metrics, olc version,
engine format); its id is the sha256 of that object's canonical JSON. The file
``runs/<name>.<id16>.json`` (or ``runs/<id[:2]>/<id>.json`` without a name) holds
``{"key": ..., "value": ...}`` and is written atomically (:mod:`olc._util.atomic`: temporary
file, fsync, rename) by the main process as soon as the run finishes. Hence:

- a kill at any moment loses at most the runs in flight; the next invocation finds every
  finished run by its key and reuses it;
- two invocations writing into the same folder cannot corrupt anything: each file is
  replaced whole, by one complete version or another, and both versions of a run's file
  hold the result of the same key;
- a damaged file (truncated, not JSON, wrong shape) is discarded with a one-line warning
  (:mod:`olc._util.cache`) and the run is redone; a file whose key differs is simply not used.

Values go through JSON once before they are used (:func:`jsonable`), so a reused run and a
freshly computed one give the same Python objects, and the tables built from them the same
bytes.
"""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from ..._util.cache import discard, read_json_object
from ...report import write_json
from ...report.results import json_default


def canonical(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=json_default,
                      allow_nan=True, ensure_ascii=False)


def jsonable(obj):
    """``obj`` as JSON gives it back (numpy scalars/arrays to Python, tuples to lists)."""
    return json.loads(json.dumps(obj, default=json_default, allow_nan=True))


def run_id(key) -> str:
    return hashlib.sha256(canonical(key).encode("utf-8")).hexdigest()


_SAFE = re.compile(r"[^A-Za-z0-9._=+-]+")


def safe_name(name: str) -> str:
    """A run's readable name as a relative path (folders by '/'), without surprises."""
    parts = [_SAFE.sub("_", p).strip("._") or "_" for p in str(name).split("/") if p]
    return "/".join(parts)


class RunStore:
    """The per-run files under ``root`` (``OUT/runs``)."""

    def __init__(self, root):
        self.root = Path(root)

    def path(self, key, name="") -> Path:
        rid = run_id(key)
        if name:
            return self.root / f"{safe_name(name)}.{rid[:16]}.json"
        return self.root / rid[:2] / f"{rid}.json"

    def get(self, key, name="", check=None):
        """The stored value of the run with this key, or None (missing, or damaged: then
        discarded with a warning; ``check(value)`` may name a reason to discard it)."""
        path = self.path(key, name)
        payload = read_json_object(path)
        if payload is None:
            return None
        if "value" not in payload or payload.get("key") != jsonable(key):
            if payload.get("key") != jsonable(key) and "key" in payload:
                return None  # a hash collision of the 16-hex name, or an edited file
            discard(path, "no key or value")
            return None
        value = payload["value"]
        reason = "an empty value" if value is None else None if check is None else check(value)
        if reason:
            discard(path, reason)
            return None
        return value

    def put(self, key, value, name=""):
        path = self.path(key, name)
        write_json(path, {"key": jsonable(key), "value": value})
        return path

    def count(self) -> int:
        return sum(1 for _ in self.root.rglob("*.json")) if self.root.is_dir() else 0
