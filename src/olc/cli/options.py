"""The options ``olc run`` and ``olc compare`` share: ``--data``, ``--param``, ``--seed`` and
``--n-jobs``."""
import ast

import typer

from ..learners.registry import info

DATA_HELP = ("Dataset name (see `olc datasets`, optionally NAME:SPLIT), a path to a data "
             "file (svmlight/libsvm, or Vowpal Wabbit text: *.vw or --format vw; plain or "
             "gz/bz2/xz), or synthetic[:k=v,...] (the built-in stream).")
FORMAT_HELP = "Format of a --data file: svmlight or vw (default: vw for *.vw, else svmlight)."
BITS_HELP = "Vowpal Wabbit files: hash features to 2^BITS columns (VW's -b; default 18)."
CACHE_HELP = ("Keep a --data file's parsed arrays in olc's cache and reuse them while the "
              "file is unchanged (memory-mapped).")
QUIET_HELP = "No progress display (it shows only on a terminal, for work that lasts)."


def format_callback(value):
    if value is not None and value not in ("svmlight", "vw"):
        raise typer.BadParameter(f"must be svmlight or vw, got {value!r}")
    return value


def bits_callback(value):
    if value is not None and not 1 <= value <= 31:
        raise typer.BadParameter(f"must be from 1 to 31, got {value}")
    return value


def reading_progress(name, quiet):
    """A progress display (rows/s) for reading a data file: (advance, close)."""
    from .._util.progress import LazyProgress

    bar = LazyProgress(None, f"reading {name}", enabled=not quiet, unit="rows")
    return bar.advance, bar.close


def n_jobs_callback(value):
    """``--n-jobs``: a positive integer or -1 (all cores); typer names the option on error."""
    if value == 0 or value < -1:
        raise typer.BadParameter(f"must be a positive integer or -1 (all cores), got {value}")
    return value


def parse_value(text):
    """A command-line value: Python literal if it parses (1, 0.5, True, None, 'x'), else the
    raw string; ``true``/``false`` are accepted too."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def parse_param_assignments(assignments, names):
    """``["C=0.1", "e-omm:rho=0.5"]`` → {name: {param: value}} for the given learner names.

    ``k=v`` goes to every learner that has parameter k (an error if none has it);
    ``ALGO:k=v`` to that learner only (an error if it has no such parameter).
    """
    result = {name: {} for name in names}
    for text in assignments:
        left, eq, raw = text.partition("=")
        target, _, key = left.rpartition(":")
        target, key = target.strip(), key.strip()
        if not eq or not key:
            raise ValueError(f"--param {text!r}: expected k=v or ALGO:k=v")
        value = parse_value(raw)
        targets = [target] if target else names
        if target and target not in result:
            raise ValueError(f"--param {text!r}: {target} is not among the learners "
                             f"being run ({', '.join(names)})")
        accepted = [n for n in targets if key in info(n).parameters]
        if not accepted:
            where = target or "any of " + ", ".join(names)
            raise ValueError(f"--param {text!r}: {where} has no parameter {key!r}")
        for n in accepted:
            result[n][key] = value
    return result
