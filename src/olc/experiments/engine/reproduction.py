"""A reproduction is a declaration; :func:`reproduce` is the one pipeline that runs it.

A paper's package declares a :class:`Reproduction`: how its command-line options become
checked settings, what runs (an engine :class:`~.spec.ExperimentSpec`, or its own
:class:`Plan` of runs and how their values become an outcome), the paper's values, its
claims, its tables and figures, and the lines of its ``summary.md`` and ``results.json``.
:func:`reproduce` owns the order, the same for every paper, so that bad input fails before
anything is written and every output is written whole (:mod:`olc._util.atomic`):

settings (checks, nothing loaded) → output folder checked → plan (data loaded, runs
planned) → runs executed through the run store (stored ones reused) → outcome → tables →
figures → claims tested → ``summary.md`` → ``results.json``.

The console lines and the shared command-line options (``--out``, ``--n-jobs``,
``--scheduler``, ``--force``) are :mod:`.command`'s.
"""
from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..._util.atomic import check_out_dir, write_text
from ...report import write_json
from .report import claims_table
from .runner import check_n_jobs, check_scheduler, execute
from .spec import Claim
from .store import RunStore


@dataclass(frozen=True)
class RunInfo:
    """How the runs went, for reproductions that report it (e.g. a timing table)."""

    reused: int
    computed: int
    n_jobs: int
    started: float                   # time.perf_counter() when the pipeline started
    prepare_seconds: float
    run_seconds: float
    load_average_at_start: float | None


@dataclass(frozen=True)
class Plan:
    """A reproduction's own runs: ``runs`` (engine :class:`~.runner.Run` objects, executed
    in one call of the runner, so ``--n-jobs`` workers share the whole workload) and
    ``collect(values, info) -> outcome``, the values in run order turned into what the
    claims, tables and figures read."""

    runs: Sequence[Any]
    collect: Callable[[list, RunInfo], Any]


@dataclass(frozen=True)
class Verdict:
    """One claim tested: ``supported`` True/False/None (None: the runs it needs are not
    part of this run)."""

    claim: Claim
    supported: bool | None
    evidence: str


def _no_lines(outcome, settings):
    return []


@dataclass(frozen=True)
class Reproduction:
    """What a paper's package declares (its ``reproduction.py``).

    Exactly one of ``spec`` and ``plan`` says what runs:

    - ``spec(**settings) -> ExperimentSpec``: the engine's streams × learners × protocol;
      the outcome is the engine's :class:`~.aggregate.Results`, and the engine adds its
      own table (``table.md``), timing table and curve figures;
    - ``plan(settings, shared) -> Plan``: the paper's own runs (``shared``: a temporary
      folder for data sent to worker processes by file, or None when runs stay in this
      process).

    ``settings(**options) -> dict``: the command's options checked (a clear error naming
    the option), nothing written. ``paper``: published numbers {(stream, learner label,
    metric): value} shown in ``[paper]`` columns of the engine's table. ``claims``: tested
    on the outcome, each ``claim.test(outcome) -> (verdict, evidence)``; a ``LookupError``
    means "not part of this run". ``claims_on_paper``: when given, the outcome-like object
    the same claims are also tested on (the paper's own numbers), shown in a column.
    ``tables`` / ``figures``: ``(outcome, settings, out_dir) -> {name: path}``.
    ``summary_preamble(settings)``, ``summary_header(outcome, settings)``,
    ``summary_sections(outcome, settings)``: the lines of ``summary.md`` before the
    claims table (default preamble: the title and where the numbers come from), between,
    and after it. ``record(outcome, settings, verdicts) -> dict``: ``results.json``
    without its ``files`` (default for a spec: the experiment and its records).
    ``console(outcome, settings)``: lines printed before the run counts.
    ``streams_to_write(settings)``: for a spec, the streams whose trial-0 order is written
    to ``streams/``. ``verify(outcome, settings, out_dir)``: raises when the outcome shows
    the reproduction itself failed (e.g. a data check), after every output is written so
    the failure can be read in them.
    """

    name: str
    title: str
    citation: str = ""
    settings: Callable[..., dict] = dict
    spec: Callable[..., Any] | None = None
    plan: Callable[[dict, Any], Plan] | None = None
    paper: Mapping[tuple, Any] = field(default_factory=dict)
    claims: Sequence[Claim] = ()
    claims_on_paper: Callable[[dict], Any] | None = None
    claims_heading: Sequence[str] = ("## Claims", "")
    tables: Callable | None = None
    figures: Callable | None = None
    summary_preamble: Callable[[dict], list] | None = None
    summary_header: Callable[[Any, dict], list] = _no_lines
    summary_sections: Callable[[Any, dict], list] = _no_lines
    record: Callable | None = None
    console: Callable[[Any, dict], list] = _no_lines
    streams_to_write: Callable[[dict], Sequence[str]] | None = None
    verify: Callable | None = None

    def __post_init__(self):
        if (self.spec is None) == (self.plan is None):
            raise ValueError(f"reproduction {self.name!r}: declare exactly one of spec and "
                             "plan")


