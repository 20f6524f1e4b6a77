"""An experiment spec from a TOML file (``olc experiment SPEC.toml``; schema in
docs/experiments.md), validated with one-line errors that name the key and its line:
``spec.toml:12: learners[1].tune.C: ...``.

tomllib gives values, not positions, so :class:`Lines` scans the text once for table
headers (``[t]``, ``[[t]]``, counting array elements) and ``key =`` lines, and maps each
key path to its line; a key inside an inline table or array reports the line of the key
that holds it.
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

from .metrics import metric
from .protocols import PROTOCOLS, make_protocol
from .sources import parse_data
from .spec import ExperimentSpec, LearnerSpec, StreamSpec
from .transforms import make_transform

SCHEMA = {
    (): {"experiment", "protocol", "streams", "learners"},
    ("experiment",): {"name", "title", "trials", "seed", "metrics", "curves"},
    ("streams",): {"name", "label", "data", "params", "transforms"},
    ("learners",): {"name", "label", "params", "tune", "sweep", "method"},
}
REQUIRED = {(): ("experiment", "streams", "learners"), ("experiment",): ("name",),
            ("streams",): ("name", "data"), ("learners",): ("name",)}


class SpecError(ValueError):
    """A bad spec file: ``FILE:LINE: key.path: what is wrong``."""


_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"'. ]+?)\s*=")


def _split_key(text):
    return tuple(p.strip().strip("\"'") for p in text.split("."))


class Lines:
    """Key path (tuple of names and array indices) → 1-based line in the file."""

    def __init__(self, text):
        self.where = {}
        counts = {}
        table = ()
        depth = 0   # open brackets/braces of a multi-line value: its lines hold no keys
        for number, line in enumerate(text.splitlines(), 1):
            stripped = line.split("#", 1)[0] if '"' not in line else line
            if depth == 0:
                m = _HEADER.match(line)
                if m:
                    names = _split_key(m.group(2))
                    if m.group(1) == "[[":
                        parent = self._resolve(names[:-1], counts)
                        base = parent + (names[-1],)
                        counts[base] = counts.get(base, -1) + 1
                        table = base + (counts[base],)
                    else:
                        table = self._resolve(names, counts)
                    self.where.setdefault(table, number)
                    continue
                m = _KEY.match(line)
                if m:
                    self.where.setdefault(table + _split_key(m.group(1)), number)
            depth += stripped.count("[") + stripped.count("{") - stripped.count("]") - \
                stripped.count("}")
            depth = max(depth, 0)

    @staticmethod
    def _resolve(names, counts):
        """A header path with the current index of every array of tables on it."""
        path = ()
        for name in names:
            path += (name,)
            if path in counts:
                path += (counts[path],)
        return path

    def line(self, path):
        path = tuple(path)
        while path:
            if path in self.where:
                return self.where[path]
            path = path[:-1]
        return 1


def _show(path):
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out or "(top level)"


class _Reader:
    def __init__(self, file, text):
        self.file, self.lines = file, Lines(text)

    def fail(self, path, message):
        raise SpecError(f"{self.file}:{self.lines.line(path)}: {_show(path)}: {message}")

    def table(self, value, path, schema_path):
        if not isinstance(value, dict):
            self.fail(path, f"must be a table, got {type(value).__name__}")
        allowed = SCHEMA[schema_path]
        for key in value:
            if key not in allowed:
                self.fail(path + (key,), f"unknown key {key!r}; allowed here: "
                                         f"{', '.join(sorted(allowed))}")
        for key in REQUIRED.get(schema_path, ()):
            if key not in value:
                self.fail(path, f"missing key {key!r}")
        return value

    def typed(self, value, path, kind, what):
        if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
            self.fail(path, f"must be {what}, got {value!r}")
        return value

    def array_of_tables(self, doc, name, schema):
        items = doc.get(name)
        if not isinstance(items, list) or not items:
            self.fail((name,), f"must be a non-empty array of tables ([[{name}]])")
        return [(self.table(item, (name, i), schema), (name, i)) for i, item in
                enumerate(items)]

    def build(self, doc):
        self.table(doc, (), ())
        exp = self.table(doc["experiment"], ("experiment",), ("experiment",))
        name = self.typed(exp["name"], ("experiment", "name"), str, "a string")
        trials = self.typed(exp.get("trials", 1), ("experiment", "trials"), int, "an integer")
        if trials < 1:
            self.fail(("experiment", "trials"), f"must be ≥ 1, got {trials}")
        seed = self.typed(exp.get("seed", 0), ("experiment", "seed"), int, "an integer")
        metrics = exp.get("metrics", ["mistakes", "error_rate", "cumulative_error"])
        self.typed(metrics, ("experiment", "metrics"), list, "an array of metric names")
        for i, m in enumerate(metrics):
            self._call(("experiment", "metrics", i), metric, m)
        proto = doc.get("protocol", {"kind": "progressive"})
        if not isinstance(proto, dict):
            self.fail(("protocol",), "must be a table")
        params = dict(proto)
        kind = params.pop("kind", "progressive")
        if kind not in PROTOCOLS:
            self.fail(("protocol", "kind"), f"unknown protocol {kind!r}; known: "
                                            f"{', '.join(PROTOCOLS)}")
        for key in params:
            fields = PROTOCOLS[kind].__dataclass_fields__
            if key not in fields:
                self.fail(("protocol", key), f"unknown key {key!r} for protocol {kind!r}; "
                          f"allowed: kind, {', '.join(fields)}")
        for key in params:   # a bad value: the line of its key
            self._call(("protocol", key), make_protocol, kind, **{key: params[key]})
        protocol = self._call(("protocol",), make_protocol, kind, **params)
        streams = [self.stream(s, p) for s, p in self.array_of_tables(doc, "streams",
                                                                     ("streams",))]
        learners = [self.learner(s, p, protocol) for s, p in
                    self.array_of_tables(doc, "learners", ("learners",))]
        curves = exp.get("curves")
        if curves is not None:
            from .plan import check_curves

            if curves != "all":
                self.typed(curves, ("experiment", "curves"), list,
                           '"all" or an array of learner labels')
                curves = tuple(curves)
            configs = [c for spec in learners for c in spec.configs()]
            self._call(("experiment", "curves"), check_curves, curves, configs)
        return ExperimentSpec(name=name, title=exp.get("title", ""), streams=streams,
                              learners=learners, protocol=protocol, trials=trials, seed=seed,
                              metrics=tuple(metrics), curves=curves)

    def _call(self, path, fn, *args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (ValueError, TypeError, KeyError) as exc:
            self.fail(path, str(exc).strip("'\""))

    def stream(self, s, path):
        name = self.typed(s["name"], path + ("name",), str, "a string")
        data = self.typed(s["data"], path + ("data",), str, "a string")
        params = self.typed(s.get("params", {}), path + ("params",), dict, "a table")
        source = self._call(path + ("data",), parse_data, data, params)
        self._call(path + ("params",) if params else path + ("data",), source.check)
        transforms = []
        for i, t in enumerate(self.typed(s.get("transforms", []), path + ("transforms",),
                                         list, "an array of tables")):
            tp = path + ("transforms", i)
            if not isinstance(t, dict) or "kind" not in t:
                self.fail(tp, "a transform is a table with a 'kind'")
            options = {k: v for k, v in t.items() if k != "kind"}
            try:
                transforms.append(make_transform(t["kind"], **options))
            except (ValueError, TypeError, KeyError) as exc:
                named = [k for k in options if re.search(rf"\b{re.escape(k)}\b", str(exc))]
                self.fail(tp + ((named[0],) if named else ("kind",)), str(exc).strip("'\""))
        return StreamSpec(name, source, tuple(transforms), s.get("label"))

    def learner(self, s, path, protocol):
        from ...learners.registry import info
        from .models import validate_learner
        from .protocols import _grid

        tables = {}
        for key in ("params", "tune", "sweep"):
            tables[key] = self.typed(s.get(key, {}), path + (key,), dict, "a table")
        for key in ("tune", "sweep"):
            for k, v in tables[key].items():
                if not isinstance(v, list) or not v:
                    self.fail(path + (key, k), "must be a non-empty array of values")
        spec = LearnerSpec(name=self.typed(s["name"], path + ("name",), str, "a string"),
                           params=tables["params"], tune=tables["tune"],
                           sweep=tables["sweep"], label=s.get("label"),
                           method=s.get("method"))
        where = path + (("tune",) if tables["tune"] else ("sweep",) if tables["sweep"] else
                        ("params",) if tables["params"] else ("name",))
        for config in self._call(path + ("method",), spec.configs):
            if config.method is None:
                self._call(path + ("name",), info, config.name)
                for point in _grid(config.tune):
                    self._call(where, validate_learner, config.name,
                               {**config.params, **point}, f"learner {config.label!r}")
            self._call(path, protocol.check, config)
        return spec


def load_spec(path):
    """The :class:`~.spec.ExperimentSpec` of a TOML file (a :class:`SpecError` otherwise)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SpecError(f"spec file {path} does not exist") from None
    except (OSError, UnicodeError) as exc:
        raise SpecError(f"spec file {path} cannot be read: {exc}") from None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{path}: malformed TOML: {exc}") from None
    return _Reader(path, text).build(doc)
