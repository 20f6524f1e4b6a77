"""``olc experiment SPEC.toml``: the shipped example, errors naming key and line, and the
safety of the run store: SIGKILL mid-run then rerun, two concurrent invocations, Ctrl-C."""
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from olc.cli import app
from olc.experiments.engine.toml_spec import SpecError, load_spec

ROOT = Path(__file__).parents[2]
EXAMPLE = ROOT / "examples" / "usps-3-vs-8.toml"
DATA = Path(os.environ.get("OLC_DATA", ROOT.parent / "shared" / "datasets"))

SPEC = """\
[experiment]
name = "t"
trials = {trials}
metrics = ["mistakes", "error_rate", "cumulative_error"]

[protocol]
kind = "tune-then-test"
fraction = 0.5

[[streams]]
name = "syn"
data = "synthetic"
params = {{ n = {n}, d = 5, offset = 0.0 }}
transforms = [{{ kind = "permute" }}]

[[learners]]
name = "{learner}"
{extra}
[[learners]]
name = "pa-i"
tune = {{ C = [0.01, 1.0] }}
"""


def write_spec(tmp_path, trials=3, n=400, learner="perceptron", extra=""):
    path = tmp_path / "spec.toml"
    path.write_text(SPEC.format(trials=trials, n=n, learner=learner, extra=extra))
    return path


def invoke(*args):
    return CliRunner().invoke(app, list(map(str, args)))


@pytest.mark.skipif(not (DATA / "usps").is_dir(), reason="usps not in OLC_DATA")
def test_the_shipped_example_runs(tmp_path):
    start = time.perf_counter()
    res = invoke("experiment", EXAMPLE, "--out", tmp_path)
    assert res.exit_code == 0, res.output
    assert time.perf_counter() - start < 60
    table = (tmp_path / "table.md").read_text()
    for label in ("Perceptron", "PA", "PA-I", "PA-II"):
        assert f"| usps-3v8 | {label} | 5 |" in table


def test_cli_runs_a_spec_and_reuses_it(tmp_path):
    spec = write_spec(tmp_path)
    res = invoke("experiment", spec, "--out", tmp_path / "o")
    assert res.exit_code == 0, res.output
    assert "6 computed" in res.output
    res = invoke("experiment", spec, "--out", tmp_path / "o")
    assert "6 reused" in res.output


@pytest.mark.parametrize("edit, line, message", [
    (("trials = 3", "trails = 3"), 3, "experiment.trails: unknown key 'trails'"),
    (('kind = "tune-then-test"', 'kind = "tune-then-tests"'), 7, "protocol.kind: unknown protocol"),
    (("fraction = 0.5", "fraction = 1.5"), 8, "fraction must be a number in (0, 1)"),
    (('name = "perceptron"', 'name = "perceptronn"'), 17, "learners[0].name: unknown algorithm"),
    (("C = [0.01, 1.0]", "C = [0.01, -1.0]"), 21, "learners[1].tune: learner 'pa-i'"),
    (('kind = "permute"', 'kind = "drfit"'), 14, "streams[0].transforms[0].kind: unknown stream transform"),
    (('data = "synthetic"', 'data = "no-such-set"'), 12, "streams[0].data: unknown data"),
    (("d = 5", "dims = 5"), 13, "streams[0].params: synthetic: unknown option"),
    (("trials = 3", 'trials = 3\ncurves = ["pa-ii"]'), 4,
     "experiment.curves: curves: unknown learner label(s) ['pa-ii']"),
    (("trials = 3", 'trials = 3\ncurves = "some"'), 4, "experiment.curves: must be \"all\""),
])
def test_spec_errors_name_key_and_line(tmp_path, edit, line, message):
    path = write_spec(tmp_path)
    text = path.read_text()
    assert edit[0] in text
    path.write_text(text.replace(edit[0], edit[1], 1))
    with pytest.raises(SpecError) as info:
        load_spec(path)
    assert str(info.value).startswith(f"{path}:{line}: "), str(info.value)
    assert message in str(info.value)
    res = invoke("experiment", path, "--out", tmp_path / "never")
    assert res.exit_code == 2 and f"{path}:{line}" in res.output
    assert not (tmp_path / "never").exists()


