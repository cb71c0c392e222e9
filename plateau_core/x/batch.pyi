"""Type stubs of the compiled Plateau X batch module (plateau_core/x/batch.pyx)."""

from typing_extensions import Self, disjoint_base

from plateau_core._batch import BatchCore

@disjoint_base
class XBatch(BatchCore):
    variant_index: int
    first_player: int
    def __new__(
        cls,
        variant_index: int,
        n: int,
        seed: int = 0,
        ply_cap: int = 400,
        first_player: int = 0,
    ) -> Self: ...
