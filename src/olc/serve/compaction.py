"""Log compaction: drop the features of the logged batches that a snapshot already holds.

The log is the audit trail and the way to rebuild a model from zero; it grows without end.
Compaction keeps recovery exact while bounding the log: it chooses an *anchor* — the oldest
kept snapshot that is verified now to load (``olc.load``'s checks) and to have learned exactly
the events its name says — and, in one transaction, drops the features (the bulk: rows of d
floats) of every logged batch that ends at or before it, and records the anchor. Labels,
served predictions and outcomes stay, so the counts, the progressive metric and its curve are
unchanged. The anchor's file is kept (never pruned by later snapshots) until the next
compaction moves it, and recovery uses no snapshot below it: if every newer snapshot fails to
load later, the anchor plus the log after it still gives the model bit for bit. Snapshots
below the anchor are deleted (the log they would need is gone).

What is lost: replay from zero (``olc.progressive`` over the whole log), and the inputs of
the compacted events (the audit trail keeps what was predicted and the truth, not the rows).
"""
import logging

from .learner_files import SUFFIX, check_snapshot, snapshot_events
from .parsing import RequestError

__all__ = ["compact"]

log = logging.getLogger("olc.serve")


def compact(host):
    """Compact ``host``'s log below its oldest verified snapshot (under the model's lock: no
    batch is applied and no snapshot written meanwhile). The anchor, the batches compacted
    now, and the snapshots kept; 409 when no snapshot verifies."""
    store, entry = host.store, host.entry
    folder = store.snapshot_folder(entry.name)
    with host.lock:
        if host.closed:
            raise host.gone()
        anchor, refused = None, []
        for event in sorted(snapshot_events(folder)):  # the oldest first
            if event < entry.base_event or host.compacted_to is not None and \
                    event < host.compacted_to:
                continue
            _, why = check_snapshot(folder / f"{event}{SUFFIX}", entry, event)
            if why is None:
                anchor = event
                break
            refused.append(f"{event}{SUFFIX}: {why}")
            log.warning("olc serve: model %r: snapshot %s%s cannot anchor a compaction: %s",
                        entry.name, event, SUFFIX, why)
        if anchor is None:
            raise RequestError(409, f"model {entry.name!r} has no snapshot verified to load, "
                               "so its log was not compacted" +
                               (f" ({'; '.join(refused)})" if refused else
                                " (none written yet)"), None)
        batches = store.compact(entry.name, anchor)
        host.compacted_to = anchor
        for event in snapshot_events(folder):
            if event < anchor:  # unusable now: the log they would replay has no features
                (folder / f"{event}{SUFFIX}").unlink(missing_ok=True)
    log.info("olc serve: model %r: log compacted below event %d (%d batches)", entry.name,
             anchor, batches)
    return {"compacted_to": anchor, "batches_compacted": batches,
            "snapshots": sorted(snapshot_events(folder))}
