"""Openings: opening files (round trip, bad lines named), random-ply openings, the arena playing
every seat rotation of a group from one opening (records that replay, resume, workers, engines,
clocks), and ``plateau openings`` writing distinct, unfinished, even positions."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

import plateau
from plateau import arena
from plateau.cli import main
from plateau.clock import TimeControl
from plateau.engine import engine_spec
from plateau.openings import (
    OpeningSource,
    evaluation_spread,
    make_openings,
    random_opening,
    read_openings,
    write_openings,
)
from plateau.record import from_record, to_record


def opening_file(tmp_path: Path, count: int = 3, variant: str = "mini", seed: int = 1) -> Path:
    path = tmp_path / f"{variant}-{count}-{seed}.jsonl"
    write_openings(path, make_openings("plateau-x", variant, count, 4, seed=seed))
    return path


def starts_with(result: arena.GameResult, opening: dict[str, Any]) -> bool:
    """Whether the game's record begins with the opening: its set-up position and actions."""
    n = len(opening["actions"])
    return (
        result.record.get("setup") == opening.get("setup")
        and result.record["actions"][:n] == opening["actions"]
        and result.opening_plies == n
    )


# -- opening files ------------------------------------------------------------------------------


def test_opening_file_round_trip(tmp_path: Path) -> None:
    records = make_openings("plateau-x", "mini", 5, 6, seed=3)
    path = tmp_path / "o.jsonl"
    assert write_openings(path, records) == 5
    assert len(path.read_text().splitlines()) == 5
    assert read_openings(path, "plateau-x", "mini") == records
    for record in records:  # each line is a record of the library
        state = from_record(record)
        assert state.ply == 6 and not state.is_terminal()
        assert to_record(state) == record
    # any record of the library is an opening, and blank lines are skipped
    state = plateau.new_game("plateau-x", "mini")
    state.apply_all(["S@a1", "S@f6"])
    path.write_text(state.to_json() + "\n\n" + state.to_json() + "\n")
    assert [r["actions"] for r in read_openings(path)] == [["S@a1", "S@f6"]] * 2


@pytest.mark.parametrize(
    ("line", "match"),
    [
        ('{"format": "plateau-game-record", "ver', "line 2: not JSON"),
        ("[1, 2]", "line 2: not an opening: a game record is a JSON object"),
        ('{"format": "other"}', "line 2: not an opening: not a plateau game record"),
        ("BAD_ACTION", r"line 2: not an opening: ply 1: "),
        ("OTHER_VARIANT", "line 2: an opening of plateau-x/standard, but the games are "),
        ("OTHER_GAME", "line 2: an opening of albea-plateau/standard, but the games are "),
        ("FINISHED", r"line 2: the game is over after \d+ plies"),
        ("VIEW", "line 2: not an opening: .*cannot be replayed"),
        # lines end at \n, \r or \r\n: a JSON string may hold U+2028 raw (str.splitlines cut
        # this line in two, and called the first half line 2 and not JSON)
        ("SEPARATOR", r"line 2: not an opening: ply 1: .*'S@f6\\u2028'"),
    ],
)
def test_a_bad_opening_line_is_an_error_naming_it(tmp_path: Path, line: str, match: str) -> None:
    good = plateau.new_game("plateau-x", "mini")
    good.apply("S@a1")
    if line == "BAD_ACTION":
        line = json.dumps({**to_record(good), "actions": ["S@a1", "S@a1"]})
    elif line == "OTHER_VARIANT":
        line = plateau.new_game("plateau-x", "standard").to_json()
    elif line == "OTHER_GAME":
        line = plateau.new_game("albea-plateau").to_json()
    elif line == "FINISHED":
        finished = plateau.new_game("plateau-x", "mini")
        while not finished.is_terminal():
            finished.apply(int(finished.legal_actions()[0]))
        line = finished.to_json()
    elif line == "VIEW":
        line = good.to_json(viewer=1)
    elif line == "SEPARATOR":
        line = json.dumps(
            {**to_record(good), "actions": ["S@a1", "S@f6\u2028"]}, ensure_ascii=False
        )
    path = tmp_path / "bad.jsonl"
    path.write_text(good.to_json() + "\n" + line + "\n" + good.to_json() + "\n")
    with pytest.raises(plateau.InvalidRecordError, match=f"bad.jsonl: {match}"):
        read_openings(path, "plateau-x", "mini")
    # the arena refuses the file before any game, with the same message
    with pytest.raises(ValueError, match=match):
        arena.run("plateau-x", "mini", ["random"] * 2, 2, openings=OpeningSource(path=path))


