"""One-line CLI errors: every foreseeable error prints ``error: …`` naming
what and where, exits with status 2 and shows no traceback; ``--debug`` / ``OLC_DEBUG=1``
show it. Damaged data files name the file and the last good line; a data file damaged after
it was verified says which file to replace."""
import json
import lzma
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from olc.cli import app
from olc.data import _verified

SHARED = Path(os.environ.get("OLC_DATA", Path(__file__).parents[3] / "shared" / "datasets"))
SMALL = "synthetic:n=200,d=4"


def fails(*args, env=None):
    res = CliRunner().invoke(app, [str(a) for a in args], env=env)
    assert res.exit_code == 2, (res.exit_code, res.output, res.exception)
    text = res.stderr if hasattr(res, "stderr") else res.output
    assert "Traceback" not in res.output
    lines = [line for line in text.splitlines() if line.startswith("error: ")]
    assert len(lines) == 1, text
    return lines[0]


@pytest.mark.parametrize("args, option", [
    (["run", "perceptron", "--seed", "-1"], "--seed"),
    (["compare", "pa", "--seed", "-1"], "--seed"),
    (["compare", "pa", "--n-jobs", "0"], "--n-jobs"),
    (["compare", "pa", "--n-jobs", "-2"], "--n-jobs"),
    (["run", "perceptron", "--passes", "0"], "--passes"),
    (["run", "perceptron", "--chunk-rows", "0"], "--chunk-rows"),
])
def test_a_bad_option_value_is_named_by_its_option(args, option):
    res = CliRunner().invoke(app, args + ["--data", SMALL])
    assert res.exit_code == 2, (res.exit_code, res.output)
    assert f"'{option}'" in res.output and "Traceback" not in res.output, res.output


def test_out_that_is_a_file(tmp_path):
    target = tmp_path / "taken"
    target.write_text("x")
    assert fails("compare", "pa", "--data", SMALL, "--out", target) == \
        f"error: --out {target} is a file, not a folder"
    assert "is a file" in fails("reproduce", "omm-example-5-1", "--out", target)


def test_out_that_cannot_be_written():
    line = fails("compare", "pa", "--data", SMALL, "--out", "/proc/olc-test-out")
    assert line.startswith("error: --out /proc/olc-test-out is not a writable folder")


def test_save_model_into_a_missing_folder(tmp_path):
    target = tmp_path / "missing" / "model.npz"
    assert fails("run", "pa", "--data", SMALL, "--save-model", target) == \
        f"error: --save-model {target}: folder {target.parent} does not exist"


def test_unknown_split():
    assert "has no split 'nosuch'; splits: train, test" in \
        fails("run", "pa", "--data", "a9a:nosuch")


@pytest.mark.parametrize("option", ["n=0", "d=0", "margin=-1"])
def test_degenerate_synthetic_stream(option):
    assert f"error: synthetic: {option.split('=')[0]} must be" in \
        fails("compare", "--data", f"synthetic:{option}")


def _svmlight(path, rows=20000, seed=0):
    rng = np.random.default_rng(seed)
    with open(path, "w") as fh:
        for _ in range(rows):
            cols = np.sort(rng.choice(np.arange(1, 40), 5, replace=False))
            fh.write(("+1" if rng.random() < 0.5 else "-1") + " " +
                     " ".join(f"{j}:{rng.normal():.6f}" for j in cols) + "\n")


@pytest.mark.parametrize("tool, damage", [("xz", "truncate"), ("gzip", "truncate"),
                                          ("bzip2", "truncate"), ("xz", "flip")])
