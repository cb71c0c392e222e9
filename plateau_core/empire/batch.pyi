"""Type stubs of the compiled Empire Plateau batch module (plateau_core/empire/batch.pyx)."""

from typing_extensions import Self, disjoint_base

from plateau_core._batch import BatchCore
from plateau_core.empire.core import EmpireTables

@disjoint_base
class EmpireBatch(BatchCore):
    tables: EmpireTables
    variant_index: int
    def __new__(
        cls,
        tables: EmpireTables,
        variant_index: int,
        n: int,
        seed: int = 0,
        ply_cap: int = 400,
        turn_limit: int = 0,
    ) -> Self: ...
