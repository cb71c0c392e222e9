"""Type stubs of the compiled Empire Plateau batch module (plateau_core/empire_batch.pyx)."""

from plateau_core._batch import BatchCore
from plateau_core.empire import EmpireTables

class EmpireBatch(BatchCore):
    tables: EmpireTables
    variant_index: int
    def __init__(
        self, tables: EmpireTables, variant_index: int, n: int, seed: int = 0, ply_cap: int = 400
    ) -> None: ...
