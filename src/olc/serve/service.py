"""The served models of a store: the settings, recovery of every model on start, creating a
model (from a catalogue name and parameters, or from uploaded ``olc.save`` bytes) and deleting
one."""
import json
import logging
import math
import re
import shutil
import time
from dataclasses import dataclass

from .host import Entry, ModelHost
from .learner_files import learner_from_bytes
from .metrics import Metrics
from .parsing import RequestError
from .store import Store

__all__ = ["Config", "Service"]

log = logging.getLogger("olc.serve")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


@dataclass
class Config:
    snapshot_every: int = 1000
    snapshot_seconds: float = 60.0
    durable: bool = True
    max_body_bytes: int = 16 * 2 ** 20
    max_batch_rows: int = 10_000
    queue_size: int = 64
    error_window: int = 1000
    token: str = None
    pending_ttl: float = 7 * 86400.0  # seconds a prediction waits for its label (0: forever)
    idempotency_ttl: float = 86400.0  # seconds a stored answer replays a retry (0: forever)

    def __post_init__(self):
        for name, low in (("snapshot_every", 1), ("max_body_bytes", 1),
                          ("max_batch_rows", 1), ("queue_size", 1), ("error_window", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{name} must be an integer ≥ {low}, got {value!r}")
        if not (isinstance(self.snapshot_seconds, (int, float))
                and math.isfinite(self.snapshot_seconds) and self.snapshot_seconds > 0):
            raise ValueError(f"snapshot_seconds must be a positive number of seconds, got "
                             f"{self.snapshot_seconds!r}")
        for name in ("pending_ttl", "idempotency_ttl"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                    not math.isfinite(value) or value < 0:
                raise ValueError(f"{name} must be a number of seconds ≥ 0 (0: keep forever), "
                                 f"got {value!r}")
        if self.token is not None and (not isinstance(self.token, str) or not self.token):
            raise ValueError("token must be a non-empty string")


class Service:
    """The store and the hosts of its models (recovered on construction).

    ``hosts`` is changed only in the event loop (the routes, under ``admin``, one model
    operation at a time); ``create``, ``upload`` and ``delete`` do the slow part in a thread
    and return."""

    def __init__(self, store_dir, config, clock=time.time):
        self.config = config
        self.store = Store(store_dir, durable=config.durable, pending_ttl=config.pending_ttl,
                           idempotency_ttl=config.idempotency_ttl, clock=clock)
        self.metrics = Metrics()
        self.hosts = {}
        for row in self.store.models():
            name, learner, params, n_features, classes, created, base, base_event, snap = row
            entry = Entry(name, learner, json.loads(params), n_features,
                          None if classes is None else json.loads(classes), created, base,
                          base_event, snap)
            started = time.monotonic()
            self.hosts[name] = ModelHost(entry, self.store, self.metrics, config)
            log.info("olc serve: model %r recovered (%d events) in %.2f s", name,
                     self.hosts[name].next_event, time.monotonic() - started)

    def host(self, name):
        host = self.hosts.get(name)
        if host is None:
            raise RequestError(404, f"no model named {name!r}", "name")
        return host

    def check_new_name(self, name, field="name"):
        if not isinstance(name, str) or not NAME.fullmatch(name):
            raise RequestError(422, f"'{field}' must be 1-64 letters, digits, '_', '.', '-' "
                               f"(starting with a letter or digit), got "
                               f"{json.dumps(name)[:70]}", field)
        if name in self.hosts:
            raise RequestError(409, f"a model named {name!r} exists already", field)

    def create(self, name, learner_name, params, n_features, classes):
        """A new model from the catalogue; every check before anything is stored."""
        from ..learners.registry import info, make
        from ..learners.registry.lookup import UnknownAlgorithmError
        from ..learners._framework.validation import InputError

        self.check_new_name(name)
        try:
            entry = info(learner_name)
        except UnknownAlgorithmError as exc:
            raise RequestError(422, str(exc), "learner") from None
        if entry.kind not in ("classifier", "regressor"):
            raise RequestError(422, f"{learner_name} is a {entry.kind}; olc serve learns "
                               "classifiers and regressors", "learner")
        if entry.kind == "regressor" and classes is not None:
            raise RequestError(422, f"{learner_name} is a regressor: it has no classes",
                               "classes")
        try:
            learner = make(learner_name, **params)
            learner._hyperparameters()  # the learner's own validation and messages
        except (TypeError, InputError, ValueError) as exc:
            raise RequestError(422, str(exc), _parameter_field(str(exc), params)) from None
        if classes is not None:
            _check_classes(classes)
        self._clear_leftovers(name)
        self.store.add_model(name, learner_name, params, n_features, classes)
        return self._host(name, learner_name, params, n_features, classes)

    def upload(self, name, data):
        """A new model from ``olc.save`` bytes (checked by ``olc.load``)."""
        from ..learners.registry import name_of
        from ..learners.registry.lookup import UnknownAlgorithmError

        self.check_new_name(name)
        try:
            learner = learner_from_bytes(data)
        except Exception as exc:  # whatever the reader met: a clear refusal
            raise RequestError(422, f"not an olc.save file: {exc}", "body") from None
        try:
            learner_name = name_of(learner)
        except UnknownAlgorithmError as exc:
            raise RequestError(422, str(exc), "body") from None
        kind = getattr(learner, "_estimator_type", None)
        if kind not in ("classifier", "regressor"):
            raise RequestError(422, f"{learner_name} is neither a classifier nor a regressor",
                               "body")
        params = json.loads(json.dumps(learner.get_params(deep=False), default=str))
        fitted = learner._is_initialised()
        n_features = int(learner.n_features_in_) if fitted else None
        classes = learner.classes_.tolist() if fitted and kind == "classifier" else None
        steps = int(learner.n_steps_) if fitted else 0
        self._clear_leftovers(name)
        self.store.add_model(name, learner_name, params, n_features, classes, base=data,
                             base_event=steps)
        return self._host(name, learner_name, params, n_features, classes, data, steps)

    def _clear_leftovers(self, name):
        """What a deleted model of this name may have left (a kill during its deletion):
        its snapshots must never stand for the new model."""
        self.store.delete_model(name)
        shutil.rmtree(self.store.snapshot_folder(name), ignore_errors=True)

    def _host(self, name, learner_name, params, n_features, classes, base=None, base_event=0):
        entry = Entry(name, learner_name, params, n_features, classes, self.store.clock(), base,
                      base_event)
        return ModelHost(entry, self.store, self.metrics, self.config)

    def delete(self, host):
        """Stop the model's writes (a batch being applied is committed first: the lock),
        then remove its rows and snapshots. (The caller has taken it out of ``hosts``.)"""
        name = host.entry.name
        host.closed = True
        with host.lock:
            self.store.delete_model(name)
            shutil.rmtree(self.store.snapshot_folder(name), ignore_errors=True)
        self.metrics.forget(name)

    def close(self):
        for host in self.hosts.values():
            host.close()
        self.store.close()


def _parameter_field(message, params):
    """``params.<name>`` for the parameter an error message names (the first one given
    that it mentions), else ``params``."""
    for name in params:
        if re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", message):
            return f"params.{name}"
    return "params"


def _check_classes(classes):
    if not isinstance(classes, list) or len(classes) < 2:
        raise RequestError(422, "'classes' must be a list of at least two labels", "classes")
    for i, label in enumerate(classes):
        if isinstance(label, bool) or not isinstance(label, (int, float, str)):
            raise RequestError(422, f"classes[{i}] must be a string or a number",
                               f"classes[{i}]")
    if len(set(classes)) != len(classes):
        raise RequestError(422, "'classes' lists a label twice", "classes")
    if len({isinstance(label, str) for label in classes}) > 1:
        raise RequestError(422, "'classes' mixes strings and numbers", "classes")
