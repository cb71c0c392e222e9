"""The engine protocol (docs/engine-protocol.md): ``plateau engine`` driven through it, the
arena playing engine processes on every registered game, an unreliable engine written in
POSIX sh that the arena survives with the right forfeits, and no process left behind (after
the end, after failures, after Ctrl-C)."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

import plateau
from plateau import arena
from plateau.cli import main
from plateau.engine import (
    HELLO,
    BotEngine,
    engine_spec,
    go_command,
    parse_engine_spec,
    position_command,
)
from plateau.registry import game_info
from support import start_in_session

GAMES = plateau.games()
UNRELIABLE = Path(__file__).resolve().parent / "engines" / "unreliable.sh"
PLATEAU = [sys.executable, "-m", "plateau"]
needs_sh = pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX sh")


def _served(bot: str) -> str:
    return engine_spec([*PLATEAU, "engine", "--bot", bot], name=bot)


class _Talk:
    """An engine subprocess, line by line, with a timeout on every read."""

    def __init__(self, argv: list[str]) -> None:
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, word: str, timeout: float = 30.0) -> list[str]:
        """The lines up to and including the first starting with ``word``."""
        got: list[str] = []
        while True:
            line = self.lines.get(timeout=timeout)
            assert line is not None, f"the engine ended; it said {got}"
            got.append(line)
            if line.split()[:1] == [word]:
                return got


def _pid_gone(pid: int) -> bool:
    """Not running: no such process, or a zombie that is not ours to reap (a grandchild such as
    a killed engine's `sleep` is adopted by init, which reaps it in its own time; in some
    containers init never does). Our own unreaped child counts as left."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    except OSError:  # no /proc: ask the kernel, which counts zombies as present
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False
    state, ppid = stat.rsplit(")", 1)[1].split()[:2]
    return state == "Z" and int(ppid) != os.getpid()


