"""An exact solver of two-player positions: win, loss or draw for the player to move, with the
distance in actions and every winning first action, or "not proven" when its budget runs out.

It works for every two-player game of the library through the state API alone, on the position
as the state holds it: a game with hidden information (Albea's Plateau) is solved on the
referee's full position, faces included, as if both players saw everything.

How. The value is proven by iterative deepening over the distance ``d`` = 1, 2, ...: at each
``d``, an AND/OR search asks whether the player to move can force a win within ``d`` actions,
then whether the opponent can; and whether each can force at least a draw within ``d`` (a draw
is proven when both can). The first ``d`` that answers gives the value, and for a win or a
loss the exact distance under best play (the winner's fastest, the loser's longest
resistance). The searches stop at the first action that proves (or refutes) a node, and share a
transposition table keyed on the position's ``hash`` and ``ply`` (the ply because a game's move
limit, when set, may not be in the hash), holding per question the largest distance known to
fail and the smallest known to succeed. A player may act several times in a row (Empire
Plateau's turns): the searches follow ``current_player``, not alternation. The AND/OR search
runs in the compiled core over the game's own kernels (``GameCore.solver_forces``, on a private
copy, letting other threads run and Ctrl-C stop it every 1,024 positions); the same search in
Python (``Solver(core=False)``) is kept as the reference it is tested against.

Then every other first action is decided: a win when the player to move still forces one after
it (at any distance), not one when the opponent can then force at least a draw. With a win,
:attr:`Solution.winning_actions` lists them all and :attr:`Solution.best_actions` the fastest;
with a draw, :attr:`Solution.drawing_actions` the actions that keep it.

Deciding that a first action does *not* win needs a proof that the opponent holds at least a
draw, which a game without a move limit may never give. ``within=W`` asks a smaller, always
decidable question instead, as a chess problem's "mate in N" does: the winning first actions
are those that force a win within ``W`` actions (counting the first), and every other first
action is proven not to (it may still win more slowly).

Games without a move limit may go on for ever (Albea's Plateau can repeat positions): there a
forced win or loss is proven as anywhere, but a draw only when every line ends, so such a
position may stay "not proven" however large the budget.

>>> from plateau import new_game
>>> state = new_game("plateau-x", "mini")
>>> solve(state, nodes=200).proven
False
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from plateau_core._common import SOLVER_MAX_DEPTH, SolverTable

from plateau.checks import check_flag, check_int, check_number
from plateau.errors import InvalidArgumentError
from plateau.state import GameState

#: the values of a position for the player to move
WIN, LOSS, DRAW, UNKNOWN = "win", "loss", "draw", "unknown"


class _Budget(Exception):
    """The node or time budget ran out."""


@dataclass
class Solution:
    """What the solver proved about a position, for the player to move."""

    #: ``"win"``, ``"loss"``, ``"draw"``, or ``"unknown"`` (not proven within the budget)
    value: str
    #: actions to the end of the game under best play (win or loss), None otherwise
    distance: int | None
    #: the player to move when solved
    player: int
    #: every first action that keeps the win (at any distance; within ``within`` actions when
    #: that is set), ascending
    winning_actions: list[int] = field(default_factory=list)
    #: the first actions that win fastest (in ``distance``), ascending
    best_actions: list[int] = field(default_factory=list)
    #: with a draw: every first action that keeps it
    drawing_actions: list[int] = field(default_factory=list)
    #: first actions whose value the budget left undecided (the lists above may miss them)
    undecided_actions: list[int] = field(default_factory=list)
    #: without a proof: the largest distance within which neither player can force a win
    no_win_within: int = 0
    #: positions searched, and the seconds it took
    nodes: int = 0
    seconds: float = 0.0
    #: the actions as text (``winning_actions`` then ``drawing_actions``), for printing
    names: dict[int, str] = field(default_factory=dict)
    #: with a win and the solver's ``within``: ``winning_actions`` are those that win within
    #: this many actions (at least ``distance``), every other first action proven not to
    within: int | None = None

    @property
    def proven(self) -> bool:
        """Whether the value is proven (not ``"unknown"``)."""
        return self.value != UNKNOWN

    @property
    def complete(self) -> bool:
        """Whether the value and every first action's value are proven."""
        return self.proven and not self.undecided_actions

    def _named(self, actions: Iterable[int]) -> str:
        return ", ".join(self.names.get(a, str(a)) for a in actions)

    def __str__(self) -> str:
        cost = f"{self.nodes:,} nodes, {self.seconds:.2f} s"
        who = f"player {self.player}"
        if self.value == UNKNOWN:
            return (
                f"not proven for {who} ({cost}): neither player forces a win within "
                f"{self.no_win_within} action{'s' * (self.no_win_within != 1)}"
            )
        if self.value == DRAW:
            text = f"draw for {who}; drawing actions: {self._named(self.drawing_actions)}"
        elif self.value == WIN:
            scope = "" if self.within is None else f" within {self.within}"
            text = (
                f"win in {self.distance} for {who}; winning actions{scope}: "
                f"{self._named(self.winning_actions)} (fastest: {self._named(self.best_actions)})"
            )
        else:
            text = f"loss in {self.distance} for {who}"
        if self.undecided_actions:
            text += f"; undecided: {self._named(self.undecided_actions)}"
        return f"{text} ({cost})"


