"""Slow, plain reference implementation of Plateau X.

This module follows the project's rules page (``docs/rules/plateau-x.md``) as literally
as possible.  It is deliberately simple: the board is a list of tile stacks,
plateaus are found by a plain breadth-first search, and moves are found by a
plain breadth-first search over single steps.  Speed is not a goal; being easy
to check against the page is.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass


@dataclass(frozen=True)
class Variant:
    """One row of the page's variant table."""

    players: int
    board_size: int
    pieces_each: int
    singles: int  # singles in each player's own stock
    doubles: int  # doubles in each player's own stock
    triples: int  # triples in the common supply
    points: tuple[int, ...]  # points by place, best place first


VARIANTS: dict[str, Variant] = {
    # name:         players, board, pieces each, singles, doubles, triples, points by place
    "standard": Variant(4, 7, 1, 2, 1, 37, (4, 2, 1, 0)),
    "triple": Variant(3, 7, 1, 2, 1, 37, (3, 1, 0)),
    "mini": Variant(2, 6, 1, 3, 1, 37, (1, 0)),
    "double": Variant(2, 7, 2, 3, 1, 37, (1, 0)),
}

LETTERS = "abcdefghijklmnopqrstuvwxyz"


# ---------------------------------------------------------------------------
# Coordinates
# ---------------------------------------------------------------------------


def square_name(index: int, n: int) -> str:
    """Name of a square: column letter then 1-based row number (a1 = 0)."""
    if not 0 <= index < n * n:
        raise ValueError(f"square index {index} is off a {n}x{n} board")
    row, col = divmod(index, n)
    return f"{LETTERS[col]}{row + 1}"


def square_index(name: str, n: int) -> int:
    """Index of a named square: row * n + col, both from 0."""
    match = re.fullmatch(r"([a-zA-Z])([0-9]+)", name)
    if match is None:
        raise ValueError(f"not a square name: {name!r}")
    col = LETTERS.index(match.group(1).lower())
    row = int(match.group(2)) - 1
    if not (0 <= col < n and 0 <= row < n):
        raise ValueError(f"square {name!r} is off a {n}x{n} board")
    return row * n + col


def neighbours(index: int, n: int) -> list[int]:
    """Spaces sharing a whole side with ``index`` (never diagonals)."""
    row, col = divmod(index, n)
    result = []
    for drow, dcol in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + drow, col + dcol
        if 0 <= r < n and 0 <= c < n:
            result.append(r * n + c)
    return result


# Tile shapes as (column, row) offsets.  Triples are L-trominoes only: a 2x2
# square with one space left out, which gives the 4 orientations.
SHAPES: dict[str, list[list[tuple[int, int]]]] = {
    "S": [[(0, 0)]],
    "D": [[(0, 0), (1, 0)], [(0, 0), (0, 1)]],
    "T": [
        [(0, 0), (1, 0), (0, 1)],
        [(0, 0), (1, 0), (1, 1)],
        [(0, 0), (0, 1), (1, 1)],
        [(1, 0), (0, 1), (1, 1)],
    ],
}


def placements(kind: str, n: int) -> list[tuple[int, ...]]:
    """Every set of spaces (ascending indices) a tile of ``kind`` can cover on the board."""
    found: set[tuple[int, ...]] = set()
    for row in range(n):
        for col in range(n):
            for shape in SHAPES[kind]:
                cells = [(col + dc, row + dr) for dc, dr in shape]
                if all(0 <= c < n and 0 <= r < n for c, r in cells):
                    found.add(tuple(sorted(r * n + c for c, r in cells)))
    return sorted(found)


# ---------------------------------------------------------------------------
# Game state
# ---------------------------------------------------------------------------


