"""A few accepted values of Empire Plateau's options besides their defaults, for the
conformance suite and the fuzzers (found here by the registry's convention:
``GameInfo.option_values``)."""

from __future__ import annotations

from typing import Any

from plateau.games.empire.board import board_to_json, polar_board

#: the first edition's board, and a user board (ep16 with a twelfth ring) as JSON text
OPTION_VALUES: dict[str, tuple[Any, ...]] = {
    "board": ("ep24", board_to_json(polar_board("ring12", 16, 12))),
    "turn_limit": (9,),
}
