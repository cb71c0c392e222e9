"""Plateau X's compiled kernel (``core``: the flat C state, its nogil kernels and the wrapper
class the ``plateau`` package subclasses) and its batch hooks (``batch``)."""

from pkgutil import extend_path

# As in plateau_core/__init__.py: run from the root of a source checkout, this folder (with no
# compiled modules in it) shadows the installed one; let imports fall through to the build.
__path__ = extend_path(__path__, __name__)
