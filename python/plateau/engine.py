"""The plateau engine protocol (``docs/engine-protocol.md``): a line-based text protocol over
stdin/stdout, in the manner of UCI and GTP, between the arena and a game-playing program in
any language.

Two halves live here:

- the engine side, :func:`serve`: any library bot served over the protocol (``plateau engine
  --bot SPEC``), a working engine to copy from and to test against;
- the arena side: engine specs (``engine:name=my,cmd="./my-engine --threads 1"``),
  :class:`EngineProcess` (one running engine: handshake, positions, ``go``, timeouts, the tail
  of its stderr), :class:`EnginePool` (the processes of one arena worker) and the commands that
  tell a seat its position, from that seat's point of view only.
"""

from __future__ import annotations

import collections
import contextlib
import io
import json
import math
import os
import queue
import re
import secrets
import select
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

from plateau.checks import load_outside_json, plain_number, shown
from plateau.clock import MAX_SECONDS, held_to_budget, own_seconds
from plateau.errors import IllegalActionError, InvalidArgumentError, InvalidRecordError
from plateau.registry import GameSpec, check_data_options, game_info

if TYPE_CHECKING:
    from plateau.bots.base import Bot
    from plateau.state import GameState

#: the first line the arena sends; the number is the protocol version
HELLO = "plateau-engine 1"
PROTOCOL_VERSION = 1
#: an engine line longer than this is garbage (no protocol line is that long)
MAX_LINE = 1 << 16
#: unread engine output the arena holds at most: more is a flood, and the engine forfeits
MAX_BUFFERED_LINES = 10_000
#: the same bound in bytes
MAX_BUFFERED_BYTES = 1 << 20
#: a command line ``plateau engine`` reads, at most (a record with an Empire Plateau board of
#: 1,024 dots is well under a megabyte); a longer one is read in pieces, none a command
MAX_COMMAND = 1 << 24
#: stderr lines kept per engine, for forfeit reports
STDERR_TAIL = 20
#: lines an engine may send in its handshake before ``ready`` (ids, options, info): more is a
#: ``flood`` (each is kept until the engine stops, so they are bounded as unread output is)
MAX_HANDSHAKE_LINES = 1_000
#: an engine's ``id name`` and option names are kept to this many characters (the name goes
#: into every results line of its games)
MAX_NAME = 200


def printable(text: str) -> str:
    r"""``text`` with every character that is not printable (control characters, terminal
    escapes, bidi controls) written as its Python escape: engine text shown on a terminal
    cannot retitle it, colour it or reorder what follows.

    >>> printable("fine \x1b[31mred\u202e")
    'fine \\x1b[31mred\\u202e'
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def parse_info(line: str | None) -> dict[str, Any]:
    """The ``depth``, ``nodes`` and ``score`` of an engine's ``info`` line, each only if it is
    there and well formed (a whole number >= 0 below 2**63; a finite score), the rest ignored.

    >>> parse_info("info depth 7 nodes 12345 time 30 score -0.25 pv a1 b2")
    {'depth': 7, 'nodes': 12345, 'score': -0.25}
    >>> parse_info("info depth x nodes -3 score nan")
    {}
    """
    out: dict[str, Any] = {}
    words = (line or "").split()
    for i, word in enumerate(words[:-1]):
        if word == "pv":
            break
        value = words[i + 1]
        if word in ("depth", "nodes") and word not in out:
            if value.isascii() and value.isdigit() and len(value) < 19:
                out[word] = int(value)
        elif word == "score" and word not in out and plain_number(value):
            # (float() also read other scripts' digits and 1_0; + 0.0: -0 is 0)
            try:
                number = float(value) + 0.0
            except ValueError:
                continue
            if math.isfinite(number):
                out[word] = number
    return out


#: an ``info string error:`` answer is cut to this many characters
MAX_ERROR = 1000

# ------------------------------------------------------------------------------------------
# What the arena sends
# ------------------------------------------------------------------------------------------


def game_command(state: GameState) -> str:
    """``game <registry id> <variant> <options as JSON>`` for ``state``'s game."""
    options = json.dumps(state.options, separators=(",", ":"), sort_keys=True)
    return f"game {state.game} {state.variant} {options}"


def position_command(state: GameState, seat: int, seed: int = 0) -> str:
    """The ``position`` command that tells ``seat`` the position of ``state`` (the referee's
    full truth), holding back what ``seat`` may not know.

    - perfect information, from the start: ``position start A1 A2 ...`` (the history);
    - perfect information, from a set-up position: ``position setup <the game record>``;
    - hidden information: ``position view {"record": <seat's own record>, "world": ...}``,
      where the record is ``state.to_json(viewer=seat)`` and ``world`` (in games with set-up
      positions) is ``state.view_for(seat, seed)`` as a set-up position: one world drawn from
      what ``seat`` knows, exactly what the library's own bots are handed.

    >>> import plateau
    >>> s = plateau.new_game("plateau-x", "mini")
    >>> s.apply("S@a1")
    >>> position_command(s, 1)
    'position start S@a1'
    """
    info = game_info(state.game)
    if info.perfect_information:
        if state.setup_position() is None:
            return " ".join(["position", "start", *state.history_strings()])
        return "position setup " + _compact(_record(state, None))
    view: dict[str, Any] = {"record": _record(state, seat)}
    world = state.view_for(seat, seed)
    position_dict = getattr(world, "position_dict", None)
    if info.from_setup is not None and callable(position_dict):
        view["world"] = position_dict()
    return "position view " + _compact(view)


def go_command(
    num_players: int, movetime_ms: int = 0, times_ms: Iterable[int] | None = None, inc_ms: int = 0
) -> str:
    """``go movetime M inc I time0 T0 time1 T1 ...``: the move's time limit, the increment and
    each seat's remaining clock in milliseconds (0: no limit / no clock).

    >>> go_command(2, movetime_ms=500)
    'go movetime 500 inc 0 time0 0 time1 0'
    """
    times = list(times_ms) if times_ms is not None else [0] * num_players
    fields = [f"movetime {movetime_ms}", f"inc {inc_ms}"]
    fields += [f"time{p} {t}" for p, t in enumerate(times)]
    return "go " + " ".join(fields)


