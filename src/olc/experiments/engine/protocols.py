"""Protocols: how one learner configuration meets one trial's stream.

A protocol has ``key() -> dict`` (JSON; part of every run's key), ``check(config)``
(refuses a configuration it cannot run, before any run starts) and
``run(config, stream, stream_seed, learner_seed) -> RunOutput``: the per-step labels and
predictions of the *evaluated* part of the stream (what the metrics read), plus what the
protocol chose (``extra``). Models are built by :func:`.models.build_model`, so registry
learners and custom methods go through the same protocols.

- :class:`Progressive`: predict, then learn, over the whole stream (``passes`` passes;
  pass 1 in stream order, later passes permuted by the trial's learner seed).
- :class:`TuneThenTest`: the first ``fraction`` of the stream tunes the learner's ``tune``
  grid, the winner (trained on that part) continues online on the rest, which alone is
  evaluated (Shen & Dietterich 2009, §4: "tuned on the first half ... tested online on
  the second half").
- :class:`TrainThenTest`: ``epochs`` passes over the first ``fraction`` (epoch 1 in stream
  order, later epochs permuted), then the rest is predicted by the frozen model (or,
  ``online_test=True``, predicted then learned).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from .models import build_model
from .transforms import binary_labels


@dataclass
class RunOutput:
    """The evaluated steps of one run: ``y`` and ``pred`` (±1), ``updated`` (bool or
    None), ``series`` ({name: per-step array}, from the model), ``seconds`` (learning time
    of the evaluated part), ``extra`` (JSON: e.g. the tuned parameters)."""

    y: np.ndarray
    pred: np.ndarray
    updated: np.ndarray | None = None
    series: dict = field(default_factory=dict)
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)


def _grid(tune):
    keys = list(tune)
    return [dict(zip(keys, values)) for values in itertools.product(*(tune[k] for k in keys))]


def _split(stream, fraction, what):
    cut = int(np.floor(fraction * stream.n))
    if cut < 1 or cut >= stream.n:
        raise ValueError(f"{what}: fraction {fraction} of {stream.n} rows leaves an empty part")
    return cut


def _no_tuning(config, kind):
    if config.tune:
        raise ValueError(f"learner {config.label!r} has a tune grid "
                         f"({', '.join(config.tune)}), but protocol {kind!r} does not tune: "
                         "use 'tune-then-test', or give the values as a sweep")


def _fraction(value, what):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1:
        raise ValueError(f"{what}: fraction must be a number in (0, 1), got {value!r}")
    return float(value)


def _positive_int(value, what):
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{what} must be an integer ≥ 1, got {value!r}")
    return value


@dataclass(frozen=True)
class Progressive:
    passes: int = 1
    kind = "progressive"

    def __post_init__(self):
        _positive_int(self.passes, "progressive: passes")

    def key(self):
        return {"kind": self.kind, "passes": self.passes}

    def check(self, config):
        _no_tuning(config, self.kind)

    def run(self, config, stream, stream_seed, learner_seed):
        y = binary_labels(stream.y)
        model = build_model(config, config.params, learner_seed)
        rng = np.random.default_rng(learner_seed)
        parts = []
        for p in range(self.passes):
            order = np.arange(stream.n) if p == 0 else rng.permutation(stream.n)
            X = stream.X if p == 0 else stream.X[order]
            parts.append((y[order], model.learn(X, y[order])))
        return _output(parts)


@dataclass(frozen=True)
class TuneThenTest:
    """[Decision] The tuning criterion is the number of online (progressive) mistakes on
    the tuning part; ties go to the first candidate in grid order (the grid's order is the
    spec's). The chosen model is the one trained on the tuning part during tuning: tuning,
    then training on the first half, is one pass, as a learner sees the stream once."""

    fraction: float = 0.5
    kind = "tune-then-test"

    def __post_init__(self):
        _fraction(self.fraction, self.kind)

    def key(self):
        return {"kind": self.kind, "fraction": self.fraction, "criterion": "online mistakes"}

    def check(self, config):
        pass

    def run(self, config, stream, stream_seed, learner_seed):
        y = binary_labels(stream.y)
        cut = _split(stream, self.fraction, self.kind)
        X1, X2 = stream.X[:cut], stream.X[cut:]
        best = None
        scores = []
        for point in _grid(config.tune):
            model = build_model(config, {**config.params, **point}, learner_seed)
            steps = model.learn(X1, y[:cut])
            m = int(np.count_nonzero(steps.pred != y[:cut]))
            scores.append({"params": point, "mistakes": m})
            if best is None or m < best[0]:
                best = (m, point, model)
        m, point, model = best
        test = model.learn(X2, y[cut:])
        out = _output([(y[cut:], test)])
        out.extra = {"chosen": point, "tuning": scores, "tune_rows": cut,
                     "test_rows": stream.n - cut}
        return out


@dataclass(frozen=True)
class TrainThenTest:
    fraction: float = 0.8
    epochs: int = 1
    online_test: bool = False
    kind = "train-then-test"

    def __post_init__(self):
        _fraction(self.fraction, self.kind)
        _positive_int(self.epochs, f"{self.kind}: epochs")

    def key(self):
        return {"kind": self.kind, "fraction": self.fraction, "epochs": self.epochs,
                "online_test": self.online_test}

    def check(self, config):
        _no_tuning(config, self.kind)

    def run(self, config, stream, stream_seed, learner_seed):
        y = binary_labels(stream.y)
        cut = _split(stream, self.fraction, self.kind)
        model = build_model(config, config.params, learner_seed)
        rng = np.random.default_rng(learner_seed)
        seconds = 0.0
        for e in range(self.epochs):
            order = np.arange(cut) if e == 0 else rng.permutation(cut)
            seconds += model.learn(stream.X[order], y[order]).seconds
        X2, y2 = stream.X[cut:], y[cut:]
        if self.online_test:
            out = _output([(y2, model.learn(X2, y2))])
        else:
            out = RunOutput(y=y2.astype(np.int8), pred=np.where(model.predict(X2) > 0, 1, -1)
                            .astype(np.int8))
        out.extra = {"train_rows": cut, "test_rows": stream.n - cut,
                     "train_seconds": seconds}
        return out


def _output(parts):
    ys = [y for y, _ in parts]
    steps = [s for _, s in parts]
    updated = None if any(s.updated is None for s in steps) else \
        np.concatenate([s.updated for s in steps])
    names = set(steps[0].series)
    series = {k: np.concatenate([np.asarray(s.series[k]) for s in steps]) for k in names
              if all(k in s.series for s in steps)}
    return RunOutput(y=np.concatenate(ys).astype(np.int8),
                     pred=np.concatenate([np.asarray(s.pred) for s in steps]).astype(np.int8),
                     updated=updated, series=series, seconds=sum(s.seconds for s in steps))


#: kind -> class, for the TOML spec's [protocol] table.
PROTOCOLS = {"progressive": Progressive, "tune-then-test": TuneThenTest,
             "train-then-test": TrainThenTest}


def make_protocol(kind, **params):
    try:
        cls = PROTOCOLS[kind]
    except (KeyError, TypeError):
        raise ValueError(f"unknown protocol {kind!r}; known: {', '.join(PROTOCOLS)}") from None
    try:
        return cls(**params)
    except TypeError as exc:
        raise ValueError(f"protocol {kind!r}: {exc}") from None
