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
import json
import os
import queue
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

from plateau.clock import held_to_budget, own_seconds
from plateau.errors import IllegalActionError
from plateau.registry import check_data_options, game_info, new_game

if TYPE_CHECKING:
    from plateau.bots.base import Bot
    from plateau.state import GameState

#: the first line the arena sends; the number is the protocol version
HELLO = "plateau-engine 1"
PROTOCOL_VERSION = 1
#: an engine line longer than this is cut (and is garbage: no protocol line is that long)
MAX_LINE = 1 << 16
#: stderr lines kept per engine, for forfeit reports
STDERR_TAIL = 20

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


class BotEngine:
    """A library bot behind the protocol: :meth:`handle` takes one line the arena sent and
    returns the lines to answer (``None`` after ``quit``)."""

    def __init__(self, bot_spec: str, seed: int = 0) -> None:
        from plateau.bots import make_bot

        self.bot_spec = bot_spec
        self.seed = seed
        self.bot: Bot = make_bot(bot_spec, seed=seed)
        self.own_seconds = own_seconds(self.bot.params)
        self.game: tuple[str, str, dict[str, Any]] | None = None
        self.state: GameState | None = None

    def handle(self, line: str) -> list[str] | None:
        words = line.split()
        if not words:
            return []
        command, rest = words[0], line.strip()[len(words[0]) :].strip()
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
            if command == "go":
                return self._go(rest)
            if command == "stop":  # searches here answer go at once: nothing to stop
                return []
            if command == "quit":
                return None
        except (ValueError, KeyError, TypeError) as e:
            return [f"info string error: {e}"]
        return [f"info string unknown command {command!r}"]

    def _hello(self, rest: str) -> list[str]:
        if rest != str(PROTOCOL_VERSION):
            return [f"info string error: this engine speaks {HELLO!r}, not version {rest!r}"]
        return [
            f"id name plateau {self.bot_spec}",
            "id author the plateau library",
            f"option name seed type int default {self.seed}",
            "ready",
        ]

    def _setoption(self, rest: str) -> list[str]:
        m = re.fullmatch(r"name\s+(\S+)\s+value\s+(.*)", rest)
        if m is None:
            return [f"info string error: expected 'setoption name N value V', got {rest!r}"]
        if m.group(1) != "seed":
            return [f"info string error: no option {m.group(1)!r} (options: seed)"]
        from plateau.bots import make_bot

        self.seed = int(m.group(2))
        self.bot = make_bot(self.bot_spec, seed=self.seed)
        return []

    def _game(self, rest: str) -> list[str]:
        self.game, self.state = None, None
        parts = rest.split(None, 2)
        if len(parts) < 2:
            raise ValueError(f"expected 'game <id> <variant> [options]', got {rest!r}")
        options = json.loads(parts[2]) if len(parts) == 3 else {}
        if not isinstance(options, dict):
            raise ValueError(f"the options are a JSON object, got {parts[2]!r}")
        check_data_options(parts[0], options)  # a path would make the engine read a file
        probe = new_game(parts[0], parts[1], **options)
        self.bot.check_game(probe)
        self.bot.reset()
        self.game = (parts[0], parts[1], options)
        return []

    def _position(self, rest: str) -> list[str]:
        from plateau.record import from_record

        self.state = None
        if self.game is None:
            raise ValueError("position before game")
        name, variant, options = self.game
        kind, _, data = rest.partition(" ")
        if kind == "start":
            state = new_game(name, variant, **options)
            state.apply_all(data.split())
        elif kind == "setup":
            state = from_record(json.loads(data))
        elif kind == "view":
            view = json.loads(data)
            from_setup = game_info(name).from_setup
            if not isinstance(view, dict) or "world" not in view or from_setup is None:
                raise ValueError("this engine plays a view from its 'world' field; none given")
            state = from_setup(variant, view["world"], **options)
        else:
            raise ValueError(f"unknown position kind {kind!r} (start, setup or view)")
        if state.game != name or state.variant != variant:
            raise ValueError(f"a position of {state.game}/{state.variant}, not {name}/{variant}")
        self.state = state
        return []

    def _go(self, rest: str) -> list[str]:
        if self.state is None or self.state.is_terminal():
            return ["info string error: no position to play", "bestaction (none)"]
        words = rest.split()
        fields = dict(zip(words[::2], words[1::2]))
        clock = fields.get(f"time{self.state.current_player}", "0")
        if self.own_seconds > 0 and clock.isdigit() and int(clock) > 0:
            # a bot that searches by time keeps to the arena's clock (plateau.clock)
            inc = fields.get("inc", "0")
            self.bot.params["seconds"] = held_to_budget(
                self.own_seconds, int(clock) / 1000, int(inc) / 1000 if inc.isdigit() else 0.0
            )
        t0 = time.perf_counter()
        action = self.bot.select_action(self.state)
        ms = round(1000 * (time.perf_counter() - t0))
        return [f"info time {ms}", f"bestaction {self.state.action_to_string(action)}"]