def _record(state: GameState, viewer: int | None) -> dict[str, Any]:
    from plateau.record import to_record

    record = to_record(state, viewer=viewer)
    record.pop("result", None)
    return record


def _compact(data: object) -> str:
    return json.dumps(data, separators=(",", ":"))


# ------------------------------------------------------------------------------------------
# The engine side: a library bot over the protocol
# ------------------------------------------------------------------------------------------


#: what a malformed command may raise in :meth:`BotEngine.handle`, answered with ``info string
#: error: ...``: the library's errors (all ``ValueError``: bad JSON, records, options, actions),
#: JSON of the wrong shape (``KeyError``, ``TypeError``), JSON nested too deep for the parser
#: (``RecursionError``) and numbers too large for a float (``OverflowError``). Anything else is
#: a bug of the library and escapes.
COMMAND_ERRORS = (ValueError, KeyError, TypeError, RecursionError, OverflowError)


class BotEngine:
    """A library bot behind the protocol: :meth:`handle` takes one line the arena sent and
    returns the lines to answer (``None`` after ``quit``). A command it cannot carry out is
    answered ``info string error: ...`` (one line) and changes nothing else; the engine
    carries on."""

    def __init__(self, bot_spec: str, seed: int = 0) -> None:
        from plateau.bots import make_bot

        self.bot_spec = bot_spec
        self.seed = seed
        self.bot: Bot = make_bot(bot_spec, seed=seed)
        self.own_seconds = own_seconds(self.bot.params)
        self.game: GameSpec | None = None
        self.state: GameState | None = None
        self._stop = False  # a stop or quit read for the go being carried out (serve)

    def request_stop(self) -> None:
        """End the search of the ``go`` being carried out, or of the next one, at once (thread-
        safe; :func:`serve` calls it when it reads ``stop`` or ``quit``). It holds for the bot a
        ``setoption`` read before it makes."""
        self._stop = True
        self.bot.stop()

    def clear_stop(self) -> None:
        """A ``go`` is answered: a stop from now on is for a later one."""
        self._stop = False
        self.bot._stopping = False

    def handle(self, line: str) -> list[str] | None:
        """The lines to answer ``line`` (one command of the arena) with, or None after
        ``quit``."""
        if isinstance(line, _Refused):  # (a line read_commands could not take: one error)
            return [f"info string error: {line}"]
        words = line.split()
        if not words:
            return []
        command, rest = words[0], line.strip()[len(words[0]) :].strip()
        if command == "go":
            try:
                return self._go(rest)
            except COMMAND_ERRORS as e:  # (every go is answered: the arena waits for it)
                return [_error_line(e), "bestaction (none)"]
        try:
            if command == "plateau-engine":
                return self._hello(rest)
            if command == "isready":
                return ["ready"]
            if command == "setoption":
                return self._setoption(rest)
            if command == "game":
                return self._game(rest)
            if command == "position":
                return self._position(rest)
            if command == "stop":  # (serve stops a search as it reads the line: nothing left)
                return []
            if command == "quit":
                return None
        except COMMAND_ERRORS as e:
            return [_error_line(e)]
        return [f"info string unknown command {command[:100]!r}"]

    def _hello(self, rest: str) -> list[str]:
        if rest != str(PROTOCOL_VERSION):
            raise InvalidArgumentError(f"this engine speaks {HELLO!r}, not version {rest[:100]!r}")
        return [
            f"id name plateau {self.bot_spec}",
            "id author the plateau library",
            f"option name seed type int default {self.seed}",
            "ready",
        ]

    def _setoption(self, rest: str) -> list[str]:
        m = re.fullmatch(r"name\s+(\S+)\s+value\s+(.*)", rest)
        if m is None:
            raise InvalidArgumentError(f"expected 'setoption name N value V', got {rest[:100]!r}")
        if m.group(1) != "seed":
            raise InvalidArgumentError(f"no option {m.group(1)[:100]!r} (options: seed)")
        from plateau.bots import make_bot

        value = m.group(2).strip()
        if not re.fullmatch(r"-?[0-9]{1,20}", value, re.ASCII):
            raise InvalidArgumentError(
                f"the seed is an integer in ASCII digits, got {value[:100]!r}"
            )
        seed = int(value)
        self.bot = make_bot(self.bot_spec, seed=seed)  # first: a refused seed changes nothing
        self.seed = seed
        return []

    def _game(self, rest: str) -> list[str]:
        self.game, self.state = None, None
        parts = rest.split(None, 2)
        if len(parts) < 2:
            raise InvalidArgumentError(f"expected 'game <id> <variant> [options]', got {rest!r}")
        options = load_outside_json(parts[2], ValueError, "the options") if len(parts) == 3 else {}
        if not isinstance(options, dict):
            raise InvalidArgumentError(f"the options are a JSON object, got {parts[2]!r}")
        check_data_options(parts[0], options)  # a path would make the engine read a file
        spec = GameSpec(parts[0], parts[1], options)
        self.bot.check_game(spec.new_game())
        self.bot.reset()
        self.game = spec
        return []

    def _position(self, rest: str) -> list[str]:
        from plateau import record

        self.state = None
        if self.game is None:
            raise InvalidArgumentError("position before game")
        spec = self.game
        name, variant = spec.game, spec.variant
        kind, _, data = rest.partition(" ")
        if kind == "start":
            actions = data.split()
            if len(actions) > record.MAX_RECORD_ACTIONS:
                # (each applied action keeps an undo record of the position, as a replayed
                # record's do: a command line of up to 16 MiB could keep gigabytes)
                raise InvalidArgumentError(
                    f"position start has {len(actions):,} actions, more than the "
                    f"{record.MAX_RECORD_ACTIONS:,} a game may replay "
                    "(plateau.record.MAX_RECORD_ACTIONS)"
                )
            state = spec.new_game()
            state.apply_all(actions)
        elif kind == "setup":
            state = record.from_record(load_outside_json(data, InvalidRecordError, "the set-up"))
        elif kind == "view":
            view = load_outside_json(data, ValueError, "the view")
            from_setup = spec.info.from_setup
            if not isinstance(view, dict) or "world" not in view or from_setup is None:
                raise InvalidArgumentError(
                    "this engine plays a view from its 'world' field; none given"
                )
            state = from_setup(variant, view["world"], **spec.options)
            _check_view_record(view.get("record"), spec, state)
        else:
            raise InvalidArgumentError(f"unknown position kind {kind!r} (start, setup or view)")
        if state.game != name or state.variant != variant:
            raise InvalidArgumentError(
                f"a position of {state.game}/{state.variant}, not {name}/{variant}"
            )
        if state.options != spec.options:
            raise InvalidArgumentError("a position with other options than the game line's")
        self.state = state
        return []

    def _go(self, rest: str) -> list[str]:
        if self.state is None or self.state.is_terminal():
            return ["info string error: no position to play", "bestaction (none)"]
        words = rest.split()
        fields = dict(zip(words[::2], words[1::2]))
        clock = _millis(fields.get(f"time{self.state.current_player}", "0"))
        movetime = _millis(fields.get("movetime", "0"))
        if self.own_seconds > 0:
            # a bot that searches by time keeps to the arena's clock (plateau.clock) and to the
            # move's limit, with a fifth of it left for the rest of the answer
            seconds = self.own_seconds
            if clock > 0:
                inc = _millis(fields.get("inc", "0"))
                seconds = held_to_budget(seconds, clock / 1000, inc / 1000)
            if movetime > 0:
                seconds = min(seconds, max(0.001, 0.8 * movetime / 1000))
            self.bot.params["seconds"] = seconds
        if self._stop:  # (read before a setoption made this bot)
            self.bot.stop()
        t0 = time.perf_counter()
        action = self.bot.select_action(self.state)
        ms = round(1000 * (time.perf_counter() - t0))
        said = self.bot.search_info()
        info = "".join(
            f" {key} {said[key]:g}" if key == "score" else f" {key} {said[key]}"
            for key in ("depth", "nodes", "score")
            if key in said
        )
        return [f"info{info} time {ms}", f"bestaction {self.state.action_to_string(action)}"]


