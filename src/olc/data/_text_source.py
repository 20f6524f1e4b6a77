"""Line-aligned byte windows of a text file (plain or compressed), read by a thread.

The reader thread reads (and decompresses: :func:`~olc.data._compression.open_binary`) the
next block while the caller parses the current one, so a compressed file costs the larger of
decompression and parsing, not their sum. A window ends at a newline (the last one may not);
the bytes after the last newline of a block are carried into the next window. Windows are
``bytes`` (immutable: a window handed out stays valid while the next one is read).

:class:`ThreadPool` is the pool of threads that parse pieces of a window (the kernels release
the GIL), shared by a read.
"""
from __future__ import annotations

import os
import queue
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ._compression import open_binary

#: Bytes read at a time: large enough to amortise the per-window work and split a window
#: among threads, small enough to keep the buffers' memory small next to the arrays.
WINDOW_BYTES = 4 << 20

_END = object()


def _produce(make_items, out, stop):
    try:
        for item in make_items():
            if stop.is_set():
                return
            out.put(item)
        out.put(_END)
    except BaseException as exc:  # noqa: BLE001 - handed to the consumer, raised there
        out.put(exc)


def read_ahead(make_items, name="olc-read"):
    """The items of ``make_items()``, produced one ahead by a thread; an exception of the
    producer is raised where its item would have come."""
    out = queue.Queue(maxsize=1)
    stop = threading.Event()
    thread = threading.Thread(target=_produce, args=(make_items, out, stop), daemon=True,
                              name=name)
    thread.start()
    try:
        while True:
            item = out.get()
            if item is _END:
                return
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()
        while thread.is_alive():  # unblock a producer waiting on the full queue
            try:
                out.get_nowait()
            except queue.Empty:
                pass
            thread.join(0.01)


def _read_blocks(path, size):
    with open_binary(path) as f:
        while True:
            block = f.read(size() if callable(size) else size)
            if not block:
                return
            yield block


def blocks(path, size=None):
    """Raw blocks of ``path``'s (decompressed) bytes, read one ahead by a thread (``size``:
    bytes, or a function giving the size of the next block); a read error (a damaged compressed file) is raised where the block would have come."""
    return read_ahead(lambda: _read_blocks(path, size or WINDOW_BYTES))


def windows(path, size=None):
    """``(window, end)``: ``window[:end]`` is the next run of whole lines of ``path`` (the
    last may lack its newline); slicing is left to the caller, to avoid copying."""
    carry = b""
    for block in blocks(path, size):
        data = carry + block if carry else block
        cut = data.rfind(b"\n") + 1
        if cut == 0:  # no newline yet: one long line
            carry = data
            continue
        carry = data[cut:]
        yield data, cut
    if carry:
        yield carry, len(carry)


def as_array(window):
    return np.frombuffer(window, dtype=np.uint8)


class ThreadPool:
    """Threads for the pieces of a window (none for one worker: the caller runs them)."""

    def __init__(self, workers=None):
        workers = workers or min(2, os.cpu_count() or 1)
        self.workers = workers
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="olc-parse") \
            if workers > 1 else None

    def map(self, function, items):
        items = list(items)
        if self._pool is None or len(items) == 1:
            return [function(*item) for item in items]
        return [f.result() for f in [self._pool.submit(function, *item) for item in items]]

    def close(self):
        if self._pool is not None:
            self._pool.shutdown(wait=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
