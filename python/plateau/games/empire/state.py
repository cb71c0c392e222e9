"""Empire Plateau (Frances Games, 2021): variants, the board option, notation, set-up positions,
the diagram and the public state class, on top of the compiled kernel ``plateau_core.empire.core``.

Rules: ``docs/rules/empire-plateau.md``. How the library exposes the game (action ids,
observation planes, the position dict, the heuristic, its own decisions):
``docs/empire-plateau.md``.
"""

from __future__ import annotations

import numbers
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Union

import numpy as np
from plateau_core.empire import batch as _eb
from plateau_core.empire import core as _e

from plateau.checks import check_int, folded, shown
from plateau.errors import (
    InvalidActionError,
    InvalidArgumentError,
    InvalidBoardError,
    UnknownVariantError,
    position_errors,
)
from plateau.games.empire.board import (
    ARMY_COUNTS,
    ARMY_TYPES,
    DOT_NAME_PATTERN,
    EMPIRE_NAMES,
    EMPIRES,
    SHIPPED_BOARDS,
    Board,
    board_from_dict,
    board_from_json,
    board_to_json,
    load_board,
)
from plateau.state import GameState

#: army types in id order (a type's index is its place here): Emblem, 6, 4, 2
TYPES: tuple[str, ...] = tuple(_e.TYPES)
#: the most steps an army of each type takes in one move
VALUE: dict[str, int] = dict(zip(TYPES, _e.VALUE))
#: an army's name ("B4", "GE") by its code in the kernel (1 + 4 * Empire + type; 0: none)
_ARMY_NAMES: tuple[str, ...] = ("", *(e + t for e in EMPIRES for t in TYPES))
#: steps in a turn, steps of the small armies in a turn, steps before End is legal
TURN_STEPS, SMALL_STEPS, END_MIN = 12, 6, 6

if tuple(ARMY_TYPES) != TYPES:  # pragma: no cover - the two modules must agree
    raise ImportError(
        "plateau_core.empire.core.TYPES differs from plateau.games.empire.board.ARMY_TYPES"
    )


@dataclass(frozen=True)
class EmpireVariant:
    """One variant: who owns which Empire (the rules page's variant table)."""

    name: str
    index: int  # the kernel's variant index
    players: int
    #: the player of each Empire in EMPIRES order (B, G, M, R), None if it is not in play
    owners: tuple[int | None, ...]

    def empires(self, player: int) -> tuple[str, ...]:
        """The Empires of ``player``, in turn order."""
        return tuple(e for e, p in zip(EMPIRES, self.owners) if p == player)


VARIANTS: dict[str, EmpireVariant] = {
    name: EmpireVariant(name, index, players, tuple(None if p < 0 else p for p in owners))
    for index, (name, players, owners) in enumerate(_e.VARIANTS)
}
_BY_INDEX = {v.index: v for v in VARIANTS.values()}
POINTS: dict[int, tuple[float, ...]] = {k: tuple(v) for k, v in _e.POINTS.items()}

#: a board given as the ``board`` option: a shipped board's name, a path to a board file, a
#: board as a dict in the file format, or a ``Board``
BoardSpec = Union[str, "os.PathLike[str]", Mapping[str, Any], Board]


# -- boards -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _BoardInfo:
    """What the Python layer keeps about a board whose tables are loaded in the kernel."""

    board: Board
    #: what ``options["board"]`` shows: the name of a shipped board, else the board itself as
    #: JSON text in the board file format (so that a game record replays anywhere)
    option: str
    bipartite: bool


_SHIPPED_TABLES: dict[str, _e.EmpireTables] = {}
#: user boards by their canonical JSON text (a few kept: each game holds its own tables)
_USER_TABLES: OrderedDict[str, _e.EmpireTables] = OrderedDict()
_USER_CACHE = 16
#: guards both caches: ``new_game`` may run in several threads at once
_TABLES_LOCK = threading.Lock()


def _tables_of(board: Board, option: str) -> _e.EmpireTables:
    if board.polar is not None and board.spokes is not None and board.rings is not None:
        rows, cols = board.rings, board.spokes
        cells = np.array([(ring - 1) * cols + spoke for spoke, ring in board.polar], np.int32)
    else:
        rows, cols = 1, len(board)
        cells = np.arange(len(board), dtype=np.int32)
    tables = _e.EmpireTables(
        board.name,
        board.neighbour_array(),
        board.base_array(),
        board.layout_array(),
        cells,
        rows,
        cols,
    )
    tables.info = _BoardInfo(board, option, tables.bipartite)
    return tables


