"""``olc algorithms``: the catalogue as a user reads it in an 80-column terminal, a learner's
card, and the machine-readable form."""
import json
import re
from numbers import Integral, Real

import pytest
from olc.learners._framework.constraints import Interval, StrOptions
from typer.testing import CliRunner

import olc
from olc.cli import app
from olc.learners.registry.cards import card_data, describe_constraint, describe_constraints
from olc.references import REFERENCES

runner = CliRunner()
ENTRIES = olc.algorithms()


def invoke(*args, columns=80):
    return runner.invoke(app, list(args), env={"COLUMNS": str(columns)})


def test_one_readable_line_per_learner():
    res = invoke("algorithms")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    rows = lines[:len(ENTRIES)]
    for entry, line in zip(ENTRIES, rows):
        assert len(line) <= 80, line
        assert line.split()[:2] == [entry.name, entry.kind]
        assert line.endswith(entry.citation)
    # the columns line up, and a hint to the card follows
    assert len({line.index(" classifier") if " classifier" in line else line.index(" regressor")
                for line in rows}) == 1
    assert "olc algorithms NAME" in res.stdout
    assert not re.search(r"seed\s*0", res.stdout, re.IGNORECASE)


@pytest.mark.parametrize("name", [e.name for e in ENTRIES])
def test_every_card(name):
    entry = olc.learners.info(name)
    res = invoke("algorithms", name)
    assert res.exit_code == 0, res.output
    text = res.stdout
    lines = text.splitlines()
    assert lines[0].startswith(f"{name} — ")
    for line in lines:  # wrapped to the terminal, except words longer than a line
        assert len(line) <= 80 or " " not in line.strip(), line
    flat = " ".join(text.split())
    assert f"olc.{entry.class_name} ({entry.kind})" in flat
    assert entry.citation in flat
    for param, default in entry.parameters.items():
        assert re.search(rf"\b{re.escape(param)} = {re.escape(repr(default))}", flat), param
    for key in entry.references:
        assert f"[{key}]" in flat
        assert " ".join(REFERENCES[key].text.split()) in flat
    for key, value in entry.preset:
        assert f"{key} = {value!r}" in flat


def test_card_shows_description_defaults_and_constraints():
    res = invoke("algorithms", "perceptron")
    flat = " ".join(res.stdout.split())
    assert "Rosenblatt's perceptron." in flat  # the docstring's first paragraph
    assert "eta = 1.0 float > 0" in flat
    assert "fit_intercept = True bool" in flat
    assert "update = 'margin' one of 'margin', 'mistake'" in flat
    assert "[rosenblatt-1958] Frank Rosenblatt. The perceptron" in flat


def test_card_of_a_preset_names_the_fixed_parameter():
    data = card_data("ce-omm")
    assert data["fixed"] == {"rho": 0.0} and data["class"] == "olc.EfficientOMM"
    assert "rho" not in [p["name"] for p in data["parameters"]]
    assert "Fixed by this preset: rho = 0.0" in invoke("algorithms", "ce-omm").stdout


def test_unknown_name_is_a_one_line_error_naming_the_known_ones():
    res = invoke("algorithms", "no-such-learner")
    assert res.exit_code == 2
    assert len(res.output.strip().splitlines()) == 1
    assert "unknown algorithm 'no-such-learner'" in res.output
    for entry in ENTRIES:
        assert entry.name in res.output


def test_json_listing_is_machine_readable():
    res = invoke("algorithms", "--json")
    listed = json.loads(res.stdout)
    assert [e["name"] for e in listed] == [e.name for e in ENTRIES]
    by_name = {e["name"]: e for e in listed}
    assert by_name["ce-omm"]["fixed"] == {"rho": 0.0}
    assert by_name["ce-omm"]["class"] == "EfficientOMM"
    assert by_name["pa-i"]["parameters"] == {"C": 1.0, "fit_intercept": True,
                                             "average": False, "n_jobs": None}
    assert by_name["pa-i"]["references"] == ["crammer-2006"]
    assert by_name["sgd-regression"]["kind"] == "regressor"


def test_json_card():
    res = invoke("algorithms", "pa-i", "--json")
    card = json.loads(res.stdout)
    assert card["name"] == "pa-i" and card["kind"] == "classifier"
    assert card["parameters"] == [
        {"name": "C", "default": 1.0, "constraint": "float > 0"},
        {"name": "fit_intercept", "default": True, "constraint": "bool"},
        {"name": "average", "default": False, "constraint": "int > 0 or bool"},
        {"name": "n_jobs", "default": None, "constraint": "int ≤ -1 or int ≥ 1 or None"}]
    assert card["references"][0]["key"] == "crammer-2006"
    assert card["description"].startswith("PA-I: τ = min(C, ℓ/‖x‖²)")


@pytest.mark.parametrize("constraint, text", [
    (Interval(Real, 0, None, closed="neither"), "float > 0"),
    (Interval(Real, 0, None, closed="left"), "float ≥ 0"),
    (Interval(Real, 0, 1, closed="both"), "float in [0, 1]"),
    (Interval(Real, 0, 1, closed="right"), "float in (0, 1]"),
    (Interval(Real, None, 2.5, closed="neither"), "float < 2.5"),
    (Interval(Integral, 1, None, closed="left"), "int ≥ 1"),
    (StrOptions({"b", "a"}), "one of 'a', 'b'"),
    ("boolean", "bool"),
    (None, "None"),
    (dict, "dict"),
])
def test_constraints_read_as_words(constraint, text):
    assert describe_constraint(constraint) == text


def test_several_constraints_join_with_or():
    assert describe_constraints([Interval(Real, 0, None, closed="neither"), None]) == \
        "float > 0 or None"
