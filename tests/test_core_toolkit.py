"""The compiled core's shared toolkit against plain Python: picking the k-th set bit of a mask
(how every kernel draws a random legal action), the core PRNG's draws and the 64-bit mix."""

from __future__ import annotations

import random

import pytest
from plateau_core._common import mix64, nth_set_bit_of, random_below


def _nth_set_bit(x: int, k: int) -> int:
    return [i for i in range(64) if x >> i & 1][k]


def test_nth_set_bit_is_the_kth_set_bit() -> None:
    rng = random.Random(1)
    words = [1, 1 << 63, (1 << 64) - 1, 0xFF00, 0xFFFF_FFFF_0000_0000, 0x8000_0001_8000_0001]
    # sparse, dense and random words, so that every halving step goes both ways
    for density in (0.05, 0.3, 0.5, 0.9):
        for _ in range(200):
            w = sum(1 << i for i in range(64) if rng.random() < density)
            words.append(w or 1)
    for w in words:
        for k in range(bin(w).count("1")):
            assert nth_set_bit_of(w, k) == _nth_set_bit(w, k), (hex(w), k)


def test_nth_set_bit_refuses_what_has_no_such_bit() -> None:
    for x, k in [(0, 0), (1, 1), (0b1011, 3), (-1, 0), (1 << 64, 0), (5, -1)]:
        with pytest.raises(ValueError):
            nth_set_bit_of(x, k)


def test_random_below_stays_below_and_repeats_per_seed() -> None:
    draws = random_below(7, 10, 5000)
    assert draws == random_below(7, 10, 5000) != random_below(8, 10, 5000)
    assert set(draws) == set(range(10))  # every value comes up
    assert all(0 <= d < 2**32 - 1 for d in random_below(3, 2**32 - 1, 100))
    assert max(draws.count(v) for v in range(10)) < 600  # about 500 each


def test_mix64_is_splitmix64s_finaliser() -> None:
    def reference(x: int) -> int:
        m = (1 << 64) - 1
        x = (x + 0x9E3779B97F4A7C15) & m
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & m
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & m
        return x ^ (x >> 31)

    for x in (0, 1, 2**63, 2**64 - 1, 12345, -1, 2**70 + 3):
        assert mix64(x) == reference(x & (2**64 - 1))
