"""Test-position suites: the line format and its checks (suite files are other people's data),
a bot's and an engine's score, the command line, and the shipped suites (replayed here;
re-proven by the solver in the slow suite)."""

from __future__ import annotations

import json
import os
import random
import shlex
import sys
import threading
from pathlib import Path
from typing import Any, ClassVar

import pytest

import plateau
from plateau import suites
from plateau.bots import Bot
from plateau.cli import main
from plateau.errors import InvalidArgumentError, InvalidResultsError
from plateau.solver import solve
from plateau.suites import (
    SuitePosition,
    read_suite,
    run_suite,
    shipped_suites,
    suite_path,
    write_suite,
)


def _small_suite(path: Path, count: int = 6) -> list[SuitePosition]:
    """Proven wins from the ends of random Plateau X mini games, as a suite file."""
    out: list[SuitePosition] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        state = plateau.new_game("plateau-x", "mini")
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions().tolist()))
        for _ in range(3):
            state.undo()
            sol = solve(state, max_distance=5)
            if sol.value == "win" and sol.complete:
                names = {a: state.action_to_string(a) for a in sol.winning_actions}
                out.append(
                    SuitePosition(
                        id=f"t-{len(out)}",
                        game="plateau-x",
                        variant="mini",
                        actions=state.history_strings(),
                        to_move=state.current_player,
                        value="win",
                        distance=sol.distance or 0,
                        best=[names[a] for a in sol.best_actions],
                        winning=[names[a] for a in sol.winning_actions],
                        difficulty=sol.distance or 0,
                        comment=f"seed {seed}",
                    )
                )
                break
        seed += 1
    write_suite(path, out)
    return out


