"""Predictions of every served model: scored in the event loop and kept as pending rows that
concurrent predictions commit together.

- **Scoring** takes the model's lock. When it is free (the writer is not applying a batch)
  the rows are scored in the event loop (~20 µs for one row); else in a thread that waits
  for the writer, so the event loop never waits for a batch or its commit.
- **Pending rows**: the predictions scored while a commit is running, or in the same turn
  of the event loop, are written in one SQLite transaction (one per group, in a thread; each
  prediction under its own savepoint, so one refused prediction does not refuse the
  others). An answer is sent only after its group has committed, so the promise is the one
  of a transaction per prediction: an event id that was answered is in the write-ahead log,
  found by a later feedback after a crash of the process; the commit does not wait for the
  disk, so after a power cut it is there once the next learn/feedback commit (which syncs
  the log) is done.
- **Idempotency keys**: the copies of a keyed prediction that arrive while the first is
  being committed wait for it and answer its stored response; a copy after the commit finds
  the stored response. So racing copies keep the rows once.
"""
import asyncio

__all__ = ["Predictions"]


class Predictions:
    def __init__(self, store):
        self.store = store
        self.group = []  # predictions waiting for the next commit
        self.flush_due = False
        self.committing = False
        self.in_flight = {}  # idempotency key -> future of (ok, answer) of its first copy

    async def predict(self, host, X, key):
        """(the answer, whether it is a stored answer) for rows X of ``host``'s model."""
        if key is None:
            return await self._new(host, X, None), False
        while True:
            stored = self.store.stored_response(key)
            if stored is not None:
                return stored[1], True
            first = self.in_flight.get(key)
            if first is None:
                break
            ok, answer = await asyncio.shield(first)
            if ok:
                return answer, True
            # the first copy failed: this one is applied itself
        # The first copy runs to its commit even if its request is cancelled (the client
        # went away), so the key stays in flight until its answer is stored.
        outcome = asyncio.get_running_loop().create_future()
        work = asyncio.ensure_future(self._new(host, X, key))
        self.in_flight[key] = outcome

        def finished(work):
            del self.in_flight[key]
            ok = not work.cancelled() and work.exception() is None
            outcome.set_result((ok, work.result() if ok else None))

        work.add_done_callback(finished)
        return await asyncio.shield(work), False

    async def _new(self, host, X, key):
        if host.lock.acquire(blocking=False):
            try:
                pids, predictions, scores = host.score_locked(X)
            finally:
                host.lock.release()
        else:  # the writer is applying a batch: wait for it in a thread
            pids, predictions, scores = await asyncio.to_thread(host.score, X)
        answer = {"predictions": [{"event_id": f"p{pid}", "prediction": p, "score": float(s)}
                                  for pid, p, s in zip(pids, predictions, scores)]}
        await self._keep((host, pids, X, predictions, scores, key, answer))
        return answer

    # -- the group commit of pending rows ----------------------------------------------------
    def _keep(self, item):
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        self.group.append((item, done))
        if not self.committing and not self.flush_due:
            # after the requests ready in this turn of the loop have added theirs
            self.flush_due = True
            loop.call_soon(self._flush)
        return done

    def _flush(self):
        self.flush_due = False
        if self.committing or not self.group:
            return
        group, self.group = self.group, []
        self.committing = True
        asyncio.get_running_loop().create_task(self._commit(group))

    async def _commit(self, group):
        items = [item for item, _ in group]
        try:
            # in a thread: a commit may run a write-ahead-log checkpoint, which syncs the disk
            outcomes = await asyncio.to_thread(self._write, items)
        except Exception as exc:  # the transaction failed: every prediction of it
            outcomes = [exc] * len(group)
        finally:
            self.committing = False
            if self.group:
                self._flush()
        for (_, done), outcome in zip(group, outcomes):
            if done.done():  # its request is gone (the client disconnected)
                continue
            if outcome is None:
                done.set_result(None)
            else:
                done.set_exception(outcome)

    def _write(self, items):
        """Commit the pending rows of ``items`` in one transaction (in a thread); the outcome
        of each: None (kept) or the error that refused it (its rows rolled back)."""
        outcomes = []
        with self.store.transaction(durable=False) as db:
            for host, pids, X, predictions, scores, key, answer in items:
                db.execute("SAVEPOINT prediction")
                try:
                    host.keep_pending(db, pids, X, predictions, scores, key, answer)
                except Exception as error:  # a RequestError (deleted), or the store's
                    db.execute("ROLLBACK TO prediction")
                    outcomes.append(error)
                else:
                    outcomes.append(None)
                db.execute("RELEASE prediction")
        return outcomes
