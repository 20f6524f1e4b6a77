"""A progress bar that appears only for work that lasts: it shows up once ``delay`` seconds
have passed (so quick runs print nothing), on standard error, and vanishes when done. It
shows the rate (``unit``/s); ``total=None`` (a stream of unknown length) shows the count."""
import time


def _rate_column(unit):
    from rich.progress import ProgressColumn
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task):
            speed = task.finished_speed or task.speed
            return Text("" if speed is None else f"{speed:,.0f} {unit}/s")

    return Rate()


class LazyProgress:
    def __init__(self, total, label, delay=1.0, enabled=True, unit="rows"):
        self.total = total
        self.label = label
        self.delay = delay
        self.enabled = enabled
        self.unit = unit
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

            count = ("{task.completed}/{task.total}" if self.total is not None
                     else "{task.completed:,} " + self.unit)
            columns = [TextColumn("{task.description}"), BarColumn(), TextColumn(count),
                       _rate_column(self.unit), TimeElapsedColumn()]
            if self.total is not None:
                columns.append(TimeRemainingColumn())
            self._bar = Progress(*columns, console=Console(stderr=True), transient=True)
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
