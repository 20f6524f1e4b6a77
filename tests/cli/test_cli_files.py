"""``olc run``/``olc compare`` on data files: Vowpal Wabbit text (by name or --format),
--bits, the parse cache (used by default, --no-parse-cache), --quiet, and one-line errors
naming the file and line."""
import json

import numpy as np
from typer.testing import CliRunner

from olc.cli import app
from olc.data import read_svmlight
from olc.data.vw import read_vw


def _vw_file(path, n=300, seed=0):
    rng = np.random.default_rng(seed)
    lines = []
    for _ in range(n):
        label = rng.choice([-1, 1])
        words = " ".join(f"w{k}" for k in rng.choice(40, 5, replace=False))
        lines.append(f"{label} |text {words} |num x:{rng.normal():.3f} 17")
    path.write_text("\n".join(lines) + "\n")
    return path


def _run(args, tmp_path):
    res = CliRunner().invoke(app, [str(a) for a in args],
                             env={"OLC_CACHE": str(tmp_path / "cache"), "OLC_COMPILE_NOTICE": "0"})
    assert res.exit_code == 0, (res.output, res.exception)
    return res


def test_run_on_a_vw_file(tmp_path):
    path = _vw_file(tmp_path / "d.vw")
    res = _run(["run", "perceptron", "--data", path, "--bits", 12, "--json", "--quiet"], tmp_path)
    summary = json.loads(res.stdout)
    assert summary["data"]["features"] == 4096 and summary["steps"] == 300
    X, y = read_vw(path, 12)
    from olc.evaluate.summary import run_one

    expected = run_one("perceptron", {}, X, y)[0]
    assert summary["mistakes"] == expected["mistakes"]
    assert summary["updates"] == expected["updates"]
    # the same rows under another name, read as VW with --format
    other = tmp_path / "d.txt"
    other.write_bytes(path.read_bytes())
    res = _run(["run", "perceptron", "--data", other, "--format", "vw", "--bits", 12, "--json"],
               tmp_path)
    assert json.loads(res.stdout)["mistakes"] == summary["mistakes"]


def test_the_parse_cache_is_used_unless_switched_off(tmp_path):
    path = tmp_path / "d.svm"
    path.write_text("1 1:0.5 3:1\n-1 2:2\n1 1:1 2:-1 3:0.25\n" * 50)
    entries = lambda: sorted((tmp_path / "cache" / "derived" / "parsed-files").glob("*.olcp"))  # noqa: E731
    _run(["run", "perceptron", "--data", path, "--json", "--no-parse-cache"], tmp_path)
    assert entries() == []
    first = json.loads(_run(["run", "perceptron", "--data", path, "--json"], tmp_path).stdout)
    assert len(entries()) == 1
    second = json.loads(_run(["run", "perceptron", "--data", path, "--json"], tmp_path).stdout)
    assert first["mistakes"] == second["mistakes"] and first["data"] == second["data"]
    X, _ = read_svmlight(path)
    assert second["data"]["features"] == X.shape[1]


def test_compare_reads_vw_files(tmp_path):
    path = _vw_file(tmp_path / "d.vw")
    res = _run(["compare", "perceptron", "pa", "--data", path, "--bits", 10, "--out",
                tmp_path / "out", "--quiet", "--no-tau"], tmp_path)
    report = json.loads((tmp_path / "out" / "results.json").read_text())
    assert report["source"]["features"] == 1024 and report["source"]["rows"] == 300
    assert "perceptron" in res.stdout


def _fails(args, tmp_path):
    res = CliRunner().invoke(app, [str(a) for a in args], env={"OLC_CACHE": str(tmp_path / "c")})
    assert res.exit_code == 2, (res.exit_code, res.output)
    lines = [line for line in res.output.splitlines() if line.startswith("error: ")]
    assert len(lines) == 1 and "Traceback" not in res.output, res.output
    return lines[0]


def test_errors_are_one_line_naming_file_and_line(tmp_path):
    path = _vw_file(tmp_path / "d.vw")
    lines = path.read_text().splitlines()
    lines[41] = "1 |text a:1e"
    path.write_text("\n".join(lines) + "\n")
    line = _fails(["run", "perceptron", "--data", path], tmp_path)
    assert str(path) in line and "line 42" in line and "not a number" in line
    for chunk_rows in ("7", "1000"):  # the bad line in a later chunk, or in the first
        line = _fails(["run", "perceptron", "--data", path, "--stream", "--chunk-rows",
                       chunk_rows], tmp_path)
        assert str(path) in line and "line 42" in line and "not a number" in line
    for option, value in (("--format", "csv"), ("--bits", 40)):  # typer's usage errors
        res = CliRunner().invoke(app, ["run", "perceptron", "--data", str(path), option,
                                       str(value)])
        assert res.exit_code == 2 and f"'{option}'" in res.output, res.output
