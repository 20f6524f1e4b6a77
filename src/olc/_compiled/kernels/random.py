"""Counter-based pseudo-random numbers: reproducible, no global state, and nothing to save
but integers the learner already stores (seed in ``hp``, step counter in ``scal``).

A draw is a pure function of three non-negative integers — ``seed``, ``stream`` (e.g. an
ensemble member) and ``counter`` (e.g. the online step) — so a learner that stores its step
counter draws exactly the same numbers after save/load, in chunks or in one call.

Formula (all arithmetic modulo 2**64, φ = 0x9E3779B97F4A7C15)::

    mix64(z)  = z ← (z ⊕ (z ≫ 30))·0xBF58476D1CE4E5B9
                z ← (z ⊕ (z ≫ 27))·0x94D049BB133111EB
                z ⊕ (z ≫ 31)
    key       = mix64(seed + φ·(stream + 1))
    u64       = mix64(key + φ·(counter + 1))
    uniform   = (u64 ≫ 11) · 2**-53            ∈ [0, 1), a multiple of 2**-53

``mix64`` is the output function of SplitMix64 (Steele, Lea & Flood, OOPSLA 2014), so for a
fixed (seed, stream) the values over counter = 0, 1, 2, … are exactly the SplitMix64
sequence started from state ``key``. Arguments may be float64 holding integers (exact below
2**53, which is how ``hp``/``scal`` store them).
"""
import numba as nb

from ..caching import jit
import numpy as np

from .vector import INLINE

_PHI = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
_TWO_M53 = 2.0 ** -53


@jit(inline=INLINE)
def mix64(z):
    """SplitMix64's output function (a bijection of 64-bit words)."""
    z = (z ^ (z >> nb.uint64(30))) * nb.uint64(_M1)
    z = (z ^ (z >> nb.uint64(27))) * nb.uint64(_M2)
    return z ^ (z >> nb.uint64(31))


@jit(inline=INLINE)
def random_u64(seed, stream, counter):
    """64 random bits for (seed, stream, counter), see the module docstring."""
    phi = nb.uint64(_PHI)
    key = mix64(nb.uint64(seed) + phi * (nb.uint64(stream) + nb.uint64(1)))
    return mix64(key + phi * (nb.uint64(counter) + nb.uint64(1)))


@jit(inline=INLINE)
def uniform(seed, stream, counter):
    """A uniform draw in [0, 1) (53 random bits) for (seed, stream, counter)."""
    return float(random_u64(seed, stream, counter) >> nb.uint64(11)) * _TWO_M53


def uniform_array(seed, stream, counters):
    """NumPy version of :func:`uniform` for an array of counters (for users and tests that
    want to see the draws a learner will make)."""
    counters = np.asarray(counters, dtype=np.uint64)
    with np.errstate(over="ignore"):
        phi = np.uint64(_PHI)

        def mix(z):
            z = (z ^ (z >> np.uint64(30))) * np.uint64(_M1)
            z = (z ^ (z >> np.uint64(27))) * np.uint64(_M2)
            return z ^ (z >> np.uint64(31))

        key = mix(np.uint64(seed) + phi * (np.uint64(stream) + np.uint64(1)))
        u = mix(key + phi * (counters + np.uint64(1)))
    return (u >> np.uint64(11)).astype(np.float64) * _TWO_M53
