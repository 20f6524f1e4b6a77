"""``OLC_STRICT_ARITHMETIC`` starts a process in strict or default arithmetic; any other value
is refused at import with a message naming the variable (checked in fresh processes)."""
import os
import subprocess
import sys

import pytest

PROBE = "import olc; print(olc.strict_arithmetic())"


def _run(value):
    env = {k: v for k, v in os.environ.items() if k != "OLC_STRICT_ARITHMETIC"}
    if value is not None:
        env["OLC_STRICT_ARITHMETIC"] = value
    return subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("value, strict", [(None, "False"), ("0", "False"), ("no", "False"),
                                           ("1", "True"), ("TRUE", "True"), (" yes ", "True")])
def test_values_choose_the_mode(value, strict):
    proc = _run(value)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == strict


def test_another_value_is_refused_naming_the_variable():
    proc = _run("maybe")
    assert proc.returncode != 0
    assert "OLC_STRICT_ARITHMETIC='maybe': expected 1/true/yes" in proc.stderr