def _check_view_record(record: object, spec: GameSpec, state: GameState) -> None:
    """Refuse a ``position view`` whose record does not go with the ``game`` line and the world
    sent with it: its game, variant and options, a viewer that is the seat to move, and as many
    actions as the world has plies (a game from the start)."""
    if not isinstance(record, dict):
        raise InvalidArgumentError("a position view has a 'record' object")
    named = (record.get("game"), record.get("variant"), record.get("options"))
    if named != (spec.game, spec.variant, spec.options):
        raise InvalidArgumentError(
            f"a view's record of {shown(named)}, not of the game line's "
            f"{shown((spec.game, spec.variant, spec.options))}"
        )
    viewer = record.get("viewer")
    if isinstance(viewer, bool) or viewer != state.current_player:
        raise InvalidArgumentError(
            f"a view's record is seen by {shown(viewer)}, and the world has player "
            f"{state.current_player} to move: a view is sent to the seat to move"
        )
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise InvalidArgumentError("a view's record has a list of 'actions'")
    if "setup" not in record and len(actions) != state.ply:
        raise InvalidArgumentError(
            f"a view's record has {len(actions)} actions and its world {state.ply} plies"
        )


def _millis(text: str) -> int:
    """A ``go`` field's milliseconds: 0 for a value that is not a number, at most 2**40 (35
    years) for one too large to mean anything."""
    if not (text.isascii() and text.isdigit()):
        return 0
    return 1 << 40 if len(text) > 13 else min(int(text), 1 << 40)


def _error_line(error: BaseException) -> str:
    """``info string error: ...`` on one line, cut to :data:`MAX_ERROR` characters."""
    text = " ".join(str(error).split()) or type(error).__name__
    if len(text) > MAX_ERROR:
        text = text[: MAX_ERROR - 3] + "..."
    return f"info string error: {text}"


class _Refused(str):
    """A line :func:`read_commands` could not take, as the reason why (``BotEngine.handle``
    answers it with one error line)."""


def read_commands(stdin: IO[bytes]) -> Iterable[str]:
    """The lines of ``stdin``, decoded. A line that is not UTF-8, or longer than
    :data:`MAX_COMMAND` (read in pieces, none kept), comes as the reason it was refused (a
    ``_Refused``), so that no part of it is taken as a command."""
    while True:
        raw = stdin.readline(MAX_COMMAND)
        if not raw:
            return
        if len(raw) == MAX_COMMAND and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):  # the rest of the line, dropped
                raw = stdin.readline(MAX_COMMAND)
            yield _Refused(f"a line of more than {MAX_COMMAND:,} bytes, not read")
            continue
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as e:
            yield _Refused(f"a line that is not UTF-8 (byte {raw[e.start]:#04x} at {e.start})")


#: commands :func:`serve` reads ahead of the one it carries out (each at most
#: :data:`MAX_COMMAND` bytes): reading on during a search is what lets ``stop`` reach it
READ_AHEAD = 8