class Solver:
    """One solver's budget and transposition table; :func:`solve` makes one per call. Reuse a
    solver over positions of one game to keep what it learned (the table is bounded by
    ``table_size`` entries, then cleared). ``within``: decide a win's first actions within that
    many actions only (see the module's docstring). ``max_distance`` is at most
    ``SOLVER_MAX_DEPTH`` (1,000). ``core``: search in the compiled core (the default), or, with
    False, in Python: the slower reference the core is tested against (the same answers and
    node counts). A solver serves one search at a time (RuntimeError from a second thread)."""

    def __init__(
        self,
        nodes: int | None = None,
        seconds: float | None = None,
        max_distance: int = 200,
        table_size: int = 2_000_000,
        within: int | None = None,
        core: bool = True,
    ) -> None:
        # (the compiled solver takes fewer than 2**62: checked here, not at the first question)
        self.max_nodes = None if nodes is None else check_int(nodes, "nodes", 1, 2**62)
        if seconds is not None:
            check_number(seconds, "seconds")
            if not seconds > 0 or math.isinf(seconds):
                raise InvalidArgumentError(f"seconds must be > 0 and finite, got {seconds}")
        self.seconds = seconds
        self.max_distance = check_int(max_distance, "max_distance", 1, SOLVER_MAX_DEPTH + 1)
        self.table_size = check_int(table_size, "table_size", 1000)
        self.core = check_flag(core, "core")
        self._core_table = SolverTable(self.table_size)
        self.within = None if within is None else check_int(within, "within", 1)
        #: (hash, ply, player, goal) -> (largest distance known to fail, smallest to succeed)
        self._table: dict[tuple[int, int, int, int], tuple[int, int]] = {}
        self.nodes = 0
        #: the largest distance within which the last solve found no forced win
        self.searched = 0
        self._deadline = 0.0

    # -- the AND/OR search ----------------------------------------------------------------------

    def _forces(self, state: GameState, d: int, who: int, goal: int) -> bool:
        """Can ``who`` force, within ``d`` actions, a finished game in which it is first alone
        (goal 1: a win) or first at all (goal 0: at least a draw)? In the compiled core
        (``GameCore.solver_forces``), or with ``core=False`` in Python."""
        if not self.core:
            return self._forces_py(state, d, who, goal)
        self._core_table.nodes = self.nodes
        got = state.solver_forces(d, who, goal, self._core_table)
        self.nodes = self._core_table.nodes
        if got is None:
            raise _Budget
        return bool(got)

    def _forces_py(self, state: GameState, d: int, who: int, goal: int) -> bool:
        """``_forces`` in Python: the reference the core's search is tested against (the
        same answers, node counts and table)."""
        if state.is_terminal():
            first = state.ranking()[0]
            return who in first and (goal == 0 or len(first) == 1)
        if d <= 0:
            return False
        key = (state.hash, state.ply, who, goal)
        entry = self._table.get(key)
        if entry is not None:
            if entry[1] <= d:
                return True
            if entry[0] >= d:
                return False
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise _Budget
        self.nodes += 1
        if self._deadline and not self.nodes & 1023 and time.perf_counter() > self._deadline:
            raise _Budget
        mine = state.current_player == who
        result = not mine
        for a in state.legal_actions().tolist():
            state.apply(a)
            try:
                got = self._forces_py(state, d - 1, who, goal)
            finally:
                state.undo()
            if got == mine:  # an action that proves an OR node, a reply that refutes an AND
                result = mine
                break
        if len(self._table) >= self.table_size:
            self._table.clear()
        fail, succeed = entry if entry is not None else (0, 1 << 30)
        self._table[key] = (fail, min(succeed, d)) if result else (max(fail, d), succeed)
        return result

    def _value(self, state: GameState) -> tuple[str, int | None]:
        """The value for the player to move by deepening up to ``max_distance``: win or loss
        with its distance, draw, or unknown (``searched`` says how far); stops at the budget
        (raising :class:`_Budget`)."""
        me = state.current_player
        other = 1 - me
        for d in range(1, self.max_distance + 1):
            if self._forces(state, d, me, 1):
                return WIN, d
            if self._forces(state, d, other, 1):
                return LOSS, d
            self.searched = d
            if self._forces(state, d, me, 0) and self._forces(state, d, other, 0):
                return DRAW, None
        return UNKNOWN, None

    # -- the public entry -----------------------------------------------------------------------

    def solve(self, state: GameState) -> Solution:
        """Solve ``state`` (left unchanged) within the budget: see the module's docstring."""
        if not isinstance(state, GameState):
            raise InvalidArgumentError(f"solve() takes a game state, got {type(state).__name__}")
        if state.num_players != 2:
            raise InvalidArgumentError(
                f"the solver proves two-player positions; {state.game}/{state.variant} has "
                f"{state.num_players} players"
            )
        if state.is_terminal():
            raise InvalidArgumentError("the game is over: there is nothing to solve")
        work = state.clone()
        me = work.current_player
        t0 = time.perf_counter()
        self.nodes = self.searched = 0
        self._deadline = t0 + self.seconds if self.seconds is not None else 0.0
        self._core_table.budget(self.max_nodes, self._deadline or None)
        out = Solution(UNKNOWN, None, me)
        try:
            value, distance = self._value(work)
            out.value, out.distance = value, distance
            if value != UNKNOWN:
                self._first_actions(work, out)
        except _Budget:
            pass
        out.no_win_within = self.searched
        out.nodes = self.nodes
        out.seconds = time.perf_counter() - t0
        if out.value == UNKNOWN:
            out.winning_actions, out.best_actions, out.drawing_actions = [], [], []
            out.undecided_actions = []
        shown = out.winning_actions + out.drawing_actions + out.undecided_actions
        out.names = {a: state.action_to_string(a) for a in shown}
        return out

    def _first_actions(self, state: GameState, out: Solution) -> None:
        """Decide each first action of a proven position, all of them a distance at a time
        (so that a budget running out leaves them decided to the same depth); what the budget
        leaves undecided stays in ``undecided_actions``."""
        me, other = out.player, 1 - out.player
        if out.value == LOSS:  # every action loses
            return
        goal = 1 if out.value == WIN else 0
        keep = out.winning_actions if out.value == WIN else out.drawing_actions
        out.undecided_actions = state.legal_actions().tolist()
        # a first action cannot win faster than the root's proven distance allows
        start = (out.distance or 1) - 1 if out.value == WIN else 0
        last = self.max_distance
        if out.value == WIN and self.within is not None:
            out.within = max(self.within, out.distance or 1)
            last = out.within - 1  # the actions left after the first
        for d in range(start, last + 1):
            for a in list(out.undecided_actions):
                state.apply(a)
                try:
                    keeps: bool | None  # (a finished game answers one of the two at once)
                    if self._forces(state, d, me, goal):
                        keeps = True
                    elif out.within is None and self._forces(state, d, other, 1 - goal):
                        keeps = False
                    else:
                        keeps = None
                finally:
                    state.undo()
                if keeps is None:
                    continue
                out.undecided_actions.remove(a)
                if keeps:
                    keep.append(a)
                    keep.sort()
                    if out.value == WIN and d == start:
                        out.best_actions.append(a)
            if not out.undecided_actions:
                return
        if out.within is not None:  # the rest are proven not to win within out.within
            out.undecided_actions = []


def solve(
    state: GameState,
    seconds: float | None = None,
    nodes: int | None = None,
    max_distance: int = 200,
    within: int | None = None,
) -> Solution:
    """Solve a two-player position for the player to move within ``seconds`` and ``nodes``
    (None: no limit), searching up to ``max_distance`` actions deep: the value (win, loss,
    draw, or unknown), the distance, and the winning (or drawing) first actions (with
    ``within``: those that win within that many actions). The state is left unchanged."""
    solver = Solver(nodes=nodes, seconds=seconds, max_distance=max_distance, within=within)
    return solver.solve(state)
