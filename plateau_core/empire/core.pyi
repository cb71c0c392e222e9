"""Type stubs of the compiled Empire Plateau kernel (plateau_core/empire/core.pyx)."""

from typing import Any

import numpy as np
import numpy.typing as npt
from typing_extensions import Self, disjoint_base

from plateau_core._common import GameCore

VARIANTS: tuple[tuple[str, int, tuple[int, int, int, int]], ...]
POINTS: dict[int, tuple[float, ...]]
TYPES: tuple[str, ...]
VALUE: tuple[int, ...]
COUNT: tuple[int, ...]
HEADER_BYTES: int

@disjoint_base
class EmpireTables:
    name: str
    info: Any
    def __new__(
        cls,
        name: str,
        neighbours: npt.NDArray[np.int16],
        bases: npt.NDArray[np.int8],
        layout: npt.NDArray[np.int8],
        cells: npt.NDArray[np.int32],
        rows: int,
        cols: int,
    ) -> Self: ...
    @property
    def ndots(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def lane(self) -> int: ...
    @property
    def bipartite(self) -> bool: ...
    @property
    def plane(self) -> tuple[int, int]: ...
    @property
    def max_legal(self) -> int: ...

def random_playouts(
    tables: EmpireTables,
    variant: int,
    n: int,
    seed: int = 0,
    ply_cap: int = 400,
    turn_limit: int = 0,
) -> dict[str, Any]: ...
def layout(tables: EmpireTables) -> dict[str, int]: ...

@disjoint_base
class EmpireCore(GameCore):
    def _core_init(self, tables: EmpireTables, variant: int, turn_limit: int = 0) -> None: ...
    @property
    def _variant_index(self) -> int: ...
    @property
    def _board_tables(self) -> EmpireTables: ...
    def _army(self, dot: int) -> int: ...
    def _position(self) -> tuple[Any, ...]: ...
    def _status(self) -> tuple[int, int, int, int]: ...
    def _turns(self) -> tuple[int, int]: ...
    def _owners(self) -> tuple[int, ...]: ...
    def _values(self) -> list[float]: ...
    def _army_moves(self, dot: int) -> npt.NDArray[np.int64]: ...
    def _sample(self, seed: int, count: int) -> list[int]: ...
    def _root(self) -> Any: ...
    def _load(
        self,
        tables: EmpireTables,
        variant: int,
        armies: bytes,
        to_move: int,
        total: int,
        small: int,
        emblem_moved: bool,
        locked: bool,
        free_from: int,
        conquered: list[int],
        out: list[int],
        empty_turns: int,
        moved: list[int],
        captures: list[tuple[int, int, int, int]],
        ply: int = 0,
        turns: int = 0,
        turn_limit: int = 0,
    ) -> None: ...
