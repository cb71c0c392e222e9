"""Safety of the engine protocol from both sides (issue 21): the arena against engines that
stop reading their input or flood their output, and ``plateau engine`` against malformed
commands. Anything that could hang runs in a subprocess with a timeout."""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

import plateau
from plateau import arena
from plateau.bots import BOTS, Bot, register_bot
from plateau.engine import (
    HELLO,
    MAX_BUFFERED_BYTES,
    MAX_BUFFERED_LINES,
    MAX_HANDSHAKE_LINES,
    MAX_LINE,
    MAX_NAME,
    BotEngine,
    EngineConnection,
    EngineError,
    EngineOutput,
    engine_spec,
    parse_engine_spec,
    parse_info,
    printable,
    pump,
    serve,
)
from support import start_in_session

needs_posix = pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX process groups")
HERE = Path(__file__).resolve().parent
MISBEHAVE = HERE / "engines" / "misbehave.py"
PLATEAU = [sys.executable, "-m", "plateau"]


def _misbehave(tmp_path: Path, mode: str, nth: int, **options: object) -> str:
    return engine_spec([sys.executable, str(MISBEHAVE), str(tmp_path), mode, str(nth)], **options)


def _pids(tmp_path: Path) -> list[int]:
    path = tmp_path / "pids"
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def _running(pid: int) -> bool:
    """Alive and not a zombie (a zombie of ours would be reaped by the Popen that made it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _left(pids: list[int], seconds: float = 5.0) -> list[int]:
    """The pids still running after up to ``seconds``."""
    end = time.monotonic() + seconds
    while True:
        left = [p for p in pids if _running(p)]
        if not left or time.monotonic() > end:
            return left
        time.sleep(0.05)


@pytest.fixture(autouse=True)
def _no_engine_outlives_its_test(tmp_path: Path) -> Iterator[None]:
    """Kill what a failed test left running (an engine runs in a session of its own)."""
    yield
    for pid in _left(_pids(tmp_path), 0.0):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def _child(code: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    """``python -c code``, killed after ``timeout`` seconds (a regression fails, not hangs)."""
    try:
        return subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"the child hung for {timeout} s: {e.stdout!r} {e.stderr!r}")


# -- 1. every write to an engine has a deadline ---------------------------------------------


def test_send_to_an_engine_that_stopped_reading_times_out_and_close_returns(
    tmp_path: Path,
) -> None:
    # an Empire Plateau board of 600 dots makes a `game` line larger than a pipe holds; an
    # engine that stopped reading blocked the arena in send() for good, then in close()
    spec = _misbehave(tmp_path, "deaf", 1, init_timeout=1)
    code = f"""
from plateau.engine import EngineError, EngineProcess, parse_engine_spec
engine = EngineProcess(parse_engine_spec({spec!r}))
try:
    engine.send("game " + "x" * (1 << 20))
    print("sent")
except EngineError as e:
    print(e.reason)
engine.close()
print("closed", engine.alive)
"""
    done = _child(code)
    assert done.stdout.split() == ["timeout", "closed", "False"], done.stderr
    assert len(_pids(tmp_path)) == 1 and _left(_pids(tmp_path)) == []


_BIG_GAME_ARENA = """
import json, sys
import plateau.engine
from plateau import arena
plain = plateau.engine.game_command
# the `game` line of a big user board: far more than a pipe holds
plateau.engine.game_command = lambda state: plain(state) + " " * (1 << 20)
result = arena.run("plateau-x", "mini", [{spec!r}, "random"], games=2, ply_cap=4)
print(json.dumps([r.forfeit and r.forfeit["reason"] for r in result.results]))
"""


def test_the_arena_forfeits_an_engine_that_stops_reading_a_long_game_line(
    tmp_path: Path,
) -> None:
    spec = _misbehave(tmp_path, "deaf", 2, init_timeout=1)
    done = _child(_BIG_GAME_ARENA.format(spec=spec))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["timeout", "timeout"]
    assert _left(_pids(tmp_path)) == []


_BIG_GAME_CLI = """
import sys
import plateau.engine
from plateau.cli import main
plain = plateau.engine.game_command
plateau.engine.game_command = lambda state: plain(state) + " " * (1 << 20)
sys.exit(main(["arena", "--variant", "mini", "--bots", {bots!r}, "--games", "2", "--jobs", "1",
               "--no-progress"]))
