"""olc — online linear classification: exact, compiled learners and the online protocol.

Importing ``olc`` is cheap: the learners, the online protocol and persistence (and with them
scikit-learn, numba and matplotlib) are imported when first used (PEP 562 ``__getattr__``),
e.g. ``olc.Perceptron``, ``olc.make("pa-i")``, ``olc.progressive``, ``olc.load``.
"""
from ._util.lazy import lazy_attributes
from .config import set_strict_arithmetic, strict_arithmetic, strict_mode
from .learners.registry.catalogue import LEARNER_CLASSES


def _version():
    """The version in ``pyproject.toml``: read from the source tree when olc runs from one
    (its installed metadata may be older, e.g. an editable install before a version bump),
    else from the installed package's metadata."""
    from pathlib import Path

    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    if pyproject.is_file():
        import tomllib

        try:
            project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
        except (OSError, ValueError):
            project = {}
        if project.get("name") == "olc" and "version" in project:
            return project["version"]
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("olc")
    except PackageNotFoundError:  # pragma: no cover - neither a source tree nor installed
        return "0+unknown"


__version__ = _version()

#: Exported names defined elsewhere, by module: imported on first access.
_LAZY = {
    **{name: "olc.learners" for name in LEARNER_CLASSES},
    "MaxMarginSolution": "olc.learners",
    "max_margin": "olc.learners",
    "StepRecord": "olc.learners",
    "algorithms": "olc.learners.registry",
    "make": "olc.learners.registry",
    "load": "olc.persistence",
    "save": "olc.persistence",
    "progressive": "olc.evaluate",
    "ProgressiveResult": "olc.evaluate",
}

__all__ = LEARNER_CLASSES + [
    "MaxMarginSolution", "max_margin", "ProgressiveResult", "StepRecord", "algorithms", "load",
    "make", "progressive", "save", "set_strict_arithmetic", "strict_arithmetic", "strict_mode",
]


__getattr__, __dir__ = lazy_attributes(__name__, globals(), _LAZY)
