"""``greedy``: the best action one ply ahead by the game's static heuristic."""

from __future__ import annotations

from typing import Any, ClassVar

from plateau.bots.base import Bot, register_bot, static_value
from plateau.errors import InvalidArgumentError
from plateau.state import GameState

#: terminal scores are the points relative to the mean times this; any heuristic is far smaller
GREEDY_SCALE = 1000.0


@register_bot
class GreedyBot(Bot):
    """One ply of look-ahead. Each legal action is applied and scored for the player to move
    ``me``: a finished game scores :func:`outcome_value` (points relative to the mean, times
    1000, which dominates any heuristic), any other position ``state.heuristic(me)``, the
    game's static estimate (Plateau X: ``10 * level + plateau size`` of the player's best
    piece, ``-5`` with no piece in play, plus ``0.25 * mobility``, minus the same for the best
    opponent). The best score wins; ties are broken by ``random.Random(seed)``."""

    name = "greedy"
    defaults: ClassVar[dict[str, Any]] = {}
    #: the best one-ply score of the last select_action, for the mover
    score: float | None = None
    #: the positions the last select_action scored (its legal actions)
    nodes = 0

    def search_info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"depth": 1, "nodes": self.nodes}
        if self.score is not None:
            info["score"] = round(self.score, 4)
        return info

    def select_action(self, state: GameState) -> int:
        legal = state.legal_actions().tolist()
        if not legal:
            raise InvalidArgumentError("no legal action: the game is over")
        me = state.current_player
        best: list[int] = []
        best_score = float("-inf")
        self.score = None
        work = state.clone()  # (the caller's state is left as it is, even by a Ctrl-C)
        for a in legal:
            work.apply(a)
            score = static_value(work, me, GREEDY_SCALE)
            work.undo()
            if score > best_score:
                best_score, best = score, [a]
            elif score == best_score:
                best.append(a)
        self.score, self.nodes = best_score, len(legal)
        return best[0] if len(best) == 1 else best[self.rng.randrange(len(best))]
