"""Compiled kernels of the plateau library (Cython over flat C arrays).

Nothing here is public API: the ``plateau`` package wraps each game's kernel module and validates
everything that crosses into it. ``_common`` holds what every game shares (bit tricks, PRNG).
"""
