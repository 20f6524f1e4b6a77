"""What the ``olc`` commands (:mod:`olc.cli`) share: one-line errors, the console, the
compile notice, output path checks, and the end of the process."""
import os
import shutil
import sys
import warnings
from pathlib import Path

import typer
from typer.core import TyperGroup
from typer.exceptions import TyperException

from .._util.sparse import issparse
from ..learners.registry import UnknownAlgorithmError, info

# -- errors: one line, no traceback (unless --debug / OLC_DEBUG=1) -----------------------------

#: What a user can cause (paths, data, parameters, files) — reported as ``error: …``.
#: Anything else is a bug in olc and keeps its traceback.
_FORESEEABLE = (OSError, ValueError, TypeError, EOFError, MemoryError, RuntimeError)


def _foreseeable(exc):
    from ..data.errors import DataError

    return isinstance(exc, _FORESEEABLE + (DataError, UnknownAlgorithmError)) or \
        type(exc).__module__ in ("lzma", "zlib", "gzip", "bz2", "zipfile")


def _describe(exc):
    """The message of ``exc``, naming the file for OS errors ("Permission denied: X")."""
    if isinstance(exc, OSError) and exc.strerror and exc.filename is not None:
        where = f"{exc.filename}" + (f" -> {exc.filename2}" if exc.filename2 else "")
        return f"{exc.strerror}: {where}"
    text = str(exc) or type(exc).__name__
    return text if isinstance(exc, (ValueError, OSError, KeyError)) else \
        f"{type(exc).__name__}: {text}"


def _debugging(ctx):
    return bool(ctx.params.get("debug")) or os.environ.get("OLC_DEBUG", "") not in ("", "0")


class OneLineErrors(TyperGroup):
    """The top-level command: foreseeable errors of any subcommand become ``error: …`` on
    standard error and exit status 2; library warnings are shown as ``warning: …``; a reader
    that closes the output early (``olc … | head``) ends the command quietly, status 1."""

    def invoke(self, ctx):
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            try:
                return super().invoke(ctx)
            except (typer.Exit, typer.Abort, TyperException):
                raise  # typer's own control flow (exit codes, usage errors)
            except BrokenPipeError:
                raise typer.Exit(output_reader_gone()) from None
            except Exception as exc:  # noqa: BLE001 - filtered just below
                if _debugging(ctx) or not _foreseeable(exc):
                    raise
                _print_error(_describe(exc))
                raise typer.Exit(2) from None


def output_reader_gone():
    """Standard output's reader has gone (a ``BrokenPipeError``): point the descriptor at
    ``os.devnull``, so that what is still buffered, and any later flush, goes nowhere
    instead of failing again; returns the exit status, 1 (the recipe of Python's
    documentation: https://docs.python.org/3/library/signal.html#note-on-sigpipe)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):  # no descriptor (a test's captured stream)
        pass
    return 1


def _show_warning(message, category, filename, lineno, file=None, line=None):
    typer.echo(f"warning: {message}", err=True)


def _print_error(message):
    typer.echo(f"error: {message}", err=True)


def fail(message):
    """Report ``message`` as ``error: …`` and exit with status 2."""
    _print_error(message)
    raise typer.Exit(2)


# -- the console -------------------------------------------------------------------------------


class _LazyConsole:
    """rich's Console, imported on first use (start-up of ``olc --help``)."""

    _console = None

    def __getattr__(self, name):
        if _LazyConsole._console is None:
            from rich.console import Console

            _LazyConsole._console = Console()
        return getattr(_LazyConsole._console, name)


out = _LazyConsole()


def terminal_width():
    return shutil.get_terminal_size((80, 24)).columns


# -- the compile notice ------------------------------------------------------------------------


def _rows_are_sparse(data):
    """Whether ``--data`` gives sparse rows, known before reading it: True for svmlight
    files and registry datasets read as svmlight, False for the synthetic stream, None when
    only the loaded data can tell."""
    if data == "synthetic" or data.startswith("synthetic:"):
        return False
    from ..data.registry import datasets, get_spec

    name = data.partition(":")[0]
    if name in datasets():
        return True if get_spec(name).loader == "svmlight" else None
    return True if Path(data).is_file() else None


def announce_compile(names, X=None, sparse=None):
    """Say at once which compiled families this command will build (first use only), from
    the data's layout (``sparse``, or that of ``X``)."""
    from .._compiled import families

    if sparse is None:
        sparse = issparse(X)
    families.announce([info(n).family for n in names], sparse=sparse)


def announce_early(names, data):
    """The compile notice before anything slow is imported or read, when the data's layout
    is known from its name (announcing again once the data is read adds nothing: a family
    is announced once per process)."""
    sparse = _rows_are_sparse(data)
    if sparse is not None:
        announce_compile(names, sparse=sparse)


# -- output paths, checked before any work -----------------------------------------------------


def writable_folder(path, option):
    """Fail before any work when ``path`` cannot be the output folder (then create it)."""
    from .._util.atomic import check_out_dir

    try:
        check_out_dir(path, option)
        Path(path).mkdir(parents=True, exist_ok=True)
    except (ValueError, OSError) as exc:
        fail(exc if isinstance(exc, ValueError) else
             f"{option} {path} is not a writable folder ({exc.strerror or exc})")


def model_target(path):
    """Fail before any work when ``--save-model``'s folder does not exist."""
    if path is not None and not Path(path).parent.is_dir():
        fail(f"--save-model {path}: folder {Path(path).parent} does not exist")


# -- the end of the process --------------------------------------------------------------------


def exit_now(code):
    """End the process with ``code`` (a ``SystemExit`` code: None, an int or a message) as
    Python's own exit would, minus the teardown of objects: when no other thread runs,
    ``atexit`` handlers run (joblib's, logging's, temporary folders'), standard streams are
    flushed (status 120 when that fails, as Python reports it; 1 and nothing said when
    standard output's reader has gone)."""
    import atexit
    import threading

    if code is None:
        code = 0
    elif not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    main_thread = threading.main_thread()
    if any(t is not main_thread and not t.daemon for t in threading.enumerate()):
        # Other threads still run (e.g. joblib's executor after `olc warmup --n-jobs`): the
        # interpreter's own shutdown tells them to stop before joining them; joining them
        # here would wait forever.
        sys.exit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except BrokenPipeError:
            code = code or (output_reader_gone() if stream is sys.stdout else 120)
        except (OSError, ValueError):
            code = code or 120
    os._exit(code)