def _wait_gone(pids: list[int], seconds: float = 5.0) -> list[int]:
    """The pids still present (alive or unreaped) after up to ``seconds``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        left = [p for p in pids if not _pid_gone(p)]
        if not left:
            return []
        time.sleep(0.05)
    return [p for p in pids if not _pid_gone(p)]


# -- specs ------------------------------------------------------------------------------------


def test_engine_spec_parsing_and_quoting() -> None:
    s = parse_engine_spec('engine:name=my,cmd="./my-engine --threads 1",hash=64')
    assert (s.cmd, s.name, s.options) == (("./my-engine", "--threads", "1"), "my", {"hash": "64"})
    assert parse_engine_spec("engine:cmd=/opt/e/run").name == "run"
    # commas, colons and quotes inside a quoted cmd survive the --bots list and the spec
    text = engine_spec(["/path with space/e", "--x", "a,b:c", 'say "hi"'], name="e 1", k="v,w")
    assert arena.split_bot_list(f"{text},random") == [text, "random"]
    s = parse_engine_spec(text)
    assert s.cmd == ("/path with space/e", "--x", "a,b:c", 'say "hi"')
    assert (s.name, s.options) == ("e 1", {"k": "v,w"})
    for bad, why in [
        ("engine:name=x", "no cmd"),
        ('engine:cmd="./e', "unclosed"),
        ("engine:cmd=e,cmd=f", "twice"),
        ("engine:cmd=e,oops", "key=value"),
        ("engine:cmd=e,init_timeout=0", "positive"),
        ("engine:cmd=e,init_timeout=inf", "at most 1,000,000"),  # (a wait that overflowed)
        ("engine:cmd=e,init_timeout=1e10", "at most 1,000,000"),
    ]:
        with pytest.raises(ValueError, match=why):
            parse_engine_spec(bad)


def test_split_bot_list_keeps_key_values_with_colons() -> None:
    assert arena.split_bot_list('mcts:iters=5,engine:cmd="python -m a:b",random') == [
        "mcts:iters=5",
        'engine:cmd="python -m a:b"',
        "random",
    ]


# -- the commands the arena sends -------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_position_command_tells_a_seat_only_its_view(game: str) -> None:
    import random

    state = plateau.new_game(game)
    rng = random.Random(3)
    while not state.is_terminal() and state.ply < 14:
        legal = state.legal_actions()
        state.apply(int(legal[rng.randrange(len(legal))]))
    info = game_info(game)
    for seat in range(state.num_players):
        command = position_command(state, seat, seed=5)
        if info.perfect_information:
            assert command.split() == ["position", "start", *state.history_strings()]
            continue
        kind, _, data = command.partition(" ")[2].partition(" ")
        assert kind == "view"
        view = json.loads(data)
        mine = json.loads(state.to_json(viewer=seat))
        assert view["record"] == mine  # the seat's own record, nothing more
        truth = state.history_strings()
        for own, seen in zip(truth, mine["actions"]):
            if own != seen:  # a hidden action: its true text is not in the record
                assert own not in json.dumps(view["record"])
        if "world" in view:  # the same world the library's own bots are handed
            world = state.view_for(seat, 5)
            assert view["world"] == world.position_dict()  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", GAMES)
def test_actions_are_single_words_in_every_game(game: str) -> None:
    # `position start A1 A2 ...` and `bestaction A` need notation without spaces
    import random

    rng = random.Random(1)
    for variant in plateau.variants(game):
        state = plateau.new_game(game, variant)
        while not state.is_terminal() and state.ply < 60:
            for text in state.legal_action_strings():
                assert text.split() == [text], (game, variant, text)
            legal = state.legal_actions()
            state.apply(int(legal[rng.randrange(len(legal))]))
        for seat in range(state.num_players):
            for text in state.history_strings(viewer=seat):
                assert text.split() == [text], (game, variant, seat, text)


def test_go_command_fields() -> None:
    assert go_command(3, movetime_ms=250, times_ms=[1, 2, 3], inc_ms=7) == (
        "go movetime 250 inc 7 time0 1 time1 2 time2 3"
    )


# -- plateau engine, driven through the protocol ----------------------------------------------


def test_plateau_engine_random_through_the_protocol() -> None:
    talk = _Talk([*PLATEAU, "engine", "--bot", "random", "--seed", "4"])
    try:
        talk.send(HELLO)
        hello = talk.read_until("ready")
        assert hello[0] == "id name plateau random"
        assert any(line.startswith("option name seed ") for line in hello)
        talk.send("", "   ", "frobnicate now", "isready")  # blank lines: no answer
        assert talk.read_until("ready") == ["info string unknown command 'frobnicate'", "ready"]
        talk.send("go")  # no game yet
        assert talk.read_until("bestaction")[-1] == "bestaction (none)"
        for game in GAMES:
            state = plateau.new_game(game)
            opts = json.dumps(state.options)
            talk.send(f"game {game} {state.variant} {opts}", "isready")
            assert talk.read_until("ready") == ["ready"]
            while not state.is_terminal() and state.ply < 40:  # turns of several actions too
                seat = state.current_player
                talk.send(position_command(state, seat, seed=state.ply), go_command(2))
                answer = talk.read_until("bestaction")
                assert all(line.startswith("info ") for line in answer[:-1])
                text = answer[-1].split()[1]
                assert state.why_illegal(text) is None, (game, state.ply, text)
                state.apply(text)
            talk.send("position start not-an-action", "isready")
            assert talk.read_until("ready")[0].startswith("info string error: ")
        talk.send("stop", "quit")
        assert talk.proc.wait(timeout=10) == 0
    finally:
        talk.proc.kill()
        talk.proc.wait()


def test_plateau_engine_ends_at_end_of_input() -> None:
    done = subprocess.run(
        [*PLATEAU, "engine", "--bot", "greedy"],
        input=f"{HELLO}\ngame plateau-x mini\nposition start\ngo\n",
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("bestaction ")


def test_an_engine_spec_is_not_a_bot() -> None:
    from plateau.bots import make_bot

    with pytest.raises(ValueError, match="external engine"):
        make_bot('engine:cmd="plateau engine"')
    with pytest.raises(ValueError, match="external engine"):
        arena.build_bot('engine:cmd="plateau engine"', 0)


def test_bot_engine_refuses_a_game_its_bot_cannot_play() -> None:
    engine = BotEngine("alphabeta")
    assert engine.handle("game plateau-x standard")[0].startswith("info string error: ")
    assert engine.handle("go") == ["info string error: no position to play", "bestaction (none)"]
    assert engine.handle("plateau-engine 2")[0].startswith("info string error: ")
    assert engine.handle("setoption name hash value 1")[0].startswith("info string error: ")
    assert engine.handle("quit") is None


# -- the arena with engine processes ----------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_arena_plays_an_engine_process_on_every_game(game: str) -> None:
    variant = game_info(game).default_variant
    n = plateau.new_game(game, variant).num_players
    bots = [_served("greedy"), *["random"] * (n - 1)]
    result = arena.run(game, variant, bots, games=2, seed=1, ply_cap=40, move_timeout=30.0)
    assert [r.forfeit for r in result.results] == [None, None]
    for r in result.results:
        seat = arena.seat_order(r.index, n).index(0)
        assert r.engines == {
            str(seat): {"name": "plateau greedy", "info": r.engines[str(seat)]["info"]}
        }
        assert r.engines[str(seat)]["info"].startswith("info depth 1 nodes ")
        assert plateau.from_json(json.dumps(r.record)).ply == r.plies  # the record replays
        # each engine move carries what its info line said (greedy: one ply, its legal
        # actions as nodes, a score); the random bot's moves say nothing
        ours = [m for m in r.move_stats if m[0] == seat]
        assert ours and all(m[1] == 1 and m[2] >= 1 and m[3] is not None for m in ours)
        assert all(m[1:] == [None, None, None] for m in r.move_stats if m[0] != seat)
        assert len(r.move_stats) == len(r.move_seconds)
    assert result.stats()[0].games == 2


def test_engine_games_replay_whichever_process_plays_them() -> None:
    # an engine announcing a seed option is sent each game's seed, so one process playing
    # every game and two sharing them play the same games; a seed in the spec is kept
    bots = [_served("random"), "random"]
    one = arena.run("plateau-x", "mini", bots, games=4, seed=3, jobs=1)
    two = arena.run("plateau-x", "mini", bots, games=4, seed=3, jobs=2)
    assert [r.record for r in one.results] == [r.record for r in two.results]
    assert len({json.dumps(r.record["actions"]) for r in one.results}) == 4
    fixed = engine_spec([*PLATEAU, "engine", "--bot", "random"], name="random", seed=7)
    games = arena.run("plateau-x", "mini", [fixed, "random"], games=2, seed=3).results
    engine_first = [r.record["actions"][0] for r in games if r.seats[0] == fixed]
    again = arena.run("plateau-x", "mini", [fixed, "random"], games=2, seed=4).results
    assert engine_first == [r.record["actions"][0] for r in again if r.seats[0] == fixed]


def test_arena_command_line_with_an_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "games.jsonl"
    bots = f"{_served('random')},random"
    argv = ["arena", "--variant", "mini", "--bots", bots, "--games", "2", "--jobs", "2"]
    assert main([*argv, "--ply-cap", "10", "--no-progress", "--out", str(out)]) == 0
    table = capsys.readouterr().out
    # the engine's seat is labelled by its name=, not by its command line
    assert "| engine:random |" in table and "2 games of plateau-x/mini" in table
    assert "cmd=" not in table and PLATEAU[0] not in table
    assert {tuple(json.loads(line)["seats"]) for line in out.read_text().splitlines()} == {
        ("engine:random", "random"),
        ("random", "engine:random"),
    }
    # arena-report reads it, and reads an old file without the engines field
    assert main(["arena-report", str(out)]) == 0
    old = tmp_path / "old.jsonl"
    lines = []
    for line in out.read_text().splitlines():
        data = json.loads(line)
        del data["engines"]
        lines.append(json.dumps(data))
    old.write_text("\n".join(lines) + "\n")
    assert [r.engines for r in arena.read_results(old)] == [{}, {}]
    assert arena.report(old).format_table() == arena.report(out).format_table()


def test_an_engine_that_cannot_start_or_play_is_refused_before_the_first_game(
    tmp_path: Path,
) -> None:
    missing = engine_spec([str(tmp_path / "no-such-engine")])
    with pytest.raises(ValueError, match="cannot start"):
        arena.run("plateau-x", "mini", [missing, "random"], games=1)
    four = [_served("alphabeta"), "random", "random", "random"]
    with pytest.raises(ValueError, match="refused"):
        arena.run("plateau-x", "standard", four, games=1)
    unknown_option = engine_spec([*PLATEAU, "engine"], threads=2)
    with pytest.raises(ValueError, match="no option 'threads'"):
        arena.run("plateau-x", "mini", [unknown_option, "random"], games=1)


def _unreliable(tmp_path: Path, plan: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("UNRELIABLE_DIR", str(tmp_path))
    monkeypatch.setenv("UNRELIABLE_PLAN", plan)
    monkeypatch.setenv("UNRELIABLE_LEGAL", " ".join([*PLATEAU, "legal"]))
    return engine_spec(["sh", str(UNRELIABLE)], name="unreliable")


def _pids(tmp_path: Path) -> list[int]:
    path = tmp_path / "pids"
    return [int(p) for p in path.read_text().split()] if path.exists() else []


@needs_sh
def test_the_arena_survives_an_unreliable_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the first `game` is the arena's check before the first game, then one mode per game
    plan = "good,good,crash,hang,garbage,unparseable,illegal,good"
    spec = _unreliable(tmp_path, plan, monkeypatch)
    result = arena.run(
        "plateau-x", "mini", [spec, "random"], games=7, ply_cap=6, move_timeout=3.0, seed=2
    )
    reasons = [r.forfeit and r.forfeit["reason"] for r in result.results]
    assert reasons == [None, "crash", "timeout", "garbage", "unparseable", "illegal", None]
    by_reason = {r.forfeit["reason"]: r.forfeit for r in result.results if r.forfeit}
    assert all(forfeit["bot"] == "engine:unreliable" for forfeit in by_reason.values())
    assert "exited with code 3" in by_reason["crash"]["error"]
    assert by_reason["crash"]["stderr"] == ["unreliable: crashing on purpose"]
    assert by_reason["crash"]["ply"] >= 2  # mid-game, after a legal move
    assert by_reason["timeout"]["stderr"] == ["unreliable: hanging on purpose"]
    assert "'hello, arena'" in by_reason["garbage"]["error"]
    assert "zz-top!" in by_reason["unparseable"]["error"]
    assert "a1-b1" in by_reason["illegal"]["error"] and "no piece" in by_reason["illegal"]["error"]
    for r in result.results:
        seat = arena.seat_order(r.index, 2).index(0)
        if r.forfeit:
            assert r.forfeit["seat"] == seat and r.ranking[-1] == [seat]
        else:
            assert r.truncated and r.plies == 6
    assert result.stats()[0].forfeits == 5
    # every process it started (restarts and the hanging `sleep` included) is gone and reaped
    pids = _pids(tmp_path)
    assert len(pids) == 8  # the check, 6 restarts after the failures, and one `sleep`
    assert _wait_gone(pids, 0.5) == []


@needs_sh
@pytest.mark.parametrize("jobs", [1, 2])
def test_an_error_in_the_arena_leaves_no_engine_process(
    jobs: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = _unreliable(tmp_path, "", monkeypatch)

    def broken_progress(stream: Iterable[arena.GameResult], total: int) -> Iterator[Any]:
        for i, result in enumerate(stream):
            if i == 1:
                raise RuntimeError("the consumer broke")
            yield result

    with pytest.raises(RuntimeError, match="the consumer broke"):
        arena.run(
            "plateau-x",
            "mini",
            [spec, "random"],
            games=6,
            jobs=jobs,
            ply_cap=4,
            progress=broken_progress,
        )
    assert len(_pids(tmp_path)) >= 2  # the check and at least one playing engine
    assert _wait_gone(_pids(tmp_path)) == []


_ARENA_CHILD = """
import sys
from plateau.cli import main
sys.exit(main(sys.argv[1:]))
"""


@needs_sh
@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_leaves_no_engine_process(
    jobs: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = _unreliable(tmp_path, "good,hang,hang,hang,hang", monkeypatch)
    argv = [sys.executable, "-c", _ARENA_CHILD, "arena", "--variant", "mini"]
    argv += ["--bots", f"{spec},random", "--games", "4", "--jobs", str(jobs), "--no-progress"]
    # a session of its own, signalled as a terminal would: the arena and its workers
    proc = start_in_session(argv)
    try:
        end = time.monotonic() + 30
        while time.monotonic() < end and proc.poll() is None:
            if (tmp_path / "sleeps").exists():
                break
            time.sleep(0.05)
        assert (tmp_path / "sleeps").exists(), "the engine never started hanging"
        time.sleep(0.2 * jobs)  # let the other worker's engine start too
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert "interrupted" in err
    assert _wait_gone(_pids(tmp_path)) == []


def test_the_minimal_engine_of_the_docs_plays_an_arena(tmp_path: Path) -> None:
    """docs/engine-protocol.md's minimal engine, as written, plays whole arena games without
    a forfeit, in an open game and in one of turns of several actions."""
    page = Path(__file__).resolve().parent.parent / "docs" / "engine-protocol.md"
    text = page.read_text(encoding="utf-8").split("## A minimal engine in Python", 1)[1]
    code = re.search(r"```py\n(.*?)```", text, re.S)
    assert code is not None
    engine = tmp_path / "minimal_engine.py"
    engine.write_text(code.group(1), encoding="utf-8")
    assert len(code.group(1).splitlines()) <= 40
    spec = engine_spec([sys.executable, str(engine)], name="minimal")
    for game, variant in (("plateau-x", "mini"), ("empire-plateau", "duel")):
        result = arena.run(game, variant, [spec, "random"], games=2, ply_cap=60, seed=3)
        assert [r.forfeit for r in result.results] == [None, None]
        assert {tuple(r.seats) for r in result.results} == {
            ("engine:minimal", "random"),
            ("random", "engine:minimal"),
        }


def test_plateau_engine_stop_and_quit_end_a_search() -> None:
    # a search of a billion iterations: only stop (or quit) ends it, and the engine reads them
    # while it searches, after commands that wait for the search (isready)
    talk = _Talk([*PLATEAU, "engine", "--bot", f"mcts:iters={10**9}"])
    try:
        talk.send(HELLO)
        talk.read_until("ready")
        start = plateau.new_game("plateau-x", "mini")
        talk.send("game plateau-x mini", "position start", "go", "isready")
        time.sleep(0.5)
        assert talk.lines.empty()  # still searching
        talk.send("stop")
        answer = talk.read_until("bestaction")
        assert start.why_illegal(answer[-1].split()[1]) is None
        assert talk.read_until("ready") == ["ready"]
        talk.send("stop", "go")  # a stop between searches stops none: this go searches on
        time.sleep(0.5)
        assert talk.lines.empty()
        talk.send("quit")
        answer = talk.read_until("bestaction")
        assert start.why_illegal(answer[-1].split()[1]) is None
        assert talk.proc.wait(timeout=30) == 0
    finally:
        talk.proc.kill()
        talk.proc.wait()


def test_a_stop_ends_every_go_read_before_it() -> None:
    # go, go, stop: the reader has both gos before the stop, which ends both searches (it
    # ended the first only, and the second searched its billion iterations); a stop after the
    # answers stops none
    talk = _Talk([*PLATEAU, "engine", "--bot", f"mcts:iters={10**9}"])
    try:
        talk.send(HELLO)
        talk.read_until("ready")
        start = plateau.new_game("plateau-x", "mini")
        talk.send("game plateau-x mini", "position start", "go", "go", "stop", "isready")
        for _ in range(2):
            answer = talk.read_until("bestaction")
            assert start.why_illegal(answer[-1].split()[1]) is None
        assert talk.read_until("ready") == ["ready"]
        talk.send("go")  # (the stop was used up: this go searches on)
        time.sleep(0.5)
        assert talk.lines.empty()
        talk.send("quit")
        talk.read_until("bestaction")
        assert talk.proc.wait(timeout=30) == 0
    finally:
        talk.proc.kill()
        talk.proc.wait()


_ESCAPER = """
# an engine whose child leaves its process group (setsid) and forks once more, the second
# child writing its pid and sleeping; the engine then plays as `plateau engine --bot random`
import os, sys, time
pid = os.fork()
if pid == 0:
    os.setsid()
    if os.fork() == 0:
        with open(sys.argv[1], "a") as f:
            f.write(f"{os.getpid()}\\n")
        time.sleep(600)
    os._exit(0)
