"""The runner: independent runs, each stored as soon as it finishes, reused when stored.

A :class:`Run` is a key (JSON: everything its result depends on), a module-level function
and its arguments; ``fn(*args)`` returns a JSON-able value. :func:`execute` looks every run
up in the :class:`~.store.RunStore`, computes the missing ones — in this process
(``n_jobs=1``), in joblib worker processes (``n_jobs``), or on a Dask cluster
(``scheduler``: an address such as ``tcp://host:8786``, or a ``distributed.Client``) —
writes each result (main process, atomic) as soon as it arrives, in completion order, and
returns the values in run order. A progress bar over runs appears when the work lasts.

Ctrl-C (or SIGTERM turned into KeyboardInterrupt) stops the workers and raises
:class:`Interrupted`, whose one-line message says how many runs are stored; the same call
later resumes from them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..._util.progress import LazyProgress
from .spec import resolve_callable
from .store import jsonable


@dataclass
class Run:
    """One independent unit of work: ``fn(*args)`` (``fn`` module-level, or
    ``"module:function"``), stored under ``key``; ``name``: a readable file name in the
    store (optional, may contain '/'); ``check``: ``check(value) -> None or a reason``,
    applied to a stored value before it is reused (a value that fails is discarded with a
    warning and the run is redone)."""

    key: dict
    fn: Callable | str
    args: tuple = ()
    name: str = ""
    check: Callable | None = None


@dataclass
class Execution:
    """Values in run order, how many were reused from the store and computed now."""

    values: list
    reused: int
    computed: int
    stored: list = field(default_factory=list)


class Interrupted(Exception):
    """Ctrl-C during :func:`execute` (finished runs are stored)."""


def _call(index, fn, args):
    return index, jsonable(resolve_callable(fn)(*args))


def _local(todo, n_jobs):
    if n_jobs == 1 or len(todo) <= 1:
        for i, run in todo:
            yield _call(i, run.fn, run.args)
        return
    from joblib import Parallel, delayed

    yield from Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
        delayed(_call)(i, run.fn, run.args) for i, run in todo)


def _dask(todo, scheduler):
    from dask.distributed import Client, as_completed

    own = not hasattr(scheduler, "submit")
    client = Client(scheduler) if own else scheduler
    futures = [client.submit(_call, i, run.fn, run.args, pure=False) for i, run in todo]
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        client.cancel(futures)
        if own:
            client.close()


def check_n_jobs(n_jobs, option="--n-jobs"):
    """Fail early (one line) unless ``n_jobs`` is a positive integer or -1 (all cores)."""
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs == 0 or n_jobs < -1:
        raise ValueError(f"{option} must be a positive integer or -1 (all cores), got "
                         f"{n_jobs!r}")


def check_scheduler(scheduler):
    """Fail early (one line) when Dask is not installed or the address is malformed."""
    if scheduler is None or hasattr(scheduler, "submit"):
        return
    import importlib.util

    if importlib.util.find_spec("distributed") is None:
        raise RuntimeError("--scheduler needs dask.distributed: pip install 'dask[distributed]'"
                           )
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise ValueError(f"--scheduler {scheduler!r}: give an address such as tcp://host:8786")


def execute(runs, store, n_jobs=1, scheduler=None, force=False, progress=None,
            label="runs") -> Execution:
    """Every run's value, from ``store`` when stored (unless ``force``), computed otherwise
    (see the module docstring)."""
    check_scheduler(scheduler)
    values = [None] * len(runs)
    todo = []
    for i, run in enumerate(runs):
        value = None if force else store.get(run.key, run.name, run.check)
        if value is None:
            todo.append((i, run))
        else:
            values[i] = value
    reused = len(runs) - len(todo)
    stored = []
    with LazyProgress(len(runs), label, delay=0.0 if progress else 1.0,
                      enabled=progress is not False, unit="runs") as bar:
        bar.advance(reused)
        results = _dask(todo, scheduler) if scheduler is not None else _local(todo, n_jobs)
        try:
            for i, value in results:
                stored.append(store.put(runs[i].key, value, runs[i].name))
                values[i] = value
                bar.advance()
        except KeyboardInterrupt:
            done = reused + len(stored)
            raise Interrupted(f"interrupted: {done} of {len(runs)} runs are stored in "
                              f"{store.root}; run the same command again to resume") from None
        finally:
            close = getattr(results, "close", None)
            if close is not None:
                close()
    return Execution(values, reused, len(todo), stored)