def serve(
    bot_spec: str, seed: int = 0, stdin: IO[str] | None = None, out: IO[str] | None = None
) -> int:
    """Serve ``bot_spec`` over the protocol until ``quit`` or end of input (``plateau engine``)."""
    stdin = sys.stdin if stdin is None else stdin
    out = sys.stdout if out is None else out
    engine = BotEngine(bot_spec, seed)
    for line in stdin:
        answer = engine.handle(line)
        if answer is None:
            break
        for text in answer:
            out.write(text + "\n")
        out.flush()
    return 0


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
        raise ValueError(f"unclosed {quote} quote in {text!r}")
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
        raise ValueError(f"an engine spec starts with {PREFIX!r}, got {text!r}")
    body = text.strip()[len(PREFIX) :]
    items: dict[str, str] = {}
    for part in split_outside_quotes(body):
        key, eq, value = part.strip().partition("=")
        key = key.strip()
        if not eq or not key:
            raise ValueError(f"bad item {part!r} in engine spec {text!r} (expected key=value)")
        if key in items:
            raise ValueError(f"{key!r} twice in engine spec {text!r}")
        items[key] = _unquote(value.strip())
    if not items.get("cmd", "").strip():
        raise ValueError(f'engine spec {text!r} has no cmd="..." (the command to start)')
    try:
        cmd = tuple(shlex.split(items.pop("cmd")))
    except ValueError as e:
        raise ValueError(f"engine spec {text!r}: bad cmd: {e}") from None
    name = items.pop("name", "") or os.path.basename(cmd[0])
    init_timeout = 30.0
    if "init_timeout" in items:
        raw = items.pop("init_timeout")
        try:
            init_timeout = float(raw)
        except ValueError:
            init_timeout = -1.0
        if not init_timeout > 0:
            raise ValueError(f"engine spec {text!r}: init_timeout must be positive, got {raw!r}")
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
    ``timeout``, ``time`` (its game clock ran out), ``garbage``, ``unparseable``, ``illegal``,
    ``no-action``), the message says what."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.message = message