"""


@needs_posix
def test_ctrl_c_while_the_arena_writes_to_an_engine_that_stopped_reading(tmp_path: Path) -> None:
    # the write had no deadline: the first Ctrl-C blocked again in close() (sending `quit`),
    # the second left the engine running; now both the write and close() are bounded
    spec = _misbehave(tmp_path, "deaf", 2)  # init_timeout 30 s: the Ctrl-C comes first
    proc = start_in_session([sys.executable, "-c", _BIG_GAME_CLI.format(bots=f"{spec},random")])
    try:
        end = time.monotonic() + 30
        while time.monotonic() < end and len(_pids(tmp_path)) < 2 and proc.poll() is None:
            time.sleep(0.05)
        assert len(_pids(tmp_path)) == 2, "the deaf engine never started"
        time.sleep(0.5)  # the arena is writing the game line by now
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail("the arena did not end after Ctrl-C")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert _left(_pids(tmp_path)) == []


# -- 2. an engine that floods its output ----------------------------------------------------


def test_engine_output_holds_a_bounded_number_of_lines_and_bytes() -> None:
    lines = EngineOutput()
    for _ in range(MAX_BUFFERED_LINES):
        assert lines.push(b"\n")
    assert not lines.push(b"\n") and not lines.push(b"ready\n")
    assert lines.failure is not None and lines.failure.reason == "flood"
    with pytest.raises(EngineError, match="flood"):
        lines.get(None)
    data = EngineOutput()
    line = b"info " + b"x" * 1000 + b"\n"
    taken = 0
    while data.push(line):
        taken += len(line)
    assert taken == data.bytes <= MAX_BUFFERED_BYTES
    assert data.failure is not None and data.failure.reason == "flood"


def test_engine_output_refuses_an_overlong_line_and_reads_the_rest_as_text() -> None:
    out = EngineOutput()
    assert pump(io.BytesIO(b"info \xff\xfe\r\n" + b"x" * MAX_LINE + b"\n"), out, to_end=False)
    assert out.get(None) == "info \ufffd\ufffd"  # not UTF-8: replaced, never an error
    assert out.get(None) == "x" * MAX_LINE  # the longest line taken
    assert not pump(io.BytesIO(b"y" * (MAX_LINE + 1) + b"\nready\n"), out)
    with pytest.raises(EngineError, match="longer than"):
        out.get(None)  # garbage, and nothing after it is read: the engine forfeits
    done = EngineOutput()
    assert pump(io.BytesIO(b"ready\nbestaction a1"), done)
    assert [done.get(None), done.get(None), done.get(None)] == ["ready", "bestaction a1", None]
    with pytest.raises(TimeoutError):
        EngineOutput().get(time.monotonic() + 0.01)


def test_a_line_that_came_after_the_deadline_is_late_though_it_waits_to_be_read() -> None:
    """An engine is judged by when its lines came, not by when the arena read them: one that
    writes lines as fast as they are read (so the queue is never empty and never a flood)
    is still out of time at its deadline; a line that came in time is read after it."""
    out = EngineOutput()
    before = time.monotonic()
    while time.monotonic() == before:  # (a coarse clock: wait for it to move on)
        pass
    assert out.push(b"info depth 1\n")
    after = time.monotonic()
    with pytest.raises(TimeoutError):
        out.get(before)  # (the line came after this deadline)
    assert out.get(after) == "info depth 1"  # (it came by this one, read later)
    assert out.push(b"bestaction a1\n") and out.push(b"info late\n")
    assert out.get(time.monotonic()) == "bestaction a1"
    assert out.get(None) == "info late"
    # a steady stream of info lines read as they come ends in a timeout at the deadline
    stream = EngineOutput()
    deadline = time.monotonic() + 0.2
    read = 0
    with pytest.raises(TimeoutError):
        while True:
            stream.push(b"info nodes 1\n")  # (one line a read: never a flood)
            assert stream.get(deadline) == "info nodes 1"
            read += 1
    assert time.monotonic() >= deadline and read > 0


def test_lines_written_as_fast_as_they_are_read_end_the_unasked_read() -> None:
    """Before a move, the arena reads what the engine wrote since its last answer (``info``
    lines) without waiting: only what came before it started, so an engine that writes a line
    each time one is read does not keep it reading (it read such a stream for as long as the
    engine wrote)."""

    class Streaming(EngineOutput):
        reads = 0

        def get(self, deadline: float | None) -> str | None:
            line = super().get(deadline)
            self.reads += 1
            assert self.reads < 1000, "still reading"
            self.push(b"info nodes 1\n")  # (the next line, as this one is read)
            return line

    class Scripted(EngineConnection):
        def _write(self, data: bytes, deadline: float) -> None:
            pass

    engine = Scripted(parse_engine_spec("engine:cmd=true"))
    stream = Streaming()
    engine.output = stream
    stream.push(b"info nodes 1\n")
    time.sleep(0.01)  # (so the lines pushed while reading come after the read started)
    engine._unasked()
    # the line there before, read; the one written as it was read is left for the next read
    assert stream.reads == 1 and engine.last_info == "info nodes 1"
    assert stream.bytes == len(b"info nodes 1\n")


class _Sleepy(Bot):
    """Thinks for a second over each move (while the other seat may write what it likes)."""

    name: ClassVar[str] = "test-sleepy"

    def select_action(self, state: plateau.GameState) -> int:
        time.sleep(1.0)
        return int(state.legal_actions()[0])


if _Sleepy.name not in BOTS:
    register_bot(_Sleepy)


def test_an_engine_flooding_its_output_while_the_other_seat_thinks_forfeits(
    tmp_path: Path,
) -> None:
    spec = _misbehave(tmp_path, "flood", 2)
    result = arena.run(
        "plateau-x", "mini", ["test-sleepy", spec], games=1, ply_cap=6, move_timeout=3.0
    )
    forfeit = result.results[0].forfeit
    assert forfeit is not None and forfeit["seat"] == 1
    assert forfeit["reason"] == "flood", forfeit
    # what the arena took from the flooder (all it could hold) is bounded: the cap on unread
    # output (1 MiB), a pipe and a chunk; unbounded, it took hundreds of MB while seat 0 slept
    written = [int(p.read_text() or 0) for p in tmp_path.glob("written-*")]
    assert written and max(written) < 4 << 20
    assert _left(_pids(tmp_path)) == []


# -- 3. plateau engine answers malformed commands ---------------------------------------------

DEEP = "[" * 100_000 + "]" * 100_000
MALFORMED = [
    f"game plateau-x mini {DEEP}",
    f'game plateau-x mini {{"a":{DEEP}}}',
    f"position setup {DEEP}",
    f"position view {DEEP}",
    'game plateau-x mini {"first_player": 1e999}',
    'game plateau-x mini {"first_player": ' + "9" * 5000 + "}",
    "setoption name seed value " + "9" * 5000,
    "setoption name seed value \u0661\u0662",  # (Arabic-Indic digits: int() reads them)
    "setoption name seed value 1_000",
    "setoption name seed value 1e3",
    "plateau-engine " + "2" * 100_000,
    "position start " + "x" * 100_000,
]


@pytest.mark.parametrize("line", MALFORMED, ids=lambda line: line[:30])
def test_plateau_engine_answers_a_malformed_command_with_one_error_line(line: str) -> None:
    engine = BotEngine("random", seed=1)
    engine.handle("game plateau-x mini")
    answer = engine.handle(line)
    assert answer is not None and len(answer) == 1, answer
    assert answer[0].startswith("info string error: ")
    assert "\n" not in answer[0] and len(answer[0]) < 2000
    assert engine.seed == 1  # a refused setoption changes nothing


@pytest.mark.parametrize("field", ["time0", "time1", "inc"])
def test_plateau_engine_takes_huge_clock_values(field: str) -> None:
    # go time0 <400 digits> overflowed the float of a bot searching by time
    engine = BotEngine("mcts:seconds=0.01", seed=1)
    for line in ["game plateau-x mini", "position start"]:
        assert engine.handle(line) == []
    go = {"time0": "1000", "time1": "1000", "inc": "0", field: "9" * 400}
    answer = engine.handle("go " + " ".join(f"{k} {v}" for k, v in go.items()))
    assert answer is not None and answer[-1].startswith("bestaction ")
    assert answer[-1] != "bestaction (none)"


def test_plateau_engine_bounds_the_actions_of_position_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # each action applied keeps an undo record of the position, as a record's replay does: a
    # 16 MiB command line of Empire actions on a big board would keep gigabytes, so `position
    # start` takes at most plateau.record.MAX_RECORD_ACTIONS actions, as `position setup` does
    engine = BotEngine("random", seed=1)
    engine.handle("game plateau-x mini")
    monkeypatch.setattr(plateau.record, "MAX_RECORD_ACTIONS", 2)
    assert engine.handle("position start S@a1 S@b1") == []
    answer = engine.handle("position start S@a1 S@b1 S@c1")
    assert answer is not None and len(answer) == 1, answer
    assert answer[0].startswith("info string error: ") and "MAX_RECORD_ACTIONS" in answer[0]
    assert engine.state is None


def test_plateau_engine_carries_on_after_malformed_lines() -> None:
    lines = [HELLO, *MALFORMED, "go time0 " + "9" * 400, "\udcff", "isready", "quit"]
    data = "".join(line + "\n" for line in lines).encode("utf-8", "surrogateescape")
    data = data.replace(b"\xed\xb3\xbf", b"\xff\xfe")  # a line that is not UTF-8
    done = subprocess.run(
        [*PLATEAU, "engine", "--bot", "mcts:seconds=0.01"],
        input=data,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b""
    out = done.stdout.decode().splitlines()
    assert out[-1] == "ready"
    errors = [line for line in out if line.startswith("info string error: ")]
    assert len(errors) >= len(MALFORMED)


def test_serve_reads_bytes_that_are_not_utf8_and_overlong_lines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import plateau.engine

    monkeypatch.setattr(plateau.engine, "MAX_COMMAND", 64)
    raw = io.BufferedReader(io.BytesIO(b"\xff\xfe\nisready " + b"x" * 200 + b"\nisready\n"))
    stdin = io.TextIOWrapper(raw)
    out = io.StringIO()
    assert serve("random", stdin=stdin, out=out) == 0
    # one error line each, and no part of the long line taken as a command (its first 64 bytes
    # were read as 'isready xxx...' before, and the rest as unknown commands)
    assert out.getvalue().splitlines() == [
        "info string error: a line that is not UTF-8 (byte 0xff at 0)",
        "info string error: a line of more than 64 bytes, not read",
        "ready",
    ]


# -- 4. an answer given twice is not taken as the next answer --------------------------------


class _Twice(plateau.engine.EngineConnection):
    """An engine (in process) that plays as the random bot, and answers each ``go`` twice
    (each answer legal in the position it was asked in)."""

    def __init__(self) -> None:
        super().__init__(parse_engine_spec(engine_spec([sys.executable, "-c", "pass"])))
        self.shadow = BotEngine("random", 1)

    def _write(self, data: bytes, deadline: float) -> None:
        for line in data.decode("utf-8").splitlines():
            answer = self.shadow.handle(line) or []
            if line.startswith("go"):
                answer = answer + answer[-1:]
            for out in answer:
                self.output.push(out.encode("utf-8") + b"\n")


def test_a_second_bestaction_for_one_go_is_refused_not_taken_for_the_next() -> None:
    """Before, the extra line was read as the answer to the next ``go``: the engine forfeited
    for an illegal action it never chose for that position."""
    engine = _Twice()
    engine._handshake()
    s = plateau.new_game("plateau-x", "mini")
    engine.new_game(s)
    first = engine.select_action(s, 0, seed=1)
    assert s.is_legal(first)
    s.apply(first)
    with pytest.raises(EngineError) as caught:
        engine.select_action(s, 1, seed=1)
    assert caught.value.reason == "garbage" and "unasked line 'bestaction" in str(caught.value)


def test_info_lines_between_moves_are_still_fine() -> None:
    engine = _Twice()
    engine._handshake()
    s = plateau.new_game("plateau-x", "mini")
    engine.new_game(s)
    engine.output.push(b"info string thinking about nothing\n")
    engine.output.push(b"\n")
    engine._unasked()  # (what select_action does first)
    assert engine.last_info == "info string thinking about nothing"
    action = engine.select_action(s, 0, seed=1)
    assert s.is_legal(action)


def test_plateau_engine_keeps_to_movetime_and_answers_every_go() -> None:
    # it searched its own 3 seconds whatever the movetime (and lost on time in the arena), and
    # a go whose search failed got no bestaction at all (an arena without a move timeout waited
    # for ever)
    game = "game plateau-x mini\nposition start\n"
    # (no quit: read while the go searches, it would stop the search at once)
    data = f"{HELLO}\n{game}go movetime 200 inc 0 time0 0 time1 0\n"
    t0 = time.monotonic()
    done = subprocess.run(
        [*PLATEAU, "engine", "--bot", "mcts:seconds=5"],
        input=data.encode(),
        capture_output=True,
        timeout=120,
    )
    took = time.monotonic() - t0
    out = done.stdout.decode().splitlines()
    assert done.returncode == 0 and out[-1].startswith("bestaction "), done
    searched = [int(w.split()[-1]) for w in out if w.startswith("info") and " time " in w]
    assert searched and 50 <= searched[0] <= 200, out  # (its own report of the search's time)
    assert took < 5, took
    engine = BotEngine("random")
    engine.handle(HELLO)
    engine.handle("game plateau-x mini")
    engine.handle("position start")
    engine.bot.select_action = lambda state: int("not a number")  # type: ignore[method-assign]
    answer = engine.handle("go")
    assert answer is not None and answer[0].startswith("info string error: ")
    assert answer[-1] == "bestaction (none)"


# -- 5. what an engine says of itself is bounded and shown safely ----------------------------


class _Talker(plateau.engine.EngineConnection):
    """An engine (in process) whose handshake is ``lines`` then ``ready``."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__(parse_engine_spec(engine_spec([sys.executable, "-c", "pass"])))
        self.lines = lines

    def _write(self, data: bytes, deadline: float) -> None:
        if data.startswith(HELLO.encode()):
            for line in [*self.lines, "ready"]:
                self.output.push(line.encode("utf-8") + b"\n")