def board_tables(board: object) -> _e.EmpireTables:
    """The kernel's tables of the ``board`` option (loaded once per board). ``board`` is a
    shipped board's name (``"ep16"``, ``"ep24"``), a path to a board file (see
    ``docs/empire-board-format.md``), the JSON text of a board file (a string that starts with
    ``{``), a board as a dict in that format, or a ``Board``; ValueError (InvalidBoardError for
    a bad board) otherwise."""
    if isinstance(board, str) and board in SHIPPED_BOARDS:
        with _TABLES_LOCK:  # one set of tables per shipped board, whichever thread builds it
            tables = _SHIPPED_TABLES.get(board)
            if tables is None:
                tables = _SHIPPED_TABLES[board] = _tables_of(load_board(board), board)
        return tables
    if isinstance(board, str) and board.lstrip().startswith("{"):
        cached = _cached_user_tables(board)  # the canonical text of a board seen before
        if cached is not None:
            return cached
        b = board_from_json(board)
    elif isinstance(board, Board):
        b = board
    elif isinstance(board, Mapping):
        b = board_from_dict(dict(board))
    elif isinstance(board, (str, os.PathLike)):
        b = load_board(board)
    else:
        raise InvalidArgumentError(
            f"the board option is the name of a shipped board ({', '.join(SHIPPED_BOARDS)}), "
            f"a path to a board file, board JSON text or a board as a dict; got {shown(board)}"
        )
    if b.name in SHIPPED_BOARDS:
        if b != load_board(b.name):
            raise InvalidBoardError(
                f"the name {shown(b.name)} belongs to a shipped board, and this board differs from "
                "it; give your board another name"
            )
        return board_tables(b.name)
    text = board_to_json(b)
    cached = _cached_user_tables(text)
    if cached is not None:
        return cached
    tables = _tables_of(b, text)  # outside the lock: other threads need not wait for this
    with _TABLES_LOCK:
        cached = _USER_TABLES.get(text)
        if cached is not None:  # another thread built it meanwhile: share that one
            _USER_TABLES.move_to_end(text)
            return cached
        _USER_TABLES[text] = tables
        while len(_USER_TABLES) > _USER_CACHE:
            _USER_TABLES.popitem(last=False)
    return tables


def _cached_user_tables(text: str) -> _e.EmpireTables | None:
    """The cached tables of the user board with canonical JSON ``text``, marked as just used;
    None if not cached. Under the lock: another thread may evict the entry at any moment."""
    with _TABLES_LOCK:
        tables = _USER_TABLES.get(text)
        if tables is not None:
            _USER_TABLES.move_to_end(text)
        return tables


def _is_data_board(board: object) -> bool:
    """Whether ``board`` may stand as a board in data from elsewhere (a record, a set-up, an
    engine's position line): a shipped board's name, or the board itself (JSON text or an
    object), never anything that names a file."""
    return isinstance(board, Mapping) or (
        isinstance(board, str) and (board in SHIPPED_BOARDS or board.lstrip().startswith("{"))
    )


def data_board_tables(board: object) -> _e.EmpireTables:
    """The tables of a board given in data from elsewhere (:func:`board_tables` for a shipped
    board's name or the board itself); anything else, a path above all, is refused with
    InvalidBoardError before any file is opened. Every board that arrives in data (a record's
    options and set-up, a set-up position, an engine's position line) goes through here."""
    _check_data_board(board)
    return board_tables(board)


def _check_data_board(board: object) -> None:
    if not _is_data_board(board):
        shown = repr(board) if len(repr(board)) <= 60 else repr(board)[:50] + "..."
        raise InvalidBoardError(
            f"a board in saved or received data is a shipped board's name "
            f"({', '.join(SHIPPED_BOARDS)}) or the board itself as JSON, never a file path; "
            f"got {shown}"
        )


def _info(tables: _e.EmpireTables) -> _BoardInfo:
    info: _BoardInfo = tables.info
    return info


# -- notation -----------------------------------------------------------------------------------

# a dot is letters then a number (no leading zero), so the separator after the first dot's
# digits is unambiguous even on ep24, whose spoke x is also a separator: x5xa5:1 is x5-a5:1.
# The board format's own pattern, whatever the number's length: every name a board may give
# a dot reads back (a linear match: the digits end each dot's letters)
_DOT = DOT_NAME_PATTERN
_MOVE = re.compile(rf"({_DOT})[-x]({_DOT}):([1-9][0-9]?)\Z")
_FREE = re.compile(rf"\+([e642])@({_DOT})\Z")
_TYPE_WORD = {"E": "Emblem", "6": "6", "4": "4", "2": "2"}


def _a(t: str) -> str:
    """``t`` with its indefinite article."""
    return f"an {_TYPE_WORD[t]}" if t == "E" else f"a {t}"


