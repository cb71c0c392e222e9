"""Empire Plateau (Frances Games, 2021): four empires on a round board given as data, turns
of several actions, 2 to 4 players.

The rules are in :mod:`plateau.games.empire.state` (over the compiled kernel
``plateau_core.empire.core``), boards and their JSON format in ``board`` (the shipped boards in
``boards/``), the picture in ``picture``, what ``plateau bench`` times in ``bench``, sample option
values in ``samples``. Importing the package registers the game.
"""

from __future__ import annotations

from plateau.games.empire.state import (
    VARIANTS,
    EmpirePlateauState,
    _batch,
    _check_data_options,
    _check_option_values,
    _from_setup,
    _playouts,
)
from plateau.registry import GameInfo, register

__all__ = ["VARIANTS", "EmpirePlateauState"]

register(
    GameInfo(
        name="empire-plateau",
        title="Empire Plateau (Frances Games, 2021)",
        variants=tuple(VARIANTS),
        default_variant="two",
        factory=EmpirePlateauState,
        playouts=_playouts,
        options={"board": "ep16", "turn_limit": 0},
        batch=_batch,
        from_setup=_from_setup,
        check_data_options=_check_data_options,
        check_option_values=_check_option_values,
        # a random game runs to some 1,200 actions, far past mcts's playout cap (400): a cut
        # playout mostly says "nobody is out yet", so leaves are valued by the heuristic
        mcts_eval="heuristic",
        package=__name__,
    )
)
