"""Type stubs of the compiled Plateau (Albea) kernel (plateau_core/albea/core.pyx)."""

from typing import Any

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from plateau_core._common import GameCore

TYPES: tuple[str, ...]
COUNT: tuple[int, ...]
VALUE: tuple[int, ...]
OT_CODES: tuple[str, ...]
PERIMETER: tuple[int, ...]
J_LEVEL: tuple[int, int, int]
NUM_DISTINCT_ACTIONS: int
PHASES: tuple[str, ...]
OBSERVATION_SHAPE: tuple[int, int, int]
KINDS: tuple[str, ...]
BASE_OPENING: int
BASE_ONBOARD: int
BASE_MOVE: int
BASE_STOMP: int
BASE_OFFER: int
BASE_GIVE: int
REFUSE: int
PASS: int
STACK_CAP: int
MAX_PLY: int
ENCODE_INVALID: int
ENCODE_OFF_PATH: int
ENCODE_BAD_CARRY: int

#: a piece as ``AlbeaCore._board`` gives it: (owner, type index, up, shown0, shown1)
Piece = tuple[int, int, int, bool, bool]

def layout() -> dict[str, Any]: ...
def move_fields(action: int) -> tuple[int, int, int, int, int]: ...
def decode(action: int) -> tuple[str, tuple[Any, ...]]: ...
def encode(kind: str, fields: tuple[Any, ...]) -> int: ...
def random_playouts(n: int, seed: int, ply_cap: int, max_plies: int = 0) -> dict[str, Any]: ...

@disjoint_base
class AlbeaCore(GameCore):
    def _core_init(self, max_plies: int) -> None: ...
    def _root(self) -> Any: ...
    def _raw_player(self) -> int: ...
    def _actors(self) -> list[int]: ...
    @property
    def phase(self) -> str: ...
    @property
    def passes(self) -> int: ...
    @property
    def floor(self) -> list[int]: ...
    @property
    def max_plies(self) -> int: ...
    @property
    def result(self) -> str | None: ...
    @property
    def winner(self) -> int | None: ...
    def reserve(self, p: int) -> dict[str, int]: ...
    def prisoners(self, p: int) -> dict[str, int]: ...
    @property
    def tender(self) -> dict[str, int] | None: ...
    @property
    def offerer(self) -> int | None: ...
    def _board(self) -> list[list[Piece]]: ...
    def check_caches(self) -> bool: ...
    def winning_actions(self) -> npt.NDArray[np.int64]: ...
    def _values(self) -> tuple[float, float]: ...
    def _resample(
        self, pieces: list[tuple[int, int, int, int]], opponent: int, reserve: list[int]
    ) -> Any: ...
    def _load_raw(
        self,
        board: list[list[Piece]],
        reserve: list[list[int]],
        prisoners: list[list[int]],
        tender: list[int],
        phase: int,
        player: int,
        offerer: int,
        floor: list[int],
        result: int,
        passes: int,
        ply: int,
        max_plies: int,
    ) -> None: ...