os.waitpid(pid, 0)
from plateau.engine import serve
sys.exit(serve("random"))
"""


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize("jobs", [1, 2])
def test_children_that_leave_the_engine_group_are_stopped_with_it(
    jobs: int, tmp_path: Path
) -> None:
    script = tmp_path / "escaper.py"
    script.write_text(_ESCAPER)
    pids = tmp_path / "pids"
    spec = engine_spec([sys.executable, str(script), str(pids)], name="escaper")
    result = arena.run("plateau-x", "mini", [spec, "random"], games=2, seed=1, jobs=jobs)
    assert [r.forfeit for r in result.results] == [None, None]
    strays = [int(line) for line in pids.read_text().split()]
    assert len(strays) >= 1  # (one per engine process the arena started)
    assert _wait_gone(strays, 5.0) == []


def test_a_view_whose_record_does_not_go_with_the_game_or_the_world_is_refused() -> None:
    # (the record was not looked at: other options, any viewer, an empty record and a world of
    # the other seat to move were played)
    state = plateau.new_game("albea-plateau")
    rng = random.Random(2)
    for _ in range(9):
        state.apply(int(state.legal_actions()[rng.randrange(state.num_legal_actions())]))
    engine = BotEngine("random")
    assert engine.handle(f"game albea-plateau {state.variant} {json.dumps(state.options)}") == []
    view = json.loads(position_command(state, state.current_player, seed=1).split(" ", 2)[2])
    assert engine.handle("position view " + json.dumps(view)) == []
    other = json.loads(position_command(state, 1 - state.current_player, seed=1).split(" ", 2)[2])
    record = view["record"]
    for bad, why in [
        ({**record, "options": {"max_plies": 5}}, "not of the game line's"),
        ({**record, "viewer": 7}, "seen by 7"),
        ({**record, "viewer": True}, "seen by True"),
        ({}, "not of the game line's"),
        (other["record"], "seen by"),
        ({**record, "actions": record["actions"][:-1]}, "8 actions and its world 9 plies"),
        ({**record, "actions": "e4"}, "a list of 'actions'"),
        ([], "a 'record' object"),
    ]:
        answer = engine.handle("position view " + json.dumps({**view, "record": bad}))
        assert len(answer) == 1 and answer[0].startswith("info string error: "), (bad, answer)
        assert why in answer[0], (why, answer)
        assert engine.handle("go")[-1] == "bestaction (none)"  # (no position kept)


_HANDSHAKE_ESCAPER = """
# plays as `plateau engine --bot random` the first time (the arena's check before the first
# game); every later start leaves a child in a session of its own (its pid written down) and
# never finishes its handshake
import os, sys, time
started = sys.argv[1] + ".started"
if os.path.exists(started):
    pid = os.fork()
    if pid == 0:
        os.setsid()
        with open(sys.argv[1], "a") as f:
            f.write(f"{os.getpid()}\\n")
        time.sleep(600)
        os._exit(0)
    time.sleep(600)