def test_damaged_compressed_data_file(tool, damage, tmp_path):
    import bz2
    import gzip

    plain = tmp_path / "d.svm"
    _svmlight(plain)
    module, suffix = {"xz": (lzma, ".xz"), "gzip": (gzip, ".gz"),
                      "bzip2": (bz2, ".bz2")}[tool]
    data = bytearray(module.compress(plain.read_bytes()))
    if damage == "truncate":
        data = data[:len(data) * 2 // 3]
    else:
        data[len(data) // 2] ^= 0xFF
    target = tmp_path / f"d.svm{suffix}"
    target.write_bytes(bytes(data))
    line = fails("run", "perceptron", "--data", target)
    assert line.startswith(f"error: {target}: the {suffix[1:]} data is truncated or corrupt ")
    assert "replace the file" in line
    if tool != "bzip2":  # bzip2's 900 kB blocks: this file is a single block
        n = int(line.split("after line ")[1].split()[0])
        assert 1000 < n < 20000  # the rows before the damage were read


def _untimed(output):
    """``olc run --json``'s summary without its timings (they differ from run to run)."""
    summary = json.loads(output)
    return {k: v for k, v in summary.items() if k not in ("seconds", "compile_seconds")}


@pytest.mark.skipif(not (SHARED / "a9a" / "a9a.t.xz").exists(), reason="a9a not available")
def test_data_file_damaged_after_verification(tmp_path, monkeypatch):
    home = tmp_path / "data"
    (home / "a9a").mkdir(parents=True)
    target = home / "a9a" / "a9a.t.xz"
    shutil.copyfile(SHARED / "a9a" / "a9a.t.xz", target)
    monkeypatch.setenv("OLC_DATA", str(home))
    monkeypatch.setenv("OLC_CACHE", str(tmp_path / "cache"))
    _verified._memo.clear()
    ok = CliRunner().invoke(app, ["run", "perceptron", "--data", "a9a:test", "--json"])
    assert ok.exit_code == 0, ok.output
    stamp = os.stat(target)
    with open(target, "r+b") as fh:  # damaged in place: same size, inode, time stamp
        fh.seek(stamp.st_size // 2)
        byte = fh.read(1)
        fh.seek(stamp.st_size // 2)
        fh.write(bytes([byte[0] ^ 0xFF]))
    os.utime(target, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    # The rows parsed from the verified content are cached (olc.data.parsed_cache): the
    # command does not read the file again and gives the verified content's result.
    again = CliRunner().invoke(app, ["run", "perceptron", "--data", "a9a:test", "--json"])
    assert again.exit_code == 0, again.output
    # stdout only: a compile notice (stderr) shows when this worker's cache was cold
    assert _untimed(again.stdout) == _untimed(ok.stdout)
    # Without that cache entry the file is read, fails, is hashed again and named.
    for entry in (tmp_path / "cache" / "derived").glob("parsed-a9a-test-*.npz"):
        entry.unlink()
    line = fails("run", "perceptron", "--data", "a9a:test")
    assert line.startswith(f"error: checksum no longer matches: replace {target}")
    _verified._memo.clear()


def test_debug_shows_the_traceback(tmp_path):
    target = tmp_path / "taken"
    target.write_text("x")
    res = CliRunner().invoke(app, ["--debug", "run", "pa", "--data", str(target)])
    assert res.exit_code != 0 and res.exception is not None
    assert not isinstance(res.exception, SystemExit)
    res = CliRunner().invoke(app, ["run", "pa", "--data", str(target)],
                             env={"OLC_DEBUG": "1"})
    assert res.exception is not None and not isinstance(res.exception, SystemExit)
    assert "error:" in fails("run", "pa", "--data", target)


def _with_closed_stdout(code):
    """Run ``code`` in a fresh interpreter whose standard output is a pipe nobody reads (its
    read end closed before the start: every write fails, as after ``| head`` has exited)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(Path(__file__).parents[2] / "src"), os.environ.get("PYTHONPATH", "")]))
    env.pop("PYTHONUNBUFFERED", None)  # output stays buffered until the exit
    try:
        return subprocess.run([sys.executable, "-c", code], stdout=write_end,
                              stderr=subprocess.PIPE, text=True, env=env, timeout=120)
    finally:
        os.close(write_end)


@pytest.mark.parametrize("args", [["algorithms"], ["compare", "--help"], ["--help"]])
def test_output_reader_that_closes_early(args):
    """`olc … | head`: the command ends quietly with status 1 (Python's recipe for SIGPIPE),
    not with `error: [Errno 32] Broken pipe`."""
    done = _with_closed_stdout(f"import sys\nsys.argv = ['olc', *{args!r}]\n"
                               "from olc.cli.app import run\nrun()")
    assert (done.returncode, done.stderr) == (1, "")


def test_exit_with_output_still_buffered_for_a_reader_that_has_gone():
    done = _with_closed_stdout("print('buffered output', end='')\n"
                               "from olc.cli.support import exit_now\nexit_now(0)")
    assert (done.returncode, done.stderr) == (1, "")


def test_ctrl_c_while_the_command_line_loads():
    """Ctrl-C before the command line has finished importing (the first ~0.1 s of `olc …`)
    ends with status 130 and nothing printed, as Ctrl-C during a command does — not with the
    traceback of whatever import it interrupted. The interrupt is raised by an import hook
    on `olc.cli`, deterministically, in a fresh interpreter."""
    code = ("import sys\n"
            "class Interrupt:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'olc.cli':\n"
            "            raise KeyboardInterrupt\n"
            "sys.meta_path.insert(0, Interrupt())\n"
            "sys.argv = ['olc', 'algorithms']\n"
            "from olc.__main__ import main\n"
            "main()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert (done.returncode, done.stderr, done.stdout) == (130, "", "")


def test_python_dash_m_olc_runs_the_command_line():
    done = subprocess.run([sys.executable, "-m", "olc", "--version"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip(), done.stderr
