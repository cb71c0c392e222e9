"""Type stubs of the compiled Plateau (Albea) batch module (plateau_core/albea/batch.pyx)."""

from typing_extensions import Self, disjoint_base

from plateau_core._batch import BatchCore

OBSERVATION_SHAPE: tuple[int, int, int]

@disjoint_base
class AlbeaBatch(BatchCore):
    max_plies: int
    def __new__(cls, n: int, seed: int = 0, ply_cap: int = 400, max_plies: int = 0) -> Self: ...