def serve(
    bot_spec: str,
    seed: int = 0,
    stdin: IO[str] | IO[bytes] | None = None,
    out: IO[str] | None = None,
) -> int:
    """Serve ``bot_spec`` over the protocol until ``quit`` or end of input (``plateau engine``).
    ``stdin`` is read as bytes where it can be (``sys.stdin.buffer``): lines that are not UTF-8
    or too long are answered, not fatal.

    Commands are carried out one after another, in order, in the calling thread; a thread of
    its own reads them (at most :data:`READ_AHEAD` ahead), so that a ``stop`` or ``quit`` read
    while a ``go`` is searching or waiting ends that search (``Bot.stop``), whose
    ``bestaction`` answers the ``go``. At the end of input, what was read is carried out
    (a search runs to its end) and the engine exits."""
    out = sys.stdout if out is None else out
    engine = BotEngine(bot_spec, seed)
    source: IO[Any] = sys.stdin if stdin is None else stdin
    raw = getattr(source, "buffer", source)
    lines: Iterable[str] = source if isinstance(raw, io.TextIOBase) else read_commands(raw)
    if stdin is None:
        # the standard input through a reader of its own: the reading thread may be blocked in
        # it when the engine exits (Ctrl-C), and the interpreter's shutdown then closes
        # sys.stdin, which would wait for the lock that thread holds
        with contextlib.suppress(AttributeError, OSError, ValueError):
            fd = sys.stdin.fileno()
            lines = read_commands(io.BufferedReader(io.FileIO(fd, "rb", closefd=False)))
    reader = _Reader(engine, lines)
    while True:
        line = reader.next()
        if line is None:
            break
        answer = engine.handle(line)
        reader.handled(line)
        if answer is None:
            break
        for text in answer:
            out.write(text + "\n")
        out.flush()
    reader.raise_error()
    return 0


class _Reader:
    """The input of :func:`serve`, read in a thread of its own (a daemon: an engine that exits
    does not wait for its input). A ``stop`` or ``quit`` ends the search of every ``go`` read
    before it and not yet answered: the engine's bot is stopped at once, and again for each
    such ``go`` still queued (``go go stop`` read ahead stopped the first only); one read
    between searches stops none."""

    def __init__(self, engine: BotEngine, lines: Iterable[str]) -> None:
        self.engine = engine
        self.queue: queue.Queue[str | None] = queue.Queue(READ_AHEAD)
        self.lock = threading.Lock()
        self.pending = 0  # ``go`` commands read and not yet answered
        self.gos_read = 0  # ``go`` commands read so far
        self.gos_answered = 0  # ... and answered
        self.stop_through = 0  # the last stop ends the searches of gos up to this count read
        self.error: BaseException | None = None
        threading.Thread(
            target=self._read, args=(lines,), name="plateau-engine-input", daemon=True
        ).start()

    @staticmethod
    def _command(line: str) -> str:
        """The command word, as ``BotEngine.handle`` splits it."""
        words = [] if isinstance(line, _Refused) else line.split(None, 1)
        return words[0] if words else ""

    def _read(self, lines: Iterable[str]) -> None:
        try:
            for line in lines:
                command = self._command(line)
                with self.lock:
                    if command == "go":
                        self.pending += 1
                        self.gos_read += 1
                    elif command in ("stop", "quit") and self.pending:
                        self.stop_through = self.gos_read
                        self.engine.request_stop()
                self.queue.put(line)
                if command == "quit":
                    return  # (the serving thread takes nothing after it)
        except BaseException as e:  # (a failure to read: raised again by the serving thread)
            self.error = e
        self.queue.put(None)

    def next(self) -> str | None:
        """The next command, or None at the end of input."""
        return self.queue.get()

    def handled(self, line: str) -> None:
        """``line`` is carried out: after a ``go``, its stop is cleared (one that came too late
        is dropped), unless a stop read after a later ``go`` already holds for that one."""
        if self._command(line) == "go":
            with self.lock:
                self.pending -= 1
                self.gos_answered += 1
                self.engine.clear_stop()
                if self.stop_through > self.gos_answered:
                    self.engine.request_stop()

    def raise_error(self) -> None:
        if self.error is not None:
            raise self.error


# ------------------------------------------------------------------------------------------
# The arena side: engine specs
# ------------------------------------------------------------------------------------------

PREFIX = "engine:"


@dataclass(frozen=True)
class EngineSpec:
    """A parsed ``engine:`` bot spec: the command line, a display name, the seconds allowed
    for the handshake and each game's ``isready``, and engine options (``setoption``)."""

    cmd: tuple[str, ...]
    name: str
    init_timeout: float = 30.0
    options: dict[str, str] = field(default_factory=dict)


def is_engine_spec(source: object) -> bool:
    """True for a bot spec string naming an external engine (``engine:...``)."""
    return isinstance(source, str) and source.strip().startswith(PREFIX)


def split_outside_quotes(text: str, sep: str = ",") -> list[str]:
    """Split ``text`` at ``sep`` outside single or double quotes (a backslash inside quotes
    escapes the next character).

    >>> split_outside_quotes('name=my,cmd="./e --x a,b",threads=2')
    ['name=my', 'cmd="./e --x a,b"', 'threads=2']
    """
    parts, current, quote, i = [], [], "", 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\" and i + 1 < len(text):
                current.append(text[i : i + 2])
                i += 2
                continue
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c == sep:
            parts.append("".join(current))
            current = []
            i += 1
            continue
        current.append(c)
        i += 1
    if quote:
        raise InvalidArgumentError(f"unclosed {quote} quote in {text!r}")
    parts.append("".join(current))
    return parts


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return re.sub(r"\\(.)", r"\1", value[1:-1])
    return value


