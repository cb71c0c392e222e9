"""Adjudication (resign, draw, solver, ply cap) and what each move cost (move_stats, the
search table): games stopped when they should be, and never when they should not."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, ClassVar

import pytest

import plateau
from plateau import arena
from plateau.adjudication import Adjudication
from plateau.bots import Bot
from plateau.cli import main
from plateau.errors import InvalidArgumentError, InvalidResultsError
from plateau.record import from_record
from plateau.solver import solve


class Scored(Bot):
    """Plays its first legal action and reports a fixed score (``score``; None: no score)."""

    name = "test-scored"
    defaults: ClassVar[dict[str, Any]] = {"score": None}

    def select_action(self, state: plateau.GameState) -> int:
        return int(state.legal_actions()[0])

    def search_info(self) -> dict[str, Any]:
        score = self.params["score"]
        return {"depth": 3, "nodes": 10} if score is None else {"score": score, "nodes": 10}


def winner(seed: int = 0) -> Bot:
    return Scored(seed, score=900.0)


def loser(seed: int = 0) -> Bot:
    return Scored(seed, score=-900.0)


def level(seed: int = 0) -> Bot:
    return Scored(seed, score=3.0)


def silent(seed: int = 0) -> Bot:
    return Scored(seed)


def broken(seed: int = 0) -> Bot:
    class Broken(Scored):
        def search_info(self) -> dict[str, Any]:
            raise RuntimeError("no statistics today")

    return Broken(seed)


def _play(bots: list[Any], adjudication: Adjudication | None, games: int = 2) -> arena.ArenaResult:
    return arena.run("plateau-x", "mini", bots, games=games, adjudication=adjudication)


RESIGN = Adjudication(resign_score=600, resign_moves=3)


def test_both_sides_agreeing_ends_the_game_by_resignation() -> None:
    res = _play([winner, loser], RESIGN)
    for r in res.results:
        assert r.adjudicated is not None and r.adjudicated["by"] == "resign"
        losing_seat = r.players.index(1)
        assert r.adjudicated["seat"] == losing_seat
        assert r.ranking == [[1 - losing_seat], [losing_seat]]
        # each side has made three moves: the loser's third, or the winner's after it
        assert r.plies in (6, 7) and r.adjudicated["ply"] == r.plies
        assert not r.truncated and r.returns[1 - losing_seat] > r.returns[losing_seat]
    assert res.stats()[0].wins == 2
    text = res.format_table()
    assert "Adjudication (resign at score 600 for 3 moves): 2 by resign, 0 by draw" in text


@pytest.mark.parametrize(
    "bots",
    [[loser, level], [loser, loser], [winner, winner], [loser, silent], [level, level]],
)
def test_no_resignation_without_both_sides_agreeing(bots: list[Any]) -> None:
    res = _play(bots, RESIGN)
    for r in res.results:
        assert r.adjudicated is None or r.adjudicated["by"] != "resign"


def test_a_move_without_a_score_breaks_the_run() -> None:
    judge = RESIGN.judge()
    state = plateau.new_game("plateau-x", "mini")
    for seat, score in [
        (0, -900),
        (1, 900),
        (0, -900),
        (1, 900),
        (0, None),
        (1, 900),
        (0, -900),
        (1, 900),
        (0, -900),
    ]:
        assert judge.after_move(state, seat, score) is None
    assert judge.after_move(state, 1, 900) is None  # the loser has only two in a row
    verdict = judge.after_move(state, 0, -900)
    assert verdict is not None and verdict[0] == [[1], [0]]


def test_a_level_game_is_drawn_after_the_move_number() -> None:
    draw = Adjudication(draw_score=5, draw_moves=2, draw_after=6)
    res = _play([level, level], draw)
    for r in res.results:
        assert r.adjudicated == {"by": "draw", "ply": r.plies}
        assert r.plies == 10  # plies 7-10: two moves a side after ply 6
        assert r.ranking == [[0, 1]] and r.returns[0] == r.returns[1]
    # a score outside the band, or none at all, never draws
    for bots in ([level, winner], [silent, silent]):
        assert all(r.adjudicated is None for r in _play(bots, draw).results)


def test_solver_adjudication_ends_games_only_with_a_proven_result(tmp_path: Path) -> None:
    rules = Adjudication(solver_nodes=2000)
    out = tmp_path / "adj.jsonl"
    res = arena.run(
        "plateau-x", "mini", ["greedy", "random"], games=6, seed=2, adjudication=rules, out=out
    )
    judged = [r for r in res.results if r.adjudicated is not None]
    assert judged, "no game was adjudicated"
    for r in judged:
        a = r.adjudicated
        assert a is not None and a["by"] == "solver"
        position = from_record(r.record)
        assert position.ply == a["ply"] == r.plies and not position.is_terminal()
        again = solve(position, nodes=2000)
        assert (again.value, again.distance) == (a["value"], a["distance"])
        me = position.current_player
        expected = {"win": [[me], [1 - me]], "loss": [[1 - me], [me]], "draw": [[0, 1]]}
        assert r.ranking == expected[a["value"]]
        # one ply earlier the solver, with the same budget, had not proven it
        position.undo()
        if a["ply"] > 0 and not position.is_terminal():
            assert not solve(position, nodes=2000).proven
    assert arena.report(out).format_table() == res.format_table()


def test_a_budget_too_small_to_prove_anything_never_stops_a_game() -> None:
    res = arena.run(
        "plateau-x",
        "mini",
        ["random", "random"],
        games=4,
        seed=3,
        adjudication=Adjudication(solver_nodes=1, solver_after=1000),
    )
    assert all(r.adjudicated is None for r in res.results)
    assert all(plateau.from_json(json.dumps(r.record)).is_terminal() for r in res.results)


def test_the_ply_cap_is_recorded_with_its_reason() -> None:
    res = arena.run("plateau-x", "mini", ["random", "random"], games=2, ply_cap=5)
    for r in res.results:
        assert r.truncated and r.adjudicated == {"by": "ply-cap", "ply": 5}


def test_adjudication_settings_are_checked() -> None:
    assert Adjudication.parse("movecount=4 score=300") == Adjudication(300.0, 4)
    got = Adjudication.parse(None, "movenumber=30,movecount=6,score=12", "nodes=500 after=8")
    assert (got.draw_after, got.draw_moves, got.draw_score) == (30, 6, 12.0)
    assert (got.solver_nodes, got.solver_after) == (500, 8)
    for resign, draw, solver, message in [
        ("movecount=3", None, None, "needs score"),
        ("score=abc", None, None, "must be a number"),
        ("score=inf", None, None, "finite"),
        ("score=-5", None, None, "positive"),
        ("movecount=0 score=5", None, None, "positive"),
        ("limit=3 score=5", None, None, "not one of"),
        (None, "movecount=2", None, "needs score"),
        (None, None, "nodes=0", "positive"),
    ]:
        with pytest.raises(InvalidArgumentError, match=message):
            Adjudication.parse(resign, draw, solver)
    with pytest.raises(InvalidArgumentError, match="two-player games"):
        arena.run("plateau-x", "triple", ["random"] * 3, games=1, adjudication=RESIGN)
    with pytest.raises(InvalidArgumentError):
        Adjudication(resign_score=math.nan)
    with pytest.raises(InvalidArgumentError):
        Adjudication(draw_moves=0)


def test_what_each_move_cost_is_recorded_and_tabulated(tmp_path: Path) -> None:
    out = tmp_path / "cost.jsonl"
    res = arena.run(
        "plateau-x", "mini", ["alphabeta:depth=2", "mcts:iters=30"], games=2, seed=1, out=out
    )
    for r in res.results:
        assert len(r.move_stats) == len(r.move_seconds) == r.plies
        for (seat, depth, nodes, score), who in zip(r.move_stats, _movers(r)):
            assert seat == who
            bot = r.players[seat]
            # a move searched says its nodes and score; one not searched (a single legal
            # action, an outright win) says 0 nodes and no score
            assert nodes is not None and (score is not None) == (nodes >= 1)
            assert (depth is not None) == (bot == 0)  # alphabeta says its depth, mcts not
    a, m = res.search_stats()
    assert a.moves + m.moves == sum(r.plies for r in res.results)
    assert a.mean_depth is not None and 1.0 <= a.mean_depth <= 2.0 and m.mean_depth is None
    assert a.nodes_per_second and m.nodes_per_second
    # by hand: mcts's nodes over the seconds of its moves
    nodes = secs = 0.0
    for r in res.results:
        for (seat, _, n, _), s in zip(r.move_stats, r.move_seconds):
            if r.players[seat] == 1:
                nodes, secs = nodes + n, secs + s
    assert m.nodes_per_second == pytest.approx(nodes / secs)
    text = res.format_table()
    assert "| bot | moves | seconds a move | nodes/s | mean depth |" in text
    assert arena.report(out).format_table() == text


def _movers(r: arena.GameResult) -> list[int]:
    state = plateau.new_game(r.game, r.variant)
    movers = []
    for a in r.record["actions"]:
        movers.append(state.current_player)
        state.apply(state.parse_action(a) if isinstance(a, str) else a)
    return movers


def test_a_bots_broken_statistics_cost_its_statistics_not_its_game() -> None:
    res = arena.run("plateau-x", "mini", [broken, silent], games=2)
    assert all(r.forfeit is None for r in res.results)
    for r in res.results:
        for seat, depth, nodes, score in r.move_stats:
            if r.players[seat] == 0:
                assert (depth, nodes, score) == (None, None, None)
            else:
                assert (depth, nodes, score) == (3, 10, None)


def test_result_lines_with_bad_move_stats_or_adjudication_are_refused() -> None:
    res = arena.run("plateau-x", "mini", ["random", "random"], games=1)
    good = json.loads(res.results[0].to_line())
    for field, value in [
        ("move_stats", [[0, 1, 2]]),
        ("move_stats", [[0, -1, 2, 0.5]]),
        ("move_stats", [[0, 1, 2, "high"]]),
        ("move_stats", [[2, 1, 2, 0.5]]),  # a seat the two-player game does not have
        ("adjudicated", {"ply": 3}),
        ("adjudication", {"resign_score": -1}),
        ("adjudication", {"colour": "blue"}),
    ]:
        with pytest.raises(InvalidResultsError):
            arena.GameResult.from_dict({**good, field: value})


def test_the_command_line_adjudicates(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "arena",
            "--game",
            "plateau-x",
            "--variant",
            "mini",
            "--bots",
            "greedy,random",
            "--games",
            "2",
            "--jobs",
            "1",
            "--no-progress",
            "--adjudicate-solver",
            "nodes=3000",
            "--resign",
            "movecount=3 score=600",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0 and "Adjudication (resign at score 600 for 3 moves; solver (3,000" in out
    code = main(
        [
            "arena",
            "--game",
            "plateau-x",
            "--variant",
            "mini",
            "--bots",
            "greedy,random",
            "--games",
            "2",
            "--draw",
            "movecount=2",
        ]
    )
    assert code == 2 and "--draw needs score" in capsys.readouterr().err
