"""Bots of "a user's own", importable by module path (``own_bots:FirstLegal``) from the arena's
worker processes, for the tests of custom bots."""

from __future__ import annotations

from typing import Any, ClassVar

import plateau
from plateau.bots import Bot


class FirstLegal(Bot):
    """Plays the lowest legal id (or the ``pick``-th lowest, modulo the count)."""

    name: ClassVar[str] = "first-legal"
    defaults: ClassVar[dict[str, Any]] = {"pick": 0}

    def select_action(self, state: plateau.GameState) -> int:
        legal = state.legal_actions()
        return int(legal[int(self.params["pick"]) % len(legal)])


def last_legal(seed: int = 0, **params: Any) -> Bot:
    """A factory: a FirstLegal that picks the highest id."""
    return FirstLegal(seed=seed, pick=-1)