def parse_engine_spec(text: str) -> EngineSpec:
    """Parse ``engine:name=NAME,cmd="COMMAND LINE"[,init_timeout=S][,OPTION=VALUE ...]``.

    ``cmd`` is split as a POSIX shell would split it (``shlex``; no shell runs it); a value
    with commas or spaces is quoted (``"..."`` or ``'...'``, backslash escapes inside). Keys
    other than ``cmd``, ``name`` and ``init_timeout`` are engine options, sent as
    ``setoption`` after the handshake (the engine must have announced them).

    >>> s = parse_engine_spec('engine:name=my,cmd="./my-engine --threads 1",hash=64')
    >>> s.cmd, s.name, s.options
    (('./my-engine', '--threads', '1'), 'my', {'hash': '64'})
    """
    if not is_engine_spec(text):
        raise InvalidArgumentError(f"an engine spec starts with {PREFIX!r}, got {text!r}")
    body = text.strip()[len(PREFIX) :]
    items: dict[str, str] = {}
    for part in split_outside_quotes(body):
        key, eq, value = part.strip().partition("=")
        key = key.strip()
        if not eq or not key:
            raise InvalidArgumentError(
                f"bad item {part!r} in engine spec {text!r} (expected key=value)"
            )
        if key in items:
            raise InvalidArgumentError(f"{key!r} twice in engine spec {text!r}")
        items[key] = _unquote(value.strip())
    if not items.get("cmd", "").strip():
        raise InvalidArgumentError(f'engine spec {text!r} has no cmd="..." (the command to start)')
    try:
        cmd = tuple(shlex.split(items.pop("cmd")))
    except ValueError as e:
        raise InvalidArgumentError(f"engine spec {text!r}: bad cmd: {e}") from None
    name = items.pop("name", "") or os.path.basename(cmd[0])
    init_timeout = 30.0
    if "init_timeout" in items:
        raw = items.pop("init_timeout")
        try:
            init_timeout = float(raw)
        except ValueError:
            init_timeout = -1.0
        if not 0 < init_timeout <= MAX_SECONDS:
            raise InvalidArgumentError(
                f"engine spec {text!r}: init_timeout must be positive seconds, at most "
                f"{MAX_SECONDS:,.0f}, got {raw!r}"
            )
    return EngineSpec(cmd, name, init_timeout, items)


def engine_spec(cmd: Iterable[str], name: str | None = None, **options: object) -> str:
    """The spec string of an engine started as ``cmd`` (a list of arguments), quoted for the
    command line's ``--bots`` list and for ``arena.run``.

    >>> engine_spec(["./my-engine", "--threads", "1"], name="my")
    'engine:name=my,cmd="./my-engine --threads 1"'
    """

    def value(text: str) -> str:
        if not re.search(r"[,\s\"'\\]", text):
            return text
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    parts = [] if name is None else [f"name={value(name)}"]
    parts.append("cmd=" + value(shlex.join(str(a) for a in cmd)))
    parts += [f"{key}={value(str(v))}" for key, v in options.items()]
    return PREFIX + ",".join(parts)


# ------------------------------------------------------------------------------------------
# The arena side: engine processes
# ------------------------------------------------------------------------------------------


class EngineError(Exception):
    """An engine misbehaved; ``reason`` names how (``start``, ``refused``, ``crash``,
    ``timeout``, ``time`` (its game clock ran out), ``flood`` (too much output unread),
    ``garbage``, ``unparseable``, ``illegal``, ``no-action``), the message says what."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.message = message


class EngineOutput:
    """An engine's standard output as lines, filled by a reader and bounded: a line longer than
    :data:`MAX_LINE` is ``garbage``, and more than :data:`MAX_BUFFERED_LINES` lines or
    :data:`MAX_BUFFERED_BYTES` bytes unread (an engine printing while another seat thinks) is a
    ``flood``. Either stops the reading for good and is raised at the next read."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        # each unread line, its size as read and when it came (time.monotonic)
        self._lines: collections.deque[tuple[str, int, float]] = collections.deque()
        self.bytes = 0  # of the unread lines, as read
        self.failure: EngineError | None = None
        self.ended = False

    def push(self, raw: bytes) -> bool:
        """Add one line as read (its newline included); False once reading must stop."""
        with self._cond:
            if self.failure is not None or self.ended:
                return False
            if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
                head = raw[:60].decode("utf-8", "replace")
                self.failure = EngineError(
                    "garbage", f"a line longer than {MAX_LINE} bytes, starting {head!r}"
                )
            elif (
                len(self._lines) >= MAX_BUFFERED_LINES or self.bytes + len(raw) > MAX_BUFFERED_BYTES
            ):
                self.failure = EngineError(
                    "flood",
                    f"{len(self._lines)} lines ({self.bytes} bytes) of output unread and more "
                    f"coming (the arena holds {MAX_BUFFERED_LINES} lines or "
                    f"{MAX_BUFFERED_BYTES} bytes at most)",
                )
            else:
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                self._lines.append((line, len(raw), time.monotonic()))
                self.bytes += len(raw)
            self._cond.notify_all()
            return self.failure is None

    def end(self) -> None:
        """The output ended (end of file, or the reader stopped)."""
        with self._cond:
            self.ended = True
            self._cond.notify_all()

    def get(self, deadline: float | None) -> str | None:
        """The next line, if it came by ``deadline`` (``time.monotonic``; None: no limit), None
        at end of output; raises the failure that stopped the reading, or TimeoutError. A line
        that came after the deadline is late even if it waits to be read: an engine writing
        lines as fast as they are read would otherwise never be out of time."""
        with self._cond:
            while True:
                if self.failure is not None:
                    raise self.failure
                if self._lines:
                    line, size, came = self._lines[0]
                    if deadline is not None and came > deadline:
                        raise TimeoutError
                    self._lines.popleft()
                    self.bytes -= size
                    return line
                if self.ended:
                    return None
                timeout = None if deadline is None else deadline - time.monotonic()
                if timeout is not None and timeout <= 0:
                    raise TimeoutError
                # (a wait of at most an hour at a time: a deadline years away overflows one)
                self._cond.wait(3600.0 if timeout is None else min(timeout, 3600.0))


def pump(pipe: IO[bytes], output: EngineOutput, to_end: bool = True) -> bool:
    """Read ``pipe`` into ``output`` line by line until its end, or until ``output`` refuses
    more (a flood or an over-long line): then close the pipe, so that an engine still writing
    gets EPIPE instead of filling memory, and end ``output``. With ``to_end`` False (what is
    there so far, from a buffer), neither. True while ``output`` takes more."""
    taking = True
    try:
        while taking:
            raw = pipe.readline(MAX_LINE + 1)
            if not raw:
                break
            taking = output.push(raw)
    except (OSError, ValueError):
        pass
    finally:
        if to_end:
            with contextlib.suppress(OSError):
                pipe.close()
            output.end()
    return taking


