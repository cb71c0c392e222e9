"""Plateau X (Hendrik Simon, 2010): tile building for 2 to 4 players, four variants.

The rules are in :mod:`plateau.games.x.state` (over the compiled kernel ``plateau_core.x.core``);
the picture in ``picture``, what ``plateau bench`` times in ``bench``. Importing the package
registers the game.
"""

from __future__ import annotations

from plateau.games.x.state import (
    COLOURS,
    VARIANTS,
    PlateauXState,
    _batch,
    _check_option_values,
    _playouts,
)
from plateau.registry import GameInfo, register

__all__ = ["COLOURS", "VARIANTS", "PlateauXState"]

register(
    GameInfo(
        name="plateau-x",
        title="Plateau X (Hendrik Simon, 2010)",
        variants=tuple(VARIANTS),
        default_variant="standard",
        factory=PlateauXState,
        playouts=_playouts,
        options={"first_player": 0},
        check_option_values=_check_option_values,
        batch=_batch,
        package=__name__,
    )
)
