"""Fixtures shared by every test folder."""
import pytest

import olc


@pytest.fixture
def default_arithmetic():
    """Run a test in the default (fast) arithmetic even when the suite runs in strict mode
    (``OLC_STRICT_ARITHMETIC=1``): for values recorded in that mode, such as the olc 0.1.0
    model-file fixtures, which were saved by learners trained with it."""
    with olc.strict_mode(False):
        yield