def evaluate(claims, outcome):
    """[Verdict] of ``claims`` on ``outcome``; a claim whose runs are missing (it raises
    ``LookupError``) is "n/a" with the reason as its evidence."""
    out = []
    for claim in claims:
        try:
            ok, evidence = claim.test(outcome)
        except LookupError as exc:
            ok, evidence = None, str(exc)
        out.append(Verdict(claim, None if ok is None else bool(ok), evidence))
    return out


def default_preamble(title):
    return [f"# {title} — summary", "",
            "Generated from this run's records (`results.json`); the paper's numbers appear "
            "only where labelled as the paper's.", ""]


def summary_text(reproduction, outcome, settings, verdicts, on_paper=None, header=()):
    preamble = (reproduction.summary_preamble(settings) if reproduction.summary_preamble
                else default_preamble(reproduction.title))
    lines = [*preamble, *header, *reproduction.summary_header(outcome, settings)]
    if verdicts:
        lines += [*reproduction.claims_heading, *claims_table(verdicts, on_paper)]
    lines += reproduction.summary_sections(outcome, settings)
    return "\n".join(lines) + "\n"


def claims_json(verdicts):
    """The tested claims as ``results.json`` holds them."""
    from .report import verdict

    return [{"text": v.claim.text, "source": v.claim.source, "verdict": verdict(v.supported),
             "supported": v.supported, "evidence": v.evidence} for v in verdicts]


def _plan(reproduction, settings, shared):
    if reproduction.plan is not None:
        return reproduction.plan(settings, shared), None
    from .experiment import spec_plan

    spec = reproduction.spec(**settings)
    return spec_plan(spec, reproduction.paper, shared), spec


def reproduce(reproduction, out_dir, options=None, *, n_jobs=1, scheduler=None, force=False,
              progress=None):
    """Run ``reproduction`` with its command's ``options`` into ``out_dir``; returns the
    report: ``results.json``'s content plus ``reused``/``computed``, ``verdicts``,
    ``outcome``, ``settings`` and the ``console`` lines."""
    started = time.perf_counter()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    check_n_jobs(n_jobs)
    check_scheduler(scheduler)
    settings = reproduction.settings(**(options or {}))
    check_out_dir(out_dir)
    out_dir = Path(out_dir)
    with tempfile.TemporaryDirectory(prefix=f"olc-{reproduction.name}-") as folder:
        shared = folder if n_jobs != 1 and scheduler is None else None
        plan, spec = _plan(reproduction, settings, shared)
        prepared = time.perf_counter()
        out_dir.mkdir(parents=True, exist_ok=True)
        done = execute(plan.runs, RunStore(out_dir / "runs"), n_jobs=n_jobs,
                       scheduler=scheduler, force=force, progress=progress,
                       label=f"{reproduction.name} runs")
    info = RunInfo(done.reused, done.computed, n_jobs, started, prepared - started,
                   time.perf_counter() - prepared, load)
    outcome = plan.collect(done.values, info)
    files, header = {}, []
    if spec is not None:
        from .experiment import spec_header, spec_outputs

        files.update(spec_outputs(reproduction, spec, settings, outcome, out_dir))
        header = spec_header(spec, outcome)
    for hook in (reproduction.tables, reproduction.figures):
        if hook is not None:
            files.update({k: v if isinstance(v, list) else str(v)
                          for k, v in hook(outcome, settings, out_dir).items()})
    if spec is not None and reproduction.streams_to_write is not None:
        from .experiment import write_streams

        files.update(write_streams(outcome, reproduction.streams_to_write(settings), out_dir))
    verdicts = evaluate(reproduction.claims, outcome)
    on_paper = (evaluate(reproduction.claims, reproduction.claims_on_paper(settings))
                if reproduction.claims_on_paper else None)
    files["summary"] = str(write_text(out_dir / "summary.md", summary_text(
        reproduction, outcome, settings, verdicts, on_paper, header)))
    if reproduction.record is not None:
        report = reproduction.record(outcome, settings, verdicts)
    else:
        from .experiment import spec_record

        report = spec_record(spec, outcome)
    files["json"] = str(out_dir / "results.json")
    report = {**report, "files": files}
    write_json(out_dir / "results.json", report)
    if reproduction.verify is not None:
        reproduction.verify(outcome, settings, out_dir)
    return dict(report, reused=done.reused, computed=done.computed, verdicts=verdicts,
                outcome=outcome, settings=settings,
                console=reproduction.console(outcome, settings))
