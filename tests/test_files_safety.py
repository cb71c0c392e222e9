"""Files and lines from other people (records, opening files, arena results, board files, an
engine's position lines) are hostile data: a board in them names a shipped board or holds the
board itself, never a path, in every field of every format; JSON nested past any depth is a
typed error; a board file cannot declare huge observations; every action on every valid board
writes a notation that reads back; the cache of user boards is safe from threads.

Anything that could hang (a FIFO, ``/dev/zero``) runs in a subprocess with a timeout."""

from __future__ import annotations

import ast
import json
import os
import pickle
import random
import resource
import signal
import subprocess
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import plateau
from plateau import EmpirePlateauState, InvalidRecordError
from plateau.arena import GameResult
from plateau.checks import MAX_JSON_DEPTH, load_outside_json
from plateau.engine import BotEngine
from plateau.errors import InvalidBoardError
from plateau.games.empire.board import (
    Board,
    board_from_dict,
    board_from_json,
    board_to_dict,
    board_to_json,
    load_board,
    polar_board,
    save_board,
)
from plateau.openings import read_openings
from plateau.record import from_record, to_record

PACKAGE = Path(plateau.__file__).resolve().parent
RING12 = polar_board("ring12", 16, 12)
#: what every refusal of a path in data says
NO_PATH = "never a file path"


# -- helpers ---------------------------------------------------------------------------------


def setup_record(board_in_setup: object, board: Board = RING12) -> dict[str, Any]:
    """The record of a game on ``board`` that starts from a set-up position and has one ply,
    with the set-up's own ``board`` field replaced by ``board_in_setup``."""
    start = plateau.new_game("empire-plateau", "two", board=board)
    s = EmpirePlateauState.from_position_dict(start.position_dict())
    s.apply(int(s.legal_actions()[0]))
    record = to_record(s)
    assert "setup" in record
    record["setup"]["board"] = board_in_setup
    return record


def view_line(board_in_world: object, board: Board = RING12) -> str:
    """An engine's ``position view`` line whose world (a set-up) names ``board_in_world``."""
    start = plateau.resolve("empire-plateau", "two", board=board_to_json(board)).new_game()
    world = start.position_dict()
    world["board"] = board_in_world
    record = to_record(start, viewer=start.current_player)  # (as the game line names it)
    return "position view " + json.dumps({"record": record, "world": world})


def game_line(board: Board = RING12) -> str:
    return "game empire-plateau two " + json.dumps({"board": board_to_json(board)})


def arena_file(path: Path, record: dict[str, Any]) -> Path:
    """An arena results file of one game whose record is ``record``."""
    line = GameResult(0, "empire-plateau", "two", 0, ["random", "random"], [[0, 1]],
                      [0.5, 0.5], 1, 0.0, record=record).to_line()  # fmt: skip
    path.write_text(line + "\n", encoding="utf-8")
    return path


#: under AddressSanitizer (.ci/sanitize preloads it) the address space holds terabytes of
#: shadow memory, so a limit on it would stop the interpreter from starting
_SANITIZED = "libasan" in os.environ.get("LD_PRELOAD", "")


