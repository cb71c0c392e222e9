"""Tournaments of more bots than seats (round robin, gauntlet), the cross table, the
Bradley-Terry ranking and the Elo intervals of a clean sweep."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from pathlib import Path

import pytest

import plateau
from plateau import arena, rating
from plateau.cli import main
from plateau.errors import InvalidArgumentError, InvalidResultsError
from plateau.openings import OpeningSource
from plateau.pairings import Schedule

# -- the schedule -------------------------------------------------------------------------------


@pytest.mark.parametrize("bots,seats", [(2, 2), (3, 2), (5, 2), (3, 3), (4, 3), (5, 4)])
def test_a_round_robin_round_is_every_set_of_bots_in_every_seating(bots: int, seats: int) -> None:
    sched = Schedule.make("round-robin", bots, seats)
    seatings = sched.seatings
    assert len(seatings) == math.comb(bots, seats) * math.factorial(seats)
    assert len(set(seatings)) == len(seatings)
    for group in itertools.combinations(range(bots), seats):
        assert {s for s in seatings if sorted(s) == list(group)} == set(
            itertools.permutations(group)
        )
    # every bot sits in every seat equally often
    for bot in range(bots):
        per_seat = Counter(s.index(bot) for s in seatings if bot in s)
        assert len(set(per_seat.values())) == 1 and len(per_seat) == seats


@pytest.mark.parametrize("bots,seats", [(3, 2), (5, 2), (4, 3), (5, 4)])
def test_a_gauntlet_round_is_the_round_robin_sets_that_hold_the_first_bot(
    bots: int, seats: int
) -> None:
    full = Schedule.make("round-robin", bots, seats).seatings
    gauntlet = Schedule.make("gauntlet", bots, seats).seatings
    assert list(gauntlet) == [s for s in full if 0 in s]
    assert len(gauntlet) == math.comb(bots - 1, seats - 1) * math.factorial(seats)


def test_schedules_that_cannot_be_filled_are_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="2 seats; got 3 bots"):
        Schedule.make("seats", 3, 2)
    with pytest.raises(InvalidArgumentError, match="at least 4 bots"):
        Schedule.make("round-robin", 3, 4)
    with pytest.raises(InvalidArgumentError, match="unknown tournament format"):
        Schedule.make("swiss", 4, 2)


# -- Elo of a score, and the rule for sweeps ----------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 4, 6, 10, 100])
def test_a_clean_sweep_has_one_infinite_end_and_a_finite_wilson_bound(n: int) -> None:
    elo, lo, hi = rating.elo_interval(1.0, n)
    assert elo == math.inf and hi == math.inf and math.isfinite(lo)
    assert (lo > 0) == (n >= 4)  # 4-0 is the first sweep whose interval excludes even play
    elo, lo, hi = rating.elo_interval(0.0, n)
    assert elo == -math.inf and lo == -math.inf and math.isfinite(hi)
    # the finite end grows with the games
    assert rating.elo_interval(1.0, n + 1)[1] > rating.elo_interval(1.0, n)[1]


def test_a_score_short_of_a_sweep_has_a_finite_interval_around_it() -> None:
    for won, n in [(5, 6), (1, 6), (3, 4), (50, 100), (99, 100)]:
        elo, lo, hi = rating.elo_interval(won / n, n)
        assert all(math.isfinite(x) for x in (elo, lo, hi)) and lo < elo < hi


# -- the cross table, by hand -------------------------------------------------------------------


def _line(index: int, players: list[int], ranking: list[list[int]], bots: list[str]) -> str:
    n = len(players)
    variant = "mini" if n == 2 else "triple"
    result = arena.GameResult(
        index,
        "plateau-x",
        variant,
        0,
        [bots[b] for b in players],
        ranking,
        plateau.new_game("plateau-x", variant).points_for(ranking),  # as the arena scores
        10,
        0.1,
        players=players,
        schedule={"format": "round-robin", "bots": bots},
    )
    return result.to_line()


def test_a_round_robins_cross_table_and_ranking_match_a_hand_computation(tmp_path: Path) -> None:
    bots = ["a", "b", "c"]
    sched = Schedule.make("round-robin", 3, 2)
    # two rounds; the winner of each game by hand: a beats b and c always; b and c split
    # (b wins as seat 0, c as seat 0: each pair of colours 1-1), and one a-b game drawn
    lines = []
    for index in range(2 * sched.round_games):
        players = sched.players(index)
        pair = set(players)
        if pair == {0, 1} and index == 6:
            ranking = [[0, 1]]  # a shared first place: a draw
        elif 0 in pair:
            ranking = [[players.index(0)], [1 - players.index(0)]]
        else:
            ranking = [[0], [1]]  # seat 0 wins
        lines.append(_line(index, players, ranking, bots))
    path = tmp_path / "rr.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    res = arena.report(path)
    assert res.format == "round-robin" and res.bots == bots
    table = res.cross_table()
    # a against b: 4 games, 3 won and one drawn; a against c: 4 of 4; b against c: 2 of 4
    assert table.points == [[0.0, 3.5, 4.0], [0.5, 0.0, 2.0], [0.0, 2.0, 0.0]]
    assert table.games == [[0, 4, 4], [4, 0, 4], [4, 4, 0]]
    text = res.format_table()
    assert "| a |  | 3.5/4 " in text and "| 4/4 +inf (+" in text and ".. +inf) |" in text
    assert "round-robin, 6 games a round (every seating), 2 rounds" in text
    ranks = res.ratings()
    # b and c split their games; b drew once with a, c never scored against a
    assert [r.bot for r in ranks] == [0, 1, 2]
    assert ranks[0].elo > 0 > ranks[2].elo and sum(r.elo for r in ranks) == pytest.approx(0)
    with pytest.raises(InvalidArgumentError, match="not rounds of one tournament"):
        res.tournament()


def test_a_three_seat_game_counts_once_for_each_pair_of_its_bots() -> None:
    table = rating.CrossTable.of(4, [([3, 0, 2], [[1], [0, 2]])])  # bot 0 first, 3 and 2 tied
    assert table.points[0] == [0.0, 0.0, 1.0, 1.0]
    assert table.points[3][2] == table.points[2][3] == 0.5
    assert table.games[1] == [0, 0, 0, 0] and table.games[0][3] == 1


def _mm_ratings(points: list[list[float]], games: list[list[int]]) -> list[float]:
    """Bradley-Terry by Hunter's MM iteration (the textbook fixed point, written apart from
    the Newton fit), with the same one virtual draw per pair that met; Elo, mean 0."""
    k = len(points)
    w = [[points[a][b] + (0.5 if games[a][b] else 0.0) for b in range(k)] for a in range(k)]
    gamma = [1.0] * k
    for _ in range(20000):
        new = []
        for a in range(k):
            denom = sum((w[a][b] + w[b][a]) / (gamma[a] + gamma[b]) for b in range(k) if b != a)
            new.append(sum(w[a]) / denom)
        mean_log = sum(math.log(g) for g in new) / k
        gamma = [g / math.exp(mean_log) for g in new]
    return [400 * math.log10(g) for g in gamma]


@pytest.mark.parametrize("seed", range(6))
def test_the_bradley_terry_fit_agrees_with_an_mm_iteration(seed: int) -> None:
    rng = random.Random(seed)
    k = rng.randint(2, 6)
    points = [[0.0] * k for _ in range(k)]
    games = [[0] * k for _ in range(k)]
    for a, b in itertools.combinations(range(k), 2):
        n = rng.randint(1, 30)
        won = rng.randint(0, 2 * n) / 2  # any score, sweeps and half points included
        points[a][b], points[b][a] = won, n - won
        games[a][b] = games[b][a] = n
    fit = {r.bot: r for r in rating.bradley_terry(rating.CrossTable(points, games))}
    reference = _mm_ratings(points, games)
    for b in range(k):
        assert fit[b].elo == pytest.approx(reference[b], abs=0.01)
        assert fit[b].ci95 > 0 and math.isfinite(fit[b].ci95)


def test_the_rating_interval_narrows_with_four_times_the_games() -> None:
    small = rating.CrossTable(
        [[0, 6, 8], [4, 0, 6], [2, 4, 0]], [[0, 10, 10], [10, 0, 10], [10, 10, 0]]
    )
    big = rating.CrossTable(
        [[4 * x for x in row] for row in small.points],
        [[4 * x for x in row] for row in small.games],
    )
    s = {r.bot: r.ci95 for r in rating.bradley_terry(small)}
    b = {r.bot: r.ci95 for r in rating.bradley_terry(big)}
    for bot in range(3):  # about half as wide (the virtual draws make it not exact)
        assert 0.4 < b[bot] / s[bot] < 0.6


# -- tournaments played -------------------------------------------------------------------------


def test_a_round_robin_plays_its_schedule_and_reports_from_its_file(tmp_path: Path) -> None:
    out = tmp_path / "rr.jsonl"
    bots = ["random", "greedy", "mcts:iters=20"]
    res = arena.run(
        "plateau-x",
        "mini",
        bots,
        games=12,
        seed=5,
        out=out,
        openings=OpeningSource(random_plies=2),
    )
    assert res.format == "round-robin"
    sched = Schedule.make("round-robin", 3, 2)
    assert [r.players for r in res.results] == [sched.players(i) for i in range(12)]
    for r in res.results:
        assert r.seats == [bots[b] for b in r.players]
        assert r.opening == r.index // 6  # one opening per round
        assert r.schedule == {"format": "round-robin", "bots": bots}
    # each bot played 8 games: its two pairings, both seats, two rounds
    assert [s.games for s in res.stats()] == [8, 8, 8]
    assert arena.report(out).format_table() == res.format_table()
    # resumed with more rounds: the first twelve games are kept, not replayed
    before = out.read_text().splitlines()
    more = arena.run(
        "plateau-x",
        "mini",
        bots,
        games=18,
        seed=5,
        out=out,
        resume=True,
        openings=OpeningSource(random_plies=2),
    )
    assert out.read_text().splitlines()[:12] == before and len(more.results) == 18
    # and a resume with another format or other bots is refused
    with pytest.raises(InvalidArgumentError, match="another arena setup"):
        arena.run(
            "plateau-x",
            "mini",
            bots,
            games=18,
            seed=5,
            out=out,
            resume=True,
            format="gauntlet",
            openings=OpeningSource(random_plies=2),
        )


def test_a_gauntlet_in_a_three_seat_game(tmp_path: Path) -> None:
    bots = ["greedy", "random", "random", "greedy"]
    res = arena.run("plateau-x", "triple", bots, games=18, seed=1, format="gauntlet")
    assert all(0 in r.players for r in res.results)
    stats = res.stats()
    assert stats[0].games == 18 and sum(s.games for s in stats) == 3 * 18
    table = res.cross_table()
    assert table.games[1][2] == 6 and table.games[0][1] == 12 and table.games[0][0] == 0
    text = res.format_table()
    assert "Cross table" in text and "Ranking (Bradley-Terry" in text
    assert "| greedy #1 |" in text and "| random #2 |" in text


def test_the_command_line_plays_a_round_robin_of_more_bots_than_seats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rr.jsonl"
    code = main(
        [
            "arena",
            "--game",
            "plateau-x",
            "--variant",
            "mini",
            "--bots",
            "random,greedy,random",
            "--rounds",
            "2",
            "--jobs",
            "1",
            "--no-progress",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    text = capsys.readouterr().out
    assert "12 games of plateau-x/mini, round-robin" in text and "Cross table" in text
    assert len(out.read_text().splitlines()) == 12
    assert main(["arena-report", str(out)]) == 0
    assert capsys.readouterr().out.strip() == text.strip()
    # a gauntlet's default number of games: whole rounds reaching 100
    code = main(
        [
            "arena",
            "--game",
            "plateau-x",
            "--variant",
            "mini",
            "--bots",
            "random,random,random",
            "--format",
            "gauntlet",
            "--jobs",
            "1",
            "--no-progress",
        ]
    )
    assert code == 0 and "100 games of plateau-x/mini, gauntlet" in capsys.readouterr().out
    # fewer bots than seats: the one-bot-per-seat arena's message
    code = main(["arena", "--game", "plateau-x", "--variant", "mini", "--bots", "random"])
    assert code == 2 and "the game has 2 seats; got 1 bots" in capsys.readouterr().err
    # one bot per seat is asked for, more are given
    code = main(
        [
            "arena",
            "--game",
            "plateau-x",
            "--variant",
            "mini",
            "--bots",
            "random,greedy,random",
            "--format",
            "seats",
            "--games",
            "2",
        ]
    )
    assert code == 2 and "plateau-x/mini: the game has 2 seats; got 3 bots" in (
        capsys.readouterr().err
    )


def test_an_sprt_is_refused_in_a_tournament() -> None:
    from plateau.sprt import SPRT

    with pytest.raises(InvalidArgumentError, match="SPRT compares two bots"):
        arena.run(
            "plateau-x",
            "mini",
            ["random", "greedy", "random"],
            games=10,
            sprt=SPRT(elo0=0, elo1=10),
        )


def test_result_lines_with_a_bad_schedule_or_players_are_refused() -> None:
    good = json.loads(_line(0, [0, 1], [[0], [1]], ["a", "b", "c"]))
    for field, value, message in [
        ("players", [0, 0], "distinct bot numbers"),
        ("players", [0, 3], "beyond the 3 of the schedule"),
        ("players", [0, 1, 2], "players has 3 bots for 2 seats"),
        ("schedule", {"format": "swiss", "bots": ["a", "b"]}, "schedule"),
        ("schedule", {"format": "gauntlet", "bots": "ab"}, "schedule"),
    ]:
        bad = {**good, field: value}
        with pytest.raises(InvalidResultsError, match=message):
            arena.GameResult.from_dict(bad)
    plain = {**good, "schedule": None, "players": [0, 2]}
    with pytest.raises(InvalidResultsError, match="not an order of the 2 bots"):
        arena.GameResult.from_dict(plain)


def test_a_round_too_big_to_make_is_refused_before_it_is_made() -> None:
    # (120 bots in a four-seat round robin made 197 million seatings: gigabytes, no game)
    import plateau.pairings as pairings
    from plateau.pairings import MAX_ROUND_GAMES, Schedule

    for fmt in ("round-robin", "gauntlet"):
        for k, n in ((2, 2), (3, 2), (5, 3), (6, 4), (9, 4), (12, 3)):
            s = Schedule.make(fmt, k, n)
            assert len(set(s.seatings)) == len(s.seatings) == s.round_games
            # the size the cap checks before making the seatings is the size made
            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(pairings, "MAX_ROUND_GAMES", s.round_games)
                assert Schedule.make(fmt, k, n) == s
                mp.setattr(pairings, "MAX_ROUND_GAMES", s.round_games - 1)
                with pytest.raises(InvalidArgumentError, match="games a round"):
                    Schedule.make(fmt, k, n)
    with pytest.raises(InvalidArgumentError, match="197,149,680 games a round"):
        arena.run("plateau-x", "standard", ["random"] * 120, games=1)
    with pytest.raises(InvalidArgumentError, match=r"6,571,656 games a round.*fewer bots;"):
        arena.run("plateau-x", "standard", ["random"] * 120, games=1, format="gauntlet")
    assert Schedule.make("round-robin", 18, 4).round_games == 73_440 <= MAX_ROUND_GAMES
    with pytest.raises(InvalidArgumentError, match=r"games a round.*fewer bots, or a gauntlet$"):
        Schedule.make("round-robin", 2**70, 2)