def test_a_suite_file_round_trips_and_its_positions_replay(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    written = _small_suite(path)
    assert read_suite(path) == written
    for pos in written:
        state = pos.state()
        assert state.current_player == pos.to_move and not state.is_terminal()
        assert pos.winning_ids(state) <= set(state.legal_actions().tolist())


class Winner(Bot):
    """Plays the first winning action the solver finds (so solves every position)."""

    name = "test-suite-winner"

    def select_action(self, state: plateau.GameState) -> int:
        return solve(state).best_actions[0]


class Crasher(Bot):
    name = "test-suite-crasher"

    def select_action(self, state: plateau.GameState) -> int:
        raise RuntimeError("boom")


class LibraryErrorBot(Bot):
    """A bot whose own bad call raises a library error (a PlateauError)."""

    name = "test-suite-library-error"

    def select_action(self, state: plateau.GameState) -> int:
        state.clone().apply_index(10**6)
        return 0


class Declines(Bot):
    name = "test-suite-declines"

    def check_game(self, state: plateau.GameState) -> None:
        raise InvalidArgumentError("this bot plays no suite")

    def select_action(self, state: plateau.GameState) -> int:
        return 0


def test_a_bot_that_raises_a_library_error_fails_its_positions(tmp_path: Path) -> None:
    # as in the arena, where it forfeits: the run goes on
    path = tmp_path / "s.jsonl"
    positions = _small_suite(path, 2)
    report = run_suite(str(path), _spec(LibraryErrorBot), 0.1)
    assert report.solved == 0 and len(report.results) == len(positions)
    errors = [r.error or "" for r in report.results]
    assert all(e.startswith("InvalidArgumentError: the index") for e in errors)
    # the caller's errors still stop it: a bot that declines the game, a bad spec
    with pytest.raises(InvalidArgumentError, match="plays no suite"):
        run_suite(str(path), _spec(Declines), 0.1)
    with pytest.raises(InvalidArgumentError, match="unknown bot"):
        run_suite(str(path), "no-such-bot", 0.1)


def test_a_bots_score_is_what_it_chose(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    positions = _small_suite(path)
    best = run_suite(str(path), "greedy", 0.1)
    assert len(best.results) == len(positions)
    for pos, r in zip(positions, best.results):
        assert r.id == pos.id and r.solved == (r.action in pos.winning)
    report = run_suite(str(path), _spec(Winner), 0.1)
    assert report.solved == len(positions)
    text = report.format_table()
    assert f"| all | {len(positions)} | {len(positions)} | 100.0% |" in text
    crash = run_suite(str(path), _spec(Crasher), 0.1)
    assert crash.solved == 0 and all(r.error == "RuntimeError: boom" for r in crash.results)
    assert f"{len(positions)} positions failed" in crash.format_table()


GIVEN: list[float] = []


class Recorder(Bot):
    """Records the ``seconds`` it was given, and plays the first legal action."""

    name = "test-suite-recorder"
    defaults: ClassVar[dict[str, Any]] = {"seconds": 0.0, "iters": 10}

    def select_action(self, state: plateau.GameState) -> int:
        GIVEN.append(float(self.params["seconds"]))
        return int(state.legal_actions()[0])


def test_a_bot_gets_the_seconds_unless_its_spec_sets_a_budget(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    _small_suite(path, 2)
    for spec, given in [("", 0.7), (":iters=10", 0.0), (":seconds=0.3", 0.3)]:
        GIVEN.clear()
        run_suite(str(path), _spec(Recorder) + spec, 0.7)
        assert [given, given] == GIVEN, spec


def _spec(cls: type[Bot]) -> str:
    return f"{cls.__module__}:{cls.__name__}"


def test_an_engine_is_scored_too(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    positions = _small_suite(path, 3)
    cmd = shlex.join([sys.executable, "-m", "plateau", "engine", "--bot", "greedy"])
    engine = run_suite(str(path), f'engine:name=g,cmd="{cmd}"', 5.0)
    local = run_suite(str(path), "greedy", 5.0)
    assert [r.action for r in engine.results] == [r.action for r in local.results]
    assert engine.bot == "engine:g" and len(engine.results) == len(positions)


@pytest.mark.parametrize(
    "change,message",
    [
        ({"format": "epd"}, "not a suite position"),
        ({"colour": "red"}, "unknown field"),
        ({"distance": 0}, "distance"),
        ({"distance": True}, "distance"),
        # (past 2**31: printed whole in an error or the results table, thousands of digits)
        ({"to_move": 10**4000}, r"'to_move' must be an integer in \[0, 2\*\*31\)"),
        ({"difficulty": 2**31}, "difficulty"),
        ({"actions": "T@a1"}, "actions"),
        ({"value": "draw"}, 'value must be "win"'),
        ({"best": []}, "best must be"),
        ({"best": ["nowhere"]}, "best must be"),
        ({"game": "chess"}, "unknown game"),
        ({"id": "x" * 20_000}, "id"),
        ({"options": {"first_player": 1, "colour": 2}}, "unknown option"),
    ],
)
def test_bad_suite_lines_are_refused_with_file_and_line(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    good = json.loads(_small_suite(tmp_path / "good.jsonl", 1)[0].to_line())
    path = tmp_path / "bad.jsonl"
    path.write_text("# a comment\n\n" + json.dumps({**good, **change}) + "\n")
    with pytest.raises(InvalidResultsError, match=f"bad.jsonl:3: .*{message}"):
        read_suite(path)


def test_a_suite_line_never_names_a_file_to_open(tmp_path: Path) -> None:
    good = json.loads(_small_suite(tmp_path / "good.jsonl", 1)[0].to_line())
    secret = tmp_path / "board.json"
    secret.write_text("{}")
    line = {**good, "game": "empire-plateau", "variant": "duel", "options": {"board": str(secret)}}
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(line) + "\n")
    with pytest.raises(InvalidResultsError, match=r"bad\.jsonl:1: options: "):
        read_suite(path)


def test_suite_positions_that_do_not_replay_are_refused(tmp_path: Path) -> None:
    good = _small_suite(tmp_path / "good.jsonl", 1)[0]
    twice = tmp_path / "twice.jsonl"
    twice.write_text(good.to_line() + "\n" + good.to_line() + "\n")
    with pytest.raises(InvalidResultsError, match=r"twice\.jsonl:2: the id 't-0' is used twice"):
        read_suite(twice)
    for bad, message in [
        (SuitePosition(**{**good.__dict__, "actions": ["nonsense"]}), "does not replay"),
        (SuitePosition(**{**good.__dict__, "to_move": 1 - good.to_move}), "is to move"),
        (SuitePosition(**{**good.__dict__, "winning": ["zz"], "best": ["zz"]}), "winning"),
    ]:
        path = tmp_path / "bad.jsonl"
        write_suite(path, [bad])
        with pytest.raises(InvalidResultsError, match=message):
            run_suite(str(path), "random", 0.1)
    # each names the file and line, and the id shown safely (cut, its escapes written out)
    hostile = "\x1b]0;owned\x07" + "i" * 9000
    for bad, message in [
        (
            SuitePosition(**{**good.__dict__, "id": hostile, "actions": ["nonsense"]}),
            "does not replay",
        ),
        (
            SuitePosition(**{**good.__dict__, "id": hostile, "to_move": 1 - good.to_move}),
            "after its",
        ),
        (
            SuitePosition(**{**good.__dict__, "id": hostile, "winning": ["zz"], "best": ["zz"]}),
            "a winning",
        ),
    ]:
        path = tmp_path / "bad.jsonl"
        write_suite(path, [good, bad])
        with pytest.raises(InvalidResultsError) as caught:
            run_suite(str(path), "random", 0.1)
        text = str(caught.value)
        assert text.startswith(f"{path}:2: position '\\x1b]0;owned\\x07iii")
        assert "characters>...iii" in text and f"iii': {message}" in text
        assert "\x1b" not in text and len(text) < 600
    with pytest.raises(InvalidResultsError, match=r"twice\.jsonl:2: the id 't-0' is used twice"):
        read_suite(twice)
    torn = tmp_path / "torn.jsonl"
    torn.write_text(good.to_line()[:50])
    with pytest.raises(InvalidResultsError, match=r"torn\.jsonl:1: not JSON"):
        read_suite(torn)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_suite_may_be_a_pipe_as_docs_safety_says(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    expected = _small_suite(path, 2)
    pipe = tmp_path / "pipe.jsonl"
    os.mkfifo(pipe)
    assert suite_path(str(pipe)) == pipe
    writer = threading.Thread(target=lambda: pipe.write_text(path.read_text()))
    writer.start()
    try:
        assert read_suite(suite_path(str(pipe))) == expected
    finally:
        writer.join(10)
    with pytest.raises(InvalidArgumentError, match="neither a suite file nor a shipped suite"):
        suite_path(str(tmp_path))  # (a folder)


def test_unknown_suites_and_bad_seconds_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgumentError, match="neither a suite file nor a shipped suite"):
        run_suite("no-such-suite", "random")
    path = tmp_path / "s.jsonl"
    _small_suite(path, 1)
    with pytest.raises(InvalidArgumentError, match="seconds"):
        run_suite(str(path), "random", 0.0)


def test_write_suite_checks_every_line_and_writes_all_or_nothing(tmp_path: Path) -> None:
    """write_suite refuses what read_suite would (a bad field, an id used twice), an empty
    list and what is not a SuitePosition, naming the position, and leaves the file as it was."""
    path = tmp_path / "s.jsonl"
    good = _small_suite(path, 2)
    before = path.read_bytes()
    other = SuitePosition(**{**good[0].__dict__, "game": "no-such-game"})
    for positions, message in [
        ([good[0], good[0]], "position 1: the id 't-0' is used twice"),
        ([good[1], other], "position 1: unknown game 'no-such-game'"),
        ([good[0], {"id": "x"}], "position 1: not a SuitePosition"),
        ([], "no positions to write"),
        (good[0], "positions is a list of SuitePosition"),
    ]:
        with pytest.raises(InvalidResultsError, match=message):
            write_suite(path, positions)  # type: ignore[arg-type]
        assert path.read_bytes() == before
    write_suite(path, reversed(good))  # (any iterable)
    assert read_suite(path) == [*reversed(good)]
    assert [p.name for p in tmp_path.iterdir()] == ["s.jsonl"]  # (no temporary file left)


def test_an_empty_suite_and_unknown_ids_are_refused(tmp_path: Path) -> None:
    """A suite with no position, and ids that name none of its positions, are errors, not an
    empty table."""
    empty = tmp_path / "empty.jsonl"
    empty.write_text("# nothing here\n\n")
    with pytest.raises(InvalidResultsError, match=r"empty\.jsonl: no positions"):
        run_suite(str(empty), "random", 0.1)
    path = tmp_path / "s.jsonl"
    _small_suite(path, 2)
    with pytest.raises(InvalidArgumentError, match=r"s\.jsonl has no position 'T-0', 'zz'"):
        run_suite(str(path), "random", 0.1, ids=["t-0", "T-0", "zz"])
    for bad in ("t-0", [], [1], None.__class__):
        with pytest.raises(InvalidArgumentError, match="ids is a"):
            run_suite(str(path), "random", 0.1, ids=bad)  # type: ignore[arg-type]
    report = run_suite(str(path), "random", 0.1, ids=["t-1"])
    assert [r.id for r in report.results] == ["t-1"]
    once = (i for i in ["t-0"])  # (any iterable, read once)
    assert [r.id for r in run_suite(str(path), "random", 0.1, ids=once).results] == ["t-0"]


# -- the shipped suites ---------------------------------------------------------------------------

SHIPPED = shipped_suites()


def test_suites_are_shipped_for_the_two_player_variants() -> None:
    wanted = {"plateau-x-mini", "plateau-x-double", "albea-plateau-standard", "empire-plateau-duel"}
    assert wanted <= set(SHIPPED)


@pytest.mark.parametrize("name", list(SHIPPED))
def test_each_shipped_suite_replays_and_is_graded(name: str) -> None:
    positions = read_suite(SHIPPED[name])
    assert len(positions) >= 200
    assert len({p.id for p in positions}) == len(positions)
    for pos in positions:
        state = pos.state()
        assert pos.difficulty == pos.distance
        # a suite without a move limit lists the wins within the distance (solver's within=)
        assert pos.within in (None, pos.distance)
        ids = pos.winning_ids(state)
        # a position where most actions win tests nothing
        assert len(ids) <= 0.34 * state.num_legal_actions()


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SHIPPED))
def test_every_shipped_suite_position_is_proven_again(name: str) -> None:
    for pos in read_suite(SHIPPED[name]):
        state = pos.state()
        # the distance the suites were made with (tools/make_suite.py: their deepest grade)
        sol = solve(state, nodes=2_000_000, max_distance=7, within=pos.within)
        assert (sol.value, sol.distance) == ("win", pos.distance), pos.id
        assert sol.within == pos.within
        assert sol.complete, pos.id
        names = [state.action_to_string(a) for a in sol.winning_actions]
        assert sorted(names) == sorted(pos.winning), pos.id
        assert sorted(state.action_to_string(a) for a in sol.best_actions) == sorted(pos.best)


def test_the_command_line_lists_and_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["suite", "--list"]) == 0
    listed = capsys.readouterr().out
    for name in SHIPPED:
        assert f"{name}: " in listed
    path = tmp_path / "s.jsonl"
    positions = _small_suite(path, 2)
    assert main(["suite", str(path), "--bot", "greedy", "--seconds", "0.5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("greedy on s.jsonl (0.5 s a position):")
    assert f"| {len(positions)} |" in out
    assert main(["suite", str(path)]) == 2
    assert "--bot" in capsys.readouterr().err
    assert suites.FORMAT == "plateau-suite"