class EngineConnection:
    """The referee's half of the protocol with one engine (handshake, games, positions,
    ``go``), over a transport that subclasses provide: ``_write``, which writes by a
    deadline, and ``output``, the engine's lines. :class:`EngineProcess` is the real one;
    the fuzz harness drives the same protocol code with a scripted engine."""

    def __init__(self, spec: EngineSpec) -> None:
        self.spec = spec
        self.id_name = spec.name
        self.announced: dict[str, str] = {}  # option name -> its option line
        #: ``isready`` sent after an answer and not yet answered (see :meth:`settle`)
        self.readies_owed = 0
        self.last_info: str | None = None
        #: the last ``info`` line (not ``info string``) of the last ``go``, None if it sent none
        self.move_info: str | None = None
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=STDERR_TAIL)
        self.output = EngineOutput()

    # -- transport (subclasses) ------------------------------------------------------------

    def _write(self, data: bytes, deadline: float) -> None:
        """Write ``data`` by ``deadline``: EngineError ``timeout`` if the engine does not take
        it in time, ``crash`` if its input is closed."""
        raise NotImplementedError

    def _exit_text(self, what: str) -> str:
        """``what``, with how the engine ended if it has."""
        return what

    @property
    def alive(self) -> bool:
        return True

    def close(self, grace: float = 0.5) -> None:
        """Stop the engine (``quit``, then by force after ``grace`` seconds)."""

    # -- reading and writing ---------------------------------------------------------------

    @property
    def failure(self) -> EngineError | None:
        """Set once the engine broke the protocol out of turn (a flood or an over-long line,
        found by the reader while the arena was busy elsewhere): it must forfeit."""
        return self.output.failure

    def send(self, line: str, deadline: float | None = None) -> None:
        """Write one command line by ``deadline`` (``time.monotonic``; default ``init_timeout``
        seconds from now): an engine that stops reading its input is a ``timeout``, a dead one
        a ``crash``. No write waits without a bound."""
        if deadline is None:
            deadline = time.monotonic() + self.spec.init_timeout
        self._write((line + "\n").encode("utf-8"), deadline)

    def _next(self, deadline: float | None, waiting_for: str) -> str:
        """The next non-blank line, by ``deadline`` (``time.monotonic``), or EngineError."""
        while True:
            try:
                line = self.output.get(deadline)
            except TimeoutError:
                raise EngineError("timeout", f"no {waiting_for} within the time limit") from None
            if line is None:
                raise EngineError("crash", self._exit_text(f"output ended before {waiting_for}"))
            if line.strip():
                return line

    def settle(self) -> None:
        """Wait (up to ``init_timeout``) for the ``ready`` of the ``isready`` sent after the
        engine's last answer: the arena calls it before it starts the engine's clock for a
        move, so the barrier is never charged to the engine's time (``select_action`` and
        ``new_game`` call it too)."""
        self._settle(time.monotonic() + self.spec.init_timeout)

    def _settle(self, deadline: float | None) -> None:
        """Wait for the ``ready`` of each ``isready`` sent after an answer (by ``deadline``):
        ``info`` lines before it are kept as the last info, any other line is ``garbage`` (a
        second ``bestaction`` for one ``go``, written after the first but before the engine
        read the ``isready``: it is refused, not read as the answer to the next ``go``)."""
        while self.readies_owed:
            line = self._next(deadline, "'ready' after 'isready'")
            words = line.split()
            if words[0] == "ready":
                self.readies_owed -= 1
            elif words[0] == "info":
                self.last_info = line[:500]
            else:
                raise EngineError(
                    "garbage",
                    f"unasked line {line[:200]!r} after an answer, before the 'ready' that "
                    "follows it (an answer given twice)",
                )

    def _unasked(self) -> None:
        """Read what the engine printed since its last answer and the arena has received,
        without waiting: ``info`` lines are kept as its last info; any other line (a second
        ``bestaction`` for one ``go``, an answer nobody asked for) is ``garbage``, not the
        answer to the next ``go``. A line still on its way (written later, from another thread
        of the engine) is not seen here: it is read as the next answer, as before."""
        now = time.monotonic()  # (what came before this call, taken once: an engine writing a
        # line each time one is read would otherwise keep this loop reading)
        while True:
            try:
                line = self.output.get(now)
            except TimeoutError:
                return
            if line is None:
                return  # the output ended: the next read says how
            words = line.split()
            if not words:
                continue
            if words[0] != "info":
                raise EngineError(
                    "garbage",
                    f"unasked line {line[:200]!r} before the next position (an answer given "
                    "twice, or given without a 'go')",
                )
            self.last_info = line[:500]

    # -- protocol --------------------------------------------------------------------------

    def _handshake(self) -> None:
        deadline = time.monotonic() + self.spec.init_timeout
        self.send(HELLO, deadline)
        kept = 0  # id and option lines (kept: bounded; info lines are not kept)
        while True:
            line = self._next(deadline, "'ready' after the handshake")
            words = line.split()
            if words[0] == "ready":
                break
            if words[0] in ("id", "option"):
                kept += 1
                if kept > MAX_HANDSHAKE_LINES:
                    raise EngineError(
                        "flood",
                        f"more than {MAX_HANDSHAKE_LINES} id and option lines in the handshake",
                    )
            if words[:2] == ["id", "name"]:
                name = line.split(None, 2)[2].strip() if len(words) > 2 else ""
                self.id_name = printable(name)[:MAX_NAME]
            elif words[:2] == ["option", "name"] and len(words) > 2:
                if len(words[2]) <= MAX_NAME:  # (a longer name is no option one could set)
                    self.announced[words[2]] = line[:500]
            elif words[0] not in ("id", "option", "info"):
                raise EngineError("garbage", f"unexpected line {line[:200]!r} in the handshake")
        for key, value in self.spec.options.items():
            if key not in self.announced:
                names = list(self.announced)
                known = printable(", ".join(names[:20]))[:1000] or "none"
                if len(names) > 20:
                    known += f" and {len(names) - 20} more"
                raise EngineError("start", f"the engine has no option {key!r} (it has: {known})")
            self.send(f"setoption name {key} value {value}", deadline)

    def new_game(self, state: GameState, seed: int | None = None) -> None:
        """Tell the engine a new game starts and wait until it is ready. With ``seed``, an
        engine that announced a ``seed`` option (and whose spec does not set one) is sent it
        first, so that its games replay whichever process plays them."""
        self.last_info = None
        deadline = time.monotonic() + self.spec.init_timeout
        self._settle(deadline)
        if seed is not None and "seed" in self.announced and "seed" not in self.spec.options:
            self.send(f"setoption name seed value {seed}", deadline)
        self.send(game_command(state), deadline)
        self.send("isready", deadline)
        while True:
            line = self._next(deadline, "'ready' after 'game'")
            word = line.split()[0]
            if word == "ready":
                return
            if word == "info":
                self.last_info = line[:500]
                if line.split()[1:3] == ["string", "error:"]:
                    raise EngineError("refused", f"the engine cannot play this game: {line!r}")
            else:
                raise EngineError("garbage", f"unexpected line {line[:200]!r} after 'game'")

    def select_action(
        self,
        state: GameState,
        seat: int,
        seed: int = 0,
        timeout: float | None = None,
        clocks: Sequence[float] | None = None,
        inc: float = 0.0,
    ) -> int:
        """Ask for the action of ``seat`` (the player to move in ``state``, the full truth,
        of which the engine is told only ``seat``'s view) within ``timeout`` seconds and,
        with game ``clocks`` (seconds left per seat), within ``clocks[seat]``; the id of a
        legal action, or :class:`EngineError` (``time`` when the clock ran out first). The
        time to write the position counts: an engine that does not read it in time is late,
        and without a limit the write still has ``init_timeout``."""
        self.settle()  # (before the time of the move is taken)
        movetime = 0 if timeout is None else max(1, round(1000 * timeout))
        times = None if clocks is None else [max(1, round(1000 * c)) for c in clocks]
        inc_ms = 0 if clocks is None else round(1000 * inc)
        limit = timeout
        by_clock = clocks is not None and (timeout is None or clocks[seat] < timeout)
        if clocks is not None and by_clock:
            limit = max(0.0, clocks[seat])
        now = time.monotonic()
        deadline = None if limit is None else now + limit
        writes = deadline if deadline is not None else now + self.spec.init_timeout
        self.move_info = None
        try:
            self._unasked()
            self.send(position_command(state, seat, seed), writes)
            self.send(go_command(state.num_players, movetime, times, inc_ms), writes)
            while True:
                line = self._next(deadline, "'bestaction'")
                words = line.split()
                if words[0] == "info":
                    self.last_info = line[:500]
                    if words[1:2] != ["string"]:
                        self.move_info = line[:500]
                    continue
                break
        except EngineError as e:
            if e.reason == "timeout" and by_clock:
                raise EngineError("time", f"{e.message}: its clock ran out") from None
            raise
        if words[0] != "bestaction":
            raise EngineError("garbage", f"unexpected line {line[:200]!r} instead of bestaction")
        text = words[1] if len(words) == 2 else ""
        if text == "(none)":
            said = f" after {self.last_info!r}" if self.last_info else ""
            raise EngineError("no-action", f"the engine answered 'bestaction (none)'{said}")
        try:
            action = state.parse_action(text)
        except (IllegalActionError, ValueError) as e:
            raise EngineError("unparseable", f"{line[:200]!r}: {e}") from None
        why = state.why_illegal(action)
        if why is not None:
            raise EngineError("illegal", f"{text!r} is illegal: {why}")
        # a barrier after each answer, waited for before the engine's next command (so it
        # costs no time: the other seats play meanwhile): whatever the engine writes before
        # its 'ready' belongs to this go, never to the next
        # (best effort: an engine that exits or closes its input right after a legal answer
        # keeps that answer; the failure is read at its next command)
        with contextlib.suppress(EngineError):
            self.send("isready", time.monotonic() + self.spec.init_timeout)
        self.readies_owed += 1
        return action


