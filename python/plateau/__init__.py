"""plateau: fast rules engines for the Plateau family of board games.

>>> import plateau
>>> s = plateau.new_game("plateau-x", variant="standard")
>>> len(s.legal_actions()), s.perft(2)
(326, 98308)
"""

from __future__ import annotations

from plateau import games as _games  # registers every game
from plateau.batch import StateBatch
from plateau.errors import (
    ActionError,
    GameSpecError,
    IllegalActionError,
    InvalidActionError,
    InvalidArgumentError,
    InvalidBoardError,
    InvalidOptionError,
    InvalidPositionError,
    InvalidRecordError,
    InvalidResultsError,
    NothingToUndoError,
    PlateauError,
    UnknownGameError,
    UnknownOptionError,
    UnknownVariantError,
)
from plateau.games.albea import AlbeaPlateauState
from plateau.games.empire import EmpirePlateauState
from plateau.games.x import PlateauXState
from plateau.notation import square_index, square_name
from plateau.record import from_json, to_json
from plateau.registry import (
    GameSpec,
    game_info,
    games,
    new_game,
    random_playouts,
    resolve,
    variants,
)
from plateau.state import GameState
from plateau.tournament import Tournament

__version__ = "0.1.0"

__all__ = [
    "ActionError",
    "AlbeaPlateauState",
    "EmpirePlateauState",
    "GameSpec",
    "GameSpecError",
    "GameState",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidArgumentError",
    "InvalidBoardError",
    "InvalidOptionError",
    "InvalidPositionError",
    "InvalidRecordError",
    "InvalidResultsError",
    "NothingToUndoError",
    "PlateauError",
    "PlateauXState",
    "StateBatch",
    "Tournament",
    "UnknownGameError",
    "UnknownOptionError",
    "UnknownVariantError",
    "__version__",
    "from_json",
    "game_info",
    "games",
    "new_game",
    "random_playouts",
    "resolve",
    "square_index",
    "square_name",
    "to_json",
    "variants",
]

del _games