def test_an_empty_opening_file_and_bad_sources_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("\n")
    with pytest.raises(ValueError, match="no openings"):
        read_openings(path)
    with pytest.raises(ValueError, match=r"a file .* or random plies"):
        OpeningSource()
    with pytest.raises(ValueError, match=r"a file .* or random plies"):
        OpeningSource(path=path, random_plies=3)
    with pytest.raises(ValueError, match="random_plies"):
        OpeningSource(random_plies=0)
    with pytest.raises(ValueError, match="OpeningSource"):
        arena.run("plateau-x", "mini", ["random"] * 2, 2, openings=str(path))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="random plies ended all"):  # mini ends within 500 plies
        arena.run("plateau-x", "mini", ["random"] * 2, 2, openings=OpeningSource(random_plies=500))


# -- random plies -------------------------------------------------------------------------------


def test_random_plies_are_deterministic_per_seed_and_differ_across_groups() -> None:
    source = OpeningSource(random_plies=5)
    book = source.book("plateau-x", "mini", seed=4)
    firsts = [book.opening(k).record for k in range(6)]
    assert all(len(r["actions"]) == 5 for r in firsts)
    assert [book.opening(k).record for k in range(6)] == firsts  # the same again
    assert [source.book("plateau-x", "mini", seed=4).opening(k).record for k in range(6)] == firsts
    assert len({json.dumps(r) for r in firsts}) == 6  # every group its own
    other = source.book("plateau-x", "mini", seed=5)
    assert {json.dumps(other.opening(k).record) for k in range(6)}.isdisjoint(
        json.dumps(r) for r in firsts
    )
    assert random_opening("plateau-x", "mini", 5, 1) != random_opening("plateau-x", "mini", 5, 2)