def test_a_handshake_of_too_many_lines_is_a_flood() -> None:
    # (every option line was kept whole for as long as the engine ran: an engine announcing
    # options of 64 KiB each for its whole init_timeout grew the arena by gigabytes)
    many = [f"option name o{i} type string default x" for i in range(MAX_HANDSHAKE_LINES + 1)]
    with pytest.raises(EngineError) as caught:
        _Talker(many)._handshake()
    assert caught.value.reason == "flood"
    engine = _Talker(many[:MAX_HANDSHAKE_LINES])
    engine._handshake()
    assert len(engine.announced) == MAX_HANDSHAKE_LINES
    assert max(len(v) for v in engine.announced.values()) <= 500


def test_an_engine_name_is_cut_and_its_control_characters_escaped() -> None:
    engine = _Talker(
        ["id name \x1b]0;title\x07 \x1b[31mred" + "n" * 70_000, "option name " + "o" * 300]
    )
    engine._handshake()
    assert len(engine.id_name) <= MAX_NAME + 20 and engine.id_name.isprintable()
    assert engine.id_name.startswith("\\x1b]0;title\\x07 \\x1b[31mred")
    assert engine.announced == {}  # (an option name no spec could set is not kept)
    assert printable("plain é ✓") == "plain é ✓"


@needs_posix
def test_an_engines_stderr_is_kept_escaped() -> None:
    # (terminal escapes from an engine's stderr reached the operator's terminal as they were)
    code = (
        "import sys; sys.stderr.write(chr(27) + ']0;owned' + chr(7) + chr(27) + '[31mfake' + "
        "chr(10)); sys.stderr.flush(); from plateau.engine import serve; serve('random')"
    )
    engine = plateau.engine.EngineProcess(
        parse_engine_spec(engine_spec([sys.executable, "-c", code], init_timeout=20))
    )
    try:
        deadline = time.monotonic() + 10
        while not engine.stderr_tail and time.monotonic() < deadline:
            time.sleep(0.01)
        assert list(engine.stderr_tail) == ["\\x1b]0;owned\\x07\\x1b[31mfake"]
    finally:
        engine.close()


