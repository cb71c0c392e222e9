"""``random``: a uniformly random legal action."""

from __future__ import annotations

from typing import Any, ClassVar

from plateau.bots.base import Bot, register_bot
from plateau.errors import InvalidArgumentError
from plateau.state import GameState


@register_bot
class RandomBot(Bot):
    """Picks a legal action uniformly at random (``random.Random(seed)``; the generator runs
    on across games, so :meth:`reset` does not replay the same choices)."""

    name = "random"
    defaults: ClassVar[dict[str, Any]] = {}

    def select_action(self, state: GameState) -> int:
        legal = state.legal_actions()
        if len(legal) == 0:
            raise InvalidArgumentError("no legal action: the game is over")
        return int(legal[self.rng.randrange(len(legal))])
