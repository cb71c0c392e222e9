"""The arena: seat rotation, statistics against a hand computation, JSON lines, resume,
forfeits, parallel workers, the CLI, and the optional Ray backend."""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

import plateau
from plateau import arena, rating
from plateau.bots import BOTS, Bot, register_bot
from plateau.cli import main
from plateau.openings import OpeningSource
from support import require_extra


class _Crash(Bot):
    """Plays its first legal action, then raises on its second move."""

    name: ClassVar[str] = "test-crash"

    def __init__(self, seed: int = 0, **params: Any) -> None:
        super().__init__(seed, **params)
        self.moves = 0

    def select_action(self, state: plateau.GameState) -> int:
        self.moves += 1
        if self.moves == 2:
            raise RuntimeError("boom")
        return int(state.legal_actions()[0])


class _Illegal(Bot):
    name: ClassVar[str] = "test-illegal"

    def select_action(self, state: plateau.GameState) -> int:
        return state.num_distinct_actions  # out of range


class _Slow(Bot):
    name: ClassVar[str] = "test-slow"

    def select_action(self, state: plateau.GameState) -> int:
        time.sleep(0.05)
        return int(state.legal_actions()[0])


for _cls in (_Crash, _Illegal, _Slow):
    if _cls.name not in BOTS:
        register_bot(_cls)


def test_split_bot_list_and_seat_rotation() -> None:
    assert arena.split_bot_list("mcts:iters=2000,greedy,random,random") == [
        "mcts:iters=2000",
        "greedy",
        "random",
        "random",
    ]
    assert arena.split_bot_list("mcts:iters=5,c=2,alphabeta:depth=2") == [
        "mcts:iters=5,c=2",
        "alphabeta:depth=2",
    ]
    with pytest.raises(ValueError, match="empty bot"):
        arena.split_bot_list("random,,greedy")
    # over P consecutive games every bot sits in every seat exactly once
    for p in (2, 3, 4):
        seats = [arena.seat_order(i, p) for i in range(p)]
        for bot in range(p):
            assert sorted(order.index(bot) for order in seats) == list(range(p))


def _result(index: int, ranking: list[list[int]], returns: list[float]) -> arena.GameResult:
    return arena.GameResult(index, "plateau-x", "mini", 0, ["a", "b"], ranking, returns, 10, 0.1)


def test_statistics_match_a_hand_computation() -> None:
    # bot A is bot 0; game i seats bots by seat_order(i, 2): even games A in seat 0
    results = [
        _result(0, [[0], [1]], [1.0, 0.0]),  # A (seat 0) wins
        _result(1, [[0], [1]], [1.0, 0.0]),  # seat 0 is B: B wins
        _result(2, [[0], [1]], [1.0, 0.0]),  # A wins
        _result(3, [[1], [0]], [0.0, 1.0]),  # seat 1 is A: A wins
    ]
    res = arena.ArenaResult("plateau-x", "mini", ["a", "b"], results)
    a, b = res.stats()
    assert (a.games, a.wins, a.points, b.wins, b.points) == (4, 3, 3.0, 1, 1.0)
    assert a.mean == pytest.approx(0.75) and a.win_rate == pytest.approx(0.75)
    # sample sd of [1,0,1,1] is 0.5: half-width 1.96 * 0.5 / 2
    assert a.ci95 == pytest.approx(0.49)
    assert a.elo == pytest.approx(400 * math.log10(3))  # score 3/4
    assert b.elo == pytest.approx(-400 * math.log10(3))
    lo, hi = a.elo_ci95 or (0.0, 0.0)
    # Wilson interval of the score 3/4 over 4 games, by hand
    z2 = 1.96**2
    centre = (0.75 + z2 / 8) / (1 + z2 / 4)
    half = 1.96 * math.sqrt(0.75 * 0.25 / 4 + z2 / 64) / (1 + z2 / 4)
    assert lo == pytest.approx(-400 * math.log10(1 / (centre - half) - 1))
    assert hi == pytest.approx(-400 * math.log10(1 / (centre + half) - 1))
    assert lo < a.elo < hi
    assert res.tournament().standings() == [[0], [1]]
    table = res.format_table()
    assert "| a | 4 | 3 | 0 | 3 |" in table and "Elo" in table


