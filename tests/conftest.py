"""Fixtures shared by every test folder, and the hypothesis profiles.

Property tests are deterministic by default (profile ``deterministic``: examples derived from
each test's own source, no example database, the failing example's reproduction blob printed),
so CI and every checkout run the same examples whatever the environment (hypothesis switches
to its own ``ci`` profile only when a ``CI`` variable is set). To search new random examples
locally: ``HYPOTHESIS_PROFILE=explore python -m pytest ...`` (or ``--hypothesis-profile
explore``); a failure found that way belongs in the test as an ``@example``.
"""
import os

import pytest
from hypothesis import HealthCheck, settings

import olc

_QUIET = {"deadline": None, "print_blob": True, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("deterministic", derandomize=True, database=None, **_QUIET)
settings.register_profile("explore", derandomize=False, **_QUIET)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))


@pytest.fixture
def default_arithmetic():
    """Run a test in the default (fast) arithmetic even when the suite runs in strict mode
    (``OLC_STRICT_ARITHMETIC=1``): for values recorded in that mode, such as the olc 0.1.0
    model-file fixtures, which were saved by learners trained with it."""
    with olc.strict_mode(False):
        yield