class EmpirePlateauState(_e.EmpireCore, GameState):
    """A game of Empire Plateau in progress.

    Turns belong to Empires (B, G, M, R in turn order); ``current_player`` is the owner of the
    Empire to act (``current_empire``). A turn is moves ``from-to:n``, frees ``+T@dot`` right
    after a conquest, then ``end``.

    >>> import plateau
    >>> s = plateau.new_game("empire-plateau")          # variant two, board ep16
    >>> s.num_legal_actions(), s.current_empire, s.num_distinct_actions
    (133, 'B', 372417)
    >>> s.apply("m5-a5:4"); s.army_at("a5"), s.budget()["steps_left"]
    ('B4', 8)
    """

    __slots__ = ()
    game = "empire-plateau"
    notation_aliases: ClassVar[Mapping[str, str]] = {"x": "-"}

    def __init__(
        self, variant: str = "two", board: BoardSpec = "ep16", turn_limit: int = 0
    ) -> None:
        v = VARIANTS.get(variant) if isinstance(variant, str) else None
        if v is None:
            raise UnknownVariantError(
                f"unknown variant {shown(variant)} of 'empire-plateau'; known variants: "
                f"{', '.join(VARIANTS)}"
            )
        limit = check_int(turn_limit, "turn_limit", 0, _MAX_PLY)
        self._core_init(board_tables(board), v.index, limit)

    # -- identity -----------------------------------------------------------------------------

    @property
    def spec(self) -> EmpireVariant:
        """The variant: its players and who owns which Empire."""
        return _BY_INDEX[self._variant_index]

    @property
    def variant(self) -> str:
        return self.spec.name

    @property
    def board(self) -> Board:
        """The board (``plateau.games.empire.board.Board``)."""
        return _info(self._board_tables).board

    @property
    def options(self) -> dict[str, Any]:
        """``{"board": ..., "turn_limit": ...}``: the board's name for a shipped board, else the
        board itself as JSON text in the board file format (so that records replay without the
        file); the number of Empire turns after which the game ends (0: no limit)."""
        return {"board": _info(self._board_tables).option, "turn_limit": self.turn_limit}

    @property
    def turn_limit(self) -> int:
        """The ``turn_limit`` option: the game ends after this many Empire turns (End
        actions), the players still in play tied; 0 for no limit."""
        return int(self._turns()[1])

    @property
    def turns(self) -> int:
        """The Empire turns ended so far (End actions)."""
        return int(self._turns()[0])

    def points_by_place(self) -> tuple[float, ...]:
        return POINTS[self.num_players]

    # -- the position -------------------------------------------------------------------------

    def _raw(self) -> dict[str, Any]:
        """The kernel's position, decoded into names (dots as indices)."""
        (armies, to_move, total, small, emblem_moved, locked, free_from, result, conquered,
         out, empty_turns, moved, captures) = self._position()  # fmt: skip
        return {
            "armies": armies,
            "to_move": EMPIRES[to_move],
            "total": total,
            "small": small,
            "emblem_moved": emblem_moved,
            "locked": locked,
            "free_window": None if free_from < 0 else EMPIRES[free_from],
            "result": result,
            "conquered": [EMPIRES[e] for e in conquered],
            "out": list(out),
            "empty_turns": empty_turns,
            "moved": list(moved),
            "captures": [(EMPIRES[c], EMPIRES[v], TYPES[t], n) for c, v, t, n in captures],
        }

    def _dot(self, dot: int | str) -> int:
        """A dot index from a name (either case) or an index."""
        if isinstance(dot, str):
            return self.board.index(dot)
        if isinstance(dot, bool) or not isinstance(dot, numbers.Integral):
            raise InvalidArgumentError(f"a dot is a name like 'a11' or an index, got {shown(dot)}")
        return check_int(dot, "dot index", 0, len(self.board))

    def army_at(self, dot: int | str) -> str | None:
        """The army on ``dot`` (name or index) as Empire letter + type (``"B4"``, ``"GE"``),
        or None."""
        code = int(self._army(self._dot(dot)))
        return _ARMY_NAMES[code] or None

    def armies(self) -> dict[str, str]:
        """Every army on the board: dot name -> Empire letter + type, in dot-index order."""
        dots = self.board.dots
        return {dots[d]: _ARMY_NAMES[c] for d, c in enumerate(self._position()[0]) if c}

    @property
    def current_empire(self) -> str | None:
        """The letter of the Empire whose turn it is, or None once the game is over."""
        to_move, result, _, _ = self._status()
        return None if result else EMPIRES[to_move]

    def owner(self, empire: str) -> int | None:
        """The player who commands ``empire`` (a letter), or None if it is not in play."""
        if empire not in EMPIRES:
            raise InvalidArgumentError(
                f"an Empire is one of {', '.join(EMPIRES)}, got {shown(empire)}"
            )
        return self.spec.owners[EMPIRES.index(empire)]

    def empires(self, player: int) -> tuple[str, ...]:
        """The Empires of ``player`` (conquered ones included), in turn order."""
        return self.spec.empires(self._check_player(player))

    def budget(self) -> dict[str, Any]:
        """The turn so far and what is left of it: ``total`` and ``small`` steps, whether the
        Emblem has moved and the small armies are locked, ``steps_left`` (of the turn's 12),
        ``small_steps_left`` (of the small armies' 6; 0 when locked), the dots of the armies
        that have moved, and ``end_allowed_at_total`` (6; End is also legal when no army can
        move and no frees and moves could make the 6)."""
        r = self._raw()
        dots = self.board.dots
        return {
            "total": r["total"],
            "small": r["small"],
            "emblem_moved": r["emblem_moved"],
            "locked": r["locked"],
            "steps_left": TURN_STEPS - r["total"],
            "small_steps_left": 0
            if r["locked"]
            else min(SMALL_STEPS - r["small"], TURN_STEPS - r["total"]),
            "moved": [dots[d] for d in r["moved"]],
            "end_allowed_at_total": END_MIN,
        }

    def captured(self) -> list[tuple[str, str, str, int]]:
        """The capture record (armies freed again are taken off it): ``(captor, victim, type,
        count)``, by captor and victim in turn order, types E, 6, 4, 2."""
        captures: list[tuple[str, str, str, int]] = self._raw()["captures"]
        return captures

    def conquered(self) -> list[str]:
        """The Empires conquered so far, in order."""
        conquered: list[str] = self._raw()["conquered"]
        return conquered

    def players_out(self) -> list[int]:
        """The players who are out, in the order they went out."""
        out: list[int] = self._raw()["out"]
        return out

    @property
    def free_window(self) -> str | None:
        """The Empire just conquered while its captures of the conqueror's armies may be freed
        (``+T@dot``), else None."""
        free_from = self._status()[3]
        return None if free_from < 0 else EMPIRES[free_from]

    @property
    def empty_turns(self) -> int:
        """Consecutive turns ended with no step (a full round of them is a draw)."""
        return int(self._status()[2])

    @property
    def result(self) -> str | None:
        """None while the game runs, ``"win"`` (one player left) or ``"draw"`` (a full round
        of empty turns)."""
        return (None, "win", "draw")[self._status()[1]]

    def ranking(self) -> list[list[int]]:
        """The players still in share first place (alone once the game is won), then the
        players out, the last to go out first; valid at any ply ("if it ended now")."""
        out = self._raw()["out"]
        standing = [p for p in range(self.num_players) if p not in out]
        groups = [standing] if standing else []
        return groups + [[p] for p in reversed(out)]

    def _position_key(self) -> object:
        # under a turn limit the turns left decide the rest of the game too
        return self._position(), (self._turns() if self.turn_limit else None)

    # -- notation -----------------------------------------------------------------------------

    def action_to_string(self, action: int) -> str:
        """Canonical notation of any action id (legal here or not): ``from-to:n``, ``+T@dot``
        or ``end``, dots in lower case."""
        a = self.action_id(action)
        dots = self.board.dots
        n = len(dots)
        base_free = n * n * 12
        if a < base_free:
            m, cost = divmod(a, 12)
            f, t = divmod(m, n)
            return f"{dots[f]}-{dots[t]}:{cost + 1}"
        if a < base_free + 4 * n:
            t, d = divmod(a - base_free, n)
            return f"+{TYPES[t]}@{dots[d]}"
        return "end"

    def parse_action(self, text: str) -> int:
        """The id of the action written ``text`` (legal here or not): ``from-to:n`` (``x`` may
        replace ``-``), ``+T@dot`` with T one of E, 6, 4, 2, or ``end``; either letter case."""
        if not isinstance(text, str):
            raise InvalidActionError(f"action notation must be a string, got {shown(text)}")
        t = folded(text) or ""  # (not ASCII: not notation)
        board = self.board
        n = len(board)
        try:
            if t == "end":
                return n * n * 12 + 4 * n
            m = _MOVE.match(t)
            if m:
                f, to, cost = board.index(m.group(1)), board.index(m.group(2)), int(m.group(3))
                if cost > TURN_STEPS:
                    raise InvalidActionError(
                        f"{shown(text)}: a move costs 1 to {TURN_STEPS} steps, not {cost}"
                    )
                return (f * n + to) * 12 + cost - 1
            m = _FREE.match(t)
            if m:
                return n * n * 12 + TYPES.index(m.group(1).upper()) * n + board.index(m.group(2))
        except InvalidActionError:
            raise
        except ValueError as e:
            raise InvalidActionError(f"{shown(text)}: {e}") from None
        raise InvalidActionError(
            f"{shown(text)} is not Empire Plateau notation (a move like m5-a5:4, a free like "
            f"+2@h8, "
            "or end)"
        )

    def history_strings(self, viewer: int | None = None) -> list[str]:
        """The applied actions in canonical notation (every action is public; ``viewer``
        changes nothing)."""
        if viewer is not None:
            check_int(viewer, "viewer", 0, self.num_players)
        return [self.action_to_string(a) for a in self.history]

    def _why_illegal(self, action: int) -> str:
        r = self._raw()
        board = self.board
        dots = board.dots
        n = len(dots)
        if action == n * n * 12 + 4 * n:
            legal = self.legal_actions()
            if len(legal) and legal[0] < n * n * 12:  # (ascending: moves come first)
                return (
                    f"End needs a total of {END_MIN} steps (the turn has {r['total']}) while "
                    "an army can still move"
                )
            return (
                f"End needs a total of {END_MIN} steps (the turn has {r['total']}) while "
                "frees and then moves can still reach it"
            )
        if action >= n * n * 12:
            ti, d = divmod(action - n * n * 12, n)
            return self._why_not_free(r, TYPES[ti], d)
        m, cost = divmod(action, 12)
        f, to = divmod(m, n)
        return self._why_not_move(r, f, to, cost + 1)

    def _why_not_free(self, r: dict[str, Any], t: str, d: int) -> str:
        board = self.board
        x, y = r["to_move"], r["free_window"]
        name = board.dots[d]
        if y is None:
            return (
                "no free window is open: captured armies are freed right after a conquest, "
                "before the next move or End"
            )
        held = {(c, v, ty): k for c, v, ty, k in r["captures"]}
        if not held.get((y, x, t)):
            return f"the {EMPIRE_NAMES[y]} Empire holds no captured {EMPIRE_NAMES[x]} {t}"
        if t == "E":
            base = board.bases[EMPIRES.index(x)]
            if d != base:
                return f"a freed Emblem goes only on its own base {board.dots[base]}"
        elif d not in board.layouts[x][t] and d not in board.layouts[y][t]:
            return (
                f"{name} is not a starting dot of {_a(t)} in the {EMPIRE_NAMES[x]} or the "
                f"{EMPIRE_NAMES[y]} layout"
            )
        if r["armies"][d]:
            return f"{name} is occupied"
        return "it is not among the legal actions"  # pragma: no cover - every case is above

    def _why_not_move(self, r: dict[str, Any], f: int, to: int, cost: int) -> str:
        board = self.board
        dots = board.dots
        x = r["to_move"]
        code = r["armies"][f]
        if not code:
            return f"there is no army on {dots[f]}"
        e, t = EMPIRES[(code - 1) >> 2], TYPES[(code - 1) & 3]
        if e != x:
            return (
                f"the army on {dots[f]} is {EMPIRE_NAMES[e]} ({e}{t}); it is the "
                f"{EMPIRE_NAMES[x]} Empire's turn"
            )
        if f in r["moved"]:
            return f"the army on {dots[f]} has already moved this turn"
        if f == to:
            return "a move must end on another dot"
        if t == "E" and r["emblem_moved"]:
            return "the Emblem has already moved this turn"
        if t != "E" and r["locked"]:
            return "the small armies are locked: the Emblem has moved after a small army"
        if cost > VALUE[t]:
            return f"{_a(t)} moves at most {VALUE[t]} steps"
        if cost > TURN_STEPS - r["total"]:
            return f"only {TURN_STEPS - r['total']} of the turn's {TURN_STEPS} steps are left"
        if t != "E" and cost > SMALL_STEPS - r["small"]:
            return (
                f"the small armies have only {SMALL_STEPS - r['small']} of their "
                f"{SMALL_STEPS} steps left this turn"
            )
        owners = self.spec.owners
        me = owners[EMPIRES.index(x)]
        base_of = {d: b for d, b in board.base_of.items() if owners[EMPIRES.index(b)] is not None}
        base = base_of.get(to)
        if base is not None and base in r["conquered"]:
            base = None
        target = r["armies"][to]
        enemy = False
        if base == x and t != "E":
            return f"only the Emblem may enter its own base {dots[to]}"
        if base is not None and base != x:
            if owners[EMPIRES.index(base)] == me:
                return (
                    f"{dots[to]} is the base of a friendly Empire ({EMPIRE_NAMES[base]}): "
                    "friendly bases are closed"
                )
            enemy = True
        elif target:
            te = EMPIRES[(target - 1) >> 2]
            if owners[EMPIRES.index(te)] == me:
                return f"a friendly army ({te}{TYPES[(target - 1) & 3]}) stands on {dots[to]}"
            enemy = True
        if self._army_moves(f).tolist().count((f * len(dots) + to) * 12 + cost - 1):
            return (
                f"the turn must reach {END_MIN} steps while it can (six steps when possible): "
                f"after this move no sequence of moves and frees could, and it does not win"
            )
        if t == "2" and enemy:
            if cost == 1:
                return "a 2 never captures after a single step: only along an L of two steps"
            return "a 2 captures only along an L: one radial and one tangential step"
        jumps = (
            "a 4 jumps only over an army next to it, straight on, as its first link, and never "
            "over its own Empire's base"
            if t == "4"
            else "only 4s jump"
        )
        return (
            f"no allowed path of {cost} step{'s' if cost > 1 else ''} leads from {dots[f]} to "
            f"{dots[to]} (a path visits no dot twice, passes only through empty dots that are "
            f"not bases, ends at the first army or enemy base it enters, and {jumps})"
        )

    # -- set-up positions ---------------------------------------------------------------------

    def position_dict(self) -> dict[str, Any]:
        """The position as plain data (the independent reference's format): ``variant``,
        ``board`` (as the ``board`` option), ``to_move``, ``armies`` (dot -> Empire letter +
        type, in dot-index order), the turn record (``total``, ``small``, ``emblem_moved``,
        ``locked``, ``moved`` dots, ``free_window``: the Empire just conquered or None),
        ``captures`` (``[captor, victim, type, count]``), ``conquered``, ``out``,
        ``empty_turns`` and ``ply`` (the one field the reference does not have); under the
        ``turn_limit`` option also ``turn_limit`` and ``turns`` (Empire turns ended).
        :meth:`from_position_dict` rebuilds it."""
        r = self._raw()
        dots = self.board.dots
        rank = {e: i for i, e in enumerate(EMPIRES)}
        order = ("2", "4", "6", "E")
        captures = sorted(r["captures"], key=lambda c: (rank[c[0]], rank[c[1]], order.index(c[2])))
        limit = {"turn_limit": self.turn_limit, "turns": self.turns} if self.turn_limit else {}
        return {
            "variant": self.variant,
            "board": self.options["board"],
            **limit,
            "to_move": r["to_move"],
            "armies": {dots[d]: _ARMY_NAMES[c] for d, c in enumerate(r["armies"]) if c},
            "total": r["total"],
            "small": r["small"],
            "emblem_moved": r["emblem_moved"],
            "locked": r["locked"],
            "moved": [dots[d] for d in r["moved"]],
            "free_window": r["free_window"],
            "captures": [list(c) for c in captures],
            "conquered": r["conquered"],
            "out": r["out"],
            "empty_turns": r["empty_turns"],
            "ply": self.ply,
        }

    @classmethod
    def from_position_dict(
        cls,
        data: Mapping[str, Any],
        board: BoardSpec | None = None,
        turn_limit: int | None = None,
    ) -> EmpirePlateauState:
        """A game (no history) from a :meth:`position_dict`; only ``variant`` and ``armies``
        are required (the rest defaults to the start of a turn: board ep16, the first Empire
        in play to act, no turn limit). ``board`` and ``turn_limit`` (the options' values)
        override ``data["board"]`` and ``data["turn_limit"]``; ``data["board"]``, being data,
        may only name a shipped board or hold the board itself, never a path. Every field is
        checked against the rules; InvalidPositionError names the bad field (a bad ``board``
        or ``turn_limit`` argument is an InvalidOptionError)."""
        state = cls.__new__(cls)
        with position_errors():
            state._load(*_setup_args(data, board, turn_limit))
        return state

    def setup_position(self, viewer: int | None = None) -> dict[str, Any] | None:
        """The set-up position the history starts from (:meth:`position_dict` form), or None
        for a game from the start position."""
        if viewer is not None:
            check_int(viewer, "viewer", 0, self.num_players)
        root = self._root()
        return None if root is None else root.position_dict()

    # -- what a player sees (everything: perfect information) ------------------------------

    def observation(self, player: int | None = None) -> dict[str, Any]:
        """The whole position as plain data for ``player`` (default: the player to act; 0 once
        the game is over): :meth:`position_dict` plus ``player``, ``ply``,
        ``current_player``, ``current_empire``, ``terminal`` and the ``history``. Every player
        sees all of it."""
        p = self._viewer(player)
        out: dict[str, Any] = {
            "player": p,
            "ply": self.ply,
            "current_player": self.current_player,
            "current_empire": self.current_empire,
            "terminal": self.is_terminal(),
        }
        out.update(self.position_dict())
        out["history"] = self.history_strings()
        return out

    def heuristic(self, player: int) -> float:
        """Static value for ``player`` (bigger is better; antisymmetric with two players):
        the player's value minus the best other player's, a value being, per Empire still
        standing, 60 plus its material (Emblem 15, 6, 4, 2 each), plus half a point per step
        by which the player's nearest army is closer than 12 steps to each enemy base still
        standing (distances on the bare board). Computed in C."""
        me = self._check_player(player)
        values = self._values()
        return float(values[me] - max(v for i, v in enumerate(values) if i != me))

    # -- display ------------------------------------------------------------------------------

    def __str__(self) -> str:
        r = self._raw()
        board = self.board
        marks = {d: _ARMY_NAMES[c] for d, c in enumerate(r["armies"]) if c}
        standing = {
            d: "*" + b
            for d, b in board.base_of.items()
            if self.spec.owners[EMPIRES.index(b)] is not None
            and b not in r["conquered"]
            and d not in marks
        }
        lines: list[str] = []
        if board.polar is not None:
            lines.append(board.diagram({**standing, **marks}))
        else:
            for d in range(len(board)):
                if d in marks or d in standing:
                    lines.append(f"{board.dots[d]}: {marks.get(d, standing.get(d))}")
        dots = board.dots
        if r["captures"]:
            lines.append(
                "captured: " + ", ".join(f"{c}x{v}{t}:{k}" for c, v, t, k in r["captures"])
            )
        if r["conquered"]:
            lines.append(f"conquered: {' '.join(r['conquered'])}; out: {r['out']}")
        if self.is_terminal():
            state = "game over: " + (
                "a draw (a full round of empty turns)"
                if r["result"] == 2
                else f"player {self.ranking()[0][0]} wins"
            )
        else:
            x = r["to_move"]
            moved = " ".join(dots[d] for d in r["moved"]) or "-"
            state = (
                f"{EMPIRE_NAMES[x]} ({x}, player {self.current_player}) to act: total "
                f"{r['total']}, small {r['small']}, Emblem "
                f"{'moved' if r['emblem_moved'] else 'not moved'}"
                f"{', locked' if r['locked'] else ''}; moved {moved}"
                + (f"; free window after {r['free_window']}" if r["free_window"] else "")
            )
        lines.append(
            f"{self.game} {self.variant} on {board.name}, ply {self.ply}, "
            f"empty turns {r['empty_turns']}; {state}"
        )
        return "\n".join(lines)


