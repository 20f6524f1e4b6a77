"""Figures drawn by a helper process started at the beginning of a command.

Importing matplotlib (~0.8 s) and drawing the figure (~0.4 s) made up half of a warm
``olc compare`` (2.5 s). The import does not depend on the results, so ``olc compare`` starts
:class:`FigureProcess` before its own work: the helper imports matplotlib on the other core
while the command imports numba and runs the learners, then draws the figure when the
curves arrive. The figure is the same file, byte for byte, as one drawn in the command's own
process (tested): the helper calls the same function of :mod:`olc.report.figures` with the
same arguments. (Drawing a throw-away figure ahead, to warm the font and mathtext caches,
saved < 0.1 s of the real figure's drawing for 0.3-0.4 s of CPU, which on a busy machine
delayed the figure instead: measured and left out.)

Protocol (pickle over the helper's standard input and output, between two processes of the
same olc): one job ``(function name, args, kwargs)``, one reply ``("ok", value)`` or
``("error", exception)``; the helper then exits. An error of the figure itself (e.g. the
folder became unwritable) is raised in the command as if drawn there. When the helper cannot
be started, dies or answers nonsense, the figure is drawn in the command's process instead:
the figure is never lost to the helper.
"""
import os
import pickle
import subprocess
import sys
from pathlib import Path

from . import figures

#: The functions of :mod:`olc.report.figures` a helper may be asked to run.
JOBS = ("plot_cumulative_error",)

_OLC_PARENT = str(Path(__file__).resolve().parents[2])  # the folder holding this olc package
_CHILD = ("import sys; sys.path.insert(0, sys.argv[1]); "
          "from olc.report.figure_process import _serve; _serve()")


class FigureProcess:
    """A helper process that draws one figure; use as a context manager (the helper is
    stopped on exit, e.g. after an error or Ctrl-C in the command).

    ``enabled=False`` (or a platform without a usable ``sys.executable``) draws in process."""

    def __init__(self, enabled=True):
        self._proc = None
        if enabled and sys.executable:
            try:
                self._proc = subprocess.Popen(
                    [sys.executable, "-c", _CHILD, _OLC_PARENT], stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE, stderr=None, close_fds=True)
            except OSError:
                self._proc = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def plot_cumulative_error(self, curves, path, **kwargs):
        """:func:`olc.report.figures.plot_cumulative_error`, drawn by the helper."""
        return self._run("plot_cumulative_error", (curves, path), kwargs)

    def _run(self, name, args, kwargs):
        reply = self._ask(name, args, kwargs)
        if reply is None:  # no helper, or it failed: draw here
            return getattr(figures, name)(*args, **kwargs)
        status, value = reply
        if status == "error":
            raise value
        return value

    def _ask(self, name, args, kwargs):
        proc, self._proc = self._proc, None  # one job per helper
        if proc is None:
            return None
        try:
            pickle.dump((name, args, kwargs), proc.stdin, protocol=pickle.HIGHEST_PROTOCOL)
            proc.stdin.close()
            reply = pickle.load(proc.stdout)
        except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError):
            reply = None
        finally:
            _stop(proc)
        ok = (isinstance(reply, tuple) and len(reply) == 2 and
              (reply[0] == "ok" or (reply[0] == "error" and isinstance(reply[1], Exception))))
        return reply if ok else None

    def close(self):
        proc, self._proc = self._proc, None
        if proc is not None:
            _stop(proc)


def _stop(proc):
    """Close the pipes and end the helper (at once if it is still working)."""
    for stream in (proc.stdin, proc.stdout):
        try:
            stream.close()
        except OSError:
            pass
    if proc.poll() is None:
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _serve():
    """The helper: import matplotlib, run one job, reply, exit (without the interpreter's
    teardown, as ``olc.cli.app.run``). Ctrl-C is the command's to handle: the helper ignores it
    and ends when its standard input closes."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    code = 0
    try:
        try:
            figures.preload()
        except Exception:  # noqa: BLE001 - the job itself will meet (and report) the problem
            pass
        name, args, kwargs = pickle.load(sys.stdin.buffer)
        if name not in JOBS:
            raise ValueError(f"figure_process: unknown job {name!r}")
        try:
            reply = ("ok", getattr(figures, name)(*args, **kwargs))
        except Exception as exc:  # noqa: BLE001 - raised again in the command
            reply = ("error", exc)
        try:
            payload = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - an exception that does not pickle: its message
            error = reply[1]
            payload = pickle.dumps(("error", RuntimeError(f"{type(error).__name__}: {error}")))
        sys.stdout.buffer.write(payload)
        sys.stdout.buffer.flush()
    except EOFError:  # the command ended without a figure (an error, Ctrl-C)
        pass
    except BrokenPipeError:
        code = 1
    sys.stderr.flush()
    os._exit(code)
