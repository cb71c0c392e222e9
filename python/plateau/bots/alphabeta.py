"""Depth-limited tree search: ``maxn`` and ``paranoid`` for any number of players,
``alphabeta`` (negamax) for two.

All three deepen iteratively from depth 1 to ``depth``; with ``seconds`` > 0 they stop when the
time is up and play the best move of the last completed depth (depth 1 always completes).
Leaves are scored with the game's ``heuristic(player)``; finished games with
:func:`~plateau.bots.base.outcome_value` times 1e6, far above any heuristic. A transposition
table keyed on ``state.hash`` mixed with ``state.ply`` (cleared at every move) stores depth,
value, bound flag and best move: the ply, because a game's move limit (Albea's ``max_plies``)
makes a position repeated later a different one.

Move ordering: at the root, the actions are shuffled by ``random.Random(seed)`` (so the seed
breaks ties between equal moves) and then stably sorted by their static score (the searching
player's heuristic one ply ahead), once per move; the previous depth's best move goes first.
Below the root, the table's best move goes first, then up to two killer moves (actions that
caused a cutoff at the same distance from the root), then the rest in action-id order.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from plateau.bots.base import (
    StoppableBot,
    check_seconds,
    outcome_value,
    register_bot,
    static_value,
)
from plateau.checks import check_int
from plateau.errors import InvalidArgumentError
from plateau.state import GameState

#: finished games score ``TERMINAL_SCALE * (points - mean points)``
TERMINAL_SCALE = 1e6
EXACT, LOWER, UPPER = 0, 1, 2
INF = float("inf")
_MIX = 0x9E3779B97F4A7C15


def _key(state: GameState) -> int:
    """The transposition table's key: the position's hash mixed with its ply."""
    return state.hash ^ ((state.ply * _MIX) & 0xFFFFFFFFFFFFFFFF)


class _Timeout(Exception):
    """The time budget ran out in the middle of a depth."""


class SearchBot(StoppableBot):
    """Iterative deepening, the transposition table and root move ordering, shared by the
    three searchers; subclasses implement :meth:`_search_root`."""

    defaults: ClassVar[dict[str, Any]] = {"depth": 3, "seconds": 0.0}

    def __init__(self, seed: int = 0, **params: Any) -> None:
        super().__init__(seed, **params)
        depth, seconds = self.params["depth"], self.params["seconds"]
        check_int(depth, "depth", 1, 2**31)
        check_seconds(seconds)
        #: positions visited (actions applied) by the last select_action
        self.nodes = 0
        #: the deepest depth the last select_action completed
        self.depth_reached = 0
        #: the root's value for the mover at that depth (None: no search, one legal action)
        self.score: float | None = None
        self._root_value = 0.0
        self._tt: dict[int, tuple[int, Any, int, int]] = {}
        self._deadline = 0.0
        self._me = 0
        self._killers: list[list[int]] = []
        self._iter_depth = 0

    def _select(self, state: GameState) -> int:
        self.check_game(state)
        if state.is_terminal():
            raise InvalidArgumentError("no legal action: the game is over")
        work = state.clone()
        self._me = me = work.current_player
        self.nodes = 0
        self.depth_reached = 0
        self.score = None
        self._tt = {}
        self._killers = []
        self._deadline = 0.0
        moves: list[int] = work.legal_actions().tolist()
        self.rng.shuffle(moves)
        scores: dict[int, float] = {}
        for a in moves:
            work.apply(a)
            scores[a] = self._static(work, me)
            work.undo()
        moves.sort(key=lambda a: -scores[a])
        best = moves[0]
        if len(moves) == 1:
            return best
        seconds = float(self.params["seconds"])
        start = time.perf_counter()
        for depth in range(1, int(self.params["depth"]) + 1):
            if depth > 1 and seconds > 0:
                if time.perf_counter() - start >= seconds:
                    break
                self._deadline = start + seconds
            self._iter_depth = depth
            try:
                best = self._search_root(work, depth, moves)
            except _Timeout:
                break  # ``work`` is left mid-search; it is not used again
            self.depth_reached = depth
            self.score = self._root_value
            moves.remove(best)
            moves.insert(0, best)
        return best

    def search_info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"depth": self.depth_reached, "nodes": self.nodes}
        if self.score is not None:
            info["score"] = round(self.score, 4)
        return info

    @staticmethod
    def _static(state: GameState, player: int) -> float:
        return static_value(state, player, TERMINAL_SCALE)

    def _tick(self) -> None:
        if self._stopping or (self._deadline and time.perf_counter() >= self._deadline):
            raise _Timeout

    def _search_root(self, state: GameState, depth: int, moves: list[int]) -> int:
        """The best of ``moves`` (in this order, ties to the first) searched ``depth`` plies."""
        raise NotImplementedError

    def _probe(
        self, key: int, depth: int, alpha: float, beta: float
    ) -> tuple[float | None, float, float, int]:
        """Look a position up in the table: a value to return at once (or None), the window
        narrowed by a bound stored at enough depth, and the stored best move (-1 if none)."""
        entry = self._tt.get(key)
        if entry is None:
            return None, alpha, beta, -1
        e_depth, e_value, e_flag, tt_move = entry
        if e_depth >= depth:
            if e_flag == EXACT:
                return float(e_value), alpha, beta, tt_move
            if e_flag == LOWER:
                alpha = max(alpha, e_value)
            else:
                beta = min(beta, e_value)
            if alpha >= beta:
                return float(e_value), alpha, beta, tt_move
        return None, alpha, beta, tt_move

    def _ordered(self, state: GameState, tt_move: int, ply: int) -> list[int]:
        """The legal actions: the table's move, then this ply's killers, then by id."""
        moves: list[int] = state.legal_actions().tolist()
        killers = self._killers[ply] if ply < len(self._killers) else ()
        front = [m for m in dict.fromkeys((tt_move, *killers)) if m >= 0 and state.is_legal(m)]
        if front:
            for m in front:
                moves.remove(m)
            moves[:0] = front
        return moves

    def _killer(self, ply: int, move: int) -> None:
        """Remember ``move`` as having cut off the search at ``ply`` (two per ply)."""
        while len(self._killers) <= ply:
            self._killers.append([-1, -1])
        k = self._killers[ply]
        if k[0] != move:
            k[1], k[0] = k[0], move


@register_bot
class AlphaBetaBot(SearchBot):
    """Negamax with alpha-beta pruning for two-player games (ValueError otherwise): each
    position is valued for the player to move there, the heuristic being antisymmetric.
    Parameters: ``depth`` (3) and ``seconds`` (0: no time limit)."""

    name = "alphabeta"

    def check_game(self, state: GameState) -> None:
        if state.num_players != 2:
            raise InvalidArgumentError(
                f"alphabeta plays two-player games only; this one has {state.num_players} "
                "players (use paranoid or maxn)"
            )

    def _search_root(self, state: GameState, depth: int, moves: list[int]) -> int:
        me = self._me
        best, best_value, alpha = moves[0], -INF, -INF
        for a in moves:
            v = self._child(state, a, me, depth, alpha, INF)
            if v > best_value:
                best, best_value = a, v
                alpha = max(alpha, v)
        self._tt[_key(state)] = (depth, best_value, EXACT, best)
        self._root_value = best_value
        return best

    def _child(
        self, state: GameState, a: int, mover: int, depth: int, alpha: float, beta: float
    ) -> float:
        """Value for ``mover`` of applying ``a``, with ``depth`` plies left including it."""
        state.apply(a)
        self.nodes += 1
        if state.is_terminal():
            v = outcome_value(state.returns(), mover, TERMINAL_SCALE)
        elif depth <= 1:
            v = state.heuristic(mover)
        elif state.current_player == mover:
            v = self._negamax(state, depth - 1, alpha, beta)
        else:
            v = -self._negamax(state, depth - 1, -beta, -alpha)
        state.undo()
        return v

    def _negamax(self, state: GameState, depth: int, alpha: float, beta: float) -> float:
        """Value for the player to move in ``state`` (not finished), ``depth`` >= 1 plies."""
        self._tick()
        key = _key(state)
        hit, alpha, beta, tt_move = self._probe(key, depth, alpha, beta)
        if hit is not None:
            return hit
        alpha0 = alpha
        mover = state.current_player
        best, best_value = -1, -INF
        ply = self._iter_depth - depth
        for a in self._ordered(state, tt_move, ply):
            v = self._child(state, a, mover, depth, alpha, beta)
            if v > best_value:
                best, best_value = a, v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        self._killer(ply, a)
                        break
        flag = UPPER if best_value <= alpha0 else LOWER if best_value >= beta else EXACT
        self._tt[key] = (depth, best_value, flag, best)
        return best_value


@register_bot
class ParanoidBot(SearchBot):
    """Paranoid search with alpha-beta for any number of players: the searching player
    maximises their own heuristic and every other player is assumed to minimise it.
    Parameters: ``depth`` (3) and ``seconds`` (0: no time limit)."""

    name = "paranoid"

    def _search_root(self, state: GameState, depth: int, moves: list[int]) -> int:
        best, best_value, alpha = moves[0], -INF, -INF
        for a in moves:
            v = self._child(state, a, depth, alpha, INF)
            if v > best_value:
                best, best_value = a, v
                alpha = max(alpha, v)
        self._tt[_key(state)] = (depth, best_value, EXACT, best)
        self._root_value = best_value
        return best

    def _child(self, state: GameState, a: int, depth: int, alpha: float, beta: float) -> float:
        """Value for the searching player of applying ``a``, ``depth`` plies left with it."""
        state.apply(a)
        self.nodes += 1
        if state.is_terminal():
            v = outcome_value(state.returns(), self._me, TERMINAL_SCALE)
        elif depth <= 1:
            v = state.heuristic(self._me)
        else:
            v = self._paranoid(state, depth - 1, alpha, beta)
        state.undo()
        return v

    def _paranoid(self, state: GameState, depth: int, alpha: float, beta: float) -> float:
        self._tick()
        key = _key(state)
        hit, alpha, beta, tt_move = self._probe(key, depth, alpha, beta)
        if hit is not None:
            return hit
        alpha0, beta0 = alpha, beta
        maximise = state.current_player == self._me
        best, best_value = -1, -INF if maximise else INF
        ply = self._iter_depth - depth
        for a in self._ordered(state, tt_move, ply):
            v = self._child(state, a, depth, alpha, beta)
            if maximise:
                if v > best_value:
                    best, best_value = a, v
                    alpha = max(alpha, v)
            elif v < best_value:
                best, best_value = a, v
                beta = min(beta, v)
            if alpha >= beta:
                self._killer(ply, a)
                break
        flag = UPPER if best_value <= alpha0 else LOWER if best_value >= beta0 else EXACT
        self._tt[key] = (depth, best_value, flag, best)
        return best_value


@register_bot
class MaxNBot(SearchBot):
    """Max^n for any number of players: a position's value is the vector of every player's
    heuristic, and the player to move picks the child best for their own entry (ties to the
    first in move order). No pruning (the heuristic has no bounded sum to prune with), so the
    default depth is 2. Parameters: ``depth`` (2) and ``seconds`` (0: no time limit)."""

    name = "maxn"
    defaults: ClassVar[dict[str, Any]] = {"depth": 2, "seconds": 0.0}

    def _search_root(self, state: GameState, depth: int, moves: list[int]) -> int:
        me = self._me
        best, best_vec = moves[0], None
        for a in moves:
            vec = self._child(state, a, depth)
            if best_vec is None or vec[me] > best_vec[me]:
                best, best_vec = a, vec
        self._tt[_key(state)] = (depth, best_vec, EXACT, best)
        self._root_value = best_vec[me] if best_vec is not None else 0.0
        return best

    def _child(self, state: GameState, a: int, depth: int) -> list[float]:
        state.apply(a)
        self.nodes += 1
        players = range(state.num_players)
        if state.is_terminal():
            r = state.returns()
            vec = [outcome_value(r, p, TERMINAL_SCALE) for p in players]
        elif depth <= 1:
            vec = [state.heuristic(p) for p in players]
        else:
            vec = self._maxn(state, depth - 1)
        state.undo()
        return vec

    def _maxn(self, state: GameState, depth: int) -> list[float]:
        self._tick()
        key = _key(state)
        entry = self._tt.get(key)
        tt_move = -1
        if entry is not None:
            e_depth, e_vec, _, tt_move = entry
            if e_depth >= depth:
                return list(e_vec)
        mover = state.current_player
        best, best_vec = -1, None
        for a in self._ordered(state, tt_move, self._iter_depth - depth):
            vec = self._child(state, a, depth)
            if best_vec is None or vec[mover] > best_vec[mover]:
                best, best_vec = a, vec
        assert best_vec is not None  # a running game has a legal action
        self._tt[key] = (depth, best_vec, EXACT, best)
        return best_vec