def test_each_rotation_group_plays_one_random_opening() -> None:
    bots = ["random", "greedy", "random", "greedy"]
    res = arena.run(
        "plateau-x", "standard", bots, 8, seed=6, openings=OpeningSource(random_plies=3)
    )
    book = OpeningSource(random_plies=3).book("plateau-x", "standard", 6)
    assert [r.opening for r in res.results] == [0, 0, 0, 0, 1, 1, 1, 1]
    for r in res.results:
        assert starts_with(r, book.opening(r.index // 4).record)
        assert r.openings == "random-plies=3" and len(r.move_seconds) == r.plies - 3
    # the rotations of a group diverge after the opening (greedy and random swap seats)
    assert len({tuple(r.record["actions"]) for r in res.results[:4]}) > 1
    assert res.results[0].record["actions"][:3] != res.results[4].record["actions"][:3]
    assert "Openings (random-plies=3): 2 used" in res.format_table()


# -- the arena with an opening file --------------------------------------------------------------


def test_openings_from_a_file_cycle_and_records_replay(tmp_path: Path) -> None:
    path = opening_file(tmp_path)
    openings = read_openings(path)
    res = arena.run(
        "plateau-x", "mini", ["random", "greedy"], 10, seed=2, openings=OpeningSource(path=path)
    )
    assert [r.opening for r in res.results] == [0, 0, 1, 1, 2, 2, 0, 0, 1, 1]
    for r in res.results:
        assert starts_with(r, openings[r.opening or 0])
        assert r.seats == [["random", "greedy"][b] for b in arena.seat_order(r.index, 2)]
        replayed = plateau.from_json(json.dumps(r.record))
        assert replayed.ply == r.plies and replayed.ranking() == r.ranking
        assert replayed.is_terminal() and replayed.returns() == r.returns
    # the same arena without openings plays other games
    plain = arena.run("plateau-x", "mini", ["random", "greedy"], 2, seed=2)
    assert all(r.opening is None and r.opening_plies == 0 for r in plain.results)
    assert plain.results[0].record["actions"][:4] != res.results[0].record["actions"][:4]


def test_resume_with_openings(tmp_path: Path) -> None:
    path = opening_file(tmp_path)
    source = OpeningSource(path=path)
    bots = ["random", "random"]
    full = arena.run("plateau-x", "mini", bots, 8, seed=9, openings=source)
    out = tmp_path / "games.jsonl"
    arena.run("plateau-x", "mini", bots, 3, seed=9, out=out, openings=source)
    resumed = arena.run("plateau-x", "mini", bots, 8, seed=9, out=out, resume=True, openings=source)
    assert [r.record for r in resumed.results] == [r.record for r in full.results]
    assert [r.opening for r in arena.read_results(out)] == [0, 0, 1, 1, 2, 2, 0, 0]
    assert arena.report(out).format_table() == full.format_table()
    # another source, another file or none: another arena
    other = opening_file(tmp_path, seed=2)
    for wrong in (OpeningSource(random_plies=4), OpeningSource(path=other), None):
        with pytest.raises(ValueError, match="another arena setup"):
            arena.run("plateau-x", "mini", bots, 10, seed=9, out=out, resume=True, openings=wrong)
    # the same openings under another name resume (the source is its content)
    renamed = tmp_path / "renamed.jsonl"
    renamed.write_text(path.read_text())
    again = arena.run(
        "plateau-x", "mini", bots, 10, seed=9, out=out, resume=True,
        openings=OpeningSource(path=renamed),
    )  # fmt: skip
    assert [r.opening for r in again.results] == [0, 0, 1, 1, 2, 2, 0, 0, 1, 1]


def test_workers_play_the_same_games_from_openings() -> None:
    source = OpeningSource(random_plies=4)
    one = arena.run("plateau-x", "mini", ["random", "greedy"], 6, seed=5, openings=source)
    two = arena.run("plateau-x", "mini", ["random", "greedy"], 6, seed=5, jobs=2, openings=source)
    assert [r.record for r in one.results] == [r.record for r in two.results]


def test_openings_with_clocks_and_an_engine_process() -> None:
    cmd = shlex.join([sys.executable, "-m", "plateau", "engine", "--bot", "greedy"])
    engine = engine_spec(shlex.split(cmd), name="greedy")
    res = arena.run(
        "plateau-x",
        "mini",
        [engine, "random"],
        4,
        seed=3,
        tc=TimeControl.parse("20+0.1"),
        openings=OpeningSource(random_plies=4),
    )
    book = OpeningSource(random_plies=4).book("plateau-x", "mini", 3)
    for r in res.results:
        assert r.forfeit is None, r.forfeit
        assert starts_with(r, book.opening(r.index // 2).record)
        assert r.tc == "20+0.1" and len(r.move_seconds) == r.plies - 4
        assert plateau.from_json(json.dumps(r.record)).ranking() == r.ranking
    # the engine plays greedy's moves from the opening: it beats random every game
    assert next(s for s in res.stats() if s.bot == "engine:greedy").wins == 4


# -- the command line ----------------------------------------------------------------------------


def test_cli_openings_then_arena(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "even.jsonl"
    argv = ["openings", "--variant", "mini", "--count", "12", "--plies", "6", "--out", str(out)]
    assert main([*argv, "--max-eval", "1.5", "--seed", "4"]) == 0
    assert "12 openings of plateau-x/mini" in capsys.readouterr().out
    records = read_openings(out, "plateau-x", "mini")
    states = [from_record(r) for r in records]
    assert len(records) == 12 and len({s.hash for s in states}) == 12
    assert all(s.ply == 6 and not s.is_terminal() for s in states)
    assert all(evaluation_spread(s) <= 1.5 for s in states)
    first = out.read_text()
    assert main([*argv, "--max-eval", "1.5", "--seed", "4"]) == 0  # deterministic
    assert out.read_text() == first
    assert main([*argv, "--max-eval", "1.5", "--seed", "5"]) == 0
    assert out.read_text() != first
    games = tmp_path / "games.jsonl"
    arena_argv = ["arena", "--variant", "mini", "--bots", "random,greedy", "--games", "4"]
    arena_argv += ["--jobs", "1", "--no-progress", "--out", str(games)]
    assert main([*arena_argv, "--openings", str(out)]) == 0
    assert "Openings (file sha256=" in capsys.readouterr().out
    assert [r.opening for r in arena.read_results(games)] == [0, 0, 1, 1]
    games.unlink()
    assert main([*arena_argv, "--random-plies", "2"]) == 0
    assert "Openings (random-plies=2): 2 used" in capsys.readouterr().out
    with pytest.raises(SystemExit):  # one source at a time
        main([*arena_argv, "--random-plies", "2", "--openings", str(out)])
    capsys.readouterr()
    out.write_text(out.read_text() + "not json\n")
    assert main([*arena_argv, "--openings", str(out), "--resume"]) == 2
    assert "line 13: not JSON" in capsys.readouterr().err


def test_the_evaluation_bound_is_kept_and_an_impossible_count_is_an_error() -> None:
    records = make_openings("plateau-x", "mini", 20, 8, max_eval=0.0, seed=1)
    assert all(evaluation_spread(from_record(r)) == 0.0 for r in records)
    loose = make_openings("plateau-x", "mini", 20, 8, seed=1)
    assert max(evaluation_spread(from_record(r)) for r in loose) > 0.0  # the bound did work
    # one ply from the start: as many positions as first actions, some of them uneven
    first = plateau.new_game("plateau-x", "mini").num_legal_actions()
    assert len(make_openings("plateau-x", "mini", first, 1, seed=1)) == first
    with pytest.raises(ValueError, match=rf"found {first} of {first + 1} openings .* duplicate"):
        make_openings("plateau-x", "mini", first + 1, 1, seed=1)
    with pytest.raises(
        ValueError, match=r"of \d+ openings .*skipped: 0 over, \d+ duplicate, [1-9]"
    ):
        make_openings("plateau-x", "mini", first, 1, max_eval=0.0, seed=1)


def test_bot_plies_are_deterministic_per_seed() -> None:
    records = make_openings("plateau-x", "mini", 4, 3, bot="mcts:iters=30", seed=2)
    assert len({json.dumps(r) for r in records}) == 4
    assert make_openings("plateau-x", "mini", 4, 3, bot="mcts:iters=30", seed=2) == records
    assert make_openings("plateau-x", "mini", 4, 3, bot="mcts:iters=30", seed=3) != records
    with pytest.raises(ValueError, match="unknown bot"):
        make_openings("plateau-x", "mini", 4, 3, bot="nobody")


def test_cli_openings_refuses_bad_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "o.jsonl"
    argv = ["openings", "--variant", "mini", "--count", "3", "--plies", "4", "--out", str(out)]
    assert main([*argv, "--max-eval", "-1"]) == 2
    assert "max_eval must be a finite number >= 0" in capsys.readouterr().err
    assert main([*argv, "--bot", "nobody"]) == 2
    assert "unknown bot" in capsys.readouterr().err
    assert main(
        ["openings", "--variant", "nine", "--count", "1", "--plies", "1", "--out", str(out)]
    )
    assert "unknown variant 'nine'" in capsys.readouterr().err
    assert not out.exists()


def test_make_openings_bounds_what_it_keeps_and_its_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The openings are kept in memory until all are found: count * plies is bounded
    (``plateau openings --count 100000000 --plies 2000`` grew until it was killed), and the
    seed is a seed like every other (below 2**64)."""
    from plateau import openings

    with pytest.raises(plateau.InvalidArgumentError, match="MAX_OPENING_PLIES"):
        make_openings("empire-plateau", "four", 10**8, 2000)
    monkeypatch.setattr(openings, "MAX_OPENING_PLIES", 12)
    assert len(make_openings("plateau-x", "mini", 6, 2)) == 6
    with pytest.raises(plateau.InvalidArgumentError, match="7 openings of 2 plies"):
        make_openings("plateau-x", "mini", 7, 2)
    for seed in (2**64, 10**23):
        with pytest.raises(
            plateau.InvalidArgumentError, match=r"seed must be an int in \[0, 2\*\*64\)"
        ):
            make_openings("plateau-x", "mini", 1, 2, seed=seed)
    assert make_openings("plateau-x", "mini", 1, 2, seed=2**64 - 1)
