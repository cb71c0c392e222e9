"""Plateau X (Hendrik Simon): variants, notation, ranking, the text diagram and the public
state class, on top of the compiled kernel ``plateau_core.x.core``.

Rules: ``docs/rules/plateau-x.md``.
"""

from __future__ import annotations

import numbers
import re
from dataclasses import dataclass
from typing import Any

from plateau_core.x import batch as _x_batch
from plateau_core.x import core as _x

from plateau.checks import check_int, folded, shown
from plateau.errors import InvalidActionError, InvalidArgumentError, UnknownVariantError
from plateau.notation import square_index, square_name
from plateau.state import GameState, rank_by_keys

COLOURS = ("black", "yellow", "orange", "green")


@dataclass(frozen=True)
class XVariant:
    """One Plateau X variant (see the rules page's variant table)."""

    name: str
    index: int  # the kernel's variant index
    players: int
    board_size: int
    pieces_each: int
    singles: int
    doubles: int
    triples: int
    points: tuple[float, ...]


VARIANTS: dict[str, XVariant] = {}
for _index, (_name, _n, _players, _ppp, _singles, _doubles, _triples, _points) in enumerate(
    _x.VARIANTS
):
    VARIANTS[_name] = XVariant(
        _name, _index, _players, _n, _ppp, _singles, _doubles, _triples, tuple(_points)
    )
_BY_INDEX = {v.index: v for v in VARIANTS.values()}

_BUILD = re.compile(r"([sdt])@((?:[a-z][1-9][0-9]?)+)\Z")
_ENTER = re.compile(r"p@([a-z][1-9][0-9]?)\Z")
_MOVE = re.compile(r"([a-z][1-9][0-9]?)-([a-z][1-9][0-9]?)\Z")
_SQUARES = re.compile(r"[a-z][1-9][0-9]?")
_KIND_NAME = {"S": "single", "D": "double", "T": "triple"}


