"""A progress bar that appears only for work that lasts: it shows up once ``delay`` seconds
have passed (so quick runs print nothing), on standard error, and vanishes when done."""
import time


class LazyProgress:
    def __init__(self, total, label, delay=1.0, enabled=True):
        self.total = total
        self.label = label
        self.delay = delay
        self.enabled = enabled
        self.completed = 0
        self._start = time.perf_counter()
        self._bar = None
        self._task = None

    def advance(self, k=1):
        self.completed += k
        if not self.enabled:
            return
        if self._bar is None and time.perf_counter() - self._start >= self.delay:
            from rich.console import Console
            from rich.progress import (BarColumn, Progress, TextColumn, TimeElapsedColumn,
                                       TimeRemainingColumn)

            self._bar = Progress(TextColumn("{task.description}"), BarColumn(),
                                 TextColumn("{task.completed}/{task.total}"),
                                 TimeElapsedColumn(), TimeRemainingColumn(),
                                 console=Console(stderr=True), transient=True)
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=self.total,
                                            completed=self.completed)
        elif self._bar is not None:
            self._bar.update(self._task, completed=self.completed)

    def close(self):
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