class EngineProcess:
    """One running engine: started at once, handshake done before the constructor returns
    (:class:`EngineError` ``start`` otherwise, the process cleaned up)."""

    def __init__(self, spec: EngineSpec) -> None:
        self.spec = spec
        self.id_name = spec.name
        self.announced: dict[str, str] = {}  # option name -> its option line
        self.last_info: str | None = None
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=STDERR_TAIL)
        self._lines: queue.Queue[str | None] = queue.Queue()
        try:
            # a session of its own: the terminal's Ctrl-C goes to the arena alone, which then
            # stops the engine and everything the engine started (its process group)
            self.proc = subprocess.Popen(
                list(spec.cmd),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as e:
            raise EngineError("start", f"cannot start {shlex.join(spec.cmd)!r}: {e}") from None
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self._readers = [
            threading.Thread(target=self._read_stdout, args=(self.proc.stdout,), daemon=True),
            threading.Thread(target=self._read_stderr, args=(self.proc.stderr,), daemon=True),
        ]
        for t in self._readers:
            t.start()
        try:
            self._handshake()
        except BaseException:
            self.close()
            raise

    # -- reading and writing ---------------------------------------------------------------

    def _read_stdout(self, pipe: IO[bytes]) -> None:
        try:
            while True:
                raw = pipe.readline(MAX_LINE)
                if not raw:
                    break
                self._lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        finally:
            pipe.close()
        self._lines.put(None)

    def _read_stderr(self, pipe: IO[bytes]) -> None:
        try:
            for raw in iter(lambda: pipe.readline(MAX_LINE), b""):
                self.stderr_tail.append(raw.decode("utf-8", "replace").rstrip("\r\n")[:500])
        except (OSError, ValueError):
            pass
        finally:
            pipe.close()

    def send(self, line: str) -> None:
        """Write one command line to the engine; a dead engine is a ``crash``."""
        stdin = self.proc.stdin
        try:
            if stdin is None:
                raise BrokenPipeError
            stdin.write((line + "\n").encode("utf-8"))
            stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            raise EngineError(
                "crash", self._exit_text(f"stdin closed before {line[:40]!r}")
            ) from None

    def _next(self, deadline: float | None, waiting_for: str) -> str:
        """The next non-blank line, by ``deadline`` (``time.monotonic``), or EngineError."""
        while True:
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                line = self._lines.get(timeout=timeout)
            except queue.Empty:
                raise EngineError("timeout", f"no {waiting_for} within the time limit") from None
            if line is None:
                self._lines.put(None)  # stays at end of file for later reads
                raise EngineError("crash", self._exit_text(f"output ended before {waiting_for}"))
            if line.strip():
                return line

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

    # -- protocol --------------------------------------------------------------------------

    def _handshake(self) -> None:
        self.send(HELLO)
        deadline = time.monotonic() + self.spec.init_timeout
        while True:
            line = self._next(deadline, "'ready' after the handshake")
            words = line.split()
            if words[0] == "ready":
                break
            if words[:2] == ["id", "name"]:
                self.id_name = line.split(None, 2)[2].strip() if len(words) > 2 else ""
            elif words[:2] == ["option", "name"] and len(words) > 2:
                self.announced[words[2]] = line
            elif words[0] not in ("id", "option", "info"):
                raise EngineError("garbage", f"unexpected line {line[:200]!r} in the handshake")
        for key, value in self.spec.options.items():
            if key not in self.announced:
                known = ", ".join(self.announced) or "none"
                raise EngineError("start", f"the engine has no option {key!r} (it has: {known})")
            self.send(f"setoption name {key} value {value}")

    def new_game(self, state: GameState, seed: int | None = None) -> None:
        """Tell the engine a new game starts and wait until it is ready. With ``seed``, an
        engine that announced a ``seed`` option (and whose spec does not set one) is sent it
        first, so that its games replay whichever process plays them."""
        self.last_info = None
        if seed is not None and "seed" in self.announced and "seed" not in self.spec.options:
            self.send(f"setoption name seed value {seed}")
        self.send(game_command(state))
        self.send("isready")
        deadline = time.monotonic() + self.spec.init_timeout
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
        legal action, or :class:`EngineError` (``time`` when the clock ran out first)."""
        self.send(position_command(state, seat, seed))
        movetime = 0 if timeout is None else max(1, round(1000 * timeout))
        times = None if clocks is None else [max(1, round(1000 * c)) for c in clocks]
        inc_ms = 0 if clocks is None else round(1000 * inc)
        self.send(go_command(state.num_players, movetime, times, inc_ms))
        limit = timeout
        by_clock = clocks is not None and (timeout is None or clocks[seat] < timeout)
        if clocks is not None and by_clock:
            limit = max(0.0, clocks[seat])
        deadline = None if limit is None else time.monotonic() + limit
        while True:
            try:
                line = self._next(deadline, "'bestaction'")
            except EngineError as e:
                if e.reason == "timeout" and by_clock:
                    raise EngineError("time", "no 'bestaction' before its clock ran out") from None
                raise
            words = line.split()
            if words[0] == "info":
                self.last_info = line[:500]
                continue
            if words[0] != "bestaction":
                raise EngineError(
                    "garbage", f"unexpected line {line[:200]!r} instead of bestaction"
                )
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
            return action

    # -- cleanup ---------------------------------------------------------------------------

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self, grace: float = 0.5) -> None:
        """Stop the engine: ``quit``, then after ``grace`` seconds SIGKILL to its whole process
        group; always reaped (no zombie)."""
        if self.proc.poll() is None and grace > 0:
            try:
                self.send("quit")
                self.proc.wait(timeout=grace)
            except (EngineError, subprocess.TimeoutExpired):
                pass
        self._kill_group()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        # stdout and stderr are closed by their reader threads at end of file: closing them
        # here would wait for a read that a stray grandchild holding the pipe can block
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()

    def _kill_group(self) -> None:
        # the engine leads its own process group: kill what it started too (a shell script's
        # `sleep`), even after the engine itself has exited
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)


class EnginePool:
    """The engine processes of one arena worker, reused from game to game: one per engine spec
    and seat slot (the k-th seat that spec holds in a game), restarted after a failure."""

    def __init__(self) -> None:
        self._engines: dict[tuple[str, int], EngineProcess] = {}

    def get(self, spec: str, slot: int) -> EngineProcess:
        """The running engine of ``spec`` in ``slot``, started if needed."""
        key = (spec, slot)
        engine = self._engines.get(key)
        if engine is not None and not engine.alive:
            self.discard(engine)
            engine = None
        if engine is None:
            engine = EngineProcess(parse_engine_spec(spec))
            self._engines[key] = engine
        return engine

    def discard(self, engine: EngineProcess) -> None:
        """Stop ``engine`` at once (after a failure: its state is unknown); the next game
        starts a fresh one."""
        for key, e in list(self._engines.items()):
            if e is engine:
                del self._engines[key]
        engine.close(grace=0)

    def close(self, grace: float = 0.5) -> None:
        """Stop every engine."""
        engines, self._engines = list(self._engines.values()), {}
        for engine in engines:
            engine.close(grace)


def check_engine(spec: str, state: GameState) -> str:
    """Start the engine of ``spec``, tell it ``state``'s game, stop it; its ``id name``, or
    ValueError saying why it cannot play (the arena asks before the first game)."""
    try:
        engine = EngineProcess(parse_engine_spec(spec))
    except EngineError as e:
        raise ValueError(f"{spec}: {e}") from None
    try:
        engine.new_game(state)
        return engine.id_name
    except EngineError as e:
        tail = "; stderr: " + " | ".join(engine.stderr_tail) if engine.stderr_tail else ""
        raise ValueError(f"{spec}: {e}{tail}") from None
    finally:
        engine.close()
