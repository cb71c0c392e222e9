"""Slow, literal, pure-Python reference implementation of Jim Albea's Plateau (1986).

The rules are those of the project's rules page ("the page"; the repository's complete rules,
``docs/rules/albea-plateau.md``, are written from it); every comment of the form ``§Section``
cites a section of the page by its own title (``docs/rules/albea-plateau.md`` numbers and titles
its sections differently), and ``[ruling]`` marks one of the page's rulings.
This file is an independent second opinion for the compiled engine: it favours plain lists,
dicts and dataclasses and checks each rule as the page words it, with no attempt at speed.

Decisions taken here (all documented again where they are implemented):

* Players: ``0`` = Black (moves first), ``1`` = White (§Material).
* No chance.  The only setup choice is the opening (§Opening): it is modelled as ordinary
  actions ``<bottom>,<top>@<square>`` at ply 0 (Black) and ply 1 (White).
* Options (``RefAlbea(**options)``): only ``max_plies`` (``int`` or ``None``, default ``None`` =
  off).  When it is set, the game ends as a draw once ``ply >= max_plies`` after an action that
  did not already end the game; every action counts, tenders, responses and passes included
  (§Pass, draws; §Further rulings).  Any other keyword raises ``TypeError``.
* ``returns()``: the page defines no numeric outcome; this file uses win 1.0 / loss 0.0 /
  draw 0.5, and ``[0.0, 0.0]`` while the game is running.
* ``perft(state, 0)`` is 1 even for a finished game (the node itself is the leaf); for
  ``depth >= 1`` a finished game has 0 leaves.
* Pieces of one type and owner are interchangeable (§Material), so the state keeps reserves and
  prisoners as multisets ``{type: count}`` and board pieces carry no identity number.
* Pieces of a single-coloured type (``xx``, ``bb``, ``rr``) are always stored with ``up = 0``:
  their two faces are identical, the notation cannot tell the orientations apart, and they can
  never be flipped (§Move 1).
* ``observation(p)`` renders every piece's faces *up face first*; an opponent's face that ``p``
  has not seen is ``?``; the deduced type is given separately (``type``), only when both faces
  were seen or a seen face is orange (§Hidden information; §Further rulings).
* Set-up positions (the page's worked checks give positions directly) are built with
  :meth:`RefAlbea.from_position`; see its docstring.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

BLACK = 0
WHITE = 1
OWNER_LETTER = ("B", "W")

# --------------------------------------------------------------------------------------------
# §Material: the seven piece types.  The code is face 0 followed by face 1.
# --------------------------------------------------------------------------------------------
TYPES: tuple[str, ...] = ("xx", "bb", "rr", "bx", "rx", "ox", "rb")  # increasing value
COUNT: dict[str, int] = {"xx": 4, "bb": 2, "rr": 2, "bx": 1, "rx": 1, "ox": 1, "rb": 1}
VALUE: dict[str, int] = {"xx": 1, "bb": 4, "rr": 5, "bx": 8, "rx": 10, "ox": 15, "rb": 21}
# §Definitions: "Colored face: red, blue or orange."
COLORED_FACES = frozenset({"r", "b", "o"})


def is_colored(face: str) -> bool:
    """§Definitions: a colored face is red, blue or orange (blank ``x`` is not)."""
    return face in COLORED_FACES


def orientations(ptype: str) -> list[int]:
    """The distinct ``up`` values of a type: one for ``xx/bb/rr``, two for two-faced types."""
    return [0] if ptype[0] == ptype[1] else [0, 1]


def oriented_code(ptype: str, up: int) -> str:
    """§Material: "a piece on the board is written up-face first"."""
    return ptype[up] + ptype[1 - up]


# Every oriented code -> (type, up); e.g. "xb" -> ("bx", 1).  11 entries (§Worked checks 1).
ORIENTED: dict[str, tuple[str, int]] = {
    oriented_code(t, u): (t, u) for t in TYPES for u in orientations(t)
}


def codes_text(types: Sequence[str]) -> str:
    """§Action notation: "Code lists are sorted by value, highest first"."""
    return ",".join(sorted(types, key=lambda t: -VALUE[t]))


# --------------------------------------------------------------------------------------------
# §Board and coordinates
# --------------------------------------------------------------------------------------------
COLUMNS = "abcd"


def square_name(index: int) -> str:
    """Square index = row * 4 + col (a1 = 0, d1 = 3, a2 = 4, d4 = 15)."""
    return COLUMNS[index % 4] + str(index // 4 + 1)


def square_index(name: str) -> int:
    col = COLUMNS.index(name[0])
    row = int(name[1]) - 1
    if not (0 <= row < 4) or len(name) != 2:
        raise ValueError(f"bad square {name!r}")
    return row * 4 + col


def on_board(col: int, row: int) -> bool:
    return 0 <= col < 4 and 0 <= row < 4


# §Board: "Perimeter squares: the 12 squares in row 1, row 4, column a or column d".
PERIMETER: list[int] = [i for i in range(16) if i // 4 in (0, 3) or i % 4 in (0, 3)]

# §Board: directions as (d_col, d_row).
ORTHOGONAL: list[tuple[int, int]] = [(0, 1), (1, 0), (0, -1), (-1, 0)]  # N E S W
DIAGONAL: list[tuple[int, int]] = [(1, 1), (1, -1), (-1, -1), (-1, 1)]  # NE SE SW NW


def ray(origin: int, direction: tuple[int, int], max_distance: int) -> list[int]:
    """Squares at distance 1, 2, ... (at most ``max_distance``) from ``origin`` along a direction
    that are on the board; element ``i`` is at distance ``i + 1`` (§Board: Chebyshev steps)."""
    col, row = origin % 4, origin // 4
    squares: list[int] = []
    for distance in range(1, max_distance + 1):
        c, r = col + direction[0] * distance, row + direction[1] * distance
        if not on_board(c, r):
            break
        squares.append(r * 4 + c)
    return squares


def twister_paths(origin: int) -> list[list[int]]:
    """§Move 6: one orthogonal step (the mid square), then one diagonal step further away (one
    more step the same way plus one sideways).  Only paths whose end square is on the board are
    returned, as ``[mid, end]``."""
    col, row = origin % 4, origin // 4
    paths: list[list[int]] = []
    for dc, dr in ORTHOGONAL:
        sideways = [(dr, dc), (-dr, -dc)]  # the two directions perpendicular to (dc, dr)
        for sc, sr in sideways:
            mid_c, mid_r = col + dc, row + dr
            end_c, end_r = col + 2 * dc + sc, row + 2 * dr + sr
            if on_board(end_c, end_r):
                assert on_board(mid_c, mid_r)
                paths.append([mid_r * 4 + mid_c, end_r * 4 + end_c])
    return paths


# --------------------------------------------------------------------------------------------
# §State: pieces and stacks
# --------------------------------------------------------------------------------------------
@dataclass
class Piece:
    """§State: ``{owner, type, up, shown[2]}``; ``shown[i]``: face i was seen by the opponent."""

    owner: int
    ptype: str
    up: int
    shown: list[bool]

    @property
    def up_face(self) -> str:
        return self.ptype[self.up]

    @property
    def code(self) -> str:
        return oriented_code(self.ptype, self.up)

    def show_up_face(self) -> None:
        self.shown[self.up] = True

    def copy(self) -> Piece:
        return Piece(self.owner, self.ptype, self.up, list(self.shown))


Stack = list[Piece]  # bottom .. top


def top_unit_size(stack: Stack) -> int:
    """§Definitions: the top unit is the maximal run of the top piece's owner at the top of the
    stack; its size ``h`` is the takeoff height.  0 for an empty stack."""
    if not stack:
        return 0
    owner = stack[-1].owner
    size = 0
    for piece in reversed(stack):
        if piece.owner != owner:
            break
        size += 1
    return size


def longest_run(stack: Stack, player: int) -> int:
    """Longest run of consecutive pieces of ``player`` anywhere in the stack (§Winning)."""
    best = run = 0
    for piece in stack:
        run = run + 1 if piece.owner == player else 0
        best = max(best, run)
    return best


def sub_multisets(counts: Mapping[str, int]) -> Iterator[dict[str, int]]:
    """Every sub-multiset (the empty one included) of a multiset ``{type: count}``."""
    types = [t for t in TYPES if counts.get(t, 0) > 0]
    for choice in itertools.product(*(range(counts[t] + 1) for t in types)):
        yield {t: n for t, n in zip(types, choice) if n > 0}


def multiset_value(ms: Mapping[str, int]) -> int:
    return sum(VALUE[t] * n for t, n in ms.items())


def multiset_list(ms: Mapping[str, int]) -> list[str]:
    """A multiset as a list of codes, highest value first (§Action notation)."""
    out: list[str] = []
    for t in reversed(TYPES):
        out.extend([t] * ms.get(t, 0))
    return out


def list_multiset(types: Sequence[str]) -> dict[str, int]:
    ms: dict[str, int] = {}
    for t in types:
        if t not in VALUE:
            raise ValueError(f"unknown piece type {t!r}")
        ms[t] = ms.get(t, 0) + 1
    return ms


# --------------------------------------------------------------------------------------------
# Actions (internal, structured forms of the §Action notation strings)
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Action:
    pass


@dataclass(frozen=True)
class _Opening(_Action):
    bottom: tuple[str, int]  # (type, up)
    top: tuple[str, int]
    square: int


@dataclass(frozen=True)
class _Onboard(_Action):
    ptype: str
    up: int
    square: int
    gap: int


@dataclass(frozen=True)
class _Move(_Action):
    flip: bool
    origin: int
    k: int
    # each stop: (square, j) for an intermediate stop, (square, None) for the last stop
    stops: tuple[tuple[int, int | None], ...]


@dataclass(frozen=True)
class _Stomp(_Action):
    flip: bool
    square: int


@dataclass(frozen=True)
class _Tender(_Action):
    pieces: tuple[str, ...]


@dataclass(frozen=True)
class _Give(_Action):
    pieces: tuple[str, ...]


@dataclass(frozen=True)
class _Refuse(_Action):
    pass


@dataclass(frozen=True)
class _Pass(_Action):
    pass


def _move_text(move: _Move) -> str:
    """§Action notation: ``[~]<origin>:<k>`` then ``-<square>`` per stop, ``:<j>`` after every
    stop but the last."""
    text = ("~" if move.flip else "") + f"{square_name(move.origin)}:{move.k}"
    for square, j in move.stops:
        text += "-" + square_name(square)
        if j is not None:
            text += f":{j}"
    return text


# --------------------------------------------------------------------------------------------
# §Move 5: where a stop may be, and what may happen there (pure functions of the position)
# --------------------------------------------------------------------------------------------
def stop_allowed(there: Stack, group: Stack, player: int) -> bool:
    """§Move 5: an empty square or own-topped stack: always; an enemy-topped stack: only if some
    piece of the group shows a colored face."""
    if not there or there[-1].owner == player:
        return True
    return any(is_colored(p.up_face) for p in group)


def may_end_at(there: Stack, group: Stack, player: int) -> bool:
    """§Move 5: the move may end on an enemy-topped stack only if the group's top shows a colored
    face (a capture); §Capture: "ending on an enemy with a blank top is illegal"."""
    if not there or there[-1].owner == player:
        return True
    return is_colored(group[-1].up_face)


def continue_options(there: Stack, group: Stack, player: int) -> list[int]:
    """§Move 4/5: the values of ``j`` with which the move may continue after setting the group
    down on ``there``.  ``j`` counts the top pieces of the *new* top unit, ``1 <= j``, and
    ``j != len(group)``.  On an enemy-topped stack picking up is impossible (the new top unit is
    the group alone) and the pieces left behind must show a colored face on their top piece (a
    pin; a blank never pins)."""
    g = len(group)
    enemy_topped = bool(there) and there[-1].owner != player
    new_top_unit = g + (0 if enemy_topped else top_unit_size(there))
    options: list[int] = []
    for j in range(1, new_top_unit + 1):
        if j == g:
            continue
        if enemy_topped:
            # j < g here; the left-behind pieces are group[0 : g - j]; their top is group[g-j-1]
            left_top = group[g - j - 1]
            if not is_colored(left_top.up_face):
                continue
        options.append(j)
    return options


# --------------------------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------------------------
class RefAlbea:
    """Plateau (Albea 1986) as the page defines it.  See the module docstring for options."""

    def __init__(self, **options: Any) -> None:
        max_plies = options.pop("max_plies", None)
        if options:
            raise TypeError(f"unknown options: {sorted(options)}")
        if max_plies is not None and (not isinstance(max_plies, int) or max_plies < 1):
            raise ValueError("max_plies must be a positive int or None")
        self.max_plies: int | None = max_plies
        # §State
        self.board: list[Stack] = [[] for _ in range(16)]
        self.reserve: list[dict[str, int]] = [dict(COUNT), dict(COUNT)]
        self.prisoners: list[dict[str, int]] = [{}, {}]  # prisoners[p]: opponent pieces p holds
        self.to_move: int = BLACK  # §Turn structure 1: Black opens at ply 0
        self.phase: str = "opening"  # opening | play | respond | over
        self.offerer: int | None = None  # in respond
        self.tender: dict[str, int] | None = None  # in respond: the tendered multiset
        self.floor: list[int] = [0, 0]
        self.passes: int = 0
        self.result: str | None = None  # None | "win" | "draw"
        self.winner_: int | None = None
        self.ply: int = 0
        self.history: list[dict[str, Any]] = []

    # ---------------------------------------------------------------- basic queries
    @property
    def current_player(self) -> int:
        """The player who must act now (the responder during ``respond``); -1 once over."""
        return -1 if self.phase == "over" else self.to_move

    def is_over(self) -> bool:
        return self.phase == "over"

    def winner(self) -> int | None:
        return self.winner_ if self.result == "win" else None

    def returns(self) -> list[float]:
        """Win 1.0 / loss 0.0 / draw 0.5 (this file's choice; the page gives no values)."""
        if self.phase != "over":
            return [0.0, 0.0]
        if self.result == "draw":
            return [0.5, 0.5]
        assert self.winner_ is not None
        return [1.0 if p == self.winner_ else 0.0 for p in (0, 1)]

    # ---------------------------------------------------------------- legality
    def legal(self) -> list[str]:
        return sorted(self._legal_map())

    def _legal_map(self) -> dict[str, _Action]:
        if self.phase == "over":
            return {}
        if self.phase == "opening":
            return self._opening_actions()
        if self.phase == "respond":
            return self._response_actions()
        actions: dict[str, _Action] = {}
        # §Turn structure 2: onboard, move (stomps are moves, §Move 7), or tender ...
        actions.update(self._onboard_actions())
        actions.update(self._move_actions())
        actions.update(self._tender_actions())
        # ... or pass when none of these is legal (§Pass, draws)
        if not actions:
            actions["pass"] = _Pass()
        return actions

    def _oriented_in_reserve(self, reserve: Mapping[str, int]) -> list[tuple[str, int]]:
        return [(t, u) for t in TYPES if reserve.get(t, 0) > 0 for u in orientations(t)]

    def _opening_actions(self) -> dict[str, _Action]:
        """§Opening: two pieces from the reserve, each with a chosen face up, stacked on an empty
        perimeter square (White: any other, so still empty, perimeter square).  Any types and
        faces, orange up included [ruling]."""
        me = self.to_move
        actions: dict[str, _Action] = {}
        for square in PERIMETER:
            if self.board[square]:
                continue
            for bottom in self._oriented_in_reserve(self.reserve[me]):
                rest = dict(self.reserve[me])
                rest[bottom[0]] -= 1  # a one-off piece cannot be used twice
                for top in self._oriented_in_reserve(rest):
                    text = f"{oriented_code(*bottom)},{oriented_code(*top)}@{square_name(square)}"
                    actions[text] = _Opening(bottom, top, square)
        return actions

    def _onboard_actions(self) -> dict[str, _Action]:
        """§Onboard: a reserve piece with a chosen up face into gap ``g`` of a square (``g`` =
        pieces that will be under it).  Legal iff the square is empty, or the piece directly
        below the gap (index g-1) or directly above it (index g) is your own.  The [ruling] on the
        bottom gap under an enemy bottom piece is this same test (index 0 is the enemy's)."""
        me = self.to_move
        actions: dict[str, _Action] = {}
        for square in range(16):
            stack = self.board[square]
            n = len(stack)
            gaps: list[int] = []
            if n == 0:
                gaps = [0]
            else:
                for g in range(n + 1):
                    below_is_mine = g - 1 >= 0 and stack[g - 1].owner == me
                    above_is_mine = g < n and stack[g].owner == me
                    if below_is_mine or above_is_mine:
                        gaps.append(g)
            for ptype, up in self._oriented_in_reserve(self.reserve[me]):
                for g in gaps:
                    text = f"{oriented_code(ptype, up)}@{square_name(square)}/{g}"
                    actions[text] = _Onboard(ptype, up, square, g)
        return actions

    def _move_actions(self) -> dict[str, _Action]:
        """§Move 1-7, generated by following each rule literally on scratch copies of the board."""
        me = self.to_move
        actions: dict[str, _Action] = {}
        for origin in range(16):
            stack = self.board[origin]
            if not stack or stack[-1].owner != me:
                continue  # §Move: "the top unit of one stack whose top piece is yours"
            h = top_unit_size(stack)
            top = stack[-1]
            # §Move 1: the flip is optional and allowed only if the two faces differ [ruling].
            flips = [False, True] if top.ptype[0] != top.ptype[1] else [False]
            for flip in flips:
                flipped_top = top.copy()
                if flip:
                    flipped_top.up = 1 - flipped_top.up
                face = flipped_top.up_face  # F
                start_board = [list(s) for s in self.board]
                start_board[origin][-1] = flipped_top
                # §Move 7: stomp, a move of distance 0.
                if len(stack) > h and is_colored(face):
                    stomp = _Stomp(flip, origin)
                    actions[("~" if flip else "") + "!" + square_name(origin)] = stomp
                # §Move 3: the direction (or the Twister path) is fixed by F.
                paths: list[list[int]]
                if face == "o":
                    paths = twister_paths(origin)  # §Move 6: height does not limit a Twister
                else:
                    if face == "r":
                        directions = ORTHOGONAL
                    elif face == "b":
                        directions = DIAGONAL
                    else:
                        assert face == "x"
                        directions = ORTHOGONAL + DIAGONAL
                    # §Move 4: stops at strictly increasing distance, the last at distance <= h
                    paths = [ray(origin, d, h) for d in directions]
                for k in range(1, h + 1):  # §Move 2: 1 <= k <= h
                    board = [list(s) for s in start_board]
                    group = board[origin][-k:]
                    del board[origin][-k:]
                    for path in paths:
                        if not path:
                            continue
                        for stops in self._stop_sequences(
                            board, path, -1, group, (), must_end_last=(face == "o")
                        ):
                            move = _Move(flip, origin, k, stops)
                            actions[_move_text(move)] = move
        return actions

    def _stop_sequences(
        self,
        board: list[Stack],
        path: list[int],
        position: int,
        group: Stack,
        so_far: tuple[tuple[int, int | None], ...],
        must_end_last: bool,
    ) -> Iterator[tuple[tuple[int, int | None], ...]]:
        """§Move 4: from index ``position`` on the path (-1 = the origin), choose the next stop
        further along (jumping over anything), set the group down there, then end or lift ``j``
        and continue.  For the Twister (``must_end_last``) the move must end on the path's last
        square, the mid square being the only possible intermediate stop (§Move 6)."""
        me = self.to_move
        for index in range(position + 1, len(path)):
            square = path[index]
            there = board[square]
            if not stop_allowed(there, group, me):
                continue
            is_last = index == len(path) - 1
            if (is_last or not must_end_last) and may_end_at(there, group, me):
                yield (*so_far, (square, None))
            if is_last:
                continue  # nowhere further to go: continuing could never end the move
            for j in continue_options(there, group, me):
                next_board = [list(s) for s in board]
                next_board[square] = there + group  # set the group down on top
                lifted = next_board[square][-j:]
                del next_board[square][-j:]
                yield from self._stop_sequences(
                    next_board, path, index, lifted, (*so_far, (square, j)), must_end_last
                )

    def _tender_actions(self) -> dict[str, _Action]:
        """§Exchange 1: a non-empty sub-multiset T of the mover's prisoners, v(T) > floor."""
        me = self.to_move
        actions: dict[str, _Action] = {}
        for ms in sub_multisets(self.prisoners[me]):
            if ms and multiset_value(ms) > self.floor[me]:
                pieces = tuple(multiset_list(ms))
                actions["offer:" + codes_text(pieces)] = _Tender(pieces)
        return actions

    def _response_actions(self) -> dict[str, _Action]:
        """§Exchange 2: L = the largest value <= v(T) of a sub-multiset of the responder's
        prisoners (0 if none); give any non-empty G with v(G) >= L, or refuse only when L = 0."""
        me = self.to_move
        assert self.tender is not None
        offered = multiset_value(self.tender)
        values = [multiset_value(ms) for ms in sub_multisets(self.prisoners[me])]
        largest = max(v for v in values if v <= offered)  # the empty multiset gives 0
        actions: dict[str, _Action] = {}
        for ms in sub_multisets(self.prisoners[me]):
            if ms and multiset_value(ms) >= largest:
                pieces = tuple(multiset_list(ms))
                actions["give:" + codes_text(pieces)] = _Give(pieces)
        if largest == 0:
            actions["refuse"] = _Refuse()
        return actions

    # ---------------------------------------------------------------- playing
    def play(self, action: str) -> None:
        """Apply an action in canonical notation (§Action notation; either letter case)."""
        if not isinstance(action, str):
            raise ValueError(f"action must be a string, not {type(action).__name__}")
        legal = self._legal_map()
        text = action.lower()
        if text not in legal:
            raise ValueError(f"illegal action {action!r}")
        self._apply(text, legal[text])

    def _apply(self, text: str, action: _Action) -> None:
        actor = self.to_move
        public = text
        if isinstance(action, _Opening):
            public = self._do_opening(action)
        elif isinstance(action, _Onboard):
            public = self._do_onboard(action)
        elif isinstance(action, _Move):
            self._do_move(action)
        elif isinstance(action, _Stomp):
            self._do_stomp(action)
        elif isinstance(action, _Tender):
            self._do_tender(action)
        elif isinstance(action, _Give):
            self._do_give(action)
        elif isinstance(action, _Refuse):
            self._do_refuse()
        elif isinstance(action, _Pass):
            self._do_pass()
        else:  # pragma: no cover
            raise AssertionError(action)
        # §Hidden information, shown rule 1: the top piece of every stack after any action.
        for stack in self.board:
            if stack:
                stack[-1].show_up_face()
        # §Further rulings: "Any other action (a tender, a response) resets the count."
        if not isinstance(action, _Pass):
            self.passes = 0
        self.ply += 1
        self.history.append({"player": actor, "action": text, "public": public})
        # §Pass, draws [ruling]: optional max_plies, counting every action.
        if self.phase != "over" and self.max_plies is not None and self.ply >= self.max_plies:
            self._end("draw", None)

    def _end(self, result: str, winner: int | None) -> None:
        self.phase = "over"
        self.result = result
        self.winner_ = winner
        self.offerer = None
        self.tender = None

    def _meets_win_condition(self, player: int) -> bool:
        """§Winning: six or more prisoners, or six or more consecutive own pieces in some stack
        (buried runs count [ruling])."""
        if sum(self.prisoners[player].values()) >= 6:
            return True
        return any(longest_run(stack, player) >= 6 for stack in self.board)

    def _check_win(self, mover: int) -> None:
        """§Winning: checked after every onboard, move and completed exchange.  If both players
        satisfy a condition the mover wins [ruling]; if only the other player does (possible only
        in a set-up position), that player wins (§Further rulings)."""
        if self._meets_win_condition(mover):
            self._end("win", mover)
        elif self._meets_win_condition(1 - mover):
            self._end("win", 1 - mover)

    def _take_from_reserve(self, player: int, ptype: str) -> None:
        assert self.reserve[player].get(ptype, 0) > 0
        self.reserve[player][ptype] -= 1

    def _do_opening(self, action: _Opening) -> str:
        """§Opening.  Shown rule 5: only the top piece's up face; the bottom stays hidden."""
        me = self.to_move
        self._take_from_reserve(me, action.bottom[0])
        self._take_from_reserve(me, action.top[0])
        bottom = Piece(me, action.bottom[0], action.bottom[1], [False, False])
        top = Piece(me, action.top[0], action.top[1], [False, False])
        top.show_up_face()
        self.board[action.square] = [bottom, top]
        # §Turn structure 1: ply 0 Black's opening, ply 1 White's; then Black in play.
        if me == BLACK:
            self.to_move = WHITE
        else:
            self.phase = "play"
            self.to_move = BLACK
        # §Hidden information: opening faces redacted, only the placed up face is public.
        return f"??,{top.up_face}?@{square_name(action.square)}"

    def _do_onboard(self, action: _Onboard) -> str:
        me = self.to_move
        self._take_from_reserve(me, action.ptype)
        stack = self.board[action.square]
        n = len(stack)
        piece = Piece(me, action.ptype, action.up, [False, False])
        piece.show_up_face()  # shown rule 2: its up face
        if 0 < action.gap < n:
            stack[action.gap - 1].show_up_face()  # shown rule 2: the piece directly below the gap
        stack.insert(action.gap, piece)
        self._check_win(me)
        if self.phase != "over":
            self.to_move = 1 - me
        return f"{piece.up_face}?@{square_name(action.square)}/{action.gap}"

    def _flip_top(self, square: int) -> None:
        """§Move 1 flip; shown rule 3: the new up face, plus the up face of the piece beneath."""
        stack = self.board[square]
        stack[-1].up = 1 - stack[-1].up
        stack[-1].show_up_face()
        if len(stack) >= 2:
            stack[-2].show_up_face()

    def _do_move(self, action: _Move) -> None:
        me = self.to_move
        if action.flip:
            self._flip_top(action.origin)
        origin = self.board[action.origin]
        group = origin[-action.k :]  # §Move 2: lift the top k pieces
        del origin[-action.k :]
        for square, j in action.stops:
            self.board[square].extend(group)  # §Move 4: set the group down on top
            self.board[square][-1].show_up_face()  # shown rule 1: top piece at any stop
            if j is not None:
                group = self.board[square][-j:]  # lift the top j pieces and continue
                del self.board[square][-j:]
                if self.board[square]:
                    self.board[square][-1].show_up_face()
        final = action.stops[-1][0]
        self._capture(final)  # §Capture: only at the final stop
        self._check_win(me)
        if self.phase != "over":
            self.to_move = 1 - me

    def _do_stomp(self, action: _Stomp) -> None:
        me = self.to_move
        if action.flip:
            self._flip_top(action.square)
        # §Move 7: captures with c = h (the top unit, which does not move)
        captured = self._capture(action.square)
        assert captured > 0
        self._check_win(me)
        if self.phase != "over":
            self.to_move = 1 - me

    def _capture(self, square: int) -> int:
        """§Capture: if the stack has a colored top face and enemy pieces below the mover's top
        unit, ``c`` = size of that top unit; walking down from just below it, the first ``c``
        enemy pieces are captured, own (sandwiched) pieces are skipped and stay.  Returns the
        number captured."""
        stack = self.board[square]
        me = stack[-1].owner
        c = top_unit_size(stack)
        if not is_colored(stack[-1].up_face) or len(stack) == c:
            return 0
        captured_indices: list[int] = []
        for index in range(len(stack) - c - 1, -1, -1):
            if len(captured_indices) == c:
                break
            if stack[index].owner != me:
                captured_indices.append(index)
        for index in captured_indices:
            piece = stack[index]
            piece.shown = [True, True]  # shown rule 4: both faces, for good
            if index >= 1:
                stack[index - 1].show_up_face()  # shown rule 4: the piece directly beneath it
            self.prisoners[me][piece.ptype] = self.prisoners[me].get(piece.ptype, 0) + 1
        # the remaining pieces keep their order
        self.board[square] = [p for i, p in enumerate(stack) if i not in captured_indices]
        if captured_indices:
            self.floor = [0, 0]  # "After any capture, floor[0] = floor[1] = 0"
        return len(captured_indices)

    def _do_tender(self, action: _Tender) -> None:
        """§Exchange 1: phase becomes respond, opponent to act.  T stays in the prisoners."""
        me = self.to_move
        self.tender = list_multiset(action.pieces)
        self.offerer = me
        self.phase = "respond"
        self.to_move = 1 - me

    def _do_give(self, action: _Give) -> None:
        """§Exchange 3: T to the responder's reserve, G to the offerer's (orientation and shown
        flags reset: a reserve holds bare types); floors cleared; the responder takes a normal
        turn."""
        responder = self.to_move
        offerer = self.offerer
        assert offerer is not None and offerer == 1 - responder and self.tender is not None
        for t, n in self.tender.items():
            self.prisoners[offerer][t] -= n
            self.reserve[responder][t] = self.reserve[responder].get(t, 0) + n
        for t in action.pieces:
            self.prisoners[responder][t] -= 1
            self.reserve[offerer][t] = self.reserve[offerer].get(t, 0) + 1
        for ms in (*self.prisoners, *self.reserve):
            for t in [t for t, n in ms.items() if n == 0]:
                del ms[t]
        self.floor = [0, 0]
        self.phase = "play"
        self.tender = None
        self.offerer = None
        self._check_win(responder)  # §Winning: checked after a completed exchange
        if self.phase != "over":
            self.to_move = responder

    def _do_refuse(self) -> None:
        """§Exchange 4 [ruling]: T stays with the offerer, floor[offerer] = v(T), the offerer acts
        again."""
        offerer = self.offerer
        assert offerer is not None and self.tender is not None
        self.floor[offerer] = multiset_value(self.tender)
        self.phase = "play"
        self.tender = None
        self.offerer = None
        self.to_move = offerer

    def _do_pass(self) -> None:
        """§Pass, draws [ruling]: two consecutive passes end the game as a draw."""
        self.passes += 1
        if self.passes >= 2:
            self._end("draw", None)
        else:
            self.to_move = 1 - self.to_move

    # ---------------------------------------------------------------- views and serialization
    def observation(self, player: int) -> dict[str, Any]:
        """§Hidden information: what ``player`` may see.  Own pieces in full; opponent pieces as
        their owner plus the faces ``player`` has seen (up face first, ``?`` unseen) and the type
        only when both faces were seen or a seen face is orange.  Opponent reserve as a count;
        prisoners and a pending tender in full; the history with the opponent's onboard/opening
        faces redacted."""
        if player not in (0, 1):
            raise ValueError("player must be 0 or 1")
        board: list[list[dict[str, Any]]] = []
        for stack in self.board:
            pieces: list[dict[str, Any]] = []
            for p in stack:
                if p.owner == player:
                    pieces.append({"owner": p.owner, "faces": p.code, "type": p.ptype})
                else:
                    seen = [p.ptype[i] if p.shown[i] else "?" for i in (0, 1)]
                    faces = seen[p.up] + seen[1 - p.up]
                    known = (p.shown[0] and p.shown[1]) or "o" in seen
                    pieces.append(
                        {"owner": p.owner, "faces": faces, "type": p.ptype if known else None}
                    )
            board.append(pieces)
        opponent = 1 - player
        return {
            "player": player,
            "ply": self.ply,
            "phase": self.phase,
            "current_player": self.current_player,
            "board": board,
            "my_reserve": {t: n for t, n in self.reserve[player].items() if n > 0},
            "opponent_reserve_count": sum(self.reserve[opponent].values()),
            "prisoners": [multiset_list(self.prisoners[p]) for p in (0, 1)],
            "tender": None
            if self.tender is None
            else {"offerer": self.offerer, "pieces": multiset_list(self.tender)},
            "floor": list(self.floor),
            "passes": self.passes,
            "result": self.result,
            "winner": self.winner(),
            "history": [
                h["action"] if h["player"] == player else h["public"] for h in self.history
            ],
        }

    def to_dict(self) -> dict[str, Any]:
        """The full truth, JSON-able; :meth:`from_dict` inverts it."""
        return {
            "options": {"max_plies": self.max_plies},
            "board": [
                [
                    {"owner": p.owner, "type": p.ptype, "up": p.up, "shown": list(p.shown)}
                    for p in stack
                ]
                for stack in self.board
            ],
            "reserve": [{t: n for t, n in r.items() if n > 0} for r in self.reserve],
            "prisoners": [{t: n for t, n in r.items() if n > 0} for r in self.prisoners],
            "to_move": self.to_move,
            "phase": self.phase,
            "offerer": self.offerer,
            "tender": None if self.tender is None else dict(self.tender),
            "floor": list(self.floor),
            "passes": self.passes,
            "result": self.result,
            "winner": self.winner_,
            "ply": self.ply,
            "history": [dict(h) for h in self.history],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RefAlbea:
        state = cls(**dict(data.get("options", {})))
        state.board = [
            [Piece(int(p["owner"]), str(p["type"]), int(p["up"]), list(p["shown"])) for p in s]
            for s in data["board"]
        ]
        state.reserve = [dict(r) for r in data["reserve"]]
        state.prisoners = [dict(r) for r in data["prisoners"]]
        state.to_move = int(data["to_move"])
        state.phase = str(data["phase"])
        state.offerer = data["offerer"]
        state.tender = None if data["tender"] is None else dict(data["tender"])
        state.floor = list(data["floor"])
        state.passes = int(data["passes"])
        state.result = data["result"]
        state.winner_ = data["winner"]
        state.ply = int(data["ply"])
        state.history = [dict(h) for h in data["history"]]
        return state

    def copy(self) -> RefAlbea:
        return RefAlbea.from_dict(self.to_dict())

    @classmethod
    def from_position(
        cls,
        stacks: Mapping[str, str],
        to_move: int,
        prisoners: Sequence[Sequence[str]] = ((), ()),
        reserve: Sequence[Mapping[str, int]] | None = None,
        floor: Sequence[int] = (0, 0),
        passes: int = 0,
        **options: Any,
    ) -> RefAlbea:
        """Build a ``play``-phase position directly (the page's worked checks give positions).

        ``stacks`` maps squares to the page's position notation, bottom..top, e.g.
        ``{"b2": "Bxx Wrr"}`` (owner ``B``/``W``, then up face, then down face).  ``prisoners[p]``
        lists the types of the opponent's pieces that ``p`` holds.  ``reserve`` defaults to the
        complement: each player's 12 pieces minus those on the board and those the opponent
        holds.  Shown flags: the up face of every top piece (shown rule 1), nothing else.
        ``ply`` starts at 0 and the history is empty."""
        state = cls(**options)
        state.phase = "play"
        state.to_move = to_move
        state.prisoners = [list_multiset(prisoners[0]), list_multiset(prisoners[1])]
        for name, text in stacks.items():
            stack: Stack = []
            for token in text.split():
                owner = OWNER_LETTER.index(token[0].upper())
                ptype, up = ORIENTED[token[1:].lower()]
                stack.append(Piece(owner, ptype, up, [False, False]))
            if stack:
                stack[-1].show_up_face()
            state.board[square_index(name)] = stack
        if reserve is None:
            computed = [dict(COUNT), dict(COUNT)]
            for stack in state.board:
                for p in stack:
                    computed[p.owner][p.ptype] -= 1
            for holder in (0, 1):
                for t, n in state.prisoners[holder].items():
                    computed[1 - holder][t] -= n
            if any(n < 0 for r in computed for n in r.values()):
                raise ValueError("more pieces of a type than exist")
            state.reserve = [{t: n for t, n in r.items() if n > 0} for r in computed]
        else:
            state.reserve = [dict(r) for r in reserve]
        state.floor = list(floor)
        state.passes = passes
        return state


def perft(state: RefAlbea, depth: int) -> int:
    """Number of leaves ``depth`` actions below ``state``: 1 at depth 0 (even for a finished game);
    0 for a finished game at depth >= 1.  Each generated action is applied to a copy."""
    if depth == 0:
        return 1
    if state.is_over():
        return 0
    actions = state._legal_map()
    if depth == 1:
        return len(actions)
    total = 0
    for text, action in actions.items():
        child = state.copy()
        child._apply(text, action)
        total += perft(child, depth - 1)
    return total