# -- set-up checking ----------------------------------------------------------------------------

#: set-up plies stay below this (the kernel counts plies in 32 bits)
_MAX_PLY = 2**30

_FIELDS = (
    "variant",
    "board",
    "to_move",
    "armies",
    "total",
    "small",
    "emblem_moved",
    "locked",
    "moved",
    "free_window",
    "captures",
    "conquered",
    "out",
    "empty_turns",
    "ply",
    "turn_limit",
    "turns",
)


def _field_int(data: Mapping[str, Any], key: str, lo: int, hi: int, default: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise InvalidArgumentError(f"{key} must be an int in [{lo}, {hi}], got {shown(value)}")
    return value


def _field_bool(data: Mapping[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise InvalidArgumentError(f"{key} must be true or false, got {shown(value)}")
    return value


def _field_list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise InvalidArgumentError(f"{key} must be a list, got {shown(value)}")
    return value


def _setup_args(
    data: object, board: BoardSpec | None, turn_limit: int | None = None
) -> tuple[Any, ...]:
    """The arguments of ``EmpireCore._load`` for the position ``data`` after checking every
    field against the rules (ValueError naming the field)."""
    if not isinstance(data, Mapping):
        raise InvalidArgumentError(f"a position is a dict, got {type(data).__name__}")
    unknown = [k for k in data if k not in _FIELDS]
    if unknown:
        raise InvalidArgumentError(
            f"unknown field {shown(unknown[0])} in the position (fields: {_FIELDS})"
        )
    variant = data.get("variant")
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise InvalidArgumentError(
            f"variant must be one of {', '.join(VARIANTS)}, got {shown(variant)}"
        )
    v = VARIANTS[variant]
    try:
        # the position's own board is data; only the caller's argument may name a file
        if board is None:
            tables = data_board_tables(data.get("board", "ep16"))
        else:
            tables = board_tables(board)
    except ValueError as err:
        raise InvalidArgumentError(f"board: {err}") from None
    b = _info(tables).board
    owners = v.owners
    in_play = [e for e, p in zip(EMPIRES, owners) if p is not None]

    def empire(value: object, key: str) -> str:
        if not isinstance(value, str) or value not in in_play:
            raise InvalidArgumentError(
                f"{key}: {shown(value)} is not an Empire in play in {variant} "
                f"({', '.join(in_play)})"
            )
        return value

    def dot(value: object, key: str) -> int:
        if not isinstance(value, str):
            raise InvalidArgumentError(f"{key}: a dot is a name like 'a11', got {shown(value)}")
        try:
            return b.index(value)
        except ValueError as err:
            raise InvalidArgumentError(f"{key}: {err}") from None

    conquered = [empire(e, "conquered") for e in _field_list(data, "conquered")]
    if len(set(conquered)) != len(conquered):
        raise InvalidArgumentError(
            f"conquered: an Empire is conquered only once, got {shown(conquered)}"
        )
    alive = [e for e in in_play if e not in conquered]
    if not alive:
        raise InvalidArgumentError("conquered: at least one Empire stands until the end")

    # the armies
    raw_armies = data.get("armies")
    if not isinstance(raw_armies, Mapping):
        raise InvalidArgumentError(
            f"armies must map dot names to armies like 'B4', got {shown(raw_armies)}"
        )
    codes = bytearray(len(b))
    count: dict[tuple[str, str], int] = {}
    for name, code in raw_armies.items():
        d = dot(name, "armies")
        if not isinstance(code, str) or len(code) != 2:
            raise InvalidArgumentError(
                f"armies: the army on {shown(name)} must be an Empire letter and a type "
                f"(E, 6, 4, 2), like 'B4', got {shown(code)}"
            )
        e, t = code[0].upper(), code[1].upper()
        if t not in TYPES:
            raise InvalidArgumentError(
                f"armies: {shown(code)} on {name}: the type is one of E, 6, 4, 2"
            )
        if e not in alive:
            raise InvalidArgumentError(
                f"armies: {shown(code)} on {name}: {shown(e)} is not an Empire standing in this "
                f"position "
                f"({', '.join(alive)})"
            )
        if codes[d]:
            raise InvalidArgumentError(f"armies: two armies on {b.dots[d]}")
        codes[d] = 1 + 4 * EMPIRES.index(e) + TYPES.index(t)
        count[e, t] = count.get((e, t), 0) + 1
    for d, base in b.base_of.items():
        if base in alive and codes[d] and codes[d] != 1 + 4 * EMPIRES.index(base):
            raise InvalidArgumentError(
                f"armies: only the {EMPIRE_NAMES[base]} Emblem may stand on its base {b.dots[d]}"
            )

    # the capture record, and no more armies than exist
    captures: list[tuple[int, int, int, int]] = []
    taken: dict[tuple[str, str], int] = {}
    seen: set[tuple[str, str, str]] = set()
    for entry in _field_list(data, "captures"):
        if not isinstance(entry, list) or len(entry) != 4:
            raise InvalidArgumentError(
                f"captures: an entry is [captor, victim, type, count], got {shown(entry)}"
            )
        c, y, t, k = entry
        c, y = empire(c, "captures"), empire(y, "captures")
        if owners[EMPIRES.index(c)] == owners[EMPIRES.index(y)]:
            raise InvalidArgumentError(
                f"captures: {shown(entry)}: {c} and {y} are friends; only enemies capture"
            )
        if not isinstance(t, str) or t.upper() not in TYPES:
            raise InvalidArgumentError(f"captures: {shown(entry)}: the type is one of E, 6, 4, 2")
        t = t.upper()
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= ARMY_COUNTS[t]:
            raise InvalidArgumentError(
                f"captures: {shown(entry)}: the count is an int in [1, {ARMY_COUNTS[t]}]"
            )
        if (c, y, t) in seen:
            raise InvalidArgumentError(f"captures: ({c}, {y}, {t}) is given twice")
        seen.add((c, y, t))
        taken[y, t] = taken.get((y, t), 0) + k
        captures.append((EMPIRES.index(c), EMPIRES.index(y), TYPES.index(t), k))
    for e in in_play:
        for t in TYPES:
            here, gone = count.get((e, t), 0), taken.get((e, t), 0)
            if here + gone > ARMY_COUNTS[t]:
                raise InvalidArgumentError(
                    f"armies: {EMPIRE_NAMES[e]} has {here} x {t} on the board and {gone} "
                    f"captured; it has only {ARMY_COUNTS[t]}"
                )

    # who is out follows from the conquests
    expected_out: list[int] = []
    for i in range(len(conquered)):
        fallen = set(conquered[: i + 1])
        for p in range(v.players):
            if p not in expected_out and all(e in fallen for e in v.empires(p)):
                expected_out.append(p)
    out = _field_list(data, "out")
    if out != expected_out or any(isinstance(p, bool) or not isinstance(p, int) for p in out):
        # (== alone took [0.0] or [False] for [0])
        raise InvalidArgumentError(
            f"out: the players out follow from the conquests ({shown(conquered)}): expected "
            f"{shown(expected_out)}, got {shown(out)}"
        )
    won = v.players - len(out) <= 1

    # the turn
    to_move = empire(data.get("to_move", alive[0]), "to_move")
    if to_move not in alive:
        raise InvalidArgumentError(f"to_move: {to_move} is conquered")
    x = EMPIRES.index(to_move)
    total = _field_int(data, "total", 0, TURN_STEPS, 0)
    small = _field_int(data, "small", 0, SMALL_STEPS, 0)
    emblem_moved = _field_bool(data, "emblem_moved")
    locked = _field_bool(data, "locked")
    moved = [dot(m, "moved") for m in _field_list(data, "moved")]
    if len(set(moved)) != len(moved):
        raise InvalidArgumentError(f"moved: a dot is given twice in {shown(data.get('moved'))}")
    for d in moved:
        if not codes[d] or (codes[d] - 1) >> 2 != x:
            raise InvalidArgumentError(
                f"moved: {b.dots[d]} holds no army of the Empire to act ({to_move})"
            )
    emblem_on_moved = any((codes[d] - 1) & 3 == 0 for d in moved)
    smalls_moved = sum(1 for d in moved if (codes[d] - 1) & 3 != 0)
    if small > total:
        raise InvalidArgumentError(f"small: {small} steps by small armies, but only {total} in all")
    if emblem_moved != emblem_on_moved:
        raise InvalidArgumentError(
            "emblem_moved: it must say whether the Emblem of the Empire to act stands on one of "
            "the moved dots"
        )
    if emblem_moved and total - small < 1:
        raise InvalidArgumentError(
            "total: the Emblem has moved, so the total exceeds the small steps"
        )
    if not emblem_moved and total != small:
        raise InvalidArgumentError(
            "total: without the Emblem, the total is the small armies' steps"
        )
    if smalls_moved > small or (small > 0) != (smalls_moved > 0):
        raise InvalidArgumentError(
            f"moved: {smalls_moved} small armies have moved, for {small} small steps (each move "
            "takes at least one step)"
        )
    if locked and not (emblem_moved and small > 0):
        raise InvalidArgumentError(
            "locked: the small armies lock only when the Emblem moves after them"
        )
    window = data.get("free_window")
    free_from = -1
    if window is not None:
        y = empire(window, "free_window")
        if not conquered or y != conquered[-1] or won or total < 1:
            raise InvalidArgumentError(
                "free_window: it is open only right after the conquest of the last Empire in "
                "conquered, by a move of the Empire to act, while the game goes on"
            )
        if owners[EMPIRES.index(y)] == owners[x]:
            raise InvalidArgumentError(f"free_window: {y} is a friend of {to_move}")
        free_from = EMPIRES.index(y)
    empty_turns = _field_int(data, "empty_turns", 0, len(alive), 0)
    ply = _field_int(data, "ply", 0, _MAX_PLY - 1, 0)
    if turn_limit is None:
        limit = _field_int(data, "turn_limit", 0, _MAX_PLY - 1, 0)
    else:
        limit = check_int(turn_limit, "turn_limit", 0, _MAX_PLY)
    if not limit and "turns" in data:
        raise InvalidArgumentError("turns: counted only under a turn_limit")
    turns = _field_int(data, "turns", 0, limit, 0) if limit else 0
    return (
        tables,
        v.index,
        bytes(codes),
        x,
        total,
        small,
        emblem_moved,
        locked,
        free_from,
        [EMPIRES.index(e) for e in conquered],
        out,
        empty_turns,
        sorted(moved),
        captures,
        ply,
        turns,
        limit,
    )


# -- the registry -------------------------------------------------------------------------------


def _check_data_options(options: dict[str, Any]) -> None:
    """A saved game names a shipped board or holds its board as JSON text, never a path: a
    record from elsewhere must not make the loader read the reader's files (the check of
    :func:`data_board_tables`, without loading the board)."""
    _check_data_board(options.get("board", "ep16"))


def _check_option_values(variant: str, options: dict[str, Any]) -> dict[str, Any]:
    """The board loaded (once: its tables are cached) and named as the state's ``options``
    shows it (a shipped board's name, else the board's JSON text), and the turn limit."""
    return {
        "board": _info(board_tables(options["board"])).option,
        "turn_limit": check_int(options["turn_limit"], "turn_limit", 0, _MAX_PLY),
    }


def _playouts(
    variant: str, n: int, seed: int, ply_cap: int, board: BoardSpec = "ep16", turn_limit: int = 0
) -> Any:
    limit = check_int(turn_limit, "turn_limit", 0, _MAX_PLY)
    tables = board_tables(board)
    return dict(_e.random_playouts(tables, VARIANTS[variant].index, n, seed, ply_cap, limit))


def _batch(
    variant: str, n: int, seed: int, ply_cap: int, board: BoardSpec = "ep16", turn_limit: int = 0
) -> Any:
    limit = check_int(turn_limit, "turn_limit", 0, _MAX_PLY)
    return _eb.EmpireBatch(board_tables(board), VARIANTS[variant].index, n, seed, ply_cap, limit)


def _from_setup(
    variant: str, setup: Mapping[str, Any], board: BoardSpec = "ep16", turn_limit: int = 0
) -> EmpirePlateauState:
    with position_errors():
        return _from_checked_setup(variant, setup, board, turn_limit)


def _from_checked_setup(
    variant: str, setup: Mapping[str, Any], board: BoardSpec, turn_limit: int
) -> EmpirePlateauState:
    if not isinstance(setup, Mapping):
        raise InvalidArgumentError(f"a set-up position is an object, got {type(setup).__name__}")
    if setup.get("variant", variant) != variant:
        raise InvalidArgumentError(
            f"the set-up is of variant {shown(setup.get('variant'))}, not {shown(variant)}"
        )
    tables = board_tables(board)
    if "board" in setup:
        try:
            theirs = data_board_tables(setup["board"])
        except ValueError as e:
            raise InvalidArgumentError(f"board: {e}") from None
        if _info(theirs).board != _info(tables).board:
            raise InvalidArgumentError(
                "board: the set-up is on another board than the game's option"
            )
    limit = setup.get("turn_limit")
    if "turn_limit" in setup and (
        isinstance(limit, bool) or not isinstance(limit, int) or limit != turn_limit
    ):  # (!= alone took 1.0 or true for 1)
        raise InvalidArgumentError(
            "turn_limit: the set-up has another turn limit than the game's option"
        )
    return EmpirePlateauState.from_position_dict(
        {**setup, "variant": variant}, board=board, turn_limit=turn_limit
    )
