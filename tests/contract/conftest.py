"""The contract streams are deliberately non-separable (duplicate rows with both labels, label
noise); e-OMM's NonSeparableWarning about them is expected, so it is silenced here only."""
from pathlib import Path

import pytest

_HERE = Path(__file__).resolve().parent
#: The toy learner's files are fixtures of test_toy_learner.py (copied into a temporary
#: package there), not tests of this suite.
collect_ignore = ["toy_learner"]


def pytest_collection_modifyitems(config, items):
    for item in items:
        if _HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.filterwarnings(
                "ignore:.*not linearly separable:RuntimeWarning"))