open(started, "w").close()
from plateau.engine import serve
sys.exit(serve("random"))
"""


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs Linux's /proc")
def test_children_of_an_engine_in_its_handshake_are_stopped_with_the_arena(
    tmp_path: Path,
) -> None:
    """SIGTERM to an arena of two workers while their engines are in their handshake: the
    engines' children that left their process groups are stopped too (a worker stopped the
    groups of the engines it was starting, and left their setsid children running)."""
    script = tmp_path / "escaper.py"
    script.write_text(_HANDSHAKE_ESCAPER)
    pids = tmp_path / "pids"
    spec = engine_spec([sys.executable, str(script), str(pids)], name="slow", init_timeout=60)
    argv = [sys.executable, "-m", "plateau", "arena", "--game", "plateau-x", "--variant"]
    argv += ["mini", "--games", "4", "--jobs", "2", "--no-progress", "--bots", f"{spec},random"]
    argv += ["--out", str(tmp_path / "out.jsonl")]
    proc = start_in_session(argv)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (
            not pids.exists() or len(pids.read_text().split()) < 2
        ):
            time.sleep(0.1)
        strays = [int(line) for line in pids.read_text().split()] if pids.exists() else []
        assert len(strays) >= 2, "the workers did not start their engines"
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    left = _wait_gone(strays, 5.0)
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    assert left == []
