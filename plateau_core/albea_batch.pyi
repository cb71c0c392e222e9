"""Type stubs of the compiled Plateau (Albea) batch module (plateau_core/albea_batch.pyx)."""

from plateau_core._batch import BatchCore

OBSERVATION_SHAPE: tuple[int, int, int]

class AlbeaBatch(BatchCore):
    def __init__(self, n: int, seed: int = 0, max_plies: int = 400) -> None: ...
