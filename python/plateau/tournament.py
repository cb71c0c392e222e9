"""Tournaments of several rounds: points by place per round, summed; equal sums are broken by
the number of rounds won (a round is won only by a sole first place)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from plateau.checks import check_ranking
from plateau.errors import InvalidArgumentError
from plateau.registry import GameSpec, spec_of
from plateau.state import GameState, points_for_ranking, rank_by_keys


class Tournament:
    """Running standings of a tournament of one game, variant and options (a name with them,
    the default variant if None, or a :class:`plateau.GameSpec`).

    >>> t = Tournament("plateau-x", "mini")
    >>> for ranking in ([[1], [0]], [[0], [1]], [[1], [0]], [[0, 1]]):
    ...     _ = t.add(ranking)
    >>> t.points, t.wins, t.standings()
    ([1.5, 2.5], [1, 2], [[1], [0]])
    """

    def __init__(self, game: str | GameSpec, variant: str | None = None, **options: Any) -> None:
        self.spec = spec_of(game, variant, options)
        probe = self.spec.new_game()
        self.game = self.spec.game
        self.variant = self.spec.variant
        self.num_players = probe.num_players
        self.table = probe.points_by_place()
        self._probe = probe
        self.points = [0.0] * self.num_players
        self.wins = [0] * self.num_players
        self.rounds: list[list[list[int]]] = []

    def add(self, result: GameState | Sequence[Sequence[int]]) -> list[float]:
        """Score one round, given as a finished game or its ranking; returns the round's
        points per player."""
        if isinstance(result, GameState):
            if (result.game, result.variant) != (self.game, self.variant):
                raise InvalidArgumentError(
                    f"a {result.game}/{result.variant} game cannot score in a "
                    f"{self.game}/{self.variant} tournament"
                )
            if not result.is_terminal():
                raise InvalidArgumentError("only a finished game can be scored")
            ranking = result.ranking()
        else:
            ranking = check_ranking(result, self.num_players)
        gained = points_for_ranking(ranking, self._probe.points_by_place())  # (checked above)
        for p, pts in enumerate(gained):
            self.points[p] += pts
        if len(ranking[0]) == 1:  # a round is won only by a sole first place
            self.wins[ranking[0][0]] += 1
        self.rounds.append(ranking)
        return gained

    def standings(self) -> list[list[int]]:
        """Players best first by total points, then rounds won; still-equal players grouped."""
        return rank_by_keys([(self.points[p], self.wins[p]) for p in range(self.num_players)])
