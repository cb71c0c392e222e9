"""Compiled kernels of the plateau library (Cython over flat C arrays).

Nothing here is public API: the ``plateau`` package wraps each game's kernel module and validates
everything that crosses into it. ``_common`` holds what every game shares (bit tricks, PRNG).
"""

from pkgutil import extend_path

# Run from the root of a source checkout, this folder (with no compiled modules in it) comes
# first on sys.path and shadows the installed package; let imports fall through to the build.
__path__ = extend_path(__path__, __name__)
