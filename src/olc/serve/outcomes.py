"""How a served model's predictions fared, per logged row, and the progressive metric built on
it — the one ``olc.progressive`` reports for the learner's kind:

- a classifier: whether the served prediction was right (bool); mistakes and the error rate
  (mistakes / rows), as ``ProgressiveResult.mistakes`` and ``cumulative_error_rate``;
- a regressor: the residual y − ŷ of the served prediction ŷ (float64); the squared and
  absolute error sums Σ(y − ŷ)², Σ|y − ŷ| and their means, as
  ``ProgressiveResult.squared_error`` / ``absolute_error`` and
  ``cumulative_mean_squared_error`` (the curve).

The log keeps these per-row values (its ``correct`` column: bool bytes or float64 bytes by
the model's kind); a host keeps them all in memory, as it did for correctness.
"""
from collections import deque

import numpy as np

__all__ = ["Outcomes", "outcomes_for"]


def outcomes_for(regression, logged, window):
    """The tracker of a model's kind over its logged per-row values."""
    return (Residuals if regression else Correctness)(logged, window)


class Outcomes:
    """Per-row values of the served predictions, in event order (``values``), and the
    last ``window`` of them."""

    dtype = None
    metric = None  # the curve's key and the dashboard's label

    def __init__(self, logged, window):
        self.values = np.asarray(logged, self.dtype)
        self.recent = deque(self.values[-window:].tolist(), maxlen=window)

    def __len__(self):
        return len(self.values)

    def add(self, values):
        self.values = np.concatenate([self.values, values])
        self.recent.extend(values.tolist())

    def curve(self, points):
        n = len(self.values)
        if n == 0:
            return {"rows": [], "metric": self.metric, self.metric: []}
        rows = np.unique(np.linspace(1, n, num=min(points, n)).round().astype(np.int64))
        return {"rows": rows.tolist(), "metric": self.metric,
                self.metric: self._cumulative()[rows - 1].tolist()}


class Correctness(Outcomes):
    dtype = np.bool_
    metric = "error"

    def __init__(self, logged, window):
        super().__init__(logged, window)
        self.mistakes = int((~self.values).sum())

    @staticmethod
    def of(served, labels):
        return np.array([s == y for s, y in zip(served, labels)], np.bool_)

    def add(self, values):
        super().add(values)
        self.mistakes += int((~values).sum())

    def summary(self):
        window = len(self.recent)
        return {"mistakes": self.mistakes, "error_last_n": {
            "n": window, "error": (window - sum(self.recent)) / window if window else None}}

    def progressive(self):
        """(gauge name, value) of the progressive metric over the logged history, or None."""
        n = len(self.values)
        return ("olc_progressive_error", self.mistakes / n) if n else None

    def _cumulative(self):
        return np.cumsum(~self.values) / np.arange(1, len(self.values) + 1)


class Residuals(Outcomes):
    dtype = np.float64
    metric = "mean_squared_error"

    @staticmethod
    def of(served, labels):
        # y − ŷ as olc.evaluate.metrics computes it (float64 subtraction, target first)
        return np.asarray(labels, np.float64) - np.asarray(served, np.float64)

    def summary(self):
        r = self.values
        n, window = len(r), len(self.recent)
        squared, absolute = float(np.dot(r, r)), float(np.sum(np.abs(r)))
        last = np.asarray(self.recent, np.float64)
        return {"squared_error": squared, "absolute_error": absolute,
                "mean_squared_error": squared / n if n else None,
                "mean_absolute_error": absolute / n if n else None,
                "error_last_n": {
                    "n": window,
                    "mean_squared_error": float(np.dot(last, last)) / window if window else None,
                    "mean_absolute_error": float(np.sum(np.abs(last))) / window
                    if window else None}}

    def progressive(self):
        n = len(self.values)
        return ("olc_progressive_mean_squared_error",
                float(np.dot(self.values, self.values)) / n) if n else None

    def _cumulative(self):
        r = self.values
        return np.cumsum(r * r) / np.arange(1, r.size + 1)
