# cython: language_level=3
"""Python-visible hooks into the shared core toolkit (used by tests of the PRNG and hashing)."""
from cpython.buffer cimport PyBUF_C_CONTIGUOUS, PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer
from libc.stdint cimport uint64_t, uint32_t

import numpy as np

from plateau_core._common cimport Rng, rng_seed, rng_next, rng_below, splitmix64

cdef object _np_empty = np.empty
cdef object _np_zeros = np.zeros


cdef object new_array(object shape, object dtype, bint zero, void** data):
    """A fresh C-contiguous numpy array and its data pointer, for kernels to fill (cheaper
    than a typed memoryview; the pointer stays valid while the array lives)."""
    cdef Py_buffer buf
    out = _np_zeros(shape, dtype=dtype) if zero else _np_empty(shape, dtype=dtype)
    PyObject_GetBuffer(out, &buf, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS)
    data[0] = buf.buf
    PyBuffer_Release(&buf)
    return out


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