def _limit_memory() -> None:
    # /dev/zero read whole would take all the machine's memory: 2 GiB, then MemoryError
    if not _SANITIZED:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def run(args: list[str], stdin: str = "", timeout: float = 30) -> subprocess.CompletedProcess[str]:
    """``plateau ARGS`` in a subprocess; a hang fails the test (instead of hanging it)."""
    try:
        return subprocess.run(
            [sys.executable, "-m", "plateau", *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
            preexec_fn=_limit_memory,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"plateau {' '.join(args)} hung: it opened a file named in data")


@pytest.fixture
def board_file(tmp_path: Path) -> Path:
    """A valid board file (the game's own board) at an absolute path."""
    path = tmp_path / "ring12.json"
    save_board(RING12, path)
    return path.resolve()


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    """A FIFO with no writer: opening it for reading waits forever."""
    path = tmp_path / "fifo.json"
    os.mkfifo(path)
    return path.resolve()


def hostile_paths(board_file: Path) -> list[str]:
    """Paths that must never be opened from data and do not hang when they are."""
    paths = [str(board_file), str(board_file.parent), "./ep16", "ep16.json"]
    if Path("/etc/hostname").is_file():
        paths.append("/etc/hostname")
    return paths


# -- 1. a path in data is refused before any file is opened ----------------------------------


def test_a_records_setup_board_is_never_a_path(board_file: Path) -> None:
    # the file holds the game's own board, so only the refusal can stop it from loading
    for path in hostile_paths(board_file):
        record = setup_record(path)
        with pytest.raises(InvalidRecordError, match=NO_PATH):
            from_record(record)
        with pytest.raises(InvalidRecordError, match=NO_PATH):
            plateau.from_json(json.dumps(record))
    for inline in (board_to_json(RING12), board_to_dict(RING12)):  # the board itself is fine
        assert from_record(setup_record(inline)).board == RING12


def test_a_position_dicts_board_is_never_a_path_but_the_callers_may_be(board_file: Path) -> None:
    data = plateau.new_game("empire-plateau", "two", board=RING12).position_dict()
    for path in hostile_paths(board_file):
        with pytest.raises(ValueError, match=NO_PATH):
            EmpirePlateauState.from_position_dict({**data, "board": path})
    # the caller's own argument may name a file
    s = EmpirePlateauState.from_position_dict(data, board=str(board_file))
    assert s.board == RING12


def test_an_opening_files_records_never_name_a_board_file(tmp_path: Path, board_file: Path) -> None:
    for path in hostile_paths(board_file):
        book = tmp_path / "openings.jsonl"
        book.write_text(json.dumps(setup_record(path)) + "\n", encoding="utf-8")
        with pytest.raises(InvalidRecordError, match=NO_PATH):
            read_openings(book)


def test_an_engines_position_lines_never_name_a_board_file(board_file: Path) -> None:
    for path in hostile_paths(board_file):
        for line in (
            "position setup " + json.dumps(setup_record(path)),
            view_line(path),
        ):
            engine = BotEngine("random")
            assert engine.handle(game_line()) == []
            reply = engine.handle(line)
            assert reply is not None and len(reply) == 1 and NO_PATH in reply[0], (line, reply)
            assert engine.state is None
    engine = BotEngine("random")  # the board itself is fine
    engine.handle(game_line())
    assert engine.handle(view_line(board_to_json(RING12))) == []
    assert engine.state is not None and engine.state.board == RING12


HANGING = ("fifo", "/dev/zero")


def hanging_path(kind: str, fifo: Path) -> str:
    return str(fifo) if kind == "fifo" else kind


@pytest.mark.parametrize("kind", HANGING)
@pytest.mark.parametrize("command", ["show", "view", "record"])
def test_the_cli_never_opens_a_board_named_in_a_file(
    tmp_path: Path, fifo: Path, kind: str, command: str
) -> None:
    """``plateau show`` and ``view`` of an arena results file, and ``show`` of a record, whose
    set-up names a FIFO (which would hang) or /dev/zero (which would fill the memory)."""
    record = setup_record(hanging_path(kind, fifo))
    if command == "record":
        path = tmp_path / "game.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        args = ["show", "--record", str(path)]
    else:
        path = arena_file(tmp_path / "arena.jsonl", record)
        args = ["show", "--record", str(path)] if command == "show" else ["view", str(path)]
        if command == "view":
            args += ["--out", str(tmp_path / "game.html")]
    out = run(args)
    assert out.returncode == 2 and out.stderr.startswith("plateau: error:"), out.stderr
    assert NO_PATH in out.stderr


@pytest.mark.parametrize("kind", HANGING)
def test_arena_openings_never_open_a_board_named_in_a_file(
    tmp_path: Path, fifo: Path, kind: str
) -> None:
    book = tmp_path / "openings.jsonl"
    book.write_text(json.dumps(setup_record(hanging_path(kind, fifo))) + "\n", encoding="utf-8")
    args = ["arena", "--game", "empire-plateau", "--bots", "random,random", "--games", "2"]
    out = run([*args, "--jobs", "1", "--no-progress", "--openings", str(book)])
    assert out.returncode == 2 and out.stderr.startswith("plateau: error:"), out.stderr
    assert NO_PATH in out.stderr


@pytest.mark.parametrize("kind", HANGING)
def test_plateau_engine_never_opens_a_board_named_in_a_line(fifo: Path, kind: str) -> None:
    path = hanging_path(kind, fifo)
    lines = [
        game_line(),
        "position setup " + json.dumps(setup_record(path)),
        view_line(path),
        "isready",
        "quit",
    ]
    out = run(["engine"], stdin="\n".join(lines) + "\n")
    answers = out.stdout.splitlines()
    assert out.returncode == 0 and answers[-1] == "ready", out
    errors = [a for a in answers if a.startswith("info string error")]
    assert len(errors) == 2 and all(NO_PATH in a for a in errors), answers


# -- 3. JSON nested past any depth is a typed error ------------------------------------------


def nested(depth: int, inner: str = "0") -> str:
    return "[" * depth + inner + "]" * depth


DEPTHS = (MAX_JSON_DEPTH + 1, 900, 100_000)


@pytest.mark.parametrize("depth", DEPTHS)
def test_deep_json_boards_are_invalid_boards(tmp_path: Path, depth: int) -> None:
    data = board_to_dict(RING12)
    text = json.dumps(data).replace('"rings": 12', f'"rings": {nested(depth, "12")}')
    with pytest.raises(InvalidBoardError, match="nested"):
        board_from_json(text)
    with pytest.raises(InvalidBoardError, match="nested"):
        plateau.new_game("empire-plateau", board=text)
    path = tmp_path / "deep.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InvalidBoardError, match=r"deep\.json: .*nested"):
        load_board(path)
    record = json.loads(plateau.new_game("empire-plateau").to_json())
    record["options"]["board"] = text
    with pytest.raises(InvalidRecordError, match="nested"):
        plateau.from_json(json.dumps(record))


@pytest.mark.parametrize("depth", DEPTHS)
def test_deep_json_records_are_invalid_records(tmp_path: Path, depth: int) -> None:
    record = json.dumps(setup_record(board_to_json(RING12)))
    deep = record.replace('"captures": []', f'"captures": {nested(depth)}')
    assert deep != record
    for text in (nested(depth), deep, '{"format": ' + nested(depth) + "}"):
        with pytest.raises(InvalidRecordError, match="nested"):
            plateau.from_json(text)
        book = tmp_path / "openings.jsonl"
        book.write_text(text + "\n", encoding="utf-8")
        with pytest.raises(InvalidRecordError, match=r"line 1: .*nested"):
            read_openings(book)


def test_deep_records_given_as_dicts_are_invalid_records() -> None:
    record = setup_record(board_to_json(RING12))
    deep: Any = 0
    for _ in range(5000):
        deep = [deep]
    for key in ("options", "setup", "result", "actions"):
        with pytest.raises(InvalidRecordError, match="nested"):
            from_record({**record, key: deep})
    cycle: list[Any] = []
    cycle.append(cycle)
    with pytest.raises(InvalidRecordError, match="nested"):
        from_record({**record, "setup": {**record["setup"], "captures": cycle}})


def test_outside_json_keeps_the_callers_error_and_words() -> None:
    for text, why in (
        ("{", "Expecting property name"),
        ("9" * 5000, "digits"),
        (b"\xff", "decode"),
        (nested(MAX_JSON_DEPTH + 1), "nested"),
    ):
        with pytest.raises(InvalidBoardError, match=f"^a board: .*{why}"):
            load_outside_json(text, InvalidBoardError, "a board")
    assert load_outside_json(nested(MAX_JSON_DEPTH), InvalidBoardError, "x") is not None


def test_the_cli_refuses_a_deep_record_file(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text(nested(100_000), encoding="utf-8")
    out = run(["show", "--record", str(path)])
    assert out.returncode == 2 and out.stderr.startswith("plateau: error:"), out.stderr
    assert "nested" in out.stderr


def test_the_package_reads_outside_json_only_through_the_helper() -> None:
    calls = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("loads", "load")
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "json"
            ):
                calls.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    rest = [c for c in calls if c.split(":")[0] != "checks.py"]
    assert rest == [], "json.load(s) of outside data outside plateau.checks.load_outside_json"


# -- 4. the cache of user boards under threads -----------------------------------------------


class SlowDict(OrderedDict[str, Any]):
    """The cache with a thread switch after every lookup: the gap between a lookup and what
    follows it, where another thread may evict the entry, made wide enough to hit."""

    def get(self, key: str, default: Any = None) -> Any:
        value = super().get(key, default)
        time.sleep(0)  # releases the GIL
        return value


def test_new_game_on_many_user_boards_from_many_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """More boards (20) than the cache holds (16), from six threads: a lookup must never meet
    an entry that another thread evicted between its two steps (it raised KeyError)."""
    monkeypatch.setattr(sys.modules["plateau.games.empire.state"], "_USER_TABLES", SlowDict())
    texts = [board_to_json(polar_board(f"t{k}", 16, 7)) for k in range(20)]
    errors: list[BaseException] = []

    def hammer(seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(60):
                text = rng.choice(texts)
                s = plateau.new_game("empire-plateau", "two", board=text)
                assert s.options["board"] == text
        except BaseException as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=hammer, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


# -- 5. a small file cannot declare huge observations ----------------------------------------


def test_a_board_may_not_declare_a_grid_far_bigger_than_its_dots() -> None:
    data = board_to_dict(load_board("ep16"))  # 176 dots on a 16 x 11 grid
    data["name"] = "wide"
    data["spokes"] = data["rings"] = 1024
    with pytest.raises(InvalidBoardError, match="1048576 places for 176 dots"):
        board_from_dict(data)
    with pytest.raises(InvalidBoardError, match="places for 176 dots"):
        plateau.new_game("empire-plateau", board=json.dumps(data))
    data["spokes"], data["rings"] = 16, 44  # four places per dot: the most allowed
    s = plateau.new_game("empire-plateau", board=board_from_dict(data))
    assert s.observation_shape == (36, 44, 16)
    data["rings"] = 45
    with pytest.raises(InvalidBoardError, match="at most 4 places per dot"):
        board_from_dict(data)


# -- 2. notation reads every dot name the format allows --------------------------------------


def renamed(board: Board, name: str, seed: int) -> Board:
    """``board`` with dots renamed to random valid names of any length (``m10005``,
    ``abc123456789``...), ``board`` and dot order kept."""
    rng = random.Random(seed)
    data = board_to_dict(board)
    data["name"] = name
    new: dict[str, str] = {}
    for k, row in enumerate(data["dots"]):
        letters = "".join(rng.choice("abcxyz") for _ in range(rng.randint(1, 4)))
        new[row["name"]] = f"{letters}{k + 1}{rng.randrange(10 ** rng.randint(0, 12))}"
    for row in data["dots"]:
        for key in ("name", "out", "in", "cw", "ccw"):
            if row.get(key) is not None:
                row[key] = new[row[key]]
    data["layouts"] = {
        e: {t: [new[d] for d in ds] for t, ds in lay.items()} for e, lay in data["layouts"].items()
    }
    return board_from_dict(data)


def check_notation_round_trips(s: EmpirePlateauState) -> int:
    ids = s.legal_actions().tolist()
    for a in ids:
        text = s.action_to_string(a)
        assert s.parse_action(text) == a and s.parse_action(text.upper()) == a, text
    return len(ids)


def long_name_boards() -> list[Board]:
    return [
        renamed(load_board("ep16"), "long16", 1),
        renamed(polar_board("p32x8", 32, 8), "long32", 2),
        renamed(polar_board("p12x9", 12, 9), "long12", 3),
    ]


def test_every_action_on_boards_with_long_dot_names_reads_back() -> None:
    names = [b.dots for b in long_name_boards()]
    assert any(len(d) > 6 for dots in names for d in dots)
    m10005 = board_to_dict(load_board("ep16"))  # the board: one dot named m10005
    m10005["name"] = "m10005"
    rename: Callable[[Any], Any] = lambda v: "m10005" if v == "m5" else v  # noqa: E731
    for row in m10005["dots"]:
        for key in ("name", "out", "in", "cw", "ccw"):
            row[key] = rename(row.get(key))
    m10005["layouts"] = {
        e: {t: [rename(d) for d in ds] for t, ds in lay.items()}
        for e, lay in m10005["layouts"].items()
    }
    boards = [board_from_dict(m10005), *long_name_boards()]
    for k, board in enumerate(boards):
        rng = random.Random(k)
        for variant in ("two", "four"):
            s = plateau.new_game("empire-plateau", variant, board=board)
            seen = 0
            for _ in range(60):
                if s.is_terminal():
                    break
                seen += check_notation_round_trips(s)
                s.apply(int(rng.choice(s.legal_actions().tolist())))
            assert seen > 0
            assert s.history_strings() == [s.action_to_string(a) for a in s.history]
            assert plateau.from_json(s.to_json()) == s
            assert pickle.loads(pickle.dumps(s)).history == s.history
    s = plateau.new_game("empire-plateau", board=boards[0])
    assert s.parse_action("m10005-a5:4") == s.parse_action("M10005xA5:4")
    s.apply("m10005-a5:4")
    assert s.army_at("a5") == "B4" and plateau.from_json(s.to_json()).history == s.history


def test_records_and_pickles_of_long_names_replay_from_set_ups() -> None:
    board = long_name_boards()[1]
    s = plateau.new_game("empire-plateau", "four", board=board)
    rng = np.random.default_rng(5)
    for _ in range(40):
        s.apply(int(rng.choice(s.legal_actions())))
    t = EmpirePlateauState.from_position_dict(s.position_dict())
    for _ in range(20):
        t.apply(int(rng.choice(t.legal_actions())))
    for u in (plateau.from_json(t.to_json()), pickle.loads(pickle.dumps(t))):
        assert u == t and u.history == t.history and u.board == board


@settings(max_examples=12, deadline=None)
@given(
    spokes=st.sampled_from([12, 14, 16, 20, 32]),
    rings=st.integers(7, 10),
    seed=st.integers(0, 2**32 - 1),
    variant=st.sampled_from(["two", "four", "duel"]),
)
def test_random_boards_with_long_names_round_trip_notation_records_and_pickles(
    spokes: int, rings: int, seed: int, variant: str
) -> None:
    """Generated boards with random dot names of any length, dots listed in a random order:
    every legal action's string of random positions reads back as that action, and the game's
    record and pickle replay it."""
    if spokes * rings > 1024:
        return
    board = renamed(polar_board("p", spokes, rings), f"long{spokes}x{rings}", seed)
    data = board_to_dict(board)
    random.Random(seed).shuffle(data["dots"])
    board = board_from_dict(data)
    rng = random.Random(seed)
    s = plateau.new_game("empire-plateau", variant, board=board)
    for _ in range(rng.randrange(1, 40)):
        if s.is_terminal():
            break
        check_notation_round_trips(s)
        s.apply(rng.choice(s.legal_actions().tolist()))
    for t in (plateau.from_json(s.to_json()), pickle.loads(pickle.dumps(s))):
        assert t == s and t.history == s.history and t.board == board


# -- the caller's own board path: only regular files of a sane size --------------------------


@pytest.mark.parametrize("kind", HANGING)
def test_a_board_path_of_the_caller_that_is_no_regular_file_is_refused(
    fifo: Path, kind: str
) -> None:
    """Even the caller's own path: a FIFO would wait for a writer forever, /dev/zero would be
    read until the memory runs out."""
    code = (
        "import sys, plateau\n"
        "try:\n"
        "    plateau.new_game('empire-plateau', board=sys.argv[1])\n"
        "except plateau.errors.InvalidBoardError as e:\n"
        "    print(e)\n"
    )
    try:
        out = subprocess.run(
            [sys.executable, "-c", code, hanging_path(kind, fifo)],
            capture_output=True,
            text=True,
            timeout=30,
            preexec_fn=_limit_memory,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"new_game(board={kind!r}) hung")
    assert out.returncode == 0 and "cannot read board file" in out.stdout, out
    assert "not a regular file" in out.stdout


def test_a_board_file_bigger_than_the_bound_is_refused(tmp_path: Path) -> None:
    from plateau.games.empire.board import MAX_BOARD_FILE_BYTES

    path = tmp_path / "big.json"
    text = board_to_json(RING12)
    path.write_text(text + " " * (MAX_BOARD_FILE_BYTES + 1 - len(text)), encoding="utf-8")
    with pytest.raises(InvalidBoardError, match=f"more than {MAX_BOARD_FILE_BYTES} bytes"):
        load_board(path)
    path.write_text(text + " " * (MAX_BOARD_FILE_BYTES - len(text)), encoding="utf-8")
    assert load_board(path) == RING12


# -- every file named on the command line: a regular file or a pipe, bounded, UTF-8 ------------

#: each command that reads a file the user names, the file's place marked by FILE
NAMED_FILE_COMMANDS = {
    "show --record": ["show", "--record", "FILE"],
    "view": ["view", "FILE", "--out", "OUT.html"],
    "render --record": ["render", "--record", "FILE", "--out", "OUT.svg"],
    "solve --record": ["solve", "--record", "FILE"],
    "arena-report": ["arena-report", "FILE"],
    "arena --openings": [
        *("arena", "--variant", "mini", "--bots", "random,random", "--games", "2"),
        *("--openings", "FILE"),
    ],
    "play --load": ["play", "--load", "FILE"],
}


@pytest.mark.parametrize("kind", ["/dev/zero", "directory", "not-utf8"])
@pytest.mark.parametrize("command", sorted(NAMED_FILE_COMMANDS))
def test_a_file_named_on_the_command_line_is_read_safely(
    tmp_path: Path, kind: str, command: str
) -> None:
    """/dev/zero (which would be read until the memory runs out), a directory and a file that
    is not UTF-8 text: one line ``plateau: error: ...`` and exit 2, never a hang or a
    traceback."""
    if kind == "not-utf8":
        named = tmp_path / "bytes.json"
        named.write_bytes(b'{"format": "plateau-record"\xff\xfe' + bytes(range(256)))
        path, why = str(named), "not UTF-8 text"
    else:
        path, why = (kind if kind != "directory" else str(tmp_path)), "not a regular file"
    out_file = str(tmp_path / "out")
    argv = [
        path if a == "FILE" else a.replace("OUT", out_file) for a in NAMED_FILE_COMMANDS[command]
    ]
    out = run(argv, stdin="quit\n")
    assert out.returncode == 2, out
    assert "Traceback" not in out.stderr
    assert "plateau: error:" in out.stderr and why in out.stderr, out.stderr


def test_a_record_and_an_arena_file_are_read_from_a_pipe(tmp_path: Path) -> None:
    """``/dev/stdin`` with the input piped (as ``cat r.json | plateau show --record
    /dev/stdin``) reads as a file does: a pipe is read, bounded, like a regular file."""
    s = plateau.new_game("plateau-x", "mini")
    s.apply_all(s.legal_actions()[:1].tolist())
    shown = run(["show", "--record", "/dev/stdin"], stdin=s.to_json())
    assert shown.returncode == 0 and "plateau-x mini" in shown.stdout, shown
    results = tmp_path / "games.jsonl"
    made = run(["arena", "--variant", "mini", "--bots", "random,random", "--games", "2",
                "--ply-cap", "10", "--no-progress", "--out", str(results)])  # fmt: skip
    assert made.returncode == 0, made
    report = run(["arena-report", "/dev/stdin"], stdin=results.read_text(encoding="utf-8"))
    assert report.returncode == 0 and "2 games" in report.stdout, report


@pytest.mark.parametrize("kind", ["/dev/zero", "not-utf8"])
def test_load_inside_play_refuses_what_is_no_readable_record(tmp_path: Path, kind: str) -> None:
    """``load FILE`` typed in ``plateau play``: a message, and the session goes on."""
    if kind == "not-utf8":
        named = tmp_path / "bytes.json"
        named.write_bytes(b"\xff" * 100)
        path = str(named)
    else:
        path = kind
    out = run(["play", "--variant", "mini", "--human", "0", "--human", "1"], f"load {path}\nquit\n")
    assert out.returncode == 0, out
    assert "cannot load:" in out.stdout and "Traceback" not in out.stderr, out


def test_the_library_readers_refuse_a_device_and_read_a_pipe(fifo: Path) -> None:
    """The functions behind those commands, called from Python: a device is a typed error at
    once; a named pipe is read once its writer writes (as ``cat`` reads it)."""
    from plateau.arena import read_results
    from plateau.suites import read_suite

    opened = plateau.new_game("plateau-x", "mini")
    opened.apply(int(opened.legal_actions()[0]))
    readers = [
        (read_results, plateau.InvalidResultsError, "", 0),
        (read_suite, plateau.InvalidResultsError, "# a comment\n", 0),
        (read_openings, InvalidRecordError, json.dumps(to_record(opened)) + "\n", 1),
    ]
    for reader, error, text, count in readers:
        with pytest.raises(error, match="not a regular file or a pipe"):
            reader("/dev/zero")  # type: ignore[operator]

        def write(text: str = text) -> None:
            with open(fifo, "w", encoding="utf-8") as w:
                w.write(text)

        writer = threading.Thread(target=write)
        writer.start()
        assert len(reader(fifo)) == count  # type: ignore[operator]
        writer.join(10)
        assert not writer.is_alive()


def test_a_file_over_the_input_bound_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file read whole over its bound, and a results line over the bound (a results file
    is read line by line, as long as the arena wrote it)."""
    from plateau import files
    from plateau.arena import read_results

    path = tmp_path / "big.json"
    path.write_text(" " * 101, encoding="utf-8")
    with pytest.raises(plateau.InvalidResultsError, match="more than 100 bytes"):
        files.read_text_limited(path, plateau.InvalidResultsError, 100)
    assert files.read_text_limited(path, plateau.InvalidResultsError, 101) == " " * 101
    monkeypatch.setattr(files, "MAX_INPUT_FILE_BYTES", 100)
    with pytest.raises(InvalidRecordError, match="more than 100 bytes"):
        read_openings(path)
    with pytest.raises(plateau.InvalidResultsError, match="a line of more than 100 bytes"):
        read_results(path)
    path.write_text("\n" * 1000, encoding="utf-8")  # many short lines: no bound on their number
    assert read_results(path) == []


def test_outside_json_with_too_many_values_is_refused_before_decoding() -> None:
    # a record of 10 MiB of empty objects took 800 MB to decode and check: the values are
    # counted in the text first
    from plateau.checks import MAX_JSON_VALUES

    text = "[" + ",".join(["{}"] * MAX_JSON_VALUES) + "]"
    for data in (text, text.encode()):
        with pytest.raises(InvalidRecordError, match="more than 4,000,000 values"):
            load_outside_json(data, InvalidRecordError, "a record")
    few = "[" + ",".join(["{}"] * 1000) + "]"
    assert len(load_outside_json(few, InvalidRecordError, "a record")) == 1000


def test_the_depth_check_walks_a_wide_document_in_little_memory() -> None:
    # one iterator per level: a million siblings add nothing to what the check holds
    import tracemalloc

    from plateau.checks import check_json_depth

    wide: list[object] = [[{}] for _ in range(1_000_000)]
    tracemalloc.start()
    try:
        check_json_depth(wide, InvalidRecordError, "x")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000, peak
    deep: object = {}
    for _ in range(MAX_JSON_DEPTH):
        deep = [deep]
    with pytest.raises(InvalidRecordError, match="nested more than"):
        check_json_depth([1, [2, deep]], InvalidRecordError, "x")
    check_json_depth([1, [2, {}]], InvalidRecordError, "x")


@pytest.mark.parametrize(
    "argv",
    [
        ["show", "--record", ""],
        ["render", "--record", ""],
        ["solve", "--record", ""],
        ["play", "--load", ""],
    ],
)
def test_an_empty_path_is_refused_not_ignored(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # it showed the start position (or started a new game) as if no file had been given
    from plateau.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("plateau: error: ") and "Traceback" not in err


def test_a_key_given_twice_in_outside_json_is_refused_everywhere(tmp_path: Path) -> None:
    # Python's decoder keeps the last of two equal keys, other readers the first: a record that
    # said "game" twice could replay as one game here and another elsewhere
    state = plateau.new_game("plateau-x")
    state.apply(state.legal_actions()[0])
    good = state.to_json()
    assert good.startswith('{"')
    twice = '{"game": "albea-plateau", ' + good[1:]
    assert plateau.from_json(good).hash == state.hash
    with pytest.raises(InvalidRecordError, match="key 'game' given twice in one object"):
        plateau.from_json(twice)
    with pytest.raises(InvalidRecordError, match="given twice"):
        plateau.from_json(twice.encode())
    line = GameResult(0, "plateau-x", "mini", 0, ["random", "random"], [[0], [1]],
                      [1.0, 0.0], 9, 0.1).to_line()  # fmt: skip
    assert GameResult.from_line(line).plies == 9
    with pytest.raises(plateau.InvalidResultsError, match="key 'game' given twice"):
        GameResult.from_line('{"game": 7, ' + line[1:])
    from plateau.openings import read_openings

    openings = tmp_path / "openings.jsonl"
    openings.write_text(good + "\n" + twice + "\n", encoding="utf-8")
    with pytest.raises(InvalidRecordError, match="line 2: not JSON: key 'game' given twice"):
        read_openings(openings, plateau.resolve("plateau-x"))
    engine = BotEngine("random")
    engine.handle("game plateau-x standard")
    assert engine.handle('game plateau-x standard {"players": 3, "players": 2}') == [
        "info string error: the options: key 'players' given twice in one object"
    ]
    assert engine.game is None
    engine.handle("game plateau-x standard")
    assert engine.handle("position setup " + twice) == [
        "info string error: the set-up: key 'game' given twice in one object"
    ]
    assert engine.state is None
    # a nested object is checked too, and a hook of the caller's own decides for itself
    with pytest.raises(ValueError, match="key 'b' given twice"):
        load_outside_json('[{"a": {"b": 1, "b": 2}}]', ValueError, "x")
    assert load_outside_json('{"a": 1, "a": 2}', ValueError, "x", OrderedDict) == OrderedDict(
        [("a", 1), ("a", 2)]
    )


# -- what the command line shows of a file, and how it reads and writes one (a helper's audit) ---


#: a short arena of random bots, for a results file (`plateau arena ARENA --games N --out F`)
ARENA = ["arena", "--game", "plateau-x", "--variant", "mini", "--bots", "random,random"]


def test_an_error_shows_no_terminal_escape_from_the_file(tmp_path: Path) -> None:
    # (a record's unknown field name reached the terminal raw: it could retitle it, clear it)
    name = "\x1b]0;PWNED\x07\x1b[2J\x1b[31mzz"
    record = {"format": "plateau-game-record", "version": 1, "game": "plateau-x"}
    record.update({"variant": "mini", "options": {}, "actions": [], name: 1, "x" * 9000: 2})
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    done = run(["show", "--record", str(path)])
    assert done.returncode == 2
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr
    assert "unknown field(s) in record" in done.stderr and "\\x1b]0;PWNED" in done.stderr
    assert len(done.stderr) < 2100 and "Traceback" not in done.stderr


def test_an_arena_file_may_be_a_pipe(tmp_path: Path) -> None:
    # (its first line was read to tell it from a record, then the path opened again: a pipe
    # read once was empty the second time, a named pipe waited for ever)
    path = tmp_path / "a.jsonl"
    done = run(
        [*ARENA, "--games", "2", "--out", str(path), "--no-progress"],
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    by_file = run(["show", "--record", str(path)])
    by_pipe = run(["show", "--record", "/dev/stdin"], stdin=path.read_text())
    assert by_file.returncode == by_pipe.returncode == 0, by_pipe.stderr
    assert by_pipe.stdout == by_file.stdout
    pipe = tmp_path / "fifo"
    os.mkfifo(pipe)
    writer = threading.Thread(target=lambda: pipe.write_text(path.read_text()), daemon=True)
    writer.start()
    by_fifo = run(["show", "--record", str(pipe)])
    writer.join(10)
    assert by_fifo.returncode == 0 and by_fifo.stdout == by_file.stdout


def test_a_results_line_whose_players_are_lists_is_refused_by_line(tmp_path: Path) -> None:
    # (the check hashed the items before it checked them: a TypeError traceback)
    path = tmp_path / "a.jsonl"
    assert (
        run(
            [*ARENA, "--games", "1", "--out", str(path), "--no-progress"],
            timeout=120,
        ).returncode
        == 0
    )
    line = json.loads(path.read_text().splitlines()[0])
    line["players"] = [[0], [1]]
    path.write_text(json.dumps(line) + "\n")
    for args in (["arena-report", str(path)], ["show", "--record", str(path)]):
        done = run(args)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert f"{path}:1:" in done.stderr and "players" in done.stderr


def test_sigterm_while_an_output_is_written_leaves_no_temporary_file(tmp_path: Path) -> None:
    # (only the arena turned SIGTERM into an exception: the others died at once, and the
    # temporary file replace_file was writing stayed beside the output). In a process of its
    # own: without the fix, the signal ends it.
    script = """if True:
        import os, signal, sys, time
        from plateau import files
        from plateau.cli import main
        real_fsync = os.fsync
        def fsync_then_sigterm(fd):
            real_fsync(fd)
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # (the handler raises here)
        files.os.fsync = fsync_then_sigterm
        code = main(["render", "--game", "plateau-x", "--variant", "mini", "--out", sys.argv[1]])
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL  # (given back)
        sys.exit(code)
    """
    out = tmp_path / "page.svg"
    done = subprocess.run(
        [sys.executable, "-c", script, str(out)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 128 + signal.SIGTERM, done.stderr
    assert "terminated by SIGTERM" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_an_empty_output_name_is_refused_before_any_file_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (realpath made it the current folder: a temporary file was made in its parent, then
    # the rename failed with "Is a directory")
    from plateau.files import replace_file

    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    with pytest.raises(FileNotFoundError, match="no file name given"):
        replace_file("", "x")
    # the same for a folder as the name, or a path through a folder that does not exist
    # (realpath read "nodir/../out" as "out", where open() refuses it)
    with pytest.raises(IsADirectoryError):
        replace_file(".", "x")
    for name in ("nodir/..", "nodir/../out.txt"):
        with pytest.raises(FileNotFoundError, match="no such folder"):
            replace_file(name, "x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["work"] and not list(work.iterdir())


@pytest.mark.skipif(not Path("/dev/fd").is_dir(), reason="no /dev/fd")
def test_an_output_named_by_its_descriptor_is_written_where_it_stands(tmp_path: Path) -> None:
    """``--out /dev/stdout`` (or ``/dev/fd/N``, or a link to one) writes to that descriptor,
    after what the program printed: a log it appends to keeps what it held (a file replaced
    through the link emptied it), and a pipe gets the text (a temporary file beside
    ``/proc/PID/fd/pipe:[...]`` could not be made)."""
    write = (
        "import sys; from plateau.files import replace_file; print('first', flush=False); "
        "replace_file(sys.argv[1], 'X\\n'); print('last')"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    env.pop("PYTHONUNBUFFERED", None)  # (buffered: 'first' is written only by a flush)

    def run(name: str, **kw: Any) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, "-c", write, name], env=env, timeout=60, check=True, **kw
        )

    log = tmp_path / "log.txt"
    log.write_bytes(b"PRECIOUS\n")
    with open(log, "ab") as out:
        run("/dev/stdout", stdout=out)
    assert log.read_bytes() == b"PRECIOUS\nfirst\nX\nlast\n"
    assert run("/dev/stdout", stdout=subprocess.PIPE).stdout == b"first\nX\nlast\n"
    link = tmp_path / "out-link"
    link.symlink_to("/dev/stdout")
    assert run(str(link), stdout=subprocess.PIPE).stdout == b"first\nX\nlast\n"
    folder = tmp_path / "fd-link"  # (a link to the folder of descriptors, then its "1")
    folder.symlink_to("/dev/fd")
    with open(log, "ab") as out:
        run(str(folder / "1"), stdout=out)
    assert log.read_bytes() == b"PRECIOUS\n" + b"first\nX\nlast\n" * 2
    closed = subprocess.run(
        [sys.executable, "-c", write, "/dev/fd/97"], env=env, timeout=60, capture_output=True
    )
    assert closed.returncode != 0 and b"Bad file descriptor: '/dev/fd/97'" in closed.stderr
    r, w = os.pipe()
    try:
        run(f"/dev/fd/{w}", stdout=subprocess.DEVNULL, pass_fds=(w,))
        os.close(w)
        w = -1
        assert os.read(r, 100) == b"X\n"
    finally:
        os.close(r)
        if w >= 0:
            os.close(w)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fd-link", "log.txt", "out-link"]


@pytest.mark.skipif(not Path("/dev/fd").is_dir(), reason="no /dev/fd")
def test_a_command_writing_its_output_to_stdout_prints_its_summary_to_stderr() -> None:
    """``plateau openings --out /dev/stdout > file`` makes an opening file the arena reads: the
    command's summary goes to standard error then (it followed the openings into the file)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    argv = [sys.executable, "-m", "plateau", "openings", "--game", "plateau-x", "--variant"]
    done = subprocess.run(
        [*argv, "mini", "--count", "3", "--plies", "2", "--out", "/dev/stdout"],
        env=env,
        timeout=120,
        capture_output=True,
        check=True,
    )
    lines = done.stdout.decode().splitlines()
    assert len(lines) == 3 and all(json.loads(line)["game"] == "plateau-x" for line in lines)
    assert b"3 openings of plateau-x/mini" in done.stderr
