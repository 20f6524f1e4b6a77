"""Process-wide numerical settings.

``OLC_STRICT_ARITHMETIC=1`` in the environment starts a process in strict mode (e.g. to run
a whole pipeline, or the test suite, bit-for-bit reproducibly); the functions below change
it at run time.
"""
import os
from contextlib import contextmanager

_strict = os.environ.get("OLC_STRICT_ARITHMETIC", "0").lower() in ("1", "true", "yes")


def strict_arithmetic() -> bool:
    """True when dense dot products sum strictly left to right (bit-for-bit reproducible,
    identical to CSR input and to scikit-learn); False (default) allows reassociation
    (SIMD), which moves sums by a few ulps and so can change a decision only at an exact tie."""
    return _strict


def set_strict_arithmetic(enabled: bool) -> None:
    global _strict
    _strict = bool(enabled)


@contextmanager
def strict_mode(enabled: bool = True):
    """``with olc.strict_mode(): ...`` runs the enclosed code with strict arithmetic."""
    global _strict
    previous = _strict
    _strict = bool(enabled)
    try:
        yield
    finally:
        _strict = previous