class _Exits(plateau.engine.EngineConnection):
    """An engine (in process) that plays as the random bot and whose input is closed once it
    has answered its first ``go``."""

    def __init__(self) -> None:
        super().__init__(parse_engine_spec(engine_spec([sys.executable, "-c", "pass"])))
        self.shadow = BotEngine("random", 1)
        self.gone = False

    def _write(self, data: bytes, deadline: float) -> None:
        if self.gone:
            self.output.end()  # (it has exited)
            raise EngineError("crash", "the engine closed its input")
        for line in data.decode("utf-8").splitlines():
            for out in self.shadow.handle(line) or []:
                self.output.push(out.encode("utf-8") + b"\n")
            self.gone = line.startswith("go")


def test_an_answer_is_kept_when_the_barrier_after_it_cannot_be_written() -> None:
    """An engine that exits right after a legal answer (its game's last move) keeps that
    answer: the ``isready`` after it is best effort, its failure read at the next command."""
    engine = _Exits()
    engine._handshake()
    s = plateau.new_game("plateau-x", "mini")
    engine.new_game(s)
    action = engine.select_action(s, 0, seed=1)
    assert s.is_legal(action) and engine.readies_owed == 1
    s.apply(action)
    with pytest.raises(EngineError) as caught:
        engine.select_action(s, 1, seed=1)
    assert caught.value.reason == "crash"


