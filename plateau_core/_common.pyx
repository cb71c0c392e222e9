# cython: language_level=3
"""Python-visible hooks into the shared core toolkit (used by tests of the PRNG and hashing)."""
from libc.stdint cimport uint64_t, uint32_t

from plateau_core._common cimport Rng, rng_seed, rng_next, rng_below, splitmix64


def mix64(x: int) -> int:
    """SplitMix64 finaliser of a 64-bit integer."""
    return splitmix64(<uint64_t>(x & 0xFFFFFFFFFFFFFFFF))


def random_below(seed: int, n: int, count: int) -> list:
    """``count`` draws in [0, n) from the core PRNG seeded with ``seed``."""
    if n < 1 or n > 0xFFFFFFFF:
        raise ValueError(f"n must be in [1, 2**32), got {n!r}")
    cdef Rng r
    rng_seed(&r, <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF))
    return [rng_below(&r, <uint32_t>n) for _ in range(count)]
