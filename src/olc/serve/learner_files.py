"""A learner as ``olc.save`` bytes and back (``olc.load``'s checks, never unpickled), and
learners rebuilt from the store: a snapshot plus the log after it, or the whole log."""
import logging
import tempfile
from pathlib import Path

import numpy as np

from .._util.atomic import write_bytes
from .store import StoreError

__all__ = ["learner_bytes", "learner_from_bytes", "write_snapshot", "snapshot_events",
           "recover", "replay", "is_regression", "check_snapshot", "SUFFIX"]

log = logging.getLogger("olc.serve")
SUFFIX = ".olc"


def learner_bytes(learner):
    from ..persistence import save

    with tempfile.TemporaryDirectory(prefix="olc-serve-") as folder:
        path = save(learner, Path(folder) / "model.npz")
        return path.read_bytes()


def learner_from_bytes(data):
    """The learner of ``olc.save`` bytes (raises ``PersistenceError`` naming the field)."""
    from ..persistence import load

    with tempfile.TemporaryDirectory(prefix="olc-serve-") as folder:
        path = Path(folder) / "model.npz"
        path.write_bytes(data)
        return load(path)


def snapshot_events(folder):
    """The events of the snapshot files in ``folder``, newest first."""
    events = []
    if folder.is_dir():
        for path in folder.glob(f"*{SUFFIX}"):
            if path.stem.isdigit():
                events.append(int(path.stem))
    return sorted(events, reverse=True)


def write_snapshot(folder, event, data, keep=3, anchor=None):
    """Write a snapshot atomically as ``folder/<event>.olc``; keep the newest ``keep`` and
    the compaction's ``anchor`` (the log below it has no features: it must stay)."""
    write_bytes(folder / f"{event}{SUFFIX}", data)
    for old in snapshot_events(folder)[keep:]:
        if old != anchor:
            (folder / f"{old}{SUFFIX}").unlink(missing_ok=True)


def _fresh(entry):
    from ..learners.registry import make

    if entry.base is not None:
        return learner_from_bytes(entry.base)
    return make(entry.learner, **entry.params)


def is_regression(entry):
    """Whether the model of ``entry`` is a regressor (real-valued targets, no classes)."""
    from ..learners.registry import info

    return info(entry.learner).kind == "regressor"


def learn_batch(learner, X, labels, classes):
    """The online protocol on one batch: predict each row, then learn it (the record)."""
    if getattr(learner, "_estimator_type", None) == "regressor":
        return learner.predict_then_learn(X, np.asarray(labels, np.float64))
    return learner.predict_then_learn(X, np.asarray(labels), classes=classes)


def _usable(learner, entry, event):
    """Why a snapshot's learner cannot stand for events [0, event) of ``entry``, or None."""
    from ..learners.registry import name_of

    if name_of(learner) != entry.learner:
        return f"it holds a {name_of(learner)}, not a {entry.learner}"
    steps = int(getattr(learner, "n_steps_", 0))
    if steps != event:
        return f"it has learned {steps} rows, its name says {event}"
    return None


def check_snapshot(path, entry, event):
    """(learner, None) when the snapshot file loads (``olc.load``'s checks) and stands for
    events [0, event) of ``entry``; else (None, why)."""
    try:
        candidate = learner_from_bytes(path.read_bytes())
        why = _usable(candidate, entry, event)
    except Exception as exc:  # a damaged file: any error of the reader
        return None, f"{type(exc).__name__}: {exc}"
    return (candidate, None) if why is None else (None, why)


def replay(learner, batches, classes, expect_first):
    """Learn the logged batches in order (each one ``partial_fit`` call, as served)."""
    for batch in batches:
        if batch.X is None:
            raise RuntimeError(f"the log's batch at event {batch.first_event} was compacted: "
                               "replay must start at or after the compaction's snapshot")
        if batch.first_event != expect_first:
            raise RuntimeError(f"the log has a gap: event {expect_first} expected, batch "
                               f"starts at {batch.first_event}")
        if getattr(learner, "_estimator_type", None) == "regressor":
            learner.partial_fit(batch.X, np.asarray(batch.labels, np.float64))
        else:
            learner.partial_fit(batch.X, np.asarray(batch.labels), classes=classes)
        expect_first += len(batch.labels)
        yield batch
    return expect_first


def recover(entry, store):
    """(learner, last snapshot event, batches replayed) for a model of the store: the newest
    snapshot that loads and fits, else the base model; then the log after it.
    A snapshot that fails is skipped with a logged warning."""
    folder = store.snapshot_folder(entry.name)
    anchor = store.compacted_to(entry.name)  # the log below it has no features
    learner, start = None, entry.base_event
    for event in snapshot_events(folder):
        if event < entry.base_event or anchor is not None and event < anchor:
            continue
        path = folder / f"{event}{SUFFIX}"
        candidate, why = check_snapshot(path, entry, event)
        if why is None:
            learner, start = candidate, event
            break
        log.warning("olc serve: snapshot %s of model %r skipped: %s", path, entry.name, why)
    snapshot_event = start if learner is not None else None
    if learner is None:
        if anchor is not None and anchor > entry.base_event:
            raise StoreError(f"model {entry.name!r}: its log was compacted below event "
                             f"{anchor} and no snapshot from there on loads (the warnings "
                             f"above say why); restore {folder / f'{anchor}{SUFFIX}'} from a "
                             "backup")
        learner = _fresh(entry)
    batches = list(replay(learner, store.batches(entry.name, after=start), entry.classes, start))
    return learner, snapshot_event, batches
