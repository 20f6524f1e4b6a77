"""docs/adding-a-reproduction.md: its worked example, taken from the page's code blocks,
built as a package and run, so the page cannot fall behind the engine."""
import json
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import olc.experiments

PAGE = Path(__file__).parents[2] / "docs" / "adding-a-reproduction.md"
PACKAGE = "translated_stream"


def page_files():
    """{file name: code} of the page's Python blocks that open with ``# translated_stream/``."""
    files = {}
    for block in re.findall(r"```python\n(.*?)```", PAGE.read_text(), re.S):
        first, _, code = block.partition("\n")
        if first.startswith(f"# {PACKAGE}/"):
            files[first[len(f"# {PACKAGE}/"):].strip()] = code
    return files


@pytest.fixture
def example(tmp_path, monkeypatch):
    """The page's package, importable as ``olc.experiments.translated_stream``."""
    folder = tmp_path / "pkg" / PACKAGE
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    for name, code in page_files().items():
        (folder / name).write_text(code)
    monkeypatch.setattr(olc.experiments, "__path__", [*olc.experiments.__path__,
                                                       str(tmp_path / "pkg")])
    import importlib
    import sys

    yield importlib.import_module(f"olc.experiments.{PACKAGE}.command")
    for name in [m for m in sys.modules if m.startswith(f"olc.experiments.{PACKAGE}")]:
        del sys.modules[name]


def test_the_page_declares_the_two_files_it_names():
    assert sorted(page_files()) == ["command.py", "reproduction.py"]
    assert f'"translated-stream": "olc.experiments.{PACKAGE}.command:command"' in \
        PAGE.read_text()


def test_the_worked_example_runs_as_a_command(example, tmp_path):
    app = typer.Typer()
    app.command("translated-stream")(example.command)
    app.command("other")(lambda: None)      # two commands: typer keeps the name
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["translated-stream", "--out", str(out), "--trials", "3",
                                   "--rows", "200"])
    assert res.exit_code == 0, res.output
    assert "runs: 6 (0 reused from the store, 6 computed)" in res.output
    table = (out / "table.md").read_text()
    assert "| translated | Perceptron | 3 |" in table and "| translated | e-OMM | 3 |" in table
    summary = (out / "summary.md").read_text()
    assert "200 rows in 5 dimensions, translated by 5 × the data radius" in summary
    line = next(l for l in summary.splitlines() if l.startswith("| 1 | e-OMM makes fewer"))
    assert "| Ho-Nguyen et al. 2025, §6 |" in line and "e-OMM " in line
    saved = json.loads((out / "results.json").read_text())
    assert [l["label"] for l in saved["experiment"]["learners"]] == ["Perceptron", "e-OMM"]
    assert len(saved["records"]) == 6
    assert (out / "cumulative_error.png").is_file()
    again = CliRunner().invoke(app, ["translated-stream", "--out", str(out), "--trials", "3",
                                     "--rows", "200"])
    assert "runs: 6 (6 reused from the store, 0 computed)" in again.output
    assert (out / "table.md").read_text() == table


def test_the_worked_example_refuses_bad_options(example, tmp_path):
    app = typer.Typer()
    app.command("translated-stream")(example.command)
    app.command("other")(lambda: None)
    res = CliRunner().invoke(app, ["translated-stream", "--out", str(tmp_path / "o"),
                                   "--rows", "5"])
    assert res.exit_code == 2 and "--rows" in res.output
    assert not (tmp_path / "o").exists()
    from olc.experiments.translated_stream.reproduction import settings

    with pytest.raises(ValueError, match="--trials must be an integer ≥ 2"):
        settings(trials=1)
