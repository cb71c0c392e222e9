"""Plateau (Jim Albea, 1986): stacks on a 4x4 board, hidden faces, prisoner exchange.

The rules are in :mod:`plateau.games.albea.state` (over the compiled kernel
``plateau_core.albea.core``), the action notation in ``notation``, the picture in ``picture``, what
``plateau bench`` times in ``bench``. Importing the package registers the game.
"""

from __future__ import annotations

from plateau.games.albea.state import (
    AlbeaPlateauState,
    _batch,
    _check_option_values,
    _from_setup,
    _playouts,
    multiset_text,
    multiset_value,
)
from plateau.registry import GameInfo, register

__all__ = ["AlbeaPlateauState", "multiset_text", "multiset_value"]

register(
    GameInfo(
        name="albea-plateau",
        title="Plateau (Jim Albea, 1986)",
        variants=("standard",),
        default_variant="standard",
        factory=AlbeaPlateauState,
        playouts=_playouts,
        options={"max_plies": 0},
        check_option_values=_check_option_values,
        perfect_information=False,
        batch=_batch,
        from_setup=_from_setup,
        # uniformly random playouts say little here: against greedy, mcts:iters=1000 scored
        # 31.5% with mixed leaf values and 47.5% with the heuristic alone (200 games each)
        mcts_eval="heuristic",
        package=__name__,
    )
)
