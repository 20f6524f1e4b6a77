"""Drifting class mixtures: a stream whose class probabilities move linearly inside phases.

The process of Shen & Dietterich (2009), §4 ("Datasets"): four classes P1, P2 (positive) and
N1, N2 (negative); four phases; inside each phase the probability of each class moves
linearly from a start value to an end value; classes a phase does not mention have
probability 0. :data:`SHEN_DIETTERICH_PHASES` transcribes the paper:

=======  ==================  ==================
phase    first row           last row
=======  ==================  ==================
1        P1 0.7, N1 0.3      P1 0.5, N1 0.5
2        P1 0.5, P2 0, N1 .5 P1 0.3, P2 0.2, N1 0.5
3        P2 0.5, N1 .2, N2 .3  P2 0.5, N1 0, N2 0.5
4        P2 0.5, N2 0.5      P2 0.3, N2 0.7
=======  ==================  ==================

Every row of this table sums to 1, so (by linearity) every position does: the table is the
paper's, and no renormalisation is needed. The process jumps at the 2→3 boundary (P1 0.3 → 0, P2 0.2 → 0.5, N1 0.5 → 0.2, N2 0 → 0.3): the paper
states it so, and it is the change the second half of the stream tests.

:func:`drift_stream` works on any labelled data: it maps each role to one original class
label, draws the role of every position from the schedule, then draws the rows of each role.

[Decision] Position i of a phase of n rows has probabilities start + (end − start)·i/(n − 1)
(the first row has exactly the start values, the last exactly the end values, as "decreases
from 0.7 to 0.5" reads); a phase of one row uses its start values.

[Decision] Rows are drawn without replacement by default (each original example appears at
most once in a stream, so the stream has no duplicates for the online learner to memorise);
if a role needs more rows than its class has, :class:`DriftError` says so before anything is
drawn; ``replace=True`` draws with replacement instead.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

__all__ = [
    "DriftError",
    "Phase",
    "DriftStream",
    "SHEN_DIETTERICH_PHASES",
    "SHEN_DIETTERICH_POSITIVE",
    "schedule",
    "expected_counts",
    "drift_stream",
    "Drift",
]

_TOL = 1e-9


class DriftError(ValueError):
    """A drift schedule or a role mapping that cannot be used (names what is wrong)."""


@dataclass(frozen=True)
class Phase:
    """Class probabilities of one phase at its first and last row (role → probability)."""

    start: Mapping[str, float]
    end: Mapping[str, float]


#: Shen & Dietterich (2009), §4, "Datasets": the four phases.
SHEN_DIETTERICH_PHASES: tuple[Phase, ...] = (
    Phase({"P1": 0.7, "N1": 0.3}, {"P1": 0.5, "N1": 0.5}),
    Phase({"P1": 0.5, "P2": 0.0, "N1": 0.5}, {"P1": 0.3, "P2": 0.2, "N1": 0.5}),
    Phase({"P2": 0.5, "N1": 0.2, "N2": 0.3}, {"P2": 0.5, "N1": 0.0, "N2": 0.5}),
    Phase({"P2": 0.5, "N2": 0.5}, {"P2": 0.3, "N2": 0.7}),
)
#: The positive roles of the paper (P1, P2 → +1; N1, N2 → −1).
SHEN_DIETTERICH_POSITIVE = ("P1", "P2")


@dataclass(frozen=True)
class DriftStream:
    """One drawn stream. ``rows``: indices into the original data, in stream order;
    ``role``: index into ``roles`` per position; ``label``: ±1 per position (+1 for the
    positive roles); ``phase``: 0-based phase per position; ``original``: the original
    class label per position."""

    rows: np.ndarray
    role: np.ndarray
    label: np.ndarray
    phase: np.ndarray
    original: np.ndarray
    roles: tuple[str, ...]


def _roles_of(phases: Sequence[Phase]) -> tuple[str, ...]:
    seen: list[str] = []
    for ph in phases:
        for name in (*ph.start, *ph.end):
            if name not in seen:
                seen.append(name)
    return tuple(seen)


def _check_phases(phases: Sequence[Phase]) -> None:
    if not phases:
        raise DriftError("a drift schedule needs at least one phase")
    for k, ph in enumerate(phases, start=1):
        for where, probs in (("start", ph.start), ("end", ph.end)):
            for name, p in probs.items():
                if not (np.isfinite(p) and 0.0 <= p <= 1.0):
                    raise DriftError(f"phase {k} {where}: probability of {name!r} is {p!r}, "
                                     "not in [0, 1]")
            total = sum(probs.values())
            if abs(total - 1.0) > _TOL:
                raise DriftError(f"phase {k} {where}: probabilities sum to {total:.6g}, not 1")


def _rows_per_phase(phases, rows_per_phase) -> list[int]:
    counts = ([rows_per_phase] * len(phases) if np.isscalar(rows_per_phase)
              else list(rows_per_phase))
    if len(counts) != len(phases):
        raise DriftError(f"rows_per_phase has {len(counts)} entries for {len(phases)} phases")
    for k, n in enumerate(counts, start=1):
        if int(n) != n or n < 1:
            raise DriftError(f"phase {k}: rows_per_phase must be a positive integer, got {n!r}")
    return [int(n) for n in counts]


def schedule(rows_per_phase, phases: Sequence[Phase] = SHEN_DIETTERICH_PHASES):
    """Class probabilities per position: ``(P, roles, phase)`` with P of shape
    (total rows, len(roles)), each row summing to 1, and the 0-based phase per position."""
    _check_phases(phases)
    counts = _rows_per_phase(phases, rows_per_phase)
    roles = _roles_of(phases)
    blocks, phase_of = [], []
    for k, (ph, n) in enumerate(zip(phases, counts)):
        start = np.array([ph.start.get(r, 0.0) for r in roles])
        end = np.array([ph.end.get(r, 0.0) for r in roles])
        frac = np.arange(n) / (n - 1) if n > 1 else np.zeros(1)
        blocks.append(start + np.outer(frac, end - start))
        phase_of.append(np.full(n, k, dtype=np.int64))
    return np.vstack(blocks), roles, np.concatenate(phase_of)


def expected_counts(P: np.ndarray, start: int, stop: int) -> np.ndarray:
    """Expected number of positions of each role among positions start..stop-1."""
    return P[start:stop].sum(axis=0)


def drift_stream(
    y,
    classes: Mapping[str, object],
    rows_per_phase,
    *,
    seed,
    phases: Sequence[Phase] = SHEN_DIETTERICH_PHASES,
    positive: Sequence[str] = SHEN_DIETTERICH_POSITIVE,
    replace: bool = False,
) -> DriftStream:
    """Draw a drifting stream from labelled data.

    ``y``: the original labels of the data (any hashable values); ``classes``: role →
    original label (e.g. ``{"P1": 3, "P2": 7, "N1": 8, "N2": 9}`` for USPS digits);
    ``rows_per_phase``: an int or one int per phase; ``seed``: an int or a
    ``numpy.random.Generator``. The role of each position is drawn independently from the
    schedule's probabilities at that position; then each role's positions receive rows of its
    class in random order. Returns a :class:`DriftStream`; ``X[stream.rows]`` and
    ``stream.label`` are the stream."""
    _check_phases(phases)
    roles = _roles_of(phases)
    unknown = sorted(set(classes) - set(roles))
    if unknown:
        raise DriftError(f"classes names roles {unknown} that no phase uses (roles: {list(roles)})")
    missing = [r for r in roles if r not in classes]
    if missing:
        raise DriftError(f"classes gives no original label for the roles {missing}")
    bad_positive = sorted(set(positive) - set(roles))
    if bad_positive:
        raise DriftError(f"positive names unknown roles {bad_positive}")
    labels = [classes[r] for r in roles]
    if len(set(labels)) != len(labels):
        raise DriftError(f"two roles share one original class: {dict(classes)}")
    y = np.asarray(y)
    pools = []
    for r, lab in zip(roles, labels):
        idx = np.flatnonzero(y == lab)
        if idx.size == 0:
            raise DriftError(f"role {r}: the data has no row of class {lab!r}")
        pools.append(idx)

    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    P, _, phase = schedule(rows_per_phase, phases)
    # Inverse-CDF draw: role = number of cumulative bounds ≤ u. An empty bin (probability 0)
    # is never chosen; the bounds from each row's last nonzero role on are set to exactly 1
    # so that rounding in the sums cannot push u past them into a zero-probability role.
    cum = np.cumsum(P, axis=1)
    last = P.shape[1] - 1 - np.argmax((P > 0)[:, ::-1], axis=1)
    cum[np.arange(P.shape[1])[None, :] >= last[:, None]] = 1.0
    u = rng.random(P.shape[0])
    role = (u[:, None] >= cum).sum(axis=1).astype(np.int64)

    need = np.bincount(role, minlength=len(roles))
    if not replace:
        for r, lab, pool, k in zip(roles, labels, pools, need):
            if k > pool.size:
                raise DriftError(f"role {r} (class {lab!r}) needs {k} rows but the data has "
                                 f"{pool.size}; use replace=True or fewer rows per phase")
    rows = np.empty(P.shape[0], dtype=np.int64)
    for j, pool in enumerate(pools):
        where = np.flatnonzero(role == j)
        if where.size:
            rows[where] = (rng.choice(pool, size=where.size, replace=True) if replace
                           else rng.permutation(pool)[: where.size])
    pos = np.array([r in positive for r in roles])
    label = np.where(pos[role], 1.0, -1.0)
    original = y[rows]
    return DriftStream(rows, role, label, phase, original, roles)


@dataclass(frozen=True)
class Drift:
    """The drift process as a stream transform of the experiment engine
    (``olc.experiments.engine.transforms``): ``apply(stream, rng)`` draws a
    :func:`drift_stream` from the stream's labels with the trial's generator and returns the
    drawn positions (``stream.take``), labelled ±1 (positive roles +1); the stream keeps the
    original class of each position (``labels``) and its phase (``info["phase"]``).
    ``classes``: role → original label; ``rows_per_phase``: int or one per phase."""

    classes: Mapping[str, object]
    rows_per_phase: object = 500
    replace: bool = False
    phases: tuple = SHEN_DIETTERICH_PHASES
    positive: tuple = SHEN_DIETTERICH_POSITIVE

    def key(self):
        return {"kind": "drift", "classes": {r: _jsonable(v) for r, v in self.classes.items()},
                "rows_per_phase": _jsonable(self.rows_per_phase), "replace": self.replace,
                "phases": [[dict(p.start), dict(p.end)] for p in self.phases],
                "positive": list(self.positive)}

    def apply(self, stream, rng):
        drawn = drift_stream(stream.y, self.classes, self.rows_per_phase, seed=rng,
                             phases=self.phases, positive=self.positive, replace=self.replace)
        out = stream.take(drawn.rows)
        out.y = drawn.label
        out.info = {**stream.info, "phase": drawn.phase}
        return out


def _jsonable(value):
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value.item() if isinstance(value, np.generic) else value


def drift_transform(classes, rows_per_phase=500, replace=False, phases=None, positive=None):
    """A :class:`Drift` from plain values, as a TOML spec gives them (the engine's stream
    transform kind ``"drift"``): ``classes`` a table role → original label; ``phases``
    (default: Shen & Dietterich's four) an array of ``{start = {role = p, ...}, end = {...}}``;
    ``positive`` the roles labelled +1 (default P1, P2). Everything that can be checked
    without the data is checked here (schedule, roles, row counts), so a bad spec fails
    before any run with a message naming the parameter."""
    if not isinstance(classes, Mapping) or not classes:
        raise DriftError(f"classes must be a table role → original label, got {classes!r}")
    if phases is None:
        phases = SHEN_DIETTERICH_PHASES
    else:
        if not isinstance(phases, (list, tuple)) or not all(
                isinstance(ph, Mapping) and set(ph) == {"start", "end"} for ph in phases):
            raise DriftError("phases must be an array of tables with keys start and end, "
                             f"got {phases!r}")
        phases = tuple(Phase(dict(ph["start"]), dict(ph["end"])) for ph in phases)
    positive = SHEN_DIETTERICH_POSITIVE if positive is None else tuple(positive)
    if not isinstance(replace, bool):
        raise DriftError(f"replace must be true or false, got {replace!r}")
    _check_phases(phases)
    _rows_per_phase(phases, rows_per_phase)
    roles = _roles_of(phases)
    unknown = sorted(set(classes) - set(roles))
    missing = [r for r in roles if r not in classes]
    if unknown or missing:
        raise DriftError(f"classes must name exactly the roles {list(roles)} "
                         f"(unknown: {unknown}, missing: {missing})")
    bad = sorted(set(positive) - set(roles))
    if bad:
        raise DriftError(f"positive names roles {bad} that no phase uses (roles: {list(roles)})")
    rows = rows_per_phase if np.isscalar(rows_per_phase) else tuple(rows_per_phase)
    return Drift(dict(classes), rows, replace, phases, positive)