def test_a_shared_first_place_is_no_win_in_either_table() -> None:
    # two drawn games: both bots had "wins 2, win rate 100%" while the table by seat said 0
    results = [
        _result(0, [[0, 1]], [0.5, 0.5]),
        _result(1, [[0, 1]], [0.5, 0.5]),
        _result(2, [[0], [1]], [1.0, 0.0]),  # a (seat 0 in even games) wins
    ]
    res = arena.ArenaResult("plateau-x", "mini", ["a", "b"], results)
    a, b = res.stats()
    assert (a.wins, a.shared, b.wins, b.shared) == (1, 2, 0, 2)
    assert a.win_rate == pytest.approx(1 / 3) and b.win_rate == 0.0
    assert a.elo == pytest.approx(-b.elo) and a.elo > 0  # scores 2/3 and 1/3: draws are halves
    table = res.format_table()
    assert "| a | 3 | 1 | 2 | 2 | 0.667" in table and "| 33.3% |" in table
    assert "| b | 3 | 0 | 2 | 1 | 0.333" in table
    assert [(s.wins, s.shared) for s in res.seat_stats()] == [(1, 2), (0, 2)]


def test_tiny_arena_run_matches_its_games(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    res = arena.run("plateau-x", "mini", ["random", "greedy"], games=4, seed=3, out=out)
    assert len(res.results) == 4
    lines = out.read_text().splitlines()
    assert len(lines) == 4
    for r, line in zip(res.results, lines):
        data = json.loads(line)
        assert data["index"] == r.index and data["returns"] == r.returns
        # the embedded record is the engine's: it replays to the same ranking
        replay = plateau.from_json(json.dumps(data["record"]))
        assert replay.ranking() == r.ranking or r.truncated
        assert r.seats == [["random", "greedy"][b] for b in arena.seat_order(r.index, 2)]
    # the report from the file alone gives the same table
    assert arena.report(out).format_table() == res.format_table()
    # hand tally of wins (first place alone) and shared first places from the lines
    wins = {"random": 0, "greedy": 0}
    shared = {"random": 0, "greedy": 0}
    for line in lines:
        d = json.loads(line)
        for seat in d["ranking"][0]:
            (wins if len(d["ranking"][0]) == 1 else shared)[d["seats"][seat]] += 1
    assert {s.bot: s.wins for s in res.stats()} == wins
    assert {s.bot: s.shared for s in res.stats()} == shared


def test_same_seed_same_games_and_resume(tmp_path: Path) -> None:
    full = arena.run("plateau-x", "mini", ["random", "random"], games=6, seed=9)
    out = tmp_path / "a.jsonl"
    arena.run("plateau-x", "mini", ["random", "random"], games=3, seed=9, out=out)
    first_three = out.read_text().splitlines()
    with pytest.raises(ValueError, match="exists"):
        arena.run("plateau-x", "mini", ["random", "random"], games=6, seed=9, out=out)
    # a torn last line (an interrupted write) is dropped on resume
    with open(out, "a") as f:
        f.write('{"format": "plateau-arena-game", "ind')
    resumed = arena.run(
        "plateau-x", "mini", ["random", "random"], games=6, seed=9, out=out, resume=True
    )
    lines = out.read_text().splitlines()
    assert lines[:3] == first_three and len(lines) == 6
    assert [r.returns for r in resumed.results] == [r.returns for r in full.results]
    assert [r.record for r in resumed.results] == [r.record for r in full.results]
    with pytest.raises(ValueError, match="another arena"):
        arena.run("plateau-x", "mini", ["random", "greedy"], games=6, seed=9, out=out, resume=True)


def test_a_crashing_bot_forfeits_without_stopping_the_arena() -> None:
    res = arena.run("plateau-x", "mini", ["test-crash", "random"], games=2, seed=1)
    for r in res.results:
        assert r.forfeit is not None
        seat = r.seats.index("test-crash")
        assert r.forfeit["seat"] == seat and "RuntimeError: boom" in r.forfeit["error"]
        assert r.ranking[-1] == [seat] and r.returns[seat] == 0.0
    crash = next(s for s in res.stats() if s.bot == "test-crash")
    assert crash.forfeits == 2 and crash.wins == 0


def test_illegal_and_slow_bots_forfeit() -> None:
    res = arena.run("plateau-x", "mini", ["test-illegal", "random"], games=1)
    assert "InvalidActionError" in (res.results[0].forfeit or {})["error"]  # out of range
    res = arena.run("plateau-x", "mini", ["test-slow", "random"], games=1, move_timeout=0.01)
    assert "TimeoutError" in (res.results[0].forfeit or {})["error"]


def test_parallel_workers_give_the_same_games() -> None:
    one = arena.run("plateau-x", "mini", ["random", "greedy"], games=4, seed=5, jobs=1)
    two = arena.run("plateau-x", "mini", ["random", "greedy"], games=4, seed=5, jobs=2)
    assert [r.record for r in one.results] == [r.record for r in two.results]


def test_bad_arena_arguments() -> None:
    with pytest.raises(ValueError, match="2 seats"):
        arena.run("plateau-x", "mini", ["random"], games=1)
    with pytest.raises(ValueError, match="unknown bot"):
        arena.run("plateau-x", "mini", ["random", "nobody"], games=1)
    with pytest.raises(ValueError, match="backend"):
        arena.run("plateau-x", "mini", ["random", "random"], games=1, backend="mpi")


def test_cli_arena_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g.jsonl"
    argv = [
        "arena",
        "--variant",
        "mini",
        "--bots",
        "random,greedy",
        "--games",
        "2",
        "--jobs",
        "1",
        "--out",
        str(out),
        "--no-progress",
    ]
    assert main(argv) == 0
    table = capsys.readouterr().out
    assert "| random | 2 |" in table and "| greedy | 2 |" in table
    assert main(["arena-report", str(out)]) == 0
    assert capsys.readouterr().out == table


@pytest.mark.ray
def test_ray_backend_on_a_local_instance() -> None:
    require_extra("ray", "ray")
    local = arena.run("plateau-x", "mini", ["random", "greedy"], games=3, seed=2)
    remote = arena.run("plateau-x", "mini", ["random", "greedy"], games=3, seed=2, backend="ray")
    assert [r.record for r in remote.results] == [r.record for r in local.results]
    # with openings: the tasks carry their opening, so Ray workers need no file
    source = OpeningSource(random_plies=4)
    local = arena.run("plateau-x", "mini", ["random", "greedy"], 4, seed=2, openings=source)
    remote = arena.run(
        "plateau-x", "mini", ["random", "greedy"], 4, seed=2, openings=source, backend="ray"
    )
    assert [r.record for r in remote.results] == [r.record for r in local.results]
    assert [r.opening for r in remote.results] == [0, 0, 1, 1]
    # an engine process, clocks and an SPRT on Ray: the same games and the same test
    from plateau.clock import TimeControl
    from plateau.engine import engine_spec
    from plateau.sprt import SPRT

    bots = [engine_spec(["plateau", "engine", "--bot", "greedy"], name="greedy"), "random"]
    kw: dict[str, Any] = {
        "seed": 5,
        "tc": TimeControl(30.0, 0.1),
        "sprt": SPRT(elo0=0, elo1=10, alpha=0.05, beta=0.05),
    }
    local = arena.run("plateau-x", "mini", bots, 4, **kw)
    remote = arena.run("plateau-x", "mini", bots, 4, backend="ray", **kw)
    assert [r.record for r in remote.results] == [r.record for r in local.results]
    assert all(r.forfeit is None and r.tc == "30+0.1" for r in remote.results)
    assert remote.sprt_state() == local.sprt_state()
    assert remote.results[0].engines["0"]["name"] == "plateau greedy"
    # and a process arena in the same process after Ray: its forked workers crashed (SIGSEGV)
    # when their collector finalized objects inherited from the Ray runs
    import own_bots

    after = arena.run(
        "plateau-x", "mini", [own_bots.FirstLegal, own_bots.last_legal], games=4, jobs=2, seed=5
    )
    assert len(after.results) == 4 and not any(r.forfeit for r in after.results)


@pytest.mark.ray
def test_ray_backend_keeps_a_bounded_number_of_games_in_flight(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a task for each game was made and submitted before the first result: an arena of many
    # games grew without bound (here 5,000 games, of which 30 are read before it stops)
    require_extra("ray", "ray")
    made: list[int] = []

    def make(index: int) -> tuple[int]:
        made.append(index)
        return (index,)

    monkeypatch.setattr(arena, "play_game", lambda index: 2 * index)
    window = max(2, 2 * (os.cpu_count() or 1))
    results = arena._run_ray(arena._Tasks(5000, {3: None}, make), None)
    got = [next(results) for _ in range(30)]
    results.close()  # (the consumer stops: the games in flight are cancelled)
    assert len(made) <= 30 + window
    assert set(got) <= {2 * i for i in made} and len(set(got)) == 30
    assert 3 not in made  # (a game done before is not played again)


def test_bots_get_the_game_s_view_and_results_its_scoring(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hooks a hidden-information game overrides: bots receive ``view_for(seat)``, and
    results are scored by ``points_for`` (here: a shared first place scores 1/2 each)."""
    from plateau.games.x import PlateauXState

    seen: list[tuple[int, int]] = []
    original = PlateauXState.view_for

    def view_for(self: PlateauXState, player: int, seed: int = 0) -> plateau.GameState:
        seen.append((player, self.current_player))
        return original(self, player, seed)

    def points_for(self: PlateauXState, ranking: list[list[int]]) -> list[float]:
        out = [0.0] * self.num_players
        for p in ranking[0]:
            out[p] = 1.0 / len(ranking[0])
        return out

    monkeypatch.setattr(PlateauXState, "view_for", view_for)
    monkeypatch.setattr(PlateauXState, "points_for", points_for)
    res = arena.run("plateau-x", "mini", ["random", "random"], games=2, seed=4)
    assert seen and all(player == to_move for player, to_move in seen)
    assert sum(r.plies for r in res.results) == len(seen)
    t = plateau.Tournament("plateau-x", "mini")
    assert t.add([[0, 1]]) == [0.5, 0.5]
    s = plateau.new_game("plateau-x", "mini")
    assert s.points_for([[1], [0]]) == [0.0, 1.0]


def test_elo_interval_of_a_clean_sweep_is_finite_below() -> None:
    results = [_result(i, [[i % 2], [1 - i % 2]], [0.0, 0.0]) for i in range(20)]
    # bot 0 sits in seat i % 2 in game i and wins every game
    res = arena.ArenaResult("plateau-x", "mini", ["a", "b"], results)
    a, b = res.stats()
    assert a.wins == 20 and a.elo == math.inf
    lo, hi = a.elo_ci95 or (0.0, 0.0)
    assert 200 < lo < math.inf and hi == math.inf
    assert b.elo_ci95 is not None and b.elo_ci95[1] == pytest.approx(-lo)


# -- bots of your own ---------------------------------------------------------------------------


def test_arena_takes_bot_classes_factories_and_objects_across_processes(tmp_path: Path) -> None:
    import own_bots

    out = tmp_path / "own.jsonl"
    result = arena.run(
        "plateau-x",
        "mini",
        [own_bots.FirstLegal, own_bots.last_legal],
        games=4,
        jobs=2,
        seed=5,
        out=out,
    )
    assert result.bots == ["own_bots:FirstLegal", "own_bots:last_legal"]
    assert len(result.results) == 4 and not any(r.forfeit for r in result.results)
    # an object is copied for each game; the same games as the class gives
    again = arena.run(
        "plateau-x", "mini", [own_bots.FirstLegal(), own_bots.last_legal()], games=4, jobs=2, seed=5
    )
    assert [r.returns for r in again.results] == [r.returns for r in result.results]
    # and the same arena replays from the file under the same labels (resume finds it whole)
    resumed = arena.run(
        "plateau-x",
        "mini",
        [own_bots.FirstLegal, own_bots.last_legal],
        games=4,
        seed=5,
        out=out,
        resume=True,
    )
    assert [r.returns for r in resumed.results] == [r.returns for r in result.results]


def test_command_line_loads_a_bot_by_module_path(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code = main(
        [
            "arena", "--game", "plateau-x", "--variant", "mini", "--games", "2", "--jobs", "2",
            "--bots", "own_bots:FirstLegal:pick=1,random", "--no-progress",
        ]
    )  # fmt: skip
    table = capsys.readouterr().out
    assert code == 0
    assert "| own_bots:FirstLegal:pick=1 | 2 |" in table


@pytest.mark.parametrize(
    ("spec", "match"),
    [
        ("own_bots:Nope", "has no bot class or factory 'Nope'"),
        ("no_such_module.x:Bot", "cannot import 'no_such_module.x'"),
        ("own_bots:FirstLegal:what=1", "unknown parameter"),
        ("own_bots:9bad", "module.path:Name"),
    ],
)
def test_bad_module_path_bots_are_refused_before_any_game(spec: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        arena.run("plateau-x", "mini", [spec, "random"], games=2)


def test_a_bot_that_cannot_play_the_game_is_refused_before_the_first_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "never.jsonl"
    with pytest.raises(ValueError, match="alphabeta plays two-player games only"):
        arena.run("plateau-x", "standard", ["alphabeta", "random", "random", "random"], 4, out=out)
    assert not out.exists()
    code = main(["play", "--game", "plateau-x", "--bots", "alphabeta"])
    assert code == 2
    assert "two-player games only" in capsys.readouterr().err


def test_elo_column_never_shows_minus_zero() -> None:
    assert rating.signed(-0.4) == "+0" and rating.signed(0.2) == "+0"
    assert rating.signed(-17.0) == "-17" and rating.signed(math.inf) == "+inf"


def test_arena_report_of_a_file_without_arena_games_says_what_it_found(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    with pytest.raises(ValueError, match="no arena games \\(the file is empty\\)"):
        arena.report(empty)
    record = tmp_path / "record.jsonl"
    record.write_text(plateau.new_game("plateau-x").to_json() + "\n")
    with pytest.raises(ValueError, match="is not an arena game"):
        arena.report(record)


def _wilson_by_hand(k: int, n: int) -> tuple[float, float]:
    z2 = 1.96**2
    p = k / n
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = 1.96 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return centre - half, centre + half


def test_seat_statistics_match_a_hand_computation() -> None:
    # five games of three seats; the table by seat counts seats, whichever bot sat there
    games = [
        ([[0], [1], [2]], [4.0, 2.0, 0.0]),  # seat 0 wins
        ([[1], [0, 2]], [1.0, 3.0, 1.0]),  # seat 1 wins
        ([[0, 1], [2]], [3.0, 3.0, 0.0]),  # seats 0 and 1 share first place
        ([[2], [1], [0]], [0.0, 2.0, 4.0]),  # seat 2 wins
        ([[0], [2], [1]], [4.0, 0.0, 2.0]),  # seat 0 wins
    ]
    results = [
        arena.GameResult(i, "plateau-x", "triple", 0, ["a", "b", "c"], ranking, returns, 9, 0.1)
        for i, (ranking, returns) in enumerate(games)
    ]
    res = arena.ArenaResult("plateau-x", "triple", ["a", "b", "c"], results)
    s0, s1, s2 = res.seat_stats()
    assert [(s.seat, s.games, s.wins, s.shared) for s in (s0, s1, s2)] == [
        (0, 5, 2, 1),
        (1, 5, 1, 1),
        (2, 5, 1, 0),
    ]
    assert [s.mean for s in (s0, s1, s2)] == pytest.approx([12 / 5, 10 / 5, 7 / 5])
    assert [s.win_rate for s in (s0, s1, s2)] == pytest.approx([0.4, 0.2, 0.2])
    assert s0.win_ci95 == pytest.approx(_wilson_by_hand(2, 5))
    assert s2.win_ci95 == pytest.approx(_wilson_by_hand(1, 5))
    # 2/5: the Wilson interval is 11.8% .. 76.9%
    assert s0.win_ci95 == pytest.approx((0.1176, 0.7693), abs=1e-4)
    assert [s.first for s in (s0, s1, s2)] == [True, False, False]
    table = res.format_table()
    assert "| seat | games | wins | shared first | win rate (95% CI) | mean points |" in table
    assert "| 0 (moves first) | 5 | 2 | 1 | 40.0% (11.8 .. 76.9) | 2.400 |" in table
    assert "| 2 | 5 | 1 | 0 | 20.0% (" in table
    # the seat that moves first follows the game's options
    later = arena.ArenaResult(
        "plateau-x", "triple", ["a", "b", "c"], results, options={"first_player": 2}
    )
    assert [s.first for s in later.seat_stats()] == [False, False, True]
    assert "| 2 (moves first) | 5 | 1 | 0 |" in later.format_table()
    # two seats, one game each way: a shared first place is no win
    pair = [_result(0, [[0, 1]], [0.5, 0.5]), _result(1, [[1], [0]], [0.0, 1.0])]
    a, b = arena.ArenaResult("plateau-x", "mini", ["a", "b"], pair).seat_stats()
    assert (a.wins, a.shared, b.wins, b.shared) == (0, 1, 1, 1)
    assert a.win_ci95 == pytest.approx((0.0, _wilson_by_hand(0, 2)[1]))
    assert arena.ArenaResult("plateau-x", "mini", ["a", "b"], []).seat_stats() == []


@pytest.mark.parametrize(
    ("game", "variant", "players"),
    [
        ("plateau-x", "triple", 3),
        ("albea-plateau", "standard", 2),
        ("empire-plateau", "four", 4),
    ],
)
def test_cli_table_by_seat_matches_the_games_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, variant: str, players: int
) -> None:
    # the same bot in every seat, as the first player's advantage is measured; random plies
    out = tmp_path / "g.jsonl"
    games = 2 * players
    argv = ["arena", "--game", game, "--variant", variant, "--bots", ",".join(["random"] * players)]
    argv += ["--games", str(games), "--random-plies", "2", "--seed", "5", "--jobs", "1"]
    assert main([*argv, "--no-progress", "--out", str(out)]) == 0
    table = capsys.readouterr().out
    # tally each seat from the result lines alone
    wins, shared, points = [0] * players, [0] * players, [0.0] * players
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == games
    for d in lines:
        first = d["ranking"][0]
        for seat in range(players):
            points[seat] += d["returns"][seat]
            if seat in first:
                if len(first) == 1:
                    wins[seat] += 1
                else:
                    shared[seat] += 1
    for seat in range(players):
        lo, hi = _wilson_by_hand(wins[seat], games)
        name = f"{seat} (moves first)" if seat == 0 else str(seat)
        row = (
            f"| {name} | {games} | {wins[seat]} | {shared[seat]} | "
            f"{100 * wins[seat] / games:.1f}% ({100 * max(lo, 0):.1f} .. {100 * min(hi, 1):.1f}) "
            f"| {points[seat] / games:.3f} |"
        )
        assert row in table, row
    # arena-report rebuilds the same table, and so the same seats, from the file alone
    assert main(["arena-report", str(out)]) == 0
    assert capsys.readouterr().out == table
    rebuilt = arena.report(out).seat_stats()
    assert [(s.wins, s.shared) for s in rebuilt] == list(zip(wins, shared))


def test_an_arena_of_very_many_games_makes_its_games_as_it_plays_them() -> None:
    # every game's task was made before the first game: 1.4 GB for 10**7 games, and a
    # traceback (len() of the list) for more
    with pytest.raises(plateau.InvalidArgumentError, match="games must be"):
        arena.run("plateau-x", "mini", ["random", "random"], 10**30)
    seen: list[int] = []

    def first_three(stream: Iterable[arena.GameResult], total: int) -> Iterator[Any]:
        assert total == 10**9
        for r in stream:
            seen.append(r.index)
            yield r
            if len(seen) == 3:
                raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        arena.run("plateau-x", "mini", ["random", "random"], 10**9, ply_cap=2, progress=first_three)
    assert seen == [0, 1, 2]