def test_curves_key(tmp_path):
    path = write_spec(tmp_path)
    path.write_text(path.read_text().replace("trials = 3", 'trials = 3\ncurves = ["pa-i"]'))
    assert load_spec(path).curves == ("pa-i",)
    path.write_text(path.read_text().replace('curves = ["pa-i"]', 'curves = "all"'))
    assert load_spec(path).curves == "all"


def test_array_of_tables_lines(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(textwrap.dedent("""\
        [experiment]
        name = "x"

        [[streams]]
        name = "a"
        data = "synthetic"

        [[streams.transforms]]
        kind = "permute"

        [[streams.transforms]]
        kind = "head"
        n = 0

        [[learners]]
        name = "perceptron"
        """))
    with pytest.raises(SpecError, match=r"t.toml:13: streams\[0\]\.transforms\[1\]\.n: head"):
        load_spec(path)
    path.write_text(path.read_text().replace("n = 0", "n = 5").replace(
        'name = "perceptron"', 'name = "perceptron"\nparams = { eta = 0.5, bogus = 1 }'))
    with pytest.raises(SpecError, match=r"t.toml:17: learners\[0\]\.params: .*bogus"):
        load_spec(path)
    spec = load_spec(_fixed(path))
    assert [t.key()["kind"] for t in spec.streams[0].transforms] == ["permute", "head"]


def _fixed(path):
    path.write_text(path.read_text().replace(", bogus = 1", ""))
    return path


def test_malformed_toml_and_bad_out(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("[experiment\nname = 1\n")
    res = invoke("experiment", path, "--out", tmp_path / "o")
    assert res.exit_code == 2 and "malformed TOML" in res.output and "line 1" in res.output
    spec = write_spec(tmp_path)
    afile = tmp_path / "afile"
    afile.write_text("")
    res = invoke("experiment", spec, "--out", afile)
    assert res.exit_code == 2 and "is a file" in res.output
    if os.geteuid() != 0:   # root writes anywhere
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        res = invoke("experiment", spec, "--out", ro / "out")
        assert res.exit_code == 2 and "read-only" in res.output


# ----------------------------------------------------------------------------- kill, resume

SLOW = '''
import time
import olc
from olc.experiments.engine import LearnerModel


class Slow(LearnerModel):
    def learn(self, X, y):
        time.sleep(0.15)
        return super().learn(X, y)


def slow(params, seed):
    return Slow("perceptron", params)
'''


def _env(tmp_path):
    (tmp_path / "slowmod.py").write_text(SLOW)
    env = dict(os.environ, OLC_COMPILE_NOTICE="0")
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(ROOT / "src"),
                                         env.get("PYTHONPATH", "")])
    return env


def _command(spec, out):
    return [sys.executable, "-m", "olc", "experiment", str(spec), "--out", str(out)]


def _slow_spec(tmp_path, trials=12):
    return write_spec(tmp_path, trials=trials, learner="slow-perceptron",
                      extra='method = "slowmod:slow"\n')


