"""Plateau (Albea)'s compiled kernel (``core``: the flat C state, its nogil kernels and the wrapper
class the ``plateau`` package subclasses) and its batch hooks (``batch``)."""
