# cython: language_level=3
"""Python-visible hooks into the shared core toolkit (used by tests of the PRNG and hashing)."""
from cpython.buffer cimport PyBUF_C_CONTIGUOUS, PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer
from libc.stdint cimport uint64_t, uint32_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy

import operator

import numpy as np

from plateau_core._common cimport History, Rng, rng_seed, rng_next, rng_below, splitmix64

cdef extern from "Python.h":
    # declared without an exception value: the raised exception stays pending for the wrapper
    int _check_signals "PyErr_CheckSignals" ()


cdef bint signals_raised() noexcept nogil:
    """Run Python's pending signal handlers (main thread only; a no-op elsewhere); True if one
    raised, which leaves its exception pending for :func:`raise_pending`."""
    cdef int r
    with gil:
        r = _check_signals()
    return r != 0


cdef int raise_pending() except -1:
    """Propagate the exception that a signal handler left pending (see ``signals_raised``)."""
    return -1


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


cdef object _integer_in(object v, object lo, object hi, str what, str shown_hi):
    # the rule of both checkers below: any integral type but bool, range checked on the Python
    # value (before any conversion to C)
    if not isinstance(v, bool):
        try:
            i = operator.index(v)
        except TypeError:
            pass
        else:
            if lo <= i < hi:
                return i
    raise ValueError(f"{what} must be an int in [{lo}, {shown_hi}), got {v!r}")


cdef long long check_int(object v, object lo, object hi, str what) except? -1:
    """``v`` as a C integer after checking that it is an integer (int or numpy integer, not a
    bool) in [lo, hi); ValueError naming ``what`` and the value otherwise."""
    return _integer_in(v, lo, hi, what, str(hi))


cdef uint64_t check_seed(object v, str what) except? 0xFFFFFFFFFFFFFFFF:
    """A seed: an integer in [0, 2**64)."""
    return _integer_in(v, 0, 2**64, what, "2**64")


cdef int check_depth(object depth) except -1:
    """A perft depth in [0, PERFT_MAX_DEPTH)."""
    return <int>check_int(depth, 0, PERFT_MAX_DEPTH, "perft depth")


cdef void history_release(History* h) noexcept:
    """Drop one reference to ``h`` (NULL is fine); the last one frees it."""
    if h != NULL:
        h.refs -= 1
        if h.refs == 0:
            free(h.data)
            free(h)


cdef int history_copy(History** hp, Py_ssize_t length, Py_ssize_t size) except -1:
    """The slow path of ``history_writable``: ``hp[0]`` becomes a private copy of the first
    ``length`` records with room to append (the shared one loses a reference)."""
    cdef History* h = hp[0]
    cdef History* fresh
    cdef Py_ssize_t cap
    cap = max(length + 16, 2 * length)
    fresh = <History*>malloc(sizeof(History))
    if fresh == NULL:
        raise MemoryError()
    fresh.data = <char*>malloc(cap * size)
    if fresh.data == NULL:
        free(fresh)
        raise MemoryError()
    fresh.refs = 1
    fresh.cap = cap
    fresh.size = size
    fresh.used = length
    if h != NULL:
        memcpy(fresh.data, h.data, length * size)
        history_release(h)
    hp[0] = fresh
    return 0


cdef History* history_share(History* h, Py_ssize_t length) noexcept:
    """Another reference to ``h`` for a clone whose history has ``length`` records (a sole
    owner first forgets what lies past its own history, so the clone may append in place)."""
    if h != NULL:
        if h.refs == 1:
            h.used = length
        h.refs += 1
    return h


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