def test_sigkill_mid_run_then_rerun_reuses_finished_runs(tmp_path):
    env = _env(tmp_path)
    spec = _slow_spec(tmp_path)
    clean = subprocess.run(_command(spec, tmp_path / "clean"), env=env, capture_output=True,
                           text=True)
    assert clean.returncode == 0, clean.stderr
    out = tmp_path / "killed"
    proc = subprocess.Popen(_command(spec, out), env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.time() + 60
    while time.time() < deadline and len(list(out.rglob("*.json"))) < 4:
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    stored = len([p for p in (out / "runs").rglob("*.json")])
    assert 4 <= stored < 24
    again = subprocess.run(_command(spec, out), env=env, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert f"({stored} reused from the store, {24 - stored} computed)" in again.stdout
    for name in ("table.md", "table.csv"):
        assert (out / name).read_bytes() == (tmp_path / "clean" / name).read_bytes()


def test_two_concurrent_invocations_into_one_folder(tmp_path):
    env = _env(tmp_path)
    spec = _slow_spec(tmp_path, trials=4)
    out = tmp_path / "shared"
    procs = [subprocess.Popen(_command(spec, out), env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [p.communicate() for p in procs]
    assert all(p.returncode == 0 for p in procs), results
    single = subprocess.run(_command(spec, tmp_path / "single"), env=env, capture_output=True,
                            text=True)
    assert single.returncode == 0
    for name in ("table.md", "table.csv"):
        assert (out / name).read_bytes() == (tmp_path / "single" / name).read_bytes()
    assert len(list((out / "runs").rglob("*.json"))) == 8


def test_ctrl_c_ends_with_one_line(tmp_path):
    # 60 runs of 0.15 s: the run is still going when Ctrl-C comes, however loaded the machine
    # (with 20, one CI run once saw it end first: a shorter window than a stalled poll).
    env = _env(tmp_path)
    spec = _slow_spec(tmp_path, trials=60)
    out = tmp_path / "int"
    # The child gets the default SIGINT handler (Ctrl-C ends it with KeyboardInterrupt), not
    # the disposition of whatever started the test suite: a suite started as a background job
    # of a non-interactive shell ignores SIGINT, and a child would inherit that.
    proc = subprocess.Popen(_command(spec, out), env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 60
    while time.time() < deadline and len(list(out.rglob("*.json"))) < 2:
        time.sleep(0.02)
    stored_before = len(list(out.rglob("*.json")))
    proc.send_signal(signal.SIGINT)
    out_text, err = proc.communicate(timeout=60)
    context = f"status {proc.returncode}, {stored_before} runs stored before Ctrl-C; " \
              f"stdout {out_text!r}; stderr {err!r}"
    assert proc.returncode == 130, context
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("interrupted:"), context
    assert "resume" in lines[0], context


DRIFT_SPEC = """\
[experiment]
name = "drift"
trials = 2
metrics = ["mistakes", "steps"]

[[streams]]
name = "four"
data = "{path}"
transforms = [
  {{ kind = "drift", rows_per_phase = 20, classes = {classes} }},
  {{ kind = "document-frequency-cut", min_df = 1 }},
]

[[learners]]
name = "perceptron"
"""


def test_drift_and_vocabulary_cut_from_toml(tmp_path):
    """The drift process and the document-frequency cut as TOML transforms, on a small
    4-class svmlight file: each phase of the trial's stream holds only the classes the
    schedule gives it (Shen & Dietterich 2009, §4), labelled ±1 by role."""
    from olc.experiments.engine import stream_seed
    from olc.experiments.engine.experiment import run_experiment
    from olc.experiments.engine.transforms import apply_transforms

    rng = np.random.default_rng(0)
    data = tmp_path / "four.svm"
    lines = [f"{c} 1:{rng.normal():.4f} 2:{rng.normal():.4f} {2 + c}:1" for c in (1, 2, 3, 4)
             for _ in range(60)]
    data.write_text("\n".join(lines) + "\n")
    path = tmp_path / "spec.toml"
    path.write_text(DRIFT_SPEC.format(path=data, classes="{ P1 = 1, P2 = 2, N1 = 3, N2 = 4 }"))
    spec = load_spec(path)
    rep = run_experiment(spec, tmp_path / "out", progress=False)
    assert [r["steps"] for r in rep["records"]] == [80, 80]
    s = spec.streams[0]
    loaded = s.source.load()
    stream = apply_transforms(loaded, s.transforms, np.random.default_rng(stream_seed(0, 0)))
    labels = np.asarray(stream.labels).astype(int)
    assert set(labels[:20]) <= {1, 3} and set(labels[60:]) <= {2, 4}     # phases 1 and 4
    assert np.array_equal(stream.y, np.where(np.isin(labels, (1, 2)), 1.0, -1.0))
    assert stream.info["n_features"] == 6      # min_df = 1: every column the rows use
    # a role left out: refused with the line of the drift transform's key
    path.write_text(DRIFT_SPEC.format(path=data, classes="{ P1 = 1, P2 = 2, N1 = 3 }"))
    with pytest.raises(SpecError, match=r"spec.toml:\d+: streams\[0\]\.transforms\[0\]\.classes: "
                                        r"classes must name exactly the roles"):
        load_spec(path)
