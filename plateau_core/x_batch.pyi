"""Type stubs of the compiled Plateau X batch module (plateau_core/x_batch.pyx)."""

from plateau_core._batch import BatchCore

class XBatch(BatchCore):
    variant_index: int
    first_player: int
    def __init__(
        self,
        variant_index: int,
        n: int,
        seed: int = 0,
        ply_cap: int = 400,
        first_player: int = 0,
    ) -> None: ...
