"""The olc.river tests' streams are not separable on purpose; e-OMM's NonSeparableWarning
about them is expected, so it is silenced here only."""
from pathlib import Path

import pytest

_HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    for item in items:
        if _HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.filterwarnings(
                "ignore:.*not linearly separable:RuntimeWarning"))
