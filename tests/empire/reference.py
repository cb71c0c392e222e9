"""Slow, literal, pure-Python reference implementation of Empire Plateau.

Written only from the project's rules page ("the page"; the repository's complete rules,
``docs/rules/empire-plateau.md``, are written from it) and the rulebook text it cites ([RB], not
in the repository). Comments of the form ``§Section`` cite a section of the page by its own
title (``docs/rules/empire-plateau.md`` numbers and titles its sections differently);
``[ruling]`` marks one of the page's rulings.  Standard library only: nothing from ``plateau``
or ``plateau_core`` is imported, so this file is an independent second opinion for the compiled
engine.  It favours plain lists, sets and
dicts and a brute-force depth-first search over simple paths, pruned only by the remaining budget.

Public API
----------
* ``polar_board(spokes, rings)`` -> :class:`Board`; ``BOARDS`` holds ``ep16`` and ``ep24``.
* ``State(variant="two", board="ep16")``: the start of a game.  Queries: ``legal_actions()``,
  ``apply(text)``, ``is_over()``, ``winner``, ``ranking()``, ``returns()``, ``current_player``,
  ``current_empire``, ``position()`` / ``State.from_position(dict)``, ``copy()``,
  ``classify(text)``.  ``perft(state, depth)``.

Canonical order of ``legal_actions()``
--------------------------------------
1. moves ``from-to:n``, sorted by (from dot index, to dot index, n);
2. then frees ``+T@dot``, sorted by (type in the order 2, 4, 6, E; dot index);
3. then ``end`` (last, when legal).
Dot index = ``(ring-1)*S + spoke`` (``a1`` = 0, ``b1`` = 1, ``a2`` = S).

Position dict (``position()``; ``from_position`` inverts it)
-------------------------------------------------------------
::

    {"variant": "two",            # two | four | duel | three
     "board": "ep16",             # ep16 | ep24
     "to_move": "B",              # Empire whose turn it is (after a draw: the next Empire)
     "armies": {"a5": "G4", ...}, # dot -> Empire letter + type (2, 4, 6, E), in dot-index order
     "total": 0,                  # steps this turn
     "small": 0,                  # steps by small armies this turn
     "emblem_moved": False,
     "locked": False,
     "moved": ["k11"],            # current dots of the armies moved this turn, dot-index order
     "free_window": None,         # None, or the letter of the Empire Y just conquered whose
                                  #   captures of the mover's armies may be freed now
     "captures": [["R", "G", "2", 2], ...],  # [captor, victim, type, count], count > 0, sorted
                                  #   by (captor, victim) in B,G,M,R order, then type 2,4,6,E
     "conquered": ["R"],          # Empires conquered, in the order of conquest
     "out": [3],                  # players out, in the order they went out
     "empty_turns": 0}            # consecutive turns ended with total = 0

Nothing else is stored: the owners and the Empires in play follow from the variant, the
active bases from the board and ``conquered``, and the result from ``out`` and
``empty_turns`` (over when at most one player is not out, or when ``empty_turns`` has reached
the number of Empires still in play before the turn to act has taken a step; the latter is a
draw).  ``from_position`` accepts a dict
with only ``variant`` and ``armies``; every other key defaults to the start-of-turn value
(``board`` ep16, ``to_move`` the first Empire in play in the order B, G, M, R).

Returns and ranking (the page says only "last player standing wins" and "ranked by when they
went out, later is better")
------------------------------------------------------------------------------------------
* ``ranking()`` is a list of groups of players, best first, players ascending inside a group.
  It answers at any ply as "the ranking if the game ended now": the players not out form the
  first group (a single winner once the game is won), then the players out, the last to go
  out first.
* Points by place: ``1 - 2*(place-1)/(N-1)`` for N players, places counted from 1.  Two players:
  winner +1, loser -1.  Four players: +1, +1/3, -1/3, -1 (first out gets -1, second out -1/3,
  third out +1/3, the winner +1).  A tied group (only the players not out, in a draw by empty
  turns) **shares** the points of the places it holds: each gets their mean.  A `two`/`duel`
  draw is 0 / 0; a `four` draw after one player went out gives the three others
  (1 + 1/3 - 1/3)/3 = 1/3 each and the one out -1.  The returns always sum to 0.
* ``returns()`` is all zeros until the game is over.  ``current_player`` is -1 once it is over
  (the project's convention), ``winner`` is the winning player or ``None`` (running, or draw).

Interpretations (places where the page had to be read; each is implemented where cited)
---------------------------------------------------------------------------------------
1. Base spokes follow the compass: Empire k of (G, M, R, B) has its base spoke ``k*S/4``, which
   gives the page's table (ep16 a, e, i, m; ep24 a, g, m, s).  ``c-1`` is spoke ``c-1 mod S``
   (ccw side), ``c+1`` the cw side.
2. "Bases" in the pass-through / end rules are the bases of the Empires in play that are not
   conquered (§Conquest 1: a conquered base "becomes an ordinary dot"; §Variants: in `duel` the
   G and R dots are ordinary).
3. An unconquered base only ever holds its own Emblem or nothing (only the Emblem may stand
   there; any enemy entering it conquers it), so "an enemy Empire's base, whether empty or
   holding that Empire's Emblem" covers every case; ``from_position`` rejects other positions.
4. Entering an enemy base that holds its Emblem records a capture of that Emblem (§A turn,
   rule 3: "a conquest (and a capture of the Emblem if it is there)") in the capture record,
   although that record entry can never be used for freeing.
5. End legality: "End is legal once total >= 6" or when no army move is legal, "a pass, or a
   turn that nothing can lengthen".  In a free window with no army move legal, frees and then
   moves may still lengthen the turn to 6: End is then illegal, as the headline of "Six steps
   when possible" asks ("whenever some sequence of this turn's legal army moves and frees can
   still reach it"); frees that cannot reach 6 are not forced (§Freeing: "zero or more free
   actions").  (Until 2026-12-05 End was legal there whenever no army move was.)
6. Six steps when possible (§A turn): "some sequence of this turn's legal army moves and
   frees" means moves legal by the path and budget rules; a sequence reaches 6 when ``total``
   does, so a game-ending move with ``total < 6`` reaches nothing (but is itself always legal).
   "No army move is legal" (End) means no move legal under the six-step rule.  The earlier
   Emblem-after-small ruling needs no code: it follows.
7. The 2's L: only a 2-step path of plain steps qualifies; one step radial (``out``/``in``),
   the other tangential (``cw``/``ccw``).  A plain move of a 2 is any simple path.
8. The 4's jump may be the only link (cost 2), or be followed by 1 or 2 steps; the jumped dot
   ``b`` may hold any army (even a friendly Emblem on a friendly base, §Further rulings) except
   that ``b`` may not be the 4's own Empire's base (which can only hold the own Emblem).  The
   landing dot is a pass-through dot when the path goes on (empty, not a base) and an end dot
   otherwise.  The jumped dot is not visited, so it may be entered later in the same path.
9. "moved armies by current dot": after a move, the end dot joins ``moved``.  A freed army is
   placed on an empty dot, so it is never in ``moved``: it may move (§Further rulings), a small
   one unless ``locked``, an Emblem unless ``emblem_moved``.
10. The free window opens after every conquest that does not end the game, even when nothing
    can be freed (so ``free_window`` is set in the position); it closes at the next move or
    End.  Freed armies are taken off the capture record (the record is "captures made minus
    armies freed"); armies left unfreed stay in the record but can never be freed again
    (Y cannot be conquered twice).
11. Free targets: for type T in 2/4/6, every empty dot that is a T starting dot of X's own
    layout or of Y's layout (§Further rulings: "any empty starting dot of the same army type");
    for E, only X's own base, when empty.  Layout dots of small armies are never bases.
12. The draw counter: End with ``total == 0`` adds 1, End with ``total > 0`` resets it to 0;
    after the End the game is a draw once the counter is >= the number of Empires not
    conquered.  (A conquest needs a move, so the number of Empires cannot change during a run
    of empty turns.)  The turn still passes to the next Empire, so ``to_move`` in a drawn
    position is the Empire after the last one to end.
13. Worked check 8 speaks of an unmoved Emblem with "budget 2".  That cannot occur in play: an
    unmoved Emblem's budget is ``12 - total`` with ``total = small <= 6``.  The tests read it as
    "its moves of cost <= 2" and also check it on a hand-made position with ``total = 10``
    (``from_position`` does not check the per-turn fields against each other).
14. Parsing: ``x`` may replace ``-`` in a move (§Actions).  On ep24 ``x`` is also a spoke
    letter; a dot is always one letter plus digits, so ``x5xa5:3`` still parses unambiguously.
15. A state's history and undo are not kept; ``perft`` applies each action to a copy.
    The optional turn limit of §Conquest counts Empire turns (End actions): ``State(...,
    turn_limit=n)`` ends the game after the n-th End, the players still in play tied (as in a
    draw), players out ranked as always.  Positions under a limit carry ``turn_limit`` and
    ``turns``.

Gaps and tensions found in the page (none changes a count; each is resolved as above)
--------------------------------------------------------------------------------------
* Worked check 8: "Only a B Emblem at ``l11``, budget 2" is not a reachable budget for an
  Emblem that has not moved (see 13).
* "End is legal once ``total >= 6``" next to "If no army move is legal, End is legal whatever
  ``total`` is" leaves open whether frees count as moves (see 5).
* §Freeing says the window "closes at X's next move or End" but not whether it opens when
  nothing can be freed; the serialized state lists only "whether the free window is open",
  while the frees need to know *which* Empire was conquered: the position stores its letter.
* §Notes for implementers suggests memoizing walks; this reference deliberately does not.
* The page's §A turn tracks "the set of armies moved" while §Actions serializes "moved armies
  by current dot"; they are the same thing here (see 9).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

# --------------------------------------------------------------------------------------------
# §Empires and bases; §Material
# --------------------------------------------------------------------------------------------
ORDER: tuple[str, ...] = ("B", "G", "M", "R")  # §Turn order: B first, then clockwise
NAMES: dict[str, str] = {
    "G": "Greek",
    "M": "Median Persian",
    "R": "Roman",
    "B": "Babylonian",
}
# Compass quarter of each Empire's base spoke, clockwise from North (interpretation 1).
QUARTER: dict[str, int] = {"G": 0, "M": 1, "R": 2, "B": 3}

TYPES: tuple[str, ...] = ("2", "4", "6", "E")  # canonical type order
VALUE: dict[str, int] = {"2": 2, "4": 4, "6": 6, "E": 12}  # §Step budget
MATERIAL: dict[str, int] = {"2": 12, "4": 4, "6": 2, "E": 1}  # §Material: 19 armies
SMALL_LIMIT = 6  # small armies together, per turn
TURN_LIMIT = 12  # all armies together, per turn
END_MIN = 6  # End is legal once total >= 6

DIRECTIONS: tuple[str, ...] = ("out", "in", "cw", "ccw")
RADIAL: dict[str, bool] = {"out": True, "in": True, "cw": False, "ccw": False}

SPOKE_LETTERS = "abcdefghijklmnopqrstuvwxyz"


# --------------------------------------------------------------------------------------------
# §Board (a polar grid); §The board as data
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Board:
    """A board table: per dot, its neighbour in each direction (absent = none), and the bases."""

    name: str
    spokes: int
    rings: int
    neighbours: tuple[dict[str, int], ...]  # dot index -> {direction: neighbour index}
    bases: dict[str, int]  # Empire letter -> dot index of its base
    base_spokes: dict[str, int]  # Empire letter -> spoke number c

    @property
    def size(self) -> int:
        return self.spokes * self.rings

    def name_of(self, index: int) -> str:
        """Spoke letter + ring number; index = (ring-1)*S + spoke."""
        if not 0 <= index < self.size:
            raise ValueError(f"dot index {index} is off the board")
        ring, spoke = divmod(index, self.spokes)
        return f"{SPOKE_LETTERS[spoke]}{ring + 1}"

    def index_of(self, name: str) -> int:
        match = re.fullmatch(r"([a-zA-Z])([0-9]+)", name)
        if match is None:
            raise ValueError(f"not a dot name: {name!r}")
        spoke = SPOKE_LETTERS.index(match.group(1).lower())
        ring = int(match.group(2))
        if not (spoke < self.spokes and 1 <= ring <= self.rings):
            raise ValueError(f"dot {name!r} is off the board {self.name}")
        return (ring - 1) * self.spokes + spoke

    def layout(self, empire: str) -> dict[int, str]:
        """§Material and setup: the starting dots of ``empire`` -> army type.

        Spoke ``c`` (base spoke): Emblem on ring R, 6s on R-1 and R-2, 4s on R-3..R-6;
        spokes ``c-1`` and ``c+1``: 2s on rings R..R-5."""
        c = self.base_spokes[empire]
        r_top = self.rings
        s = self.spokes

        def dot(spoke: int, ring: int) -> int:
            return (ring - 1) * s + spoke % s

        result: dict[int, str] = {dot(c, r_top): "E"}
        for ring in (r_top - 1, r_top - 2):
            result[dot(c, ring)] = "6"
        for ring in range(r_top - 6, r_top - 2):  # R-6 .. R-3
            result[dot(c, ring)] = "4"
        for side in (c - 1, c + 1):
            for ring in range(r_top - 5, r_top + 1):  # R-5 .. R
                result[dot(side, ring)] = "2"
        return result


def polar_board(spokes: int, rings: int, name: str | None = None) -> Board:
    """§Board: S spokes x R rings.  ``out`` = ring+1, ``in`` = ring-1 (none on ring R / ring 1:
    the red centre is not a dot), ``cw`` = spoke+1 mod S, ``ccw`` = spoke-1 mod S.  Bases on ring
    R of the compass spokes (interpretation 1)."""
    if spokes % 4 != 0 or spokes > len(SPOKE_LETTERS) or rings < 7:
        raise ValueError("need a multiple of 4 spokes (at most 26) and at least 7 rings")
    neighbours: list[dict[str, int]] = []
    for index in range(spokes * rings):
        ring0, spoke = divmod(index, spokes)  # ring0 counted from 0
        nbs: dict[str, int] = {}
        if ring0 + 1 < rings:
            nbs["out"] = (ring0 + 1) * spokes + spoke
        if ring0 > 0:
            nbs["in"] = (ring0 - 1) * spokes + spoke
        nbs["cw"] = ring0 * spokes + (spoke + 1) % spokes
        nbs["ccw"] = ring0 * spokes + (spoke - 1) % spokes
        neighbours.append(nbs)
    base_spokes = {e: QUARTER[e] * spokes // 4 for e in ORDER}
    bases = {e: (rings - 1) * spokes + base_spokes[e] for e in ORDER}
    return Board(
        name=name or f"polar{spokes}x{rings}",
        spokes=spokes,
        rings=rings,
        neighbours=tuple(neighbours),
        bases=bases,
        base_spokes=base_spokes,
    )


BOARDS: dict[str, Board] = {
    "ep16": polar_board(16, 11, "ep16"),  # default [BGA]
    "ep24": polar_board(24, 11, "ep24"),  # first edition [BGA]
}


def is_l_shape(steps: tuple[str, ...]) -> bool:
    """§One army's move, rule 5: exactly 2 steps (no jump), one radial and one tangential, in
    either order."""
    return len(steps) == 2 and "jump" not in steps and RADIAL[steps[0]] != RADIAL[steps[1]]


# --------------------------------------------------------------------------------------------
# §Variants: Empire -> owning player (player 0 moves first)
# --------------------------------------------------------------------------------------------
VARIANTS: dict[str, dict[str, int]] = {
    "two": {"B": 0, "M": 0, "G": 1, "R": 1},
    "four": {"B": 0, "G": 1, "M": 2, "R": 3},
    "duel": {"B": 0, "M": 1},
    "three": {"B": 0, "M": 0, "G": 1, "R": 2},  # [RB] tips: Advanced Plateau for three
}
NUM_PLAYERS: dict[str, int] = {"two": 2, "four": 4, "duel": 2, "three": 3}


# --------------------------------------------------------------------------------------------
# Action notation (§Actions and notation)
# --------------------------------------------------------------------------------------------
MOVE_RE = re.compile(r"([a-z][0-9]+)[-x]([a-z][0-9]+):([0-9]+)")
FREE_RE = re.compile(r"\+([246e])@([a-z][0-9]+)")


def points_by_place(num_players: int) -> list[float]:
    """1 for first place down to -1 for last, evenly spaced (see the module docstring)."""
    return [1.0 - 2.0 * place / (num_players - 1) for place in range(num_players)]


# --------------------------------------------------------------------------------------------
# The state
# --------------------------------------------------------------------------------------------
#: the most six-step answers remembered at once (each key holds the whole position: about 2 KB)
KNOWN_MAX = 100_000


class _Stop(Exception):
    """Ends a search of :meth:`State._search` early."""


class State:
    """An Empire Plateau position with its per-turn bookkeeping; mutable (``apply``)."""

    def __init__(self, variant: str = "two", board: str = "ep16", turn_limit: int = 0) -> None:
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}")
        if board not in BOARDS:
            raise ValueError(f"unknown board {board!r}")
        self.variant = variant
        self.board_id = board
        self.board: Board = BOARDS[board]
        self.owner: dict[str, int] = dict(VARIANTS[variant])
        self.num_players: int = NUM_PLAYERS[variant]
        # Empires in play, in turn order (§Turn order: absent Empires are skipped).
        self.empires: list[str] = [e for e in ORDER if e in self.owner]
        # armies[dot] = (Empire letter, type) or None.
        self.armies: list[tuple[str, str] | None] = [None] * self.board.size
        for empire in self.empires:  # §Material and setup
            for dot, atype in self.board.layout(empire).items():
                self.armies[dot] = (empire, atype)
        self.to_move: str = self.empires[0]
        self._reset_turn()
        self.captures: dict[tuple[str, str, str], int] = {}  # (captor, victim, type) -> count
        self.conquered: list[str] = []
        self.out: list[int] = []
        self.empty_turns: int = 0
        # §Conquest: the optional turn limit (Empire turns, i.e. End actions; 0: none)
        self.turn_limit: int = turn_limit
        self.turns: int = 0

    def _reset_turn(self) -> None:
        """§A turn: the per-turn state at the start of a turn."""
        self.total = 0
        self.small = 0
        self.emblem_moved = False
        self.locked = False
        self.moved: set[int] = set()
        self.free_window: str | None = None

    # ------------------------------------------------------------------ simple queries
    def friendly(self, e1: str, e2: str) -> bool:
        """§Variants: armies of the same player are friendly; all others are enemies."""
        return self.owner[e1] == self.owner[e2]

    def alive_empires(self) -> list[str]:
        """Empires in play and not conquered, in turn order."""
        return [e for e in self.empires if e not in self.conquered]

    def players_in(self) -> list[int]:
        return [p for p in range(self.num_players) if p not in self.out]

    def active_bases(self) -> dict[int, str]:
        """Dot -> Empire, for the bases that are still bases (interpretation 2)."""
        return {self.board.bases[e]: e for e in self.alive_empires()}

    def is_draw(self) -> bool:
        """§Further rulings: the empty-turn counter reached the number of Empires in play when
        a turn ended. The count only grows at an End with total 0, so it is reached only in a
        position where the next turn has not taken a step yet: a conquest in the middle of a
        turn may leave fewer Empires than the count, but its turn has steps and resets it."""
        return self.total == 0 and self.empty_turns >= len(self.alive_empires())

    def limit_reached(self) -> bool:
        """The turn limit (if any) is reached: the players still in play tie."""
        return self.turn_limit > 0 and self.turns >= self.turn_limit

    def is_over(self) -> bool:
        return len(self.players_in()) <= 1 or self.is_draw() or self.limit_reached()

    @property
    def winner(self) -> int | None:
        players = self.players_in()
        if len(players) == 1:
            return players[0]
        return None

    @property
    def current_empire(self) -> str | None:
        return None if self.is_over() else self.to_move

    @property
    def current_player(self) -> int:
        return -1 if self.is_over() else self.owner[self.to_move]

    def ranking(self) -> list[list[int]]:
        """Groups of players, best first: the players not out, then those out, latest first."""
        groups: list[list[int]] = []
        if self.players_in():
            groups.append(self.players_in())
        groups.extend([p] for p in reversed(self.out))
        return groups

    def returns(self) -> list[float]:
        """Points by place (module docstring); a tied group shares its places' points."""
        result = [0.0] * self.num_players
        if not self.is_over():
            return result
        points = points_by_place(self.num_players)
        place = 0
        for group in self.ranking():
            share = sum(points[place : place + len(group)]) / len(group)
            for player in group:
                result[player] = share
            place += len(group)
        return result

    # ------------------------------------------------------------------ move generation
    def budget(self, atype: str) -> int:
        """§Step budget, rule 6: the most steps an unmoved army of this type may take now."""
        if atype == "E":
            if self.emblem_moved:  # the Emblem moves at most once per turn
                return 0
            return min(VALUE["E"], TURN_LIMIT - self.total)
        if self.locked:  # the Emblem moved after a small army: no small army may move
            return 0
        return min(VALUE[atype], SMALL_LIMIT - self.small, TURN_LIMIT - self.total)

    def end_kind(self, dot: int, empire: str, atype: str, bases: Mapping[int, str]) -> str | None:
        """§One army's move, rule 3: what the mover does by ending on ``dot``.

        ``"plain"`` (empty, not a base; or empty and the moving Emblem's own base),
        ``"take"`` (an enemy army: capture; an enemy base: conquest), or ``None`` (not a legal
        end dot: a friendly army, a small army's own base, a friendly Empire's base)."""
        occupant = self.armies[dot]
        base_owner = bases.get(dot)
        if base_owner is not None:
            if base_owner == empire:
                return "plain" if atype == "E" and occupant is None else None
            if self.friendly(base_owner, empire):
                return None  # [ruling] friendly bases are closed
            return "take"  # conquest (and a capture of the Emblem if it is there)
        if occupant is None:
            return "plain"
        if self.friendly(occupant[0], empire):
            return None
        return "take"

    def passable(self, dot: int, empire: str, atype: str, bases: Mapping[int, str]) -> bool:
        """§One army's move, rule 2: pass-through dots are empty and not a base, except the
        moving Emblem's own base."""
        if self.armies[dot] is not None:
            return False
        base_owner = bases.get(dot)
        return base_owner is None or (atype == "E" and base_owner == empire)

    def destinations(self, start: int, cap: int = TURN_LIMIT) -> set[tuple[int, int]]:
        """Every ``(to, n)`` reachable by the army on ``start`` along a path meeting rules 1-6
        and the jump rules (§One army's move; §The 4s' jump).  Not filtered by the
        six-step rule (see :meth:`moves`) nor by ``moved``."""
        found: set[tuple[int, int]] = set()

        def keep(dot: int, cost: int) -> bool:
            found.add((dot, cost))
            return False  # never stop: all of them

        self._search(start, cap, keep)
        return found

    def _shorter_than(self, start: int, need: int) -> set[tuple[int, int]] | None:
        """The destinations of the army on ``start`` of fewer than ``need`` steps, or None when
        it has one of ``need`` or more (the search stops at the first)."""
        found: set[tuple[int, int]] = set()

        def enough(dot: int, cost: int) -> bool:
            found.add((dot, cost))
            return cost >= need

        return None if self._search(start, max(need, 2), enough) else found

    def _search(self, start: int, cap: int, found: Callable[[int, int], bool]) -> bool:
        """Calls ``found(to, n)`` for every end of a legal path (repeats allowed) and returns
        True as soon as one call does (False when none did).

        Brute force: a depth-first search over simple paths, pruned when the budget is spent."""
        army = self.armies[start]
        assert army is not None
        empire, atype = army
        budget = min(self.budget(atype), cap)  # ``cap``: only the moves of at most cap steps
        if budget < 1:
            return False
        board = self.board
        bases = self.active_bases()
        visited = {start}  # rule 1: the dots of the path so far

        def arrive(dot: int, cost: int, steps: tuple[str, ...]) -> None:
            """The path reaches ``dot`` at ``cost``; ``steps`` are its links' directions
            (``"jump"`` for a jump)."""
            kind = self.end_kind(dot, empire, atype, bases)
            # rule 5: a 2 captures/conquers only along an L; other armies take on any path
            # (rule 4: the taken dot is the last one, see `passable`).
            ends = kind == "plain" or (kind == "take" and (atype != "2" or is_l_shape(steps)))
            if ends and found(dot, cost):
                raise _Stop
            if cost < budget and self.passable(dot, empire, atype, bases):
                visited.add(dot)
                walk(dot, cost, steps)
                visited.remove(dot)

        def walk(dot: int, cost: int, steps: tuple[str, ...]) -> None:
            for direction in DIRECTIONS:
                nxt = board.neighbours[dot].get(direction)
                if nxt is None or nxt in visited:
                    continue
                arrive(nxt, cost + 1, (*steps, direction))

        try:
            walk(start, 0, ())
            if atype == "4" and budget >= 2:
                # §The 4s' jump: first link only; over an army on the neighbour in direction
                # x, landing on that army's neighbour in the same direction x; costs 2; never
                # over the 4's own Empire's base; the jumped dot is not visited.
                own_base = board.bases[empire]
                for direction in DIRECTIONS:
                    over = board.neighbours[start].get(direction)
                    if over is None or self.armies[over] is None or over == own_base:
                        continue
                    land = board.neighbours[over].get(direction)
                    if land is None or land in visited:
                        continue
                    arrive(land, 2, ("jump",))
        except _Stop:
            return True
        return False

    def army_moves(self, start: int) -> set[tuple[int, int]]:
        """The ``(to, n)`` of the current Empire's army on ``start`` that the path and budget
        rules allow (empty if it moved); not filtered by the six-step rule."""
        army = self.armies[start]
        if army is None or army[0] != self.to_move or start in self.moved:
            return set()
        return self.destinations(start)

    def path_moves(self) -> list[tuple[int, int, int]]:
        """Every ``(from, to, n)`` the path and budget rules allow, in canonical order."""
        result: list[tuple[int, int, int]] = []
        for start in range(self.board.size):
            for to, n in self.army_moves(start):
                result.append((start, to, n))
        return sorted(result)

    def _key(self) -> tuple[Any, ...]:
        """Everything the rest of the turn depends on (memo of the six-step search)."""
        return (
            tuple(self.armies),
            self.total,
            self.small,
            self.emblem_moved,
            self.locked,
            frozenset(self.moved),
            self.free_window,
            tuple(sorted(self.captures.items())),
            tuple(self.conquered),
            tuple(self.out),
        )

    def can_reach_six(self, known: dict[tuple[Any, ...], bool] | None = None) -> bool:
        """§A turn, "Six steps when possible": whether some sequence of this turn's army moves
        and frees (legal by the path and budget rules) brings ``total`` to 6 or more.

        Brute force over sequences; ``known`` remembers the answers of the positions already
        searched (frees commute, so the same position comes up in many orders)."""
        if self.total >= END_MIN:
            return True
        if self.is_over():
            return False
        if self.emblem_moved and (self.locked or self.total + SMALL_LIMIT - self.small < END_MIN):
            # §Step budget: the Emblem has had its move, and the small armies together have
            # fewer steps left than 6 needs (none at all once locked); frees add no steps.
            return False
        if known is None:
            known = {}
        elif len(known) > KNOWN_MAX:
            known.clear()  # memory stays bounded (answers are only remembered to save time)
        key = self._key()
        if key in known:
            return known[key]
        need = END_MIN - self.total
        # A path of more than ``need`` steps has a prefix of exactly ``need`` that ends on a dot
        # it could stop on, except a 4's first-link jump (2 steps): so the moves of at most
        # max(need, 2) steps tell whether one reaches 6, and the shorter ones are all we need.
        # The armies with the most steps to spend go first: one of them usually answers at once.
        ranked: list[tuple[int, int]] = []
        for start in range(self.board.size):
            army = self.armies[start]
            if army is not None and army[0] == self.to_move and start not in self.moved:
                ranked.append((-self.budget(army[1]), start))
        short: list[tuple[int, int, int]] = []
        for _, start in sorted(ranked):
            shorter = self._shorter_than(start, need)
            if shorter is None:
                known[key] = True
                return True
            short.extend((start, to, n) for to, n in shorter)
        answer = False
        for f, t, n in sorted(short, key=lambda move: (-move[2], move)):  # longest first
            child = self.copy()
            child._do_move(f, t, n)
            if child.can_reach_six(known):
                answer = True
                break
        if not answer:
            for atype, dot in self.frees():
                child = self.copy()
                child._do_free(atype, dot)
                if child.can_reach_six(known):
                    answer = True
                    break
        known[key] = answer
        return answer

    def moves(self) -> list[tuple[int, int, int]]:
        """All legal ``(from, to, n)`` of the Empire to move, in canonical order.

        §A turn, six steps when possible: while some sequence can still reach 6, a move after
        which none can is illegal, unless it ends the game."""
        if self.is_over():
            return []
        result = self.path_moves()
        known: dict[tuple[Any, ...], bool] = {}  # answers shared by the searches of this list
        if self.total >= END_MIN or not self.can_reach_six(known):
            return result
        kept = []
        for f, t, n in result:
            child = self.copy()
            child._do_move(f, t, n)
            if child.is_over() or child.can_reach_six(known):
                kept.append((f, t, n))
        return kept

    def frees(self) -> list[tuple[str, int]]:
        """§Freeing captured armies: the legal ``(type, dot)`` while the window is open."""
        conquered = self.free_window
        if conquered is None or self.is_over():
            return []
        mover = self.to_move
        result: list[tuple[str, int]] = []
        for atype in TYPES:
            if self.captures.get((conquered, mover, atype), 0) <= 0:
                continue
            if atype == "E":
                targets = {self.board.bases[mover]}  # only X's own base
            else:
                targets = {
                    dot
                    for layout in (self.board.layout(mover), self.board.layout(conquered))
                    for dot, t in layout.items()
                    if t == atype
                }
            for dot in sorted(targets):
                if self.armies[dot] is None:
                    result.append((atype, dot))
        return result

    def end_legal(self, moves: list[tuple[int, int, int]] | None = None) -> bool:
        """§A turn: End is legal when total >= 6, or when no army move is legal and the turn
        cannot be lengthened to 6 (in a free window, frees and then moves might)."""
        if self.is_over():
            return False
        if moves is None:
            moves = self.moves()
        return self.total >= END_MIN or (not moves and not self.can_reach_six())

    def legal_actions(self) -> list[str]:
        """The legal actions in the page's notation, in canonical order (module docstring)."""
        return list(self._legal_map())

    def _legal_map(self) -> dict[str, tuple[Any, ...]]:
        """Action text -> internal form, in canonical order (remembered for the position last
        asked about: a caller that lists the actions and then applies one pays once)."""
        key = repr(self.position())
        cached = getattr(self, "_legal_cache", None)
        if cached is not None and cached[0] == key:
            return dict(cached[1])
        name = self.board.name_of
        result: dict[str, tuple[Any, ...]] = {}
        self._legal_cache = (key, result)
        if self.is_over():
            return dict(result)
        moves = self.moves()
        for f, t, n in moves:
            result[f"{name(f)}-{name(t)}:{n}"] = ("move", f, t, n)
        for atype, dot in self.frees():
            result[f"+{atype}@{name(dot)}"] = ("free", atype, dot)
        if self.end_legal(moves):
            result["end"] = ("end",)
        return dict(result)

    # ------------------------------------------------------------------ parsing and applying
    def normalize(self, text: str) -> str:
        """Canonical text of an action: lower case, ``-`` for ``x``, ``E`` upper case; dot names
        checked against the board.  Raises ``ValueError`` on malformed input."""
        raw = text.strip().lower()
        if raw == "end":
            return "end"
        match = MOVE_RE.fullmatch(raw)
        if match is not None:
            f = self.board.index_of(match.group(1))
            t = self.board.index_of(match.group(2))
            n = int(match.group(3))
            return f"{self.board.name_of(f)}-{self.board.name_of(t)}:{n}"
        match = FREE_RE.fullmatch(raw)
        if match is not None:
            dot = self.board.index_of(match.group(2))
            return f"+{match.group(1).upper()}@{self.board.name_of(dot)}"
        raise ValueError(f"not an action: {text!r}")

    def apply(self, text: str) -> None:
        """Play one action; raises ``ValueError`` if it is malformed or illegal."""
        action = self.normalize(text)
        legal = self._legal_map()
        if action not in legal:
            raise ValueError(f"illegal action {text!r}")
        self._apply(legal[action])

    play = apply  # the house style's name

    def classify(self, text: str) -> str:
        """``"move"``, ``"capture"``, ``"conquest"``, ``"free"`` or ``"end"``: what an action
        does if played now (a conquest of a base holding its Emblem counts as a conquest).
        Legality is not checked (that would cost a move generation per call)."""
        action = self.normalize(text)
        if action == "end":
            return "end"
        if action.startswith("+"):
            return "free"
        to = self.board.index_of(action.split("-")[1].split(":")[0])
        if self.active_bases().get(to, self.to_move) != self.to_move:
            return "conquest"
        return "capture" if self.armies[to] is not None else "move"

    def _apply(self, action: tuple[Any, ...]) -> None:
        if action[0] == "move":
            self._do_move(action[1], action[2], action[3])
        elif action[0] == "free":
            self._do_free(action[1], action[2])
        else:
            self._do_end()

    def _do_move(self, start: int, to: int, n: int) -> None:
        army = self.armies[start]
        assert army is not None
        empire, atype = army
        bases = self.active_bases()
        target = self.armies[to]
        if target is not None:  # a capture (of the Emblem, when conquering its base)
            key = (empire, target[0], target[1])
            self.captures[key] = self.captures.get(key, 0) + 1
        self.armies[start] = None
        self.armies[to] = army
        self.moved.add(to)
        self.total += n
        if atype == "E":
            if self.small > 0:  # §Further rulings: what exactly is `locked`
                self.locked = True
            self.emblem_moved = True
        else:
            self.small += n
        self.free_window = None  # the window closes at X's next move
        if bases.get(to, empire) != empire:  # an enemy base (the own base is a plain move)
            self._conquer(bases[to])

    def _conquer(self, victim: str) -> None:
        """§Conquest and the end of the game."""
        for dot, army in enumerate(self.armies):
            if army is not None and army[0] == victim:
                self.armies[dot] = None  # 1. all of Y's armies leave; the base is ordinary
        self.conquered.append(victim)
        player = self.owner[victim]
        if all(e in self.conquered for e in self.empires if self.owner[e] == player):
            self.out.append(player)  # 2. a player with no unconquered Empire left is out
        if len(self.players_in()) > 1:
            self.free_window = victim  # 4. the turn goes on; freeing first (interpretation 10)
        # 3. otherwise the game is over (derived from `out`)

    def _do_free(self, atype: str, dot: int) -> None:
        assert self.free_window is not None and self.armies[dot] is None
        key = (self.free_window, self.to_move, atype)
        self.captures[key] -= 1
        if self.captures[key] == 0:
            del self.captures[key]
        self.armies[dot] = (self.to_move, atype)

    def _do_end(self) -> None:
        """End: the draw counter, then the turn passes clockwise to the next Empire in play."""
        if self.total == 0:
            self.empty_turns += 1
        else:
            self.empty_turns = 0
        self.turns += 1
        self._reset_turn()
        alive = self.alive_empires()
        i = ORDER.index(self.to_move)
        for k in range(1, len(ORDER) + 1):
            candidate = ORDER[(i + k) % len(ORDER)]
            if candidate in alive:
                self.to_move = candidate
                break

    # ------------------------------------------------------------------ serialization
    def copy(self) -> State:
        other = State.__new__(State)
        other.variant = self.variant
        other.board_id = self.board_id
        other.board = self.board
        other.owner = self.owner
        other.num_players = self.num_players
        other.empires = self.empires
        other.armies = list(self.armies)
        other.to_move = self.to_move
        other.total = self.total
        other.small = self.small
        other.emblem_moved = self.emblem_moved
        other.locked = self.locked
        other.moved = set(self.moved)
        other.free_window = self.free_window
        other.captures = dict(self.captures)
        other.conquered = list(self.conquered)
        other.out = list(self.out)
        other.empty_turns = self.empty_turns
        other.turn_limit = self.turn_limit
        other.turns = self.turns
        return other

    def position(self) -> dict[str, Any]:
        """The plain JSON-able position (format in the module docstring)."""
        name = self.board.name_of
        rank = {e: i for i, e in enumerate(ORDER)}
        limit = {"turn_limit": self.turn_limit, "turns": self.turns} if self.turn_limit else {}
        return {
            "variant": self.variant,
            "board": self.board_id,
            **limit,
            "to_move": self.to_move,
            "armies": {
                name(dot): army[0] + army[1]
                for dot, army in enumerate(self.armies)
                if army is not None
            },
            "total": self.total,
            "small": self.small,
            "emblem_moved": self.emblem_moved,
            "locked": self.locked,
            "moved": [name(dot) for dot in sorted(self.moved)],
            "free_window": self.free_window,
            "captures": [
                [c, v, t, n]
                for (c, v, t), n in sorted(
                    self.captures.items(),
                    key=lambda kv: (rank[kv[0][0]], rank[kv[0][1]], TYPES.index(kv[0][2])),
                )
                if n > 0
            ],
            "conquered": list(self.conquered),
            "out": list(self.out),
            "empty_turns": self.empty_turns,
        }

    @classmethod
    def from_position(cls, data: Mapping[str, Any]) -> State:
        """Build a state from a position dict; only ``variant`` and ``armies`` are required."""
        state = cls(str(data["variant"]), str(data.get("board", "ep16")))
        state.turn_limit = int(data.get("turn_limit", 0))
        state.turns = int(data.get("turns", 0))
        board = state.board
        state.conquered = [str(e) for e in data.get("conquered", [])]
        for e in state.conquered:
            if e not in state.empires:
                raise ValueError(f"conquered Empire {e!r} is not in play")
        alive = state.alive_empires()
        state.armies = [None] * board.size
        counts: dict[tuple[str, str], int] = {}
        for dot_name, code in data["armies"].items():
            dot = board.index_of(dot_name)
            empire, atype = str(code)[0].upper(), str(code)[1:].upper()
            if empire not in alive or atype not in TYPES:
                raise ValueError(f"bad army {code!r} on {dot_name}")
            counts[empire, atype] = counts.get((empire, atype), 0) + 1
            if counts[empire, atype] > MATERIAL[atype]:
                raise ValueError(f"more {empire}{atype} armies than exist")
            base_owner = state.active_bases().get(dot)
            if base_owner is not None and (empire, atype) != (base_owner, "E"):
                raise ValueError(f"only {base_owner}'s Emblem may stand on {dot_name}")
            if state.armies[dot] is not None:
                raise ValueError(f"two armies on {dot_name}")
            state.armies[dot] = (empire, atype)
        to_move = str(data.get("to_move", alive[0]))
        if to_move not in alive:
            raise ValueError(f"Empire to move {to_move!r} is not in play")
        state.to_move = to_move
        state.total = int(data.get("total", 0))
        state.small = int(data.get("small", 0))
        state.emblem_moved = bool(data.get("emblem_moved", False))
        state.locked = bool(data.get("locked", False))
        state.moved = {board.index_of(d) for d in data.get("moved", [])}
        window = data.get("free_window")
        state.free_window = None if window is None else str(window)
        state.captures = {}
        for c, v, t, n in data.get("captures", []):
            if int(n) > 0:
                state.captures[str(c), str(v), str(t).upper()] = int(n)
        state.out = [int(p) for p in data.get("out", [])]
        state.empty_turns = int(data.get("empty_turns", 0))
        return state


def perft(state: State, depth: int) -> int:
    """Number of action sequences of length ``depth`` from ``state`` (every action -- moves,
    frees and ``end`` -- is one ply): 1 at depth 0 (even for a finished game); 0 for a finished
    game at depth >= 1.  Bulk counting at the last ply."""
    if depth == 0:
        return 1
    if state.is_over():
        return 0
    actions = state._legal_map()
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions.values():
        child = state.copy()
        child._apply(action)
        total += perft(child, depth - 1)
    return total