class EngineProcess(EngineConnection):
    """One running engine: started at once, handshake done before the constructor returns
    (:class:`EngineError` ``start`` otherwise, the process cleaned up). Its output is read by
    threads into bounded buffers; its input is written without blocking, by a deadline."""

    def __init__(self, spec: EngineSpec) -> None:
        super().__init__(spec)
        self._killed = False
        # a mark in the environment of the engine and of everything it starts: what leaves
        # its process group (a child that calls setsid) is found by it and stopped too
        self._mark = f"{os.getpid()}.{secrets.token_hex(12)}"
        try:
            # a session of its own: the terminal's Ctrl-C goes to the arena alone, which then
            # stops the engine and everything the engine started (its process group)
            self.proc = subprocess.Popen(
                list(spec.cmd),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                env={**os.environ, MARK_VARIABLE: self._mark},
            )
        except OSError as e:
            raise EngineError("start", f"cannot start {shlex.join(spec.cmd)!r}: {e}") from None
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None and self.proc.stderr is not None
        # writes never block: a full pipe waits in poll(), by the write's deadline
        self._stdin_fd: int | None = self.proc.stdin.fileno()
        os.set_blocking(self._stdin_fd, False)
        self._poll = select.poll()
        self._poll.register(self._stdin_fd, select.POLLOUT)
        self._readers = [
            threading.Thread(target=pump, args=(self.proc.stdout, self.output), daemon=True),
            threading.Thread(target=self._read_stderr, args=(self.proc.stderr,), daemon=True),
        ]
        for t in self._readers:
            t.start()
        try:
            self._handshake()
        except BaseException:
            self.close(grace=0)
            raise

    def _read_stderr(self, pipe: IO[bytes]) -> None:
        # only the last lines are kept, each cut to 500 characters: bounded however much
        try:
            for raw in iter(lambda: pipe.readline(MAX_LINE), b""):
                line = raw.decode("utf-8", "replace").rstrip("\r\n")[:500]
                self.stderr_tail.append(printable(line))
        except (OSError, ValueError):
            pass
        finally:
            pipe.close()

    def _write(self, data: bytes, deadline: float) -> None:
        view = memoryview(data)
        first = data[:40].decode("utf-8", "replace").rstrip("\n")
        while view:
            if self._stdin_fd is None:
                raise EngineError("crash", f"its input is closed before {first!r}")
            try:
                view = view[os.write(self._stdin_fd, view) :]
                continue
            except BlockingIOError:
                pass
            except OSError:  # EPIPE: the engine closed its input or exited
                raise EngineError(
                    "crash", self._exit_text(f"stdin closed before {first!r}")
                ) from None
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineError(
                    "timeout", f"the engine did not read its input ({first!r} not taken in time)"
                )
            self._poll.poll(max(1, math.ceil(1000 * min(left, 3600.0))))

    def _exit_text(self, what: str) -> str:
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return f"{what} (the process is still running)"
        # it has exited: its last stderr lines are in the pipe, and the forfeit quotes them
        self._readers[1].join(timeout=1.0)
        if code < 0:
            try:
                sig = signal.Signals(-code).name
            except ValueError:
                sig = str(-code)
            return f"{what}: the engine was killed by {sig}"
        return f"{what}: the engine exited with code {code}"

    # -- cleanup ---------------------------------------------------------------------------

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self, grace: float = 0.5) -> None:
        """Stop the engine: ``quit``, then after ``grace`` seconds (its write included)
        SIGKILL to its whole process group; always reaped (no zombie), never a wait without
        bound, and the kill runs whatever interrupts the polite part."""
        try:
            if grace > 0 and self.proc.poll() is None:
                end = time.monotonic() + grace
                try:
                    self.send("quit", end)
                    self.proc.wait(timeout=max(0.0, end - time.monotonic()))
                except (EngineError, subprocess.TimeoutExpired):
                    pass
        finally:
            self.kill()

    def kill(self) -> None:
        """SIGKILL to the engine's process group, reaped; its input closed. Idempotent."""
        if self._killed:
            return  # its group id may belong to other processes by now
        self._kill_group()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self._killed = True
        # stdout and stderr are closed by their reader threads at end of file: closing them
        # here would wait for a read that a stray grandchild holding the pipe can block
        if self._stdin_fd is not None:
            self._stdin_fd = None  # never write to the number again: it may be reused
            self._poll = select.poll()
            if self.proc.stdin is not None:
                with contextlib.suppress(OSError):
                    self.proc.stdin.close()

    def _kill_group(self) -> None:
        # the engine leads its own process group: kill what it started too (a shell script's
        # `sleep`), even after the engine itself has exited
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        kill_marked(self._mark)