class PlateauXState(_x.XCore, GameState):
    """A game of Plateau X in progress.

    >>> import plateau
    >>> s = plateau.new_game("plateau-x", variant="standard")
    >>> s.apply("T@c3d3c4"); s.apply("P@a1")
    >>> s.history_strings(), s.current_player, s.level("c3")
    (['T@c3d3c4', 'P@a1'], 2, 1)
    """

    __slots__ = ()
    game = "plateau-x"

    def __init__(self, variant: str = "standard", first_player: int = 0) -> None:
        if variant not in VARIANTS:
            raise UnknownVariantError(
                f"unknown variant {shown(variant)} of 'plateau-x'; known variants: "
                f"{', '.join(VARIANTS)}"
            )
        v = VARIANTS[variant]
        self._core_init(v.index, check_int(first_player, "first_player", 0, v.players))

    # -- identity ----------------------------------------------------------------------------

    @property
    def spec(self) -> XVariant:
        """The variant's constants."""
        return _BY_INDEX[self._variant_index]

    @property
    def variant(self) -> str:
        return self.spec.name

    def _plane_highs(self) -> dict[int, float]:
        # plane 0 is the level: a space is never higher than the number of tiles in the game
        v = self.spec
        return {0: float(v.players * (v.singles + v.doubles) + v.triples)}

    @property
    def options(self) -> dict[str, Any]:
        return {"first_player": self.first_player}

    def points_by_place(self) -> tuple[float, ...]:
        return self.spec.points

    # -- notation ----------------------------------------------------------------------------

    def _sq(self, square: int | str) -> int:
        n = self.board_size
        if isinstance(square, str):
            return square_index(square, n)
        if isinstance(square, bool) or not isinstance(square, numbers.Integral):
            raise InvalidArgumentError(
                f"a square is a name like 'c3' or an index, got {shown(square)}"
            )
        square = int(square)
        if not 0 <= square < n * n:
            raise InvalidArgumentError(f"square index {shown(square)} out of range [0, {n * n})")
        return square

    def _name(self, sq: int) -> str:
        return square_name(sq, self.board_size)

    def action_to_string(self, action: int) -> str:
        """Canonical notation of the action id ``action`` (legal here or not)."""
        kind, sqs = _x.decode(self._variant_index, self.action_id(action))
        if kind == "E":
            return "end"
        if kind == "M":
            return f"{self._name(sqs[0])}-{self._name(sqs[1])}"
        return kind + "@" + "".join(self._name(q) for q in sqs)

    def parse_action(self, text: str) -> int:
        """The id of the action written ``text`` (legal or not); the covered spaces of a build
        may come in any order, and letters in either case. InvalidActionError if ``text`` is
        not the notation of an action of this variant."""
        if not isinstance(text, str):
            raise InvalidActionError(f"action notation must be a string, got {shown(text)}")
        t = folded(text) or ""  # (not ASCII: not notation)
        n = self.board_size
        try:
            if t == "end":
                return self.spec_layout["base_end"]
            m = _MOVE.match(t)
            if m:
                f, to = square_index(m.group(1), n), square_index(m.group(2), n)
                if f == to:
                    raise InvalidActionError(f"{shown(text)}: a move must end on another space")
                return int(_x.encode(self._variant_index, "M", (f, to)))
            m = _ENTER.match(t)
            if m:
                return int(_x.encode(self._variant_index, "P", (square_index(m.group(1), n),)))
            m = _BUILD.match(t)
            if m:
                kind = m.group(1).upper()
                sqs = tuple(square_index(q, n) for q in _SQUARES.findall(m.group(2)))
                a = int(_x.encode(self._variant_index, kind, sqs))
                if a < 0:
                    raise InvalidActionError(
                        f"{shown(text)}: {', '.join(self._name(q) for q in sqs)} is not the "
                        f"shape of a "
                        f"{_KIND_NAME[kind]} tile"
                        + (" (triples are L-shaped)" if kind == "T" else "")
                    )
                return a
        except InvalidActionError:
            raise
        except ValueError as e:
            raise InvalidActionError(f"{shown(text)}: {e}") from None
        raise InvalidActionError(
            f"{shown(text)} is not Plateau X notation (S@c3, D@c3d3, T@c3d3c4, P@c3, c3-e5 or end)"
        )

    @property
    def spec_layout(self) -> dict[str, int]:
        return _LAYOUTS[self._variant_index]

    def _why_illegal(self, action: int) -> str:
        kind, sqs = _x.decode(self._variant_index, action)
        p = self.current_player
        who = f"player {p} ({COLOURS[p]})"
        if kind in _KIND_NAME:
            singles, doubles = self._stock(p)
            if kind == "S" and singles == 0:
                return f"{who} has no single left"
            if kind == "D" and doubles == 0:
                return f"{who} has no double left"
            if kind == "T" and self.supply == 0:
                return "the supply of triples is empty"
            if len({self._level(q) for q in sqs}) > 1:
                return "the covered spaces are not all at the same level"
            for q in sqs:
                if self.piece_at(q) is not None:
                    return f"a piece stands on {self._name(q)}"
            return f"it would lie flush on a {_KIND_NAME[kind]} (a tile of the same kind)"
        if kind == "P":
            if all(self._positions()[q] >= 0 for q in self._own_pieces(p)):
                return f"{who} has no piece left to enter"
            if self.piece_at(sqs[0]) is not None:
                return f"{self._name(sqs[0])} is occupied"
            return f"{self._name(sqs[0])} is not at level 0"
        if kind == "M":
            f, to = sqs
            if self.piece_at(f) != p:
                return f"{who} has no piece on {self._name(f)}"
            return f"no path of one-level steps leads from {self._name(f)} to {self._name(to)}"
        return f"{who} can still build, so the game cannot be ended"

    def _position_key(self) -> object:
        squares = self.piece_squares()
        stamps = self.stamps()
        in_play = [q for q in range(len(squares)) if squares[q] is not None]
        # the stamps' order decides ties, not their values (as for the hash)
        order = sorted(in_play, key=lambda q: stamps[q] or 0)
        tiles = sorted((t["kind"], tuple(t["squares"]), t["level"]) for t in self.tiles())
        stocks = [self._stock(p) for p in range(self.num_players)]
        return (squares, order, tiles, stocks, self.supply, self.current_player)

    # -- what a player sees (everything: perfect information) ------------------------------

    def observation(self, player: int | None = None) -> dict[str, Any]:
        """The whole position as plain data, for ``player`` (default: the player to move):
        levels by rows, the squares of each player's pieces (None off the board), stocks,
        the supply, the tile table and the history. Every player sees all of it."""
        p = self._viewer(player)
        ppp = self.pieces_per_player
        squares = self.piece_squares()
        return {
            "player": p,
            "ply": self.ply,
            "current_player": self.current_player,
            "levels": self.levels(),
            "pieces": [
                [None if q is None else self._name(q) for q in squares[k * ppp : (k + 1) * ppp]]
                for k in range(self.num_players)
            ],
            "stocks": [self.stock(k) for k in range(self.num_players)],
            "supply": self.supply,
            "tiles": self.tiles(),
            "history": self.history_strings(),
            "terminal": self.is_terminal(),
        }

    # -- position ----------------------------------------------------------------------------

    def _own_pieces(self, player: int) -> range:
        ppp = self.pieces_per_player
        return range(player * ppp, (player + 1) * ppp)

    def level(self, square: int | str) -> int:
        """The level (number of stacked tiles) of a square, given by name or index."""
        return int(self._level(self._sq(square)))

    def levels(self) -> list[list[int]]:
        """Levels as rows, ``levels()[row][col]`` (row 0 is rank 1)."""
        n = self.board_size
        flat = self._levels()
        return [flat[r * n : (r + 1) * n] for r in range(n)]

    def tiles(self) -> list[dict[str, Any]]:
        """The tile table: every placed tile in order, as ``{"kind", "squares", "level"}``
        (squares as indices, ascending; level is the level the tile lies at)."""
        out = []
        for action, level in self._tiles():
            kind, squares = _x.decode(self._variant_index, action)
            out.append({"kind": kind, "squares": list(squares), "level": int(level)})
        return out

    def top_tile(self, square: int | str) -> int | None:
        """Index in :meth:`tiles` of the tile on top of ``square``, or None on the bare board."""
        t = int(self._top_tile(self._sq(square)))
        return None if t < 0 else t

    def plateau(self, square: int | str) -> list[int]:
        """Sorted square indices of the plateau holding ``square`` (empty at level 0)."""
        mask = int(self._plateau_mask(self._sq(square)))
        return [i for i in range(self.board_size**2) if mask >> i & 1]

    def piece_at(self, square: int | str) -> int | None:
        """The player whose piece stands on ``square``, or None."""
        sq = self._sq(square)
        for q, pos in enumerate(self._positions()):
            if pos == sq:
                return q // self.pieces_per_player
        return None

    def piece_squares(self) -> list[int | None]:
        """Square of each piece (piece ``q`` belongs to player ``q // pieces_per_player``), or
        None while not in play."""
        return [None if pos < 0 else int(pos) for pos in self._positions()]

    def stamps(self) -> list[int | None]:
        """Ply at which each piece last entered or moved, or None while not in play."""
        return [None if pos < 0 else int(st) for pos, st in zip(self._positions(), self._stamps())]

    def stock(self, player: int) -> dict[str, int]:
        """A player's own stock of tiles."""
        singles, doubles = self._stock(self._check_player(player))
        return {"single": int(singles), "double": int(doubles)}

    def standing(self, player: int) -> tuple[bool, int, int]:
        """``(in play, level, plateau size)`` of ``player``'s best piece (ranking keys 1-3)."""
        key = int(self._player_keys()[self._check_player(player)])
        return bool(key >> 60), (key >> 52) & 0xFF, (key >> 44) & 0xFF

    def heuristic(self, player: int) -> float:
        """Static value for ``player``: its standing against the best opponent's.

        A player's value is ``10 * level + plateau size`` of their best piece (``-5`` with no
        piece in play), plus ``0.25 * mobility`` (spaces their pieces could move to, at most
        40). The heuristic is the player's value minus the best other player's value.
        """
        values = []
        for p in range(self.num_players):
            in_play, level, size = self.standing(p)
            v = 10.0 * level + size if in_play else -5.0
            values.append(v + 0.25 * min(self.mobility(p), 40))
        me = self._check_player(player)
        return values[me] - max(v for i, v in enumerate(values) if i != me)

    def ranking(self) -> list[list[int]]:
        """Players best first, equal standings grouped; valid at any ply ("if it ended now").

        A piece's standing: in play, then level, then plateau size, then earlier stamp.
        """
        return rank_by_keys([int(k) for k in self._player_keys()])

    # -- display -----------------------------------------------------------------------------

    def __str__(self) -> str:
        n = self.board_size
        marks: dict[int, str] = {}
        ppp = self.pieces_per_player
        for q, pos in enumerate(self._positions()):
            if pos >= 0:
                marks[pos] = COLOURS[q // ppp][0].upper()
        files = "".join(f"{chr(ord('a') + c):>3}" for c in range(n))
        lines = [f"   {files}"]
        for r in range(n - 1, -1, -1):
            cells = []
            for c in range(n):
                sq = r * n + c
                lvl = self._level(sq)
                cells.append(f"{lvl if lvl else '.':>2}{marks.get(sq, ' ')}")
            lines.append(f"{r + 1:>2} {''.join(cells)}  {r + 1}")
        lines.append(f"   {files}")
        lines.append(f"supply: {self.supply} triples")
        for p in range(self.num_players):
            stock = self.stock(p)
            where = []
            for q in self._own_pieces(p):
                pos = self._positions()[q]
                where.append("off" if pos < 0 else self._name(pos))
            to_move = "  <- to move" if p == self.current_player else ""
            lines.append(
                f"{p} {COLOURS[p]:<6} singles {stock['single']} doubles {stock['double']}  "
                f"piece{'s' if ppp > 1 else ''} {' '.join(where)}{to_move}"
            )
        state = "game over" if self.is_terminal() else f"player {self.current_player} to move"
        lines.append(f"{self.game} {self.variant}, ply {self.ply}, {state}")
        return "\n".join(lines)


_LAYOUTS = {v.index: dict(_x.layout(v.index)) for v in VARIANTS.values()}


def _playouts(
    variant: str, n: int, seed: int, ply_cap: int, first_player: int = 0
) -> dict[str, Any]:
    return dict(_x.random_playouts(VARIANTS[variant].index, n, seed, ply_cap, first_player))


def _batch(variant: str, n: int, seed: int, ply_cap: int, first_player: int = 0) -> Any:
    v = VARIANTS[variant]
    first = check_int(first_player, "first_player", 0, v.players)
    return _x_batch.XBatch(v.index, n, seed, ply_cap, first)


def _check_option_values(variant: str, options: dict[str, Any]) -> dict[str, Any]:
    players = VARIANTS[variant].players
    return {"first_player": check_int(options["first_player"], "first_player", 0, players)}