class _Late(plateau.engine.EngineConnection):
    """An engine (in process) that plays as the random bot and answers each ``go`` a second
    time in a write of its own, just before it reads its next command (the "search thread
    answers twice" bug)."""

    def __init__(self) -> None:
        super().__init__(parse_engine_spec(engine_spec([sys.executable, "-c", "pass"])))
        self.shadow = BotEngine("random", 1)
        self.stale: list[str] = []

    def _write(self, data: bytes, deadline: float) -> None:
        for line in data.decode("utf-8").splitlines():
            for out in self.stale:
                self.output.push(out.encode("utf-8") + b"\n")
            answer = self.shadow.handle(line) or []
            self.stale = answer[-1:] if line.startswith("go") else []
            for out in answer:
                self.output.push(out.encode("utf-8") + b"\n")


def test_a_second_bestaction_written_later_is_refused_too() -> None:
    """Before, a second answer written after the first (not with it) reached the arena after
    the next position had been sent and was played as the engine's next move, for a position
    it never saw; each answer is now followed by an ``isready`` barrier."""
    engine = _Late()
    engine._handshake()
    s = plateau.new_game("plateau-x", "mini")
    engine.new_game(s)
    first = engine.select_action(s, 0, seed=1)
    s.apply(first)
    with pytest.raises(EngineError) as caught:
        engine.select_action(s, 1, seed=1)
    assert caught.value.reason == "garbage" and "an answer given twice" in str(caught.value)
    # an engine that answers once plays on, the barrier's 'ready' read before each move
    good = _Twice()
    good.shadow = BotEngine("random", 2)
    good._write = lambda data, deadline: [  # type: ignore[method-assign]
        good.output.push(out.encode() + b"\n")
        for line in data.decode().splitlines()
        for out in good.shadow.handle(line) or []
    ]
    good._handshake()
    t = plateau.new_game("plateau-x", "mini")
    good.new_game(t)
    for _ in range(6):
        t.apply(good.select_action(t, t.current_player, seed=1))
    assert good.readies_owed == 1
    good.new_game(plateau.new_game("plateau-x", "mini"))
    assert good.readies_owed == 0


def test_info_numbers_are_ascii() -> None:
    """An engine's ``info`` score is read as the command line reads numbers: ASCII digits
    without underscores (``float()`` read ``\u0663`` as 3 and ``1_0`` as 10), and -0 is 0."""
    assert parse_info("info depth 2 score \u0663") == {"depth": 2}
    assert parse_info("info score 1_0 nodes 5") == {"nodes": 5}
    assert parse_info("info score \u0661.5") == {}
    score = parse_info("info score -0")["score"]
    assert score == 0.0 and str(score) == "0.0"
    assert parse_info("info score -2.5e1") == {"score": -25.0}
