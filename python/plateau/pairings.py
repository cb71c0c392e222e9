"""Who plays whom, and in which seat, in each game of an arena: the tournament formats.

An arena's games come in *rounds*. A round plays every *seating* of the format once (a seating
names the bot in each seat), and every game of round ``k`` starts from opening ``k``, so that
opening luck cancels out over a round. Game ``i`` is seating ``i % len(seatings)`` of round
``i // len(seatings)``.

- ``seats``: as many bots as seats, rotated one seat per game (a round is the ``n`` rotations).
- ``round-robin``: every set of ``n`` of the bots (every pairing, with two seats), each in every
  seating (the ``n!`` orders of its bots in the seats; with two seats, both colours).
- ``gauntlet``: as round robin, but only the sets that include the first bot.

>>> Schedule.make("round-robin", 3, 2).seatings
((0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1))
>>> Schedule.make("gauntlet", 3, 2).seatings
((0, 1), (1, 0), (0, 2), (2, 0))
>>> Schedule.make("seats", 3, 3).seatings
((0, 1, 2), (2, 0, 1), (1, 2, 0))
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass

from plateau.checks import check_int
from plateau.errors import InvalidArgumentError

#: the formats of an arena's schedule, by name
FORMATS = ("seats", "round-robin", "gauntlet")

#: the most games a round may have (its seatings are all made at once: 120 bots in a round
#: robin of four seats would be 197 million of them, gigabytes before the first game)
MAX_ROUND_GAMES = 100_000


def seat_order(index: int, num_bots: int) -> list[int]:
    """Which bot sits in each seat in game ``index`` of the ``seats`` format: rotated by one
    seat per game, so over ``num_bots`` consecutive games every bot plays every seat once.

    >>> [seat_order(i, 3) for i in range(3)]
    [[0, 1, 2], [2, 0, 1], [1, 2, 0]]
    """
    index = check_int(index, "index", 0)
    num_bots = check_int(num_bots, "num_bots", 1, MAX_ROUND_GAMES + 1)
    return [(seat - index) % num_bots for seat in range(num_bots)]


def default_format(num_bots: int, num_seats: int) -> str:
    """The format an arena plays when none is named: ``seats`` with one bot per seat (or too
    few, for its message), ``round-robin`` with more bots than seats."""
    return "seats" if num_bots <= num_seats else "round-robin"


@dataclass(frozen=True)
class Schedule:
    """The seatings of one round of an arena of ``num_bots`` bots in a game of ``num_seats``
    seats, in the order they are played."""

    format: str
    num_bots: int
    num_seats: int
    seatings: tuple[tuple[int, ...], ...]

    @classmethod
    def make(cls, format: str, num_bots: int, num_seats: int) -> Schedule:
        """The schedule of ``format`` (one of :data:`FORMATS`); an
        :class:`~plateau.InvalidArgumentError` if the bots cannot fill it."""
        n, k = num_seats, num_bots
        if not isinstance(format, str):  # (a numpy array of one string compared equal)
            raise InvalidArgumentError(
                f"unknown tournament format {format!r} (one of {', '.join(FORMATS)})"
            )
        if format == "seats":
            if k != n:
                raise InvalidArgumentError(
                    f"the game has {n} seats; got {k} bots (one bot per seat, or a tournament: "
                    "format round-robin or gauntlet)"
                )
            seatings = [tuple(seat_order(i, n)) for i in range(n)]
        elif format in ("round-robin", "gauntlet"):
            if k < n:
                raise InvalidArgumentError(
                    f"a {format} in a game of {n} seats needs at least {n} bots, got {k} "
                    "(name a bot twice to seat two copies of it)"
                )
            size = math.comb(k, n) - (math.comb(k - 1, n) if format == "gauntlet" else 0)
            size *= math.factorial(n)
            if size > MAX_ROUND_GAMES:
                raise InvalidArgumentError(
                    f"a {format} of {k} bots in a game of {n} seats has {size:,} games a round "
                    f"(every seating of every set of {n}); at most {MAX_ROUND_GAMES:,}: fewer "
                    "bots" + (", or a gauntlet" if format == "round-robin" else "")
                )
            groups: Iterable[tuple[int, ...]]
            if format == "gauntlet":  # (the sets with bot 0, in the same order, not filtered)
                groups = ((0, *c) for c in itertools.combinations(range(1, k), n - 1))
            else:
                groups = itertools.combinations(range(k), n)
            seatings = [p for g in groups for p in itertools.permutations(g)]
        else:
            raise InvalidArgumentError(
                f"unknown tournament format {format!r} (one of {', '.join(FORMATS)})"
            )
        return cls(format, k, n, tuple(seatings))

    @property
    def round_games(self) -> int:
        """Games in one round."""
        return len(self.seatings)

    def players(self, index: int) -> list[int]:
        """The bot in each seat of game ``index``."""
        return list(self.seatings[check_int(index, "index", 0) % len(self.seatings)])

    def round_of(self, index: int) -> int:
        """The round of game ``index`` (its games share an opening)."""
        return check_int(index, "index", 0) // len(self.seatings)