#: the environment variable that marks an engine's processes (:class:`EngineProcess`)
MARK_VARIABLE = "PLATEAU_ENGINE_MARK"


def kill_marked(mark: str, rounds: int = 8, prefix: bool = False) -> int:
    """SIGKILL every process of this user whose starting environment holds
    ``PLATEAU_ENGINE_MARK=mark`` (an engine's children that left its process group), until a
    pass finds none or after ``rounds`` passes (a process may start another meanwhile); returns
    how many were killed. With ``prefix``, every mark that starts with ``mark``
    (``f"{os.getpid()}."``: every engine this process started, those still in their handshake
    included). Linux (``/proc``) only: elsewhere, none."""
    needle = f"\0{MARK_VARIABLE}={mark}{'' if prefix else chr(0)}".encode()
    me, killed = os.getpid(), 0
    for _ in range(rounds):
        try:
            pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
        except OSError:
            return killed
        found = 0
        for pid in pids:
            if pid == me:
                continue
            try:
                with open(f"/proc/{pid}/environ", "rb") as f:
                    environ = b"\0" + f.read()  # (the kernel bounds it)
            except OSError:  # gone, or not ours to read
                continue
            if needle in environ:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                    found += 1
        killed += found
        if not found:
            break
    return killed


class EnginePool:
    """The engine processes of one arena worker, reused from game to game: one per engine spec
    and seat slot (the k-th seat that spec holds in a game), restarted after a failure.
    ``start`` makes a connection from a parsed spec (:class:`EngineProcess`; the fuzz harness
    passes a scripted engine)."""

    def __init__(self, start: Callable[[EngineSpec], EngineConnection] | None = None) -> None:
        self._start = start if start is not None else EngineProcess
        self._engines: dict[tuple[str, int], EngineConnection] = {}

    def get(self, spec: str, slot: int) -> EngineConnection:
        """The running engine of ``spec`` in ``slot``, started if needed."""
        key = (spec, slot)
        engine = self._engines.get(key)
        if engine is not None and not engine.alive:
            self.discard(engine)
            engine = None
        if engine is None:
            engine = self._start(parse_engine_spec(spec))
            self._engines[key] = engine
        return engine

    def discard(self, engine: EngineConnection) -> None:
        """Stop ``engine`` at once (after a failure: its state is unknown); the next game
        starts a fresh one."""
        for key, e in list(self._engines.items()):
            if e is engine:
                del self._engines[key]
        engine.close(grace=0)

    def close(self, grace: float = 0.5) -> None:
        """Stop every engine: politely within ``grace`` seconds each, and by force if anything
        (a second Ctrl-C, a signal) interrupts that."""
        engines, self._engines = list(self._engines.values()), {}
        try:
            for engine in engines:
                engine.close(grace)
        finally:
            for engine in engines:
                engine.close(grace=0)


def check_engine(spec: str, state: GameState) -> str:
    """Start the engine of ``spec``, tell it ``state``'s game, stop it; its ``id name``, or
    ValueError saying why it cannot play (the arena asks before the first game)."""
    try:
        engine = EngineProcess(parse_engine_spec(spec))
    except EngineError as e:
        raise InvalidArgumentError(f"{spec}: {e}") from None
    try:
        engine.new_game(state)
        return engine.id_name
    except EngineError as e:
        tail = "; stderr: " + " | ".join(engine.stderr_tail) if engine.stderr_tail else ""
        raise InvalidArgumentError(f"{spec}: {e}{tail}") from None
    finally:
        engine.close()
