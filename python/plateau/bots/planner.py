"""``planner``: whole turns, each weighed against the next player's best reply turn.

A turn is every action the player to move makes before another player is to act: one action in
Plateau X and Plateau, several (moves, frees, ``end``) in Empire Plateau. One-action look-ahead
(``greedy``) and a thousand MCTS iterations see less than one Empire turn, so they cannot weigh
a turn as a whole; this bot can, in any game, through the state API alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar

from plateau.bots.base import StoppableBot, register_bot, static_value
from plateau.checks import check_int
from plateau.errors import InvalidArgumentError
from plateau.state import GameState

#: terminal scores are the points relative to the mean times this; any heuristic is far smaller
PLANNER_SCALE = 1000.0
#: the most actions a turn is searched for (every game's turns are far shorter)
MAX_TURN = 64

#: a scored turn: (value, tie-break draw, the actions)
Turn = tuple[float, float, list[int]]


def _value(state: GameState, player: int) -> float:
    """``player``'s score of ``state``: the outcome if the game is over, else the heuristic."""
    return static_value(state, player, PLANNER_SCALE)


def best_turns(
    state: GameState,
    beam: int,
    count: int,
    rng: random.Random,
    stopping: Callable[[], bool] = lambda: False,
) -> list[Turn]:
    """The ``count`` best complete turns of the player to move, best first, scored by that
    player's :func:`_value` after the turn, found by a beam search of width ``beam`` over the
    turn's actions (unfinished turns are ranked by the same value). ``state`` is left as it was.
    Equal values go to the shorter turn, then by draws from ``rng``. Once ``stopping()`` is
    true (after one action at least) the search ends: the best beginnings found so far count
    as turns."""
    me = state.current_player
    frontier: list[list[int]] = [[]]
    done: list[Turn] = []
    for _ in range(MAX_TURN):
        going: list[Turn] = []
        for prefix in frontier:
            for a in prefix:
                state.apply(a)
            for a in state.legal_actions().tolist():
                state.apply(a)
                turn = (_value(state, me), rng.random(), [*prefix, a])
                if state.is_terminal() or state.current_player != me:
                    done.append(turn)
                else:
                    going.append(turn)
                state.undo()
            for _ in prefix:
                state.undo()
            if (done or going) and stopping():
                break
        if not going:
            break
        going.sort(key=lambda t: (t[0], t[1]), reverse=True)
        if stopping():  # (stopped: the best beginnings count as turns)
            done.extend(going[:beam])
            break
        frontier = [t[2] for t in going[:beam]]
    else:  # a turn longer than MAX_TURN: its best beginnings count as turns
        done.extend(going[:beam])
    # equal values: the shorter turn first (a win in one action before a win in two)
    done.sort(key=lambda t: (t[0], -len(t[2]), t[1]), reverse=True)
    return done[:count]


@register_bot
class PlannerBot(StoppableBot):
    """Plans the whole turn. Its ``replies`` best turns (by a beam search of width ``beam``
    over the turn's actions, scored by the game's heuristic for the player, or the outcome if
    the game ends) are each answered by the next player's best turn (the same search, width
    ``reply_beam``, on that player's heuristic); the turn after which the player's own value is
    highest is chosen. Its first action is returned, and the rest are returned on the next calls
    while the position is the one the plan expects (else it plans again). With one action a turn
    this is two plies of look-ahead; with more than two players only the next player replies.
    Equal values go to the shorter turn (the faster win), then by ``random.Random(seed)``.
    :meth:`~plateau.bots.Bot.stop` ends a search with the best turn found so far."""

    name = "planner"
    defaults: ClassVar[dict[str, Any]] = {"beam": 6, "replies": 8, "reply_beam": 4}

    def __init__(self, seed: int = 0, **params: Any) -> None:
        super().__init__(seed, **params)
        for key in self.defaults:
            check_int(self.params[key], key, 1, 10_001)
        self._plan: list[int] = []
        #: (hash, ply) of the position before each planned action still to play
        self._expect: list[tuple[int, int]] = []
        #: searches run (one per turn when the plan holds)
        self.searches = 0

    def _is_stopping(self) -> bool:
        return self._stopping

    def reset(self) -> None:
        """Forget the plan."""
        self._plan = []
        self._expect = []

    def _select(self, state: GameState) -> int:
        if state.is_terminal():
            raise InvalidArgumentError("no legal action: the game is over")
        expected = self._plan and self._expect[0] == (state.hash, state.ply)
        if expected and state.is_legal(self._plan[0]):
            self._expect.pop(0)
            return self._plan.pop(0)
        work = state.clone()
        plan = self._search(work)
        self._plan, self._expect = plan[1:], []
        for a in plan[:-1]:
            work.apply(a)
            self._expect.append((work.hash, work.ply))
        return plan[0]

    def _search(self, work: GameState) -> list[int]:
        """The chosen turn of the player to move in ``work`` (left as it was)."""
        self.searches += 1
        me = work.current_player
        p = self.params
        best: Turn | None = None
        stopping = self._is_stopping
        for _, tie, turn in best_turns(work, p["beam"], p["replies"], self.rng, stopping):
            for a in turn:
                work.apply(a)
            reply: list[int] = []
            if not work.is_terminal():
                answers = best_turns(work, p["reply_beam"], 1, self.rng, stopping)
                reply = answers[0][2] if answers else []
            for a in reply:
                work.apply(a)
            value = _value(work, me)
            for _ in range(len(turn) + len(reply)):
                work.undo()
            if best is None or (value, -len(turn), tie) > (best[0], -len(best[2]), best[1]):
                best = (value, tie, turn)
            if stopping():
                break
        assert best is not None  # a running game has a legal action, so a turn
        return best[2]
