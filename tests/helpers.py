"""Helpers shared by the test modules (on the path through pytest's ``pythonpath``)."""

from __future__ import annotations

import random
from typing import Any

import plateau


def random_game(variant: str, seed: int, plies: int | None = None, first_player: int = 0) -> Any:
    """Random legal play with a fixed seed, for ``plies`` plies or to the end."""
    rng = random.Random(seed)
    s = plateau.new_game("plateau-x", variant, first_player=first_player)
    while not s.is_terminal() and (plies is None or s.ply < plies):
        legal = s.legal_actions()
        s.apply(int(legal[rng.randrange(len(legal))]))
        assert s.ply < 2000
    return s


def observe(s: Any) -> tuple[Any, ...]:
    return (
        s.variant,
        s.options,
        s.num_players,
        s.history,
        s.history_strings(),
        s.ply,
        s.hash,
        s.current_player,
        s.is_terminal(),
        s.legal_actions().tolist(),
        s.ranking(),
        s.returns(),
        s.piece_squares(),
        s.stamps(),
        s.supply,
        [s.stock(p) for p in range(s.num_players)],
        s.levels(),
        str(s),
    )
