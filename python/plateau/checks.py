"""The one argument checker of the Python layer (the compiled wrappers use its twins,
``plateau_core._common.check_int`` and ``check_seed``, with the same rules and messages): an
integer argument may be any integral type (``int``, numpy integers) but not ``bool``; floats and
strings are refused.

>>> import numpy as np
>>> check_int(np.int64(3), "depth", 0, 64)
3
>>> check_int(True, "depth", 0, 64)
Traceback (most recent call last):
ValueError: depth must be an int in [0, 64), got True
"""

from __future__ import annotations

import numbers
import operator

import numpy as np


def _integer_in(value: object, lo: int, hi: int | None, name: str, shown_hi: str) -> int:
    # the rule of both checkers below (and of the compiled twin): any integral type but bool
    # (numpy's too: numpy 1.x still lets operator.index take it), range-checked on the value
    if not isinstance(value, (bool, np.bool_)):
        try:
            i = operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
        else:
            if lo <= i and (hi is None or i < hi):
                return int(i)
    bounds = f">= {lo}" if hi is None else f"in [{lo}, {shown_hi})"
    raise ValueError(f"{name} must be an int {bounds}, got {value!r}")


def check_int(value: object, name: str, lo: int, hi: int | None = None) -> int:
    """``value`` as an ``int`` after checking that it is an integer (not a bool) in
    ``[lo, hi)`` (``hi`` None: no upper bound); ValueError naming ``name`` otherwise."""
    return _integer_in(value, lo, hi, name, str(hi))


def check_seed(value: object, name: str = "seed") -> int:
    """``value`` as an ``int`` after checking that it is a seed: an integer (not a bool) in
    ``[0, 2**64)``; ValueError naming ``name`` otherwise, in the compiled twin's words.

    >>> check_seed(-1)
    Traceback (most recent call last):
    ValueError: seed must be an int in [0, 2**64), got -1
    """
    return _integer_in(value, 0, 2**64, name, "2**64")


def check_number(value: object, name: str, lo: float = 0.0) -> float:
    """``value`` as a ``float`` after checking that it is a real number (not a bool, not NaN)
    ``>= lo``; ValueError naming ``name`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not float(value) >= lo:
        raise ValueError(f"{name} must be a number >= {lo:g}, got {value!r}")
    return float(value)
