"""Elo from game results: a score's Elo with its interval, the pairwise cross table of an arena,
and a Bradley-Terry fit of every bot's rating from it (``docs/bots-and-arena.md``).

Scores. A game between two bots scores 1 for the one placed higher, 1/2 each for the same place
and 0 for the lower (in a two-player game: win, shared first place, loss). A game of three or
four bots counts as one such result for each pair of them, as rating lists for multi-player
games do.

Intervals. A score ``s`` over ``n`` games has the Wilson 95% interval, mapped to Elo by
``-400 log10(1/s - 1)``. A clean sweep (``s`` = 1 or 0) has an infinite Elo and one infinite
end; its other end is the Wilson bound (4-0: ``+inf (+7 .. +inf)``).

Ratings. :func:`bradley_terry` is a maximum-likelihood Bradley-Terry fit of all the pairwise
scores at once (the model of BayesElo and Ordo: the expected score of ``a`` against ``b`` is
``1 / (1 + 10 ** ((R_b - R_a) / 400))``), with one virtual draw added to each pair of bots that
met (BayesElo's way of keeping a clean sweep finite; its default is two). Ratings are centred
on a mean of 0; each has a 95% interval from the curvature of the likelihood (the inverse
Fisher information), ``rating ± 1.96 sd``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from plateau.checks import check_int, check_number, check_ranking, shown
from plateau.errors import InvalidArgumentError

_ELO = 400.0 / math.log(10.0)  # Elo points per unit of natural log-odds


def elo_of_score(score: float) -> float:
    """The Elo difference that expects ``score`` (0 to 1): ``-400 log10(1/score - 1)``, infinite
    at 0 and 1.

    >>> round(elo_of_score(0.75))
    191
    """
    score = _proportion(score, "score")
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def _proportion(value: object, name: str) -> float:
    """``value`` as a float after checking that it is a real number in [0, 1]."""
    # (compared before float(): float() of 10**400 overflows)
    if not isinstance(value, bool) and isinstance(value, numbers.Real) and 0 <= value <= 1:  # type: ignore[operator]
        return float(value)
    raise InvalidArgumentError(f"{name} must be a number in [0, 1], got {shown(value)}")


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion ``p`` observed in ``n`` trials (stays inside [0, 1]
    and is not empty at 0 or 1, unlike the normal approximation); ``(0, 1)`` after no trial.

    >>> wilson(0.5, 0)
    (0.0, 1.0)
    """
    p = _proportion(p, "p")
    n = check_int(n, "n", 0)
    if n == 0:
        return 0.0, 1.0
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_interval(score: float, n: int) -> tuple[float, float, float]:
    """``(elo, low, high)``: the Elo of a mean ``score`` over ``n`` games and its 95% interval,
    by the rule for sweeps of the module's docstring.

    >>> [round(x) for x in elo_interval(0.5, 100)]
    [0, -68, 68]
    >>> elo_interval(1.0, 4)[0], round(elo_interval(1.0, 4)[1]), elo_interval(1.0, 4)[2]
    (inf, 7, inf)
    >>> elo_interval(0.5, 0)[1:]
    (-inf, inf)
    """
    lo, hi = wilson(score, n)
    if score >= 1.0:
        return math.inf, elo_of_score(lo), math.inf
    if score <= 0.0:
        return -math.inf, -math.inf, elo_of_score(hi)
    return elo_of_score(score), elo_of_score(lo), elo_of_score(hi)


def signed(x: float) -> str:
    """``x`` rounded with its sign, never ``-0`` (``+0``, ``-17``, ``+inf``)."""
    text = f"{x:+.0f}"
    return "+0" if text == "-0" else text


