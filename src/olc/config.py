"""Process-wide numerical settings."""
from contextlib import contextmanager

_strict = False


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
