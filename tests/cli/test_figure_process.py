"""Start-up helpers of the command line: the figure drawn by a helper process is the figure
drawn in process (same bytes); its errors are raised in the command; a missing or dead helper
costs nothing but the parallelism. ``olc.cli.support.exit_now`` ends a command as Python's
exit would (atexit handlers, flushed output, the exit status)."""
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from olc.cli import app
from olc.report import figures
from olc.report.figure_process import FigureProcess

SRC = str(Path(__file__).resolve().parents[2] / "src")


def _curves():
    rng = np.random.default_rng(3)
    return {name: np.cumsum(rng.random(n) < p) / np.arange(1, n + 1)
            for name, n, p in (("perceptron", 5000, 0.2), ("pa", 5000, 0.1),
                               ("e-omm", 5000, 0.01))}


def test_the_helper_draws_the_same_bytes(tmp_path):
    here = figures.plot_cumulative_error(_curves(), tmp_path / "here.png")
    with FigureProcess() as helper:
        assert helper._proc is not None
        there = helper.plot_cumulative_error(_curves(), tmp_path / "there.png",
                                             title="Online protocol: cumulative error rate")
    assert there == tmp_path / "there.png"
    assert there.read_bytes() == here.read_bytes()


def test_the_helper_draws_the_same_bytes_with_other_arguments(tmp_path):
    here = figures.plot_cumulative_error(_curves(), tmp_path / "here.png", ylabel="Σ",
                                         max_points=100)
    with FigureProcess() as helper:
        there = helper.plot_cumulative_error(_curves(), tmp_path / "there.png", ylabel="Σ",
                                             max_points=100)
    assert there.read_bytes() == here.read_bytes()


def test_an_error_of_the_figure_is_raised_in_the_command(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(OSError) as in_process:
        figures.plot_cumulative_error(_curves(), blocker / "f.png")
    with FigureProcess() as helper:
        with pytest.raises(type(in_process.value)):
            helper.plot_cumulative_error(_curves(), blocker / "f.png")


def test_without_a_helper_the_figure_is_drawn_in_process(tmp_path):
    here = figures.plot_cumulative_error(_curves(), tmp_path / "here.png")
    with FigureProcess(enabled=False) as helper:
        assert helper._proc is None
        there = helper.plot_cumulative_error(_curves(), tmp_path / "there.png")
    assert there.read_bytes() == here.read_bytes()


def test_a_dead_helper_leaves_the_figure_to_the_command(tmp_path):
    here = figures.plot_cumulative_error(_curves(), tmp_path / "here.png")
    with FigureProcess() as helper:
        helper._proc.kill()
        helper._proc.wait()
        there = helper.plot_cumulative_error(_curves(), tmp_path / "there.png")
    assert there.read_bytes() == here.read_bytes()


def test_compare_draws_its_figure_through_the_helper_as_in_process(tmp_path, monkeypatch):
    runner = CliRunner()
    outputs = {}
    for mode in ("1", "0"):
        monkeypatch.setenv("OLC_FIGURE_PROCESS", mode)
        out = tmp_path / f"out-{mode}"
        result = runner.invoke(app, ["compare", "perceptron", "pa", "--data",
                                     "synthetic:n=500", "--out", str(out)])
        assert result.exit_code == 0, result.output
        outputs[mode] = (out / "cumulative_error.png").read_bytes()
    assert outputs["1"] == outputs["0"]


def _run(code):
    return subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {SRC!r})\n"
                           + code], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("code, status, message", [(None, 0, ""), (0, 0, ""), (3, 3, ""),
                                                   ("bad input", 1, "bad input")])
def test_exit_now_ends_as_python_exit_would(code, status, message):
    done = _run("import atexit\n"
                "atexit.register(lambda: print('atexit ran', flush=True))\n"
                "print('buffered output', end='')\n"
                f"from olc.cli.support import exit_now\nexit_now({code!r})\n"
                "print('never')")
    assert done.returncode == status
    assert done.stdout == "buffered outputatexit ran\n"
    assert done.stderr.strip() == message


def test_exit_now_waits_for_threads_that_are_not_daemons():
    done = _run("import threading, time\n"
                "t = threading.Thread(target=lambda: (time.sleep(0.2), print('thread done')))\n"
                "t.start()\n"
                "from olc.cli.support import exit_now\nexit_now(0)")
    assert done.returncode == 0 and done.stdout == "thread done\n"