@dataclass
class CrossTable:
    """Pairwise results of ``n`` bots: ``points[a][b]`` is what ``a`` scored against ``b``
    over ``games[a][b]`` games they both played."""

    points: list[list[float]]
    games: list[list[int]]

    @classmethod
    def of(
        cls, num_bots: int, games: Iterable[tuple[Sequence[int], Sequence[Sequence[int]]]]
    ) -> CrossTable:
        """The cross table of ``games``, each given as ``(players, ranking)``: the bot in each
        seat, and the seats by place, best first (a shared place is one group).

        >>> t = CrossTable.of(3, [([0, 1, 2], [[2], [0, 1]]), ([1, 0], [[1], [0]])])
        >>> t.points[2], t.points[0][1], t.games[0][1]
        ([1.0, 1.0, 0.0], 1.5, 2)
        """
        num_bots = check_int(num_bots, "num_bots", 1, 100_001)
        points = [[0.0] * num_bots for _ in range(num_bots)]
        count = [[0] * num_bots for _ in range(num_bots)]
        for number, game in enumerate(games):
            try:
                players, ranking = game
                groups = check_ranking(ranking, len(players))
                place = {seat: k for k, group in enumerate(groups) for seat in group}
                fits = all(
                    isinstance(b, numbers.Integral) and not isinstance(b, bool)
                    and 0 <= b < num_bots
                    for b in players
                )  # fmt: skip
            except (TypeError, ValueError):
                fits = False
            if not fits:
                raise InvalidArgumentError(
                    f"game {number}: a game is (players, ranking): the bot in each seat, in [0, "
                    f"{num_bots}), and the seats by place, each once; got {shown(game)}"
                )
            players = [int(b) for b in players]
            for sa, a in enumerate(players):
                for sb, b in enumerate(players):
                    if a == b:
                        continue
                    count[a][b] += 1
                    if place[sa] < place[sb]:
                        points[a][b] += 1.0
                    elif place[sa] == place[sb]:
                        points[a][b] += 0.5
        return cls(points, count)

    def score(self, a: int, b: int) -> float | None:
        """``a``'s mean score against ``b`` (None if they never met)."""
        n = self.games[a][b]
        return self.points[a][b] / n if n else None

    def total(self, a: int) -> tuple[float, int]:
        """``a``'s points and games against everyone (a game of four counts three times)."""
        return sum(self.points[a]), sum(self.games[a])


@dataclass
class Rating:
    """One bot's rating: Elo centred on the mean of the field, the half-width of its 95%
    interval, and its pairwise points and games."""

    bot: int
    elo: float
    ci95: float
    points: float
    games: int


def bradley_terry(table: CrossTable, virtual_draws: float = 1.0) -> list[Rating]:
    """Every bot's rating from the cross table (the fit of the module's docstring), best first.

    >>> t = CrossTable([[0, 30, 40], [10, 0, 30], [0, 10, 0]], [[0, 40, 40], [40, 0, 40],
    ...                 [40, 40, 0]])
    >>> [(r.bot, round(r.elo)) for r in bradley_terry(t)]
    [(0, 235), (1, 0), (2, -235)]
    """
    virtual_draws = check_number(virtual_draws, "virtual_draws")
    k = len(table.games)
    n = np.array(table.games, dtype=np.float64)
    w = np.array(table.points, dtype=np.float64)
    met = (n + n.T) > 0
    w = w + np.where(met, virtual_draws / 2.0, 0.0)
    n = w + w.T  # games, the virtual draws included
    theta = np.zeros(k)

    def loglik(t: np.ndarray) -> float:
        d = t[:, None] - t[None, :]
        return float(np.sum(w * -np.logaddexp(0.0, -d)))

    def expected_and_information(t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each pair's expected score, and the Fisher information (the negated Hessian)."""
        p = 1.0 / (1.0 + np.exp(-(t[:, None] - t[None, :])))
        weight = n * p * (1.0 - p)
        return p, np.diag(weight.sum(axis=1)) - weight

    for _ in range(100):
        p, info = expected_and_information(theta)
        grad = np.sum(w - n * p, axis=1)
        step = np.linalg.pinv(info) @ grad
        base = loglik(theta)
        scale = 1.0
        while scale > 1e-6 and loglik(theta + scale * step) < base - 1e-12:
            scale /= 2.0
        theta = theta + scale * step
        theta -= theta.mean()
        if float(np.max(np.abs(scale * step))) < 1e-10:
            break
    cov = np.linalg.pinv(expected_and_information(theta)[1])
    out = []
    for b in range(k):
        pts, games = table.total(b)
        sd = math.sqrt(max(0.0, float(cov[b, b])))
        out.append(Rating(b, float(theta[b]) * _ELO, 1.96 * sd * _ELO, pts, games))
    out.sort(key=lambda r: (-r.elo, r.bot))
    return out