class RefState:
    """A Plateau X position plus the bookkeeping needed to continue the game."""

    def __init__(self, variant: str, first_player: int = 0) -> None:
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}")
        spec = VARIANTS[variant]
        if not 0 <= first_player < spec.players:
            raise ValueError(f"first_player {first_player} out of range")
        self.variant: str = variant
        self.num_players: int = spec.players
        self.board_size: int = spec.board_size
        self.pieces_per_player: int = spec.pieces_each
        self.points: tuple[int, ...] = spec.points
        self.current_player: int = first_player
        self.ply: int = 0
        self.over: bool = False
        n = spec.board_size
        # stacks[space] lists the ids of the tiles on that space, bottom first.
        self.stacks: list[list[int]] = [[] for _ in range(n * n)]
        # tiles[tile id] = (kind, covered spaces)
        self.tiles: list[tuple[str, tuple[int, ...]]] = []
        self.singles: list[int] = [spec.singles] * spec.players
        self.doubles: list[int] = [spec.doubles] * spec.players
        self.triples: int = spec.triples
        num_pieces = spec.players * spec.pieces_each
        # piece_space[piece] = the space it stands on, or None when not in play.
        self.piece_space: list[int | None] = [None] * num_pieces
        # stamps[piece] = ply at which the piece last entered or moved.
        self.stamps: list[int | None] = [None] * num_pieces

    # -- simple queries ---------------------------------------------------

    def owner(self, piece: int) -> int:
        return piece // self.pieces_per_player

    def level(self, space: int) -> int:
        return len(self.stacks[space])

    def top_tile(self, space: int) -> int | None:
        stack = self.stacks[space]
        return stack[-1] if stack else None

    def piece_at(self, space: int) -> int | None:
        for piece, where in enumerate(self.piece_space):
            if where == space:
                return piece
        return None

    def plateau(self, space: int) -> set[int]:
        """The plateau containing ``space`` (empty set for a level-0 space)."""
        n = self.board_size
        height = self.level(space)
        if height == 0:
            return set()
        seen = {space}
        queue = deque([space])
        while queue:
            here = queue.popleft()
            for there in neighbours(here, n):
                if there not in seen and self.level(there) == height:
                    seen.add(there)
                    queue.append(there)
        return seen

    # -- building ---------------------------------------------------------

    def has_tile(self, player: int, kind: str) -> bool:
        if kind == "S":
            return self.singles[player] > 0
        if kind == "D":
            return self.doubles[player] > 0
        return self.triples > 0

    def placement_ok(self, kind: str, spaces: tuple[int, ...]) -> bool:
        """May a tile of ``kind`` be placed on ``spaces`` (all on the board)?"""
        # all covered spaces are at the same level
        heights = {self.level(s) for s in spaces}
        if len(heights) != 1:
            return False
        # no covered space holds a playing piece
        if any(self.piece_at(s) is not None for s in spaces):
            return False
        # not flush on a tile of the same kind: illegal when every covered
        # space has the same top tile and that tile is of the same kind
        tops = {self.top_tile(s) for s in spaces}
        if len(tops) == 1:
            (top,) = tops
            if top is not None and self.tiles[top][0] == kind:
                return False
        return True

    def build_actions(self) -> list[str]:
        n = self.board_size
        actions = []
        for kind in ("S", "D", "T"):
            if not self.has_tile(self.current_player, kind):
                continue
            for spaces in placements(kind, n):
                if self.placement_ok(kind, spaces):
                    names = "".join(square_name(s, n) for s in spaces)
                    actions.append(f"{kind}@{names}")
        return actions

    # -- entering ---------------------------------------------------------

    def pieces_of(self, player: int) -> list[int]:
        first = player * self.pieces_per_player
        return list(range(first, first + self.pieces_per_player))

    def piece_to_enter(self, player: int) -> int | None:
        """The player's lowest-numbered piece not yet in play, if any."""
        for piece in self.pieces_of(player):
            if self.piece_space[piece] is None:
                return piece
        return None

    def enter_actions(self) -> list[str]:
        if self.piece_to_enter(self.current_player) is None:
            return []
        n = self.board_size
        return [
            f"P@{square_name(s, n)}"
            for s in range(n * n)
            if self.level(s) == 0 and self.piece_at(s) is None
        ]

    # -- moving -----------------------------------------------------------

    def step_ok(self, here: int, there: int, player: int) -> bool:
        """One step from ``here`` to ``there`` by a piece of ``player``."""
        if there not in neighbours(here, self.board_size):
            return False
        # the level differs by exactly one
        if abs(self.level(there) - self.level(here)) != 1:
            return False
        # the space entered holds no playing piece
        if self.piece_at(there) is not None:
            return False
        # a plateau holding an opponent's piece cannot be entered
        if self.level(there) >= 1:
            for space in self.plateau(there):
                other = self.piece_at(space)
                if other is not None and self.owner(other) != player:
                    return False
        return True

    def destinations(self, piece: int) -> set[int]:
        """All end spaces reachable by one or more steps (excluding the start).

        Nothing changes during a move, so whether a step is allowed depends only
        on its two spaces; a plain BFS over spaces finds every reachable end.
        (The start space is already visited, so whether it counts as empty
        while the piece is away never matters.)
        """
        start = self.piece_space[piece]
        assert start is not None
        player = self.owner(piece)
        seen = {start}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in neighbours(here, self.board_size):
                if there not in seen and self.step_ok(here, there, player):
                    seen.add(there)
                    queue.append(there)
        return seen - {start}

    def move_actions(self) -> list[str]:
        n = self.board_size
        actions = []
        for piece in self.pieces_of(self.current_player):
            start = self.piece_space[piece]
            if start is None:
                continue
            for end in self.destinations(piece):
                actions.append(f"{square_name(start, n)}-{square_name(end, n)}")
        return actions

    # -- the interface ----------------------------------------------------

    def legal(self) -> list[str]:
        if self.over:
            return []
        builds = self.build_actions()
        actions = builds + self.enter_actions() + self.move_actions()
        if not builds:
            # End is legal only when the player cannot build.
            actions.append("end")
        return sorted(actions)

    def play(self, action: str) -> None:
        if action not in self.legal():
            raise ValueError(f"illegal action {action!r}")
        n = self.board_size
        player = self.current_player
        if action == "end":
            self.over = True
        elif action[0] in "SDT":
            kind = action[0]
            spaces = tuple(square_index(s, n) for s in re.findall(r"[a-z][0-9]+", action[2:]))
            tile_id = len(self.tiles)
            self.tiles.append((kind, spaces))
            for s in spaces:
                self.stacks[s].append(tile_id)
            if kind == "S":
                self.singles[player] -= 1
            elif kind == "D":
                self.doubles[player] -= 1
            else:
                self.triples -= 1
        elif action.startswith("P@"):
            piece = self.piece_to_enter(player)
            assert piece is not None
            self.piece_space[piece] = square_index(action[2:], n)
            self.stamps[piece] = self.ply
        else:
            start_name, end_name = action.split("-")
            piece = self.piece_at(square_index(start_name, n))
            assert piece is not None and self.owner(piece) == player
            self.piece_space[piece] = square_index(end_name, n)
            self.stamps[piece] = self.ply
        self.ply += 1
        if self.over:
            self.current_player = -1
        else:
            self.current_player = (player + 1) % self.num_players

    def is_over(self) -> bool:
        return self.over

    def piece_standing(self, piece: int) -> tuple[int, int, int, int]:
        """Key compared key by key, larger is better.

        (in play, level, plateau size (0 at level 0), earlier stamp as -stamp).
        """
        space = self.piece_space[piece]
        stamp = self.stamps[piece]
        if space is None or stamp is None:
            return (0, 0, 0, 0)
        return (1, self.level(space), len(self.plateau(space)), -stamp)

    def standing(self, player: int) -> tuple[int, int, int, int]:
        """A player's standing is that of their best piece."""
        return max(self.piece_standing(p) for p in self.pieces_of(player))

    def ranking(self) -> list[list[int]]:
        order = sorted(range(self.num_players), key=lambda p: self.standing(p), reverse=True)
        groups: list[list[int]] = []
        for player in order:
            if groups and self.standing(groups[-1][0]) == self.standing(player):
                groups[-1].append(player)
            else:
                groups.append([player])
        for group in groups:
            group.sort()
        return groups

    def returns(self) -> list[float]:
        result = [0.0] * self.num_players
        if not self.over:
            return result
        place = 0
        for group in self.ranking():
            # players who share places split those places' points equally
            shared = self.points[place : place + len(group)]
            for player in group:
                result[player] = sum(shared) / len(group)
            place += len(group)
        return result

    def copy(self) -> RefState:
        other = RefState.__new__(RefState)
        other.variant = self.variant
        other.num_players = self.num_players
        other.board_size = self.board_size
        other.pieces_per_player = self.pieces_per_player
        other.points = self.points
        other.current_player = self.current_player
        other.ply = self.ply
        other.over = self.over
        other.stacks = [list(stack) for stack in self.stacks]
        other.tiles = list(self.tiles)
        other.singles = list(self.singles)
        other.doubles = list(self.doubles)
        other.triples = self.triples
        other.piece_space = list(self.piece_space)
        other.stamps = list(self.stamps)
        return other


def perft(state: RefState, depth: int) -> int:
    """Number of leaves ``depth`` plies below ``state`` (a finished game has none)."""
    if depth == 0:
        return 1
    actions = state.legal()
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        child = state.copy()
        child.play(action)
        total += perft(child, depth - 1)
    return total
