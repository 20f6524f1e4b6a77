"""Process-wide numerical settings.

``OLC_STRICT_ARITHMETIC=1`` in the environment starts a process in strict mode (e.g. to run
a whole pipeline, or the test suite, bit-for-bit reproducibly); the functions below change
it at run time.
"""
import os
from contextlib import contextmanager

_ENV_VALUES = {"": False, "0": False, "false": False, "no": False,
               "1": True, "true": True, "yes": True}


def _strict_from_environment():
    value = os.environ.get("OLC_STRICT_ARITHMETIC", "")
    try:
        return _ENV_VALUES[value.strip().lower()]
    except KeyError:
        raise ValueError(f"OLC_STRICT_ARITHMETIC={value!r}: expected 1/true/yes (strict) or "
                         "0/false/no (default arithmetic)") from None


_strict = _strict_from_environment()


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
