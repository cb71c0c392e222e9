"""The arena: bots play many games against each other, in parallel worker processes (or on a
Ray cluster), with seats rotated so that no bot keeps the first-move advantage. More bots than
seats make a tournament (a round robin or a gauntlet: :mod:`plateau.pairings`), reported with a
cross table and a Bradley-Terry ranking (:mod:`plateau.rating`). Every game is
written as one JSON line (with the engine's game record), results can be re-tabulated from
that file alone, and an interrupted arena resumes without replaying finished games.

A bot that raises, returns an illegal action or overruns ``move_timeout`` forfeits: it is placed
last, the others keep their order of the moment, and the error is recorded. A game still
running after ``ply_cap`` is scored by its ranking at that moment (``truncated``).

A seat may also be an external engine process speaking the engine protocol
(``engine:name=my,cmd="./my-engine"``; :mod:`plateau.engine`, ``docs/engine-protocol.md``):
each worker keeps one process per engine and seat slot, restarted after a failure. An engine
that crashes, hangs past ``move_timeout``, prints garbage or answers an unparseable or illegal
action forfeits that game, with the reason and the tail of its stderr in the result.

With ``sprt=SPRT(...)`` (:mod:`plateau.sprt`, two bots in a two-player game) the arena plays
game pairs, games ``2k`` and ``2k+1`` (the two seat orders), until the sequential test accepts
H1 or H0, or ``games`` (then a maximum) runs out: ``docs/sprt.md``.

With ``openings=OpeningSource(...)`` (:mod:`plateau.openings`, ``docs/openings.md``) games
start from the openings of a file or from random plies: games come in rounds (the ``n``
rotations of seats, or every seating of a tournament), and every game of round ``k`` starts from
opening ``k``, so that opening luck cancels out. With two players a round is an SPRT's pair.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import gc
import io
import itertools
import json
import math
import os
import re
import signal
import threading
import time
import traceback
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from multiprocessing import get_all_start_methods, get_context
from pathlib import Path
from typing import Any, BinaryIO, TypeVar, Union, cast

from plateau import files
from plateau.adjudication import Adjudication, Judge
from plateau.bots import make_bot
from plateau.bots.base import Bot
from plateau.checks import (
    FieldTable,
    check_fields,
    check_flag,
    check_int,
    check_number,
    load_outside_json,
    shown,
)
from plateau.checks import short_json as _short
from plateau.clock import MAX_SECONDS, TimeControl, held_to_budget, own_seconds
from plateau.engine import (
    EngineConnection,
    EngineError,
    EnginePool,
    check_engine,
    is_engine_spec,
    kill_marked,
    parse_engine_spec,
    parse_info,
)
from plateau.engine import split_outside_quotes as _split_outside_quotes
from plateau.errors import InvalidArgumentError, InvalidResultsError, PlateauError
from plateau.files import replace_file
from plateau.openings import Opening, OpeningSource
from plateau.pairings import FORMATS, Schedule, default_format, seat_order
from plateau.rating import CrossTable, Rating, bradley_terry, elo_interval, signed, wilson
from plateau.record import to_record
from plateau.registry import GameSpec, check_data_options, game_info, resolve, spec_of
from plateau.signals import ENDING_SIGNALS, Terminated, ending_signals_raise
from plateau.sprt import SPRT, SPRTCounter, SPRTState
from plateau.state import GameState, points_for_ranking
from plateau.tournament import Tournament

FORMAT = "plateau-arena-game"

#: the largest ``ply_cap`` an arena takes (a game's plies are C ints in the cores)
MAX_PLY_CAP = 2**31 - 1


@dataclass
class GameResult:
    """One arena game. Lists indexed by seat (the game's player number)."""

    index: int
    game: str
    variant: str
    seed: int
    seats: list[str]  # the bot spec in each seat
    ranking: list[list[int]]  # seats, best first
    returns: list[float]  # points by seat
    plies: int
    seconds: float
    truncated: bool = False
    # {"seat", "bot", "ply", "error", "reason", "traceback"} ("reason": "crash", "timeout",
    # "illegal"); an engine's: "reason" (EngineError's) and "stderr" (its last lines) instead
    # of "traceback"; a loss on time (--tc): "reason" "time"
    forfeit: dict[str, Any] | None = None
    record: dict[str, Any] = field(default_factory=dict)  # the engine's game record
    #: external engines by seat (str): {"name": its id name, "info": its last info line}
    engines: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: the SPRT this game belongs to: its settings (``SPRT.to_dict()``) and ``"games"``, the
    #: arena's maximum number of games; None in an arena without one
    sprt: dict[str, Any] | None = None
    #: the time control (``"10+0.1"``), None without clocks
    tc: str | None = None
    #: the seconds each move took its bot (measured by the arena), ply by ply after the opening
    move_seconds: list[float] = field(default_factory=list)
    #: the opening the game started from: its index (the line of the opening file, from 0, or
    #: the group of a random-ply opening), None for the start position
    opening: int | None = None
    #: the plies of the opening, the first plies of ``record["actions"]`` (the bots' moves follow)
    opening_plies: int = 0
    #: the arena's opening source (``OpeningBook.tag``), None without openings
    openings: str | None = None
    #: the game's options (every one, as the record's ``options``; ``{}`` in files written
    #: before results named them)
    options: dict[str, Any] = field(default_factory=dict)
    #: the arena's bot in each seat, as its index in the arena's list of bots (files written
    #: before tournaments: the rotation of ``seat_order``)
    players: list[int] = field(default_factory=list)
    #: a tournament's format and bots (``{"format": "round-robin", "bots": [labels]}``), None
    #: in an arena of one bot per seat
    schedule: dict[str, Any] | None = None
    #: what each move after the opening cost, as ``move_seconds``: ``[seat, depth, nodes,
    #: score]``, each null where the bot or engine did not say (engines: their last ``info``
    #: line of the move; library bots: ``Bot.search_info()``)
    move_stats: list[list[Any]] = field(default_factory=list)
    #: why the game ended before its end, None if it did not: ``{"by": "resign" | "draw" |
    #: "solver" | "ply-cap", "ply": ...}`` (:mod:`plateau.adjudication`)
    adjudicated: dict[str, Any] | None = None
    #: the arena's adjudication settings (``Adjudication.to_dict()``), None without
    adjudication: dict[str, Any] | None = None
    #: the arena's cap on a game's plies (``ply_cap``), None in files written before results
    #: recorded it
    ply_cap: int | None = None

    def __post_init__(self) -> None:
        if not self.players:
            self.players = seat_order(self.index, len(self.seats))

    def to_line(self) -> str:
        return json.dumps({"format": FORMAT, **asdict(self)})

    @classmethod
    def from_line(cls, line: str) -> GameResult:
        """The game of one results line; :class:`~plateau.InvalidResultsError` if it is not JSON or
        not an arena game (a field missing, unknown or of the wrong type)."""
        return cls.from_dict(load_outside_json(line, InvalidResultsError, "not JSON"))

    @classmethod
    def from_dict(cls, data: object) -> GameResult:
        """The game of one results line as JSON data, checked field by field (the one place
        results are checked: the statistics, ``arena-report``, ``view`` and ``show`` trust
        what comes out)."""
        fields = check_fields(data, FORMAT, _RESULT_FIELDS, InvalidResultsError, "an arena game")
        n = len(fields["seats"])
        seats = sorted(seat for group in fields["ranking"] for seat in group)
        if seats != list(range(n)):
            got = _short(fields["ranking"])
            raise InvalidResultsError(f"ranking {got} does not place each of {n} seats once")
        if len(fields["returns"]) != n:
            raise InvalidResultsError(f"returns has {len(fields['returns'])} values for {n} seats")
        points = _points_by_place(fields["game"], fields["variant"], fields.get("options", {}))
        if len(points) != n:
            raise InvalidResultsError(
                f"{n} seats in a game of {len(points)} players ({fields['game']} "
                f"{fields['variant']})"
            )
        expected = points_for_ranking(fields["ranking"], points)
        if not all(
            math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9)
            for got, want in zip(fields["returns"], expected)
        ):
            raise InvalidResultsError(
                f"returns {_short(fields['returns'])} are not the points of the ranking "
                f"{_short(fields['ranking'])} ({_short(expected)} in {fields['game']} "
                f"{fields['variant']}; files written before 2026-12-01 gave tied places other "
                "points)"
            )
        players = fields.get("players")
        if players is not None:
            schedule = fields.get("schedule")
            if len(players) != n:
                raise InvalidResultsError(f"players has {len(players)} bots for {n} seats")
            if schedule is None and sorted(players) != list(range(n)):
                got = _short(players)
                raise InvalidResultsError(f"players {got} is not an order of the {n} bots")
            if schedule is not None and max(players) >= len(schedule["bots"]):
                got = _short(players)
                raise InvalidResultsError(
                    f"players {got} names a bot beyond the {len(schedule['bots'])} of the schedule"
                )
        if any(stat[0] >= n for stat in fields.get("move_stats", [])):
            raise InvalidResultsError(f"move_stats names a seat beyond the {n} seats")
        forfeit = fields.get("forfeit")
        if forfeit is not None and forfeit["seat"] not in range(n):
            raise InvalidResultsError(f"forfeit seat {forfeit['seat']} is not one of {n} seats")
        return cls(**fields)


_PLACE_POINTS: dict[tuple[str, str, str], tuple[float, ...]] = {}


def _points_by_place(game: str, variant: str, options: Mapping[str, Any]) -> tuple[float, ...]:
    """The points of first, second, ... place in a results line's game (each game, variant
    and options worked out once, for the last 64 of them): every game scores the ranking by
    them, so a line's returns must be the points of its ranking."""
    key = (game, variant, json.dumps(options, sort_keys=True))
    points = _PLACE_POINTS.get(key)
    if points is None:
        try:
            check_data_options(game, dict(options))  # (no file a results file names is opened)
            points = tuple(resolve(game, variant, **options).new_game().points_by_place())
        except (ValueError, TypeError) as e:  # (the library's errors are ValueErrors)
            raise InvalidResultsError(
                f"not a game this library plays: {e} (a game a program registers must be "
                "registered in the program that reads its results too)"
            ) from None
        if len(_PLACE_POINTS) >= 64:
            _PLACE_POINTS.clear()
        _PLACE_POINTS[key] = points
    return points


#: the largest magnitude of an integer in a results line (the arena writes none near it): a
#: larger one would overflow the floats the report works in
_MAX_INT = 2**64


def _is_int(value: object, low: int | None = None) -> bool:
    ok = isinstance(value, int) and not isinstance(value, bool) and -_MAX_INT < value < _MAX_INT
    return ok and (low is None or value >= low)  # type: ignore[operator]


def _is_number(value: object) -> bool:
    """An int of at most ``_MAX_INT``'s magnitude or a float (finite or not: each field says)."""
    return _is_int(value) or isinstance(value, float)


def _is_seconds(value: object) -> bool:
    """A time in seconds: a finite number >= 0."""
    return _is_number(value) and math.isfinite(cast(float, value)) and cast(float, value) >= 0


def _is_sprt(value: object) -> bool:
    """The SPRT field: None, or settings that make an SPRT and an optional ``games`` count."""
    if value is None:
        return True
    if not isinstance(value, dict) or not _is_int(value.get("games", 0), 0):
        return False
    try:
        SPRT(**{k: v for k, v in value.items() if k != "games"})
    except (TypeError, ValueError, OverflowError):
        return False
    return True


def _is_schedule(value: object) -> bool:
    if value is None:
        return True
    return (
        isinstance(value, dict)
        and set(value) == {"format", "bots"}
        and value["format"] in FORMATS
        and isinstance(value["bots"], list)
        and len(value["bots"]) >= 2
        and all(isinstance(b, str) for b in value["bots"])
    )


def _is_move_stat(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 4
        and _is_int(value[0], 0)
        and all(v is None or _is_int(v, 0) for v in value[1:3])
        and (value[3] is None or (_is_number(value[3]) and math.isfinite(value[3])))
    )


def _is_adjudication(value: object) -> bool:
    if value is None:
        return True
    if not isinstance(value, dict):
        return False
    try:
        Adjudication(**value)
    except (TypeError, ValueError):
        return False
    return True


def _is_forfeit(value: object) -> bool:
    return value is None or (isinstance(value, dict) and _is_int(value.get("seat"), 0))


#: each field of a results line: its check, what the check wants (for the message), required
_RESULT_FIELDS: FieldTable = {
    "index": (lambda v: _is_int(v, 0), "an integer >= 0", True),
    "game": (lambda v: isinstance(v, str), "a string", True),
    "variant": (lambda v: isinstance(v, str), "a string", True),
    "seed": (_is_int, "an integer", True),
    "seats": (
        lambda v: isinstance(v, list) and v != [] and all(isinstance(s, str) for s in v),
        "a list of bot specs (strings)",
        True,
    ),
    "ranking": (
        lambda v: (
            isinstance(v, list)
            and v != []
            and all(isinstance(g, list) and g != [] and all(_is_int(s) for s in g) for g in v)
        ),
        "a list of groups of seats (lists of integers), best first",
        True,
    ),
    "returns": (
        lambda v: isinstance(v, list) and all(_is_number(x) for x in v),
        "a list of numbers",
        True,
    ),
    "plies": (lambda v: _is_int(v, 0), "an integer >= 0", True),
    "seconds": (_is_seconds, "a finite number >= 0", True),
    "truncated": (lambda v: isinstance(v, bool), "true or false", False),
    "forfeit": (_is_forfeit, 'null or an object with its "seat"', False),
    "record": (lambda v: isinstance(v, dict), "an object (a game record)", False),
    "engines": (
        lambda v: isinstance(v, dict) and all(isinstance(e, dict) for e in v.values()),
        "an object of objects",
        False,
    ),
    "sprt": (_is_sprt, "null or an SPRT's settings", False),
    "tc": (lambda v: v is None or isinstance(v, str), "null or a string", False),
    "move_seconds": (
        lambda v: isinstance(v, list) and all(_is_seconds(x) for x in v),
        "a list of finite numbers >= 0",
        False,
    ),
    "opening": (lambda v: v is None or _is_int(v, 0), "null or an integer >= 0", False),
    "opening_plies": (lambda v: _is_int(v, 0), "an integer >= 0", False),
    "openings": (lambda v: v is None or isinstance(v, str), "null or a string", False),
    "options": (lambda v: isinstance(v, dict), "an object (the game's options)", False),
    "players": (
        lambda v: isinstance(v, list) and all(_is_int(b, 0) for b in v) and len(set(v)) == len(v),
        "a list of distinct bot numbers >= 0",
        False,
    ),
    "schedule": (_is_schedule, 'null or {"format": ..., "bots": [...]}', False),
    "move_stats": (
        lambda v: isinstance(v, list) and all(_is_move_stat(m) for m in v),
        "a list of [seat, depth, nodes, score] (numbers or null)",
        False,
    ),
    "adjudicated": (
        lambda v: v is None or (isinstance(v, dict) and isinstance(v.get("by"), str)),
        'null or an object with its "by"',
        False,
    ),
    "adjudication": (_is_adjudication, "null or adjudication settings", False),
    "ply_cap": (
        lambda v: v is None or (_is_int(v, 1) and v <= MAX_PLY_CAP),
        f"null or an integer in [1, {MAX_PLY_CAP}]",
        False,
    ),
}


_KEY_VALUE = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*=")


def split_bot_list(text: str) -> list[str]:
    """Split ``"mcts:iters=2000,c=1.4,greedy,random"`` into bot specs: a comma (outside
    quotes) starts a new bot unless what follows is another ``key=value`` of the current one.

    >>> split_bot_list("mcts:iters=2000,c=1.4,greedy,random")
    ['mcts:iters=2000,c=1.4', 'greedy', 'random']
    >>> split_bot_list('engine:name=my,cmd="./my-engine --x a,b",random')
    ['engine:name=my,cmd="./my-engine --x a,b"', 'random']
    """
    specs: list[str] = []
    for token in (t.strip() for t in _split_outside_quotes(text)):
        if not token:
            raise InvalidArgumentError(f"empty bot in {text!r}")
        if _KEY_VALUE.match(token) and specs:
            specs[-1] += "," + token
        else:
            specs.append(token)
    return specs


#: what the arena accepts for a seat: a spec string (``"mcts:iters=500"``,
#: ``"mypkg.bots:MyBot"``, or an external engine ``'engine:name=my,cmd="./my-engine"'``), a
#: Bot subclass or factory called with ``seed=``, or a Bot object
#: (copied for each game). Classes, factories and objects must be picklable to cross processes
#: (defined at module level).
BotSource = Union[str, Bot, Callable[..., Bot]]


def build_bot(source: BotSource, seed: int) -> Bot:
    """A fresh bot for one game from a seat's :data:`BotSource` (not an engine spec: engines
    are processes the arena talks to, not bots)."""
    if is_engine_spec(source):
        raise InvalidArgumentError(
            f"{source!r} is an external engine: the arena plays it, not as a Bot"
        )
    if isinstance(source, str):
        return make_bot(source, seed=seed)
    if isinstance(source, Bot):
        return copy.deepcopy(source)
    if callable(source):
        try:
            bot = source(seed=seed)
        except TypeError as e:
            if e.__traceback__ is not None and e.__traceback__.tb_next is not None:
                raise  # (raised inside the factory: its own bug, shown as it is)
            # (the call itself failed: not a factory of bots, as int or print take no seed=)
            raise InvalidArgumentError(
                f"{bot_label(source)} does not make a bot from seed= ({e})"
            ) from None
        if not isinstance(bot, Bot):
            raise InvalidArgumentError(
                f"{bot_label(source)} made a {type(bot).__name__}, not a Bot"
            )
        return bot
    raise InvalidArgumentError(
        f"a bot is a spec string, a Bot, or a Bot class or factory, got {source!r}"
    )


def bot_label(source: BotSource) -> str:
    """How a seat's bot is named in results and records: a spec string as written, but an
    engine as ``engine:NAME``, by its spec's ``name=`` (by default its command's file name),
    not by its command line."""
    if isinstance(source, str):
        if is_engine_spec(source):
            try:
                return "engine:" + parse_engine_spec(source).name
            except ValueError:
                return source
        return source
    if isinstance(source, Bot):
        return source.describe()
    return f"{getattr(source, '__module__', '?')}:{getattr(source, '__qualname__', source)}"


def _seed_for(seed: int, index: int, seat: int) -> int:
    return (seed * 1_000_003 + index * 101 + seat) % 2**63


#: the engine processes of this process while an arena runs here (set by ``run`` and in its
#: workers); a game played outside them starts and stops its own
_POOL: EnginePool | None = None


def _check_limits(ply_cap: object, move_timeout: object) -> tuple[int, float | None]:
    """An arena's ``ply_cap`` (an int in [1, 2**31)) and ``move_timeout`` (None or seconds in
    (0, 1e6]), checked: a string timeout made every bot forfeit with a crash, a negative one
    on time, and NaN never timed out."""
    cap = check_int(ply_cap, "ply_cap", 1, MAX_PLY_CAP + 1)
    if move_timeout is None:
        return cap, None
    timeout = check_number(move_timeout, "move_timeout", 0.0)
    if not 0 < timeout <= MAX_SECONDS:
        raise InvalidArgumentError(
            f"move_timeout must be None or in (0, {MAX_SECONDS:,.0f}] seconds, got {timeout!r}"
        )
    return cap, timeout


def play_game(
    game: str | GameSpec,
    variant: str | None,
    specs: Sequence[BotSource],
    index: int,
    seed: int = 0,
    move_timeout: float | None = None,
    ply_cap: int = 400,
    tc: TimeControl | None = None,
    opening: Opening | None = None,
    adjudication: Adjudication | None = None,
) -> GameResult:
    """Play arena game ``index`` of ``game`` (a name with its ``variant``, or a
    :class:`plateau.GameSpec` with ``variant`` None) with ``specs[seat]`` in each seat (never
    raises for a bot's fault: that is a forfeit), with a clock per seat under the time control
    ``tc``, from the position of ``opening`` (None: the start), ended early by
    ``adjudication`` (:mod:`plateau.adjudication`) when it says so."""
    spec = spec_of(game, variant)
    ply_cap, move_timeout = _check_limits(ply_cap, move_timeout)
    pool = _POOL if _POOL is not None else EnginePool()
    try:
        return _play_game(
            spec, specs, index, seed, move_timeout, ply_cap, pool, tc, opening, adjudication
        )
    finally:
        if pool is not _POOL:
            pool.close()


class _Forfeit(Exception):
    """A seat lost its game by its own fault; ``details`` is the result's forfeit entry."""

    def __init__(self, details: dict[str, Any]) -> None:
        super().__init__(details["error"])
        self.details = details


class _Seat:
    """One seat of an arena game, played by the one loop of :func:`_play_game`: a library bot
    (:class:`_BotSeat`) or an engine process (:class:`_EngineSeat`). Each step raises
    :class:`_Forfeit` for the seat's own fault."""

    def __init__(self, seat: int, label: str) -> None:
        self.seat = seat
        self.label = label

    def _forfeit(self, ply: int, error: str, **more: Any) -> _Forfeit:
        """This seat's forfeit at ``ply``: the result's entry, with ``more`` fields."""
        return _Forfeit({"seat": self.seat, "bot": self.label, "ply": ply, "error": error, **more})

    def start(self, state: GameState, seed: int) -> None:
        """Get ready for the game from ``state``."""

    def move(
        self,
        state: GameState,
        view_seed: int,
        move_timeout: float | None,
        clocks: list[float] | None,
        inc: float,
    ) -> float:
        """Choose an action from what this seat may know, apply it to ``state``; returns the
        seconds it took."""
        raise NotImplementedError

    def broken(self, ply: int) -> dict[str, Any] | None:
        """The forfeit of a seat that broke the rules of play while others moved (an engine
        that flooded its output), or None."""
        return None

    def engine_info(self) -> dict[str, Any] | None:
        """What an engine said of itself (its name and last info line); None for a bot."""
        return None

    def search_info(self) -> dict[str, Any]:
        """What the seat's last move cost: any of ``depth``, ``nodes`` and ``score``."""
        return {}


class _BotSeat(_Seat):
    """A library bot, built afresh for the game, asked on the seat's view of the position."""

    def __init__(self, seat: int, label: str, source: BotSource, seed: int) -> None:
        super().__init__(seat, label)
        self.bot = build_bot(source, seed)
        self.bot.reset()
        self.own = own_seconds(self.bot.params)

    def move(
        self,
        state: GameState,
        view_seed: int,
        move_timeout: float | None,
        clocks: list[float] | None,
        inc: float,
    ) -> float:
        probe = state.view_for(self.seat, seed=view_seed)
        if clocks is not None and self.own > 0:  # a bot that searches by time: the budget
            self.bot.params["seconds"] = held_to_budget(self.own, clocks[self.seat], inc)
        started = time.perf_counter()
        reason = "crash"  # (what a failure at each stage is: the bot's, its time, its action)
        try:
            action = self.bot.select_action(probe)
            spent = time.perf_counter() - started
            if clocks is not None and spent > clocks[self.seat]:
                left = clocks[self.seat]
                raise self._forfeit(
                    state.ply, f"lost on time: took {spent:.3f} s, {left:.3f} s left", reason="time"
                )
            if move_timeout is not None and spent > move_timeout:
                reason = "timeout"
                raise TimeoutError(f"took {spent:.3f} s for a move (limit {move_timeout} s)")
            reason = "illegal"
            state.apply(action)
        except (_Forfeit, Terminated):
            raise
        except (Exception, SystemExit) as e:  # a bot's fault, whatever it is (sys.exit too),
            # forfeits its game
            error = f"{type(e).__name__}: {e}"
            trace = traceback.format_exc(limit=4)
            raise self._forfeit(state.ply, error, reason=reason, traceback=trace) from None
        return spent

    def search_info(self) -> dict[str, Any]:
        """The bot's ``search_info()``, kept only where well formed (a bot of someone else's
        may return anything; a fault there costs its statistics, not its game)."""
        try:
            info = self.bot.search_info()
        except Exception:
            return {}
        if not isinstance(info, dict):
            return {}
        out: dict[str, Any] = {}
        for key in ("depth", "nodes"):
            v: Any = info.get(key)
            if _is_int(v, 0) and v < 2**63:
                out[key] = v
        score: Any = info.get("score")
        if _is_number(score) and math.isfinite(score):
            out["score"] = float(score)
        return out


class _EngineSeat(_Seat):
    """An engine process of the pool (``slot``: the k-th seat of this engine in the game),
    told only what its seat may know (``EngineConnection.position_command``)."""

    def __init__(self, seat: int, label: str, spec: str, slot: int, pool: EnginePool) -> None:
        super().__init__(seat, label)
        self.spec = spec
        self.slot = slot
        self.pool = pool
        self.engine: EngineConnection | None = None

    def _lost(self, ply: int, error: EngineError) -> _Forfeit:
        tail = list(self.engine.stderr_tail) if self.engine is not None else []
        if self.engine is not None:
            self.pool.discard(self.engine)  # its state is unknown: the next game starts afresh
        return self._forfeit(ply, str(error), reason=error.reason, stderr=tail)

    def start(self, state: GameState, seed: int) -> None:
        try:
            self.engine = self.pool.get(self.spec, self.slot)
            self.engine.new_game(state, seed)
        except EngineError as e:  # it cannot start this game: a forfeit before the first move
            raise self._lost(state.ply, e) from None

    def move(
        self,
        state: GameState,
        view_seed: int,
        move_timeout: float | None,
        clocks: list[float] | None,
        inc: float,
    ) -> float:
        assert self.engine is not None  # started
        try:
            self.engine.settle()  # (the barrier after its last answer: not on its clock)
        except EngineError as e:
            raise self._lost(state.ply, e) from None
        started = time.perf_counter()
        try:
            action = self.engine.select_action(
                state, self.seat, view_seed, move_timeout, clocks, inc
            )
            spent = time.perf_counter() - started
            if clocks is not None and spent > clocks[self.seat]:
                raise EngineError("time", f"took {spent:.3f} s, {clocks[self.seat]:.3f} s left")
            state.apply(action)
        except EngineError as e:
            raise self._lost(state.ply, e) from None
        return spent

    def broken(self, ply: int) -> dict[str, Any] | None:
        if self.engine is None or self.engine.failure is None:
            return None
        return self._lost(ply, self.engine.failure).details

    def engine_info(self) -> dict[str, Any] | None:
        if self.engine is None:
            return None
        return {"name": self.engine.id_name, "info": self.engine.last_info}

    def search_info(self) -> dict[str, Any]:
        return parse_info(self.engine.move_info) if self.engine is not None else {}


def _play_game(
    game: GameSpec,
    specs: Sequence[BotSource],
    index: int,
    seed: int,
    move_timeout: float | None,
    ply_cap: int,
    pool: EnginePool,
    tc: TimeControl | None = None,
    opening: Opening | None = None,
    adjudication: Adjudication | None = None,
) -> GameResult:
    state = opening.start() if opening is not None else game.new_game()
    judge: Judge | None = (
        adjudication.judge() if adjudication is not None and adjudication.active else None
    )
    adjudicated: dict[str, Any] | None = None
    adjudged: list[list[int]] | None = None
    move_stats: list[list[Any]] = []
    clocks = [tc.base] * state.num_players if tc is not None else None
    inc = tc.inc if tc is not None else 0.0
    move_seconds: list[float] = []
    labels = [bot_label(spec) for spec in specs]
    # the bots are built first (a source that cannot make one is the caller's error, raised),
    # then the engines start in seat order (the first that cannot forfeits the game)
    seats: list[_Seat] = []
    for seat, spec in enumerate(specs):
        if isinstance(spec, str) and is_engine_spec(spec):
            slot = sum(s == spec for s in specs[:seat])  # the k-th seat of this engine
            seats.append(_EngineSeat(seat, labels[seat], spec, slot, pool))
        else:
            seats.append(_BotSeat(seat, labels[seat], spec, _seed_for(seed, index, seat)))
    forfeit: dict[str, Any] | None = None
    for one in seats:
        try:
            one.start(state, _seed_for(seed, index, one.seat))
        except _Forfeit as f:
            forfeit = f.details
            break
    t0 = time.perf_counter()
    while forfeit is None and not state.is_terminal() and state.ply < ply_cap:
        forfeit = _broken(seats, state.ply)
        if forfeit is not None:
            break
        one = seats[state.current_player]
        view_seed = _seed_for(seed, index, one.seat) ^ state.ply
        try:
            spent = one.move(state, view_seed, move_timeout, clocks, inc)
        except _Forfeit as f:
            forfeit = f.details
            break
        move_seconds.append(round(spent, 4))
        info = one.search_info()
        score = info.get("score")
        move_stats.append([one.seat, info.get("depth"), info.get("nodes"), score])
        if clocks is not None:
            clocks[one.seat] += inc - spent
        if judge is not None and not state.is_terminal():
            verdict = judge.after_move(state, one.seat, score)
            if verdict is not None:
                adjudged, adjudicated = verdict
                break
    # an engine that broke the protocol after its last move
    if forfeit is None and adjudged is None:
        forfeit = _broken(seats, state.ply)
    ranking = adjudged if adjudged is not None else state.ranking()
    if forfeit is not None:
        loser = forfeit["seat"]
        ranking = [g for g in ([p for p in grp if p != loser] for grp in ranking) if g]
        ranking.append([loser])
    truncated = forfeit is None and adjudged is None and not state.is_terminal()
    if truncated:
        adjudicated = {"by": "ply-cap", "ply": state.ply}
    if forfeit is None and adjudged is None and state.is_terminal():
        returns = state.returns()  # the game's own scoring of a finished game
    else:  # a forfeit, an adjudication or the ply limit: points by place of the ranking then
        returns = state.points_for(ranking)
    engines = {str(one.seat): one.engine_info() for one in seats}
    return GameResult(
        index=index,
        game=game.game,
        variant=game.variant,
        options=dict(game.options),
        seed=seed,
        seats=labels,
        ranking=ranking,
        returns=returns,
        plies=state.ply,
        seconds=round(time.perf_counter() - t0, 4),
        truncated=truncated,
        forfeit=forfeit,
        record=to_record(state),
        engines={seat: info for seat, info in engines.items() if info is not None},
        tc=tc.describe() if tc is not None else None,
        move_seconds=move_seconds,
        opening=opening.index if opening is not None else None,
        opening_plies=opening.plies if opening is not None else 0,
        openings=opening.source if opening is not None else None,
        move_stats=move_stats,
        adjudicated=adjudicated,
        adjudication=adjudication.to_dict() if judge is not None and adjudication else None,
        ply_cap=ply_cap,
    )


def _broken(seats: list[_Seat], ply: int) -> dict[str, Any] | None:
    """The forfeit of the first seat that broke the rules of play while others moved."""
    for one in seats:
        forfeit = one.broken(ply)
        if forfeit is not None:
            return forfeit
    return None


# -- statistics ---------------------------------------------------------------------------------


@dataclass
class BotStats:
    """One bot's line of the results table."""

    bot: str
    games: int
    wins: int  # first place alone
    points: float
    mean: float
    ci95: float  # half-width of the 95% confidence interval of the mean points
    win_rate: float  # wins / games
    forfeits: int
    elo: float | None = None  # 2-player variants: Elo difference against the other bot
    elo_ci95: tuple[float, float] | None = None
    shared: int = 0  # first place shared with other seats (a draw between two players)


def score_of(result: GameResult, bot: int, num_bots: int = 0) -> float:
    """Bot ``bot``'s score in a game it played: 1 for a first place of its own, 1/k for a first
    place shared by k seats, 0 otherwise (a forfeit is last place, so 0 in a two-player game).
    ``num_bots`` is not needed (the result names its bots) and kept for old callers."""
    seat = result.players.index(bot)
    first = result.ranking[0]
    return 1.0 / len(first) if seat in first else 0.0


def sprt_state(results: Iterable[GameResult], sprt: SPRT, max_games: int | None) -> SPRTState:
    """The test over complete pairs ``(2k, 2k+1)`` taken in order, up to the first decision
    or the first pair with a game missing: the same games decide it however many workers
    played them and in whatever order they finished. With ``max_games``, a test still
    undecided once every pair is in is ``"inconclusive"``."""
    by_index = {r.index: r for r in results}
    counter = SPRTCounter(sprt)
    k = 0
    while 2 * k in by_index and 2 * k + 1 in by_index and counter.decision is None:
        counter.add_pair(score_of(by_index[2 * k], 0, 2), score_of(by_index[2 * k + 1], 0, 2))
        k += 1
    return counter.state(exhausted=max_games is not None and 2 * k >= max_games)


def _sprt_cut(results: list[GameResult], state: SPRTState) -> list[GameResult]:
    """The games of a decided test up to its decision (games that finished in other workers
    after it are not part of it)."""
    if state.decision in ("H0", "H1"):
        return [r for r in results if r.index < 2 * state.pairs]
    return results


@dataclass
class SearchStats:
    """What one bot's moves cost over an arena (None where no move said)."""

    bot: str
    moves: int
    seconds_per_move: float | None
    nodes_per_second: float | None
    mean_depth: float | None


@dataclass
class SeatStats:
    """One seat's line of the table by seat (seat 0 moves first), over every game whatever bot
    sat there: the first player's advantage when the same bot sits in every seat."""

    seat: int
    games: int
    wins: int  # first place alone
    shared: int  # first place shared with other seats (a draw in a two-player game)
    win_rate: float  # wins / games
    win_ci95: tuple[float, float]  # the Wilson 95% interval of the win rate
    mean: float  # mean points (the game's returns)
    #: the seat moves first from the game's start position (with its options: Plateau X's
    #: ``first_player`` moves another seat first); False for all if that is not known
    first: bool = False


@dataclass
class ArenaResult:
    """All games of an arena and their statistics (with an SPRT: up to its decision)."""

    game: str
    variant: str
    bots: list[str]
    results: list[GameResult]
    sprt: SPRT | None = None
    #: the maximum number of games of an arena with an SPRT (None: not known)
    max_games: int | None = None
    #: the game's options (``{}``: not known, in files written before results named them)
    options: dict[str, Any] = field(default_factory=dict)
    #: the tournament format (:data:`plateau.pairings.FORMATS`): ``seats`` for one bot per seat
    format: str = "seats"

    def sprt_state(self) -> SPRTState | None:
        """Where the arena's SPRT stands (None without one): the counts, LLR and decision."""
        if self.sprt is None:
            return None
        return sprt_state(self.results, self.sprt, self.max_games)

    def stats(self) -> list[BotStats]:
        """Per bot (over the games it played, in all its seats): games, wins (first place
        alone) and first places shared, points, mean points with a 95% confidence interval
        (normal approximation), win rate (wins / games), forfeits, and with two bots the Elo
        difference from the score (a shared first place scores 1/2), its interval mapped from
        the Wilson interval of the score (a clean sweep: :func:`plateau.rating.elo_interval`)."""
        out = []
        two = len(self.bots) == 2
        for b, spec in enumerate(self.bots):
            pts, wins, shared, forfeits, score = [], 0, 0, 0, 0.0
            for r in self.results:
                if b not in r.players:
                    continue
                seat = r.players.index(b)
                pts.append(r.returns[seat])
                if seat in r.ranking[0]:
                    if len(r.ranking[0]) == 1:
                        wins += 1
                    else:
                        shared += 1
                    score += score_of(r, b)
                if r.forfeit is not None and r.forfeit["seat"] == seat:
                    forfeits += 1
            n = len(pts)
            mean = sum(pts) / n if n else 0.0
            var = sum((p - mean) ** 2 for p in pts) / (n - 1) if n > 1 else 0.0
            stat = BotStats(
                bot=spec,
                games=n,
                wins=wins,
                points=sum(pts),
                mean=mean,
                ci95=1.96 * math.sqrt(var / n) if n else 0.0,
                win_rate=wins / n if n else 0.0,
                forfeits=forfeits,
                shared=shared,
            )
            if two and n:
                elo, lo, hi = elo_interval(score / n, n)
                stat.elo = elo
                stat.elo_ci95 = (lo, hi)
            out.append(stat)
        return out

    def seat_stats(self) -> list[SeatStats]:
        """Per seat (the player number), over all games whoever sat there: games, wins (first
        place alone), first places shared, the win rate with its Wilson 95% interval
        (:func:`plateau.rating.wilson`), mean points, and whether the seat moves first (seat 0
        unless an option says otherwise, as Plateau X's ``first_player``). With the same bot in
        every seat it measures what moving first (or second, ...) is worth. It counts from each
        game's own ranking and returns, so it holds for every game alike; an opening's random
        plies are part of the game (the seat that moved first is still the one marked)."""
        n = max((len(r.seats) for r in self.results), default=0)
        mover = self._first_mover()
        games, wins, shared, points = [0] * n, [0] * n, [0] * n, [0.0] * n
        for r in self.results:
            first = r.ranking[0]
            for seat, ret in enumerate(r.returns):
                games[seat] += 1
                points[seat] += ret
                if seat in first:
                    if len(first) == 1:
                        wins[seat] += 1
                    else:
                        shared[seat] += 1
        return [
            SeatStats(
                seat=k,
                games=games[k],
                wins=wins[k],
                shared=shared[k],
                win_rate=wins[k] / games[k] if games[k] else 0.0,
                win_ci95=wilson(wins[k] / games[k], games[k]) if games[k] else (0.0, 1.0),
                mean=points[k] / games[k] if games[k] else 0.0,
                first=k == mover,
            )
            for k in range(n)
        ]

    def _first_mover(self) -> int | None:
        """The seat to move in the start position of the arena's game and options (None if
        the game cannot be made here, e.g. a board file this machine does not have)."""
        try:
            return spec_of(self.game, self.variant, self.options).new_game().current_player
        except PlateauError:
            return None

    def search_stats(self) -> list[SearchStats]:
        """Per bot: its moves, the mean seconds a move, and from what its moves reported
        (``GameResult.move_stats``) nodes per second (the nodes over the seconds of the moves
        that gave nodes) and the mean depth."""
        k = len(self.bots)
        moves, secs = [0] * k, [0.0] * k
        nodes, node_secs, depth, depths = [0] * k, [0.0] * k, [0] * k, [0] * k
        for r in self.results:
            for stat, spent in zip(r.move_stats, r.move_seconds):
                seat, d, n, _ = stat
                b = r.players[seat]
                moves[b] += 1
                secs[b] += spent
                if n is not None:
                    nodes[b] += n
                    node_secs[b] += spent
                if d is not None:
                    depth[b] += d
                    depths[b] += 1
        return [
            SearchStats(
                bot=self.bots[b],
                moves=moves[b],
                seconds_per_move=secs[b] / moves[b] if moves[b] else None,
                nodes_per_second=nodes[b] / node_secs[b] if node_secs[b] > 0 else None,
                mean_depth=depth[b] / depths[b] if depths[b] else None,
            )
            for b in range(k)
        ]

    def cross_table(self) -> CrossTable:
        """Every pair of bots' results against each other (:mod:`plateau.rating`: in a game of
        three or four, each pair's places compared)."""
        return CrossTable.of(len(self.bots), ((r.players, r.ranking) for r in self.results))

    def ratings(self) -> list[Rating]:
        """Every bot's Elo from a Bradley-Terry fit of the cross table, best first
        (:func:`plateau.rating.bradley_terry`)."""
        return bradley_terry(self.cross_table())

    def tournament(self) -> Tournament:
        """The games as tournament rounds of the game's own scoring, per bot (points by place,
        ties by wins): an arena of one bot per seat only (``format`` ``seats``)."""
        if self.format != "seats":
            raise InvalidArgumentError(
                f"a {self.format} arena has more bots than seats: its games are not rounds of "
                "one tournament of the game (see cross_table() and ratings())"
            )
        t = Tournament(self.game, self.variant, **self.options)
        for r in self.results:
            t.add([[r.players[seat] for seat in group] for group in r.ranking])
        return t

    def _labels(self) -> list[str]:
        """Each bot's name for the tables: its spec, numbered when several bots share it."""
        return [
            spec + (f" #{self.bots[: i + 1].count(spec)}" if self.bots.count(spec) > 1 else "")
            for i, spec in enumerate(self.bots)
        ]

    def format_table(self) -> str:
        """The statistics as Markdown: a table per bot, with more than two bots the cross
        table of pairwise scores and the ranking by Bradley-Terry Elo, and a table per seat
        (:meth:`seat_stats`: the first player's advantage)."""
        head = (
            "| bot | games | wins | shared first | points | mean points (95% CI) | win rate "
            "| forfeits |"
        )
        rule = "|---|---:|---:|---:|---:|---|---:|---:|"
        two = len(self.bots) == 2
        if two:
            head += " Elo diff (95% CI) |"
            rule += "---|"
        lines = [head, rule]
        labels = self._labels()
        for label, s in zip(labels, self.stats()):
            line = (
                f"| {label} | {s.games} | {s.wins} | {s.shared} | {s.points:g} "
                f"| {s.mean:.3f} ± {s.ci95:.3f} "
                f"| {100 * s.win_rate:.1f}% | {s.forfeits} |"
            )
            if two and s.elo is not None and s.elo_ci95 is not None:
                lo, hi = s.elo_ci95
                line += f" {signed(s.elo)} ({signed(lo)} .. {signed(hi)}) |"
            lines.append(line)
        if len(self.bots) > 2 and self.results:
            lines += ["", *self._format_cross_table(labels), "", *self._format_ratings(labels)]
        if self.results:
            lines += ["", *self._format_seats()]
        if any(r.move_stats for r in self.results):
            lines += ["", *self._format_search(labels)]
        truncated = sum(r.truncated for r in self.results)
        lines.append("")
        if self.format == "seats":
            how = "seats rotated"
        else:
            sched = Schedule.make(self.format, len(self.bots), len(self.results[0].seats))
            rounds, rest = divmod(len(self.results), sched.round_games)
            how = (
                f"{self.format}, {sched.round_games} games a round (every seating), "
                f"{rounds} round{'s' * (rounds != 1)}"
                + (f" and {rest} games of one more" if rest else "")
            )
        lines.append(
            f"{len(self.results)} games of {self.game}/{self.variant}"
            f"{_options_text(self.game, self.options)}"
            f", {how}; "
            f"{truncated} stopped at the ply limit and scored by their ranking then."
        )
        sources = sorted({r.openings for r in self.results if r.openings is not None})
        if sources:
            used = len({r.opening for r in self.results})
            if self.format == "seats":
                lines.append(
                    f"Openings ({', '.join(sources)}): {used} used, one for each group of "
                    f"{len(self.bots)} games (the seat rotations)."
                )
            else:
                lines.append(
                    f"Openings ({', '.join(sources)}): {used} used, one for each round "
                    "(every seating of every pairing starts from it)."
                )
        adjudicated = [r.adjudicated for r in self.results if r.adjudicated is not None]
        settings = next((r.adjudication for r in self.results if r.adjudication), None)
        if settings is not None:
            by = {
                how: sum(a.get("by") == how for a in adjudicated)
                for how in ("resign", "draw", "solver")
            }
            lines.append(
                f"Adjudication ({Adjudication(**settings).describe()}): "
                + ", ".join(f"{n} by {how}" for how, n in by.items())
                + "."
            )
        timed = sorted({r.tc for r in self.results if r.tc is not None})
        if timed:
            on_time = sum(
                r.forfeit is not None and r.forfeit.get("reason") == "time" for r in self.results
            )
            lines.append(f"Time control {', '.join(timed)}: {on_time} games lost on time.")
        state = self.sprt_state()
        if state is not None:
            lines.append("")
            lines.append(f"SPRT {state.sprt.describe()} for {self.bots[0]} against {self.bots[1]}:")
            lines.append(state.format())
            outcomes = ("0", "1/2", "1", "3/2", "2")
            pairs = ", ".join(f"{name}: {n}" for name, n in zip(outcomes, state.pentanomial))
            lost, drawn, won = state.trinomial
            lines.append(
                f"pairs by {self.bots[0]}'s score: {pairs}; games won {won}, drawn {drawn}, "
                f"lost {lost}"
            )
        return "\n".join(lines)

    def _format_seats(self) -> list[str]:
        """The table by seat: how each seat did, whoever sat there (:meth:`seat_stats`)."""
        lines = [
            "By seat (whichever bot sat there; wins are first places alone, Wilson 95% CI):",
            "",
            "| seat | games | wins | shared first | win rate (95% CI) | mean points |",
            "|---|---:|---:|---:|---|---:|",
        ]
        for s in self.seat_stats():
            lo, hi = s.win_ci95
            seat = f"{s.seat} (moves first)" if s.first else str(s.seat)
            lines.append(
                f"| {seat} | {s.games} | {s.wins} | {s.shared} | {100 * s.win_rate:.1f}% "
                f"({100 * lo:.1f} .. {100 * hi:.1f}) | {s.mean:.3f} |"
            )
        return lines

    def _format_search(self, labels: list[str]) -> list[str]:
        """What each bot's moves cost: time, and the nodes and depth its moves reported."""
        lines = [
            "| bot | moves | seconds a move | nodes/s | mean depth |",
            "|---|---:|---:|---:|---:|",
        ]
        for label, s in zip(labels, self.search_stats()):
            per = f"{s.seconds_per_move:.4f}" if s.seconds_per_move is not None else "-"
            nps = f"{s.nodes_per_second:,.0f}" if s.nodes_per_second is not None else "-"
            depth = f"{s.mean_depth:.1f}" if s.mean_depth is not None else "-"
            lines.append(f"| {label} | {s.moves} | {per} | {nps} | {depth} |")
        return lines

    def _format_cross_table(self, labels: list[str]) -> list[str]:
        """The cross table: row bot's score against column bot, its games and Elo interval."""
        table = self.cross_table()
        k = len(self.bots)
        lines = [
            "Cross table (the row's score against the column; games; Elo, 95% CI):",
            "",
            "| | " + " | ".join(labels) + " |",
            "|---|" + "---|" * k,
        ]
        for a in range(k):
            cells = []
            for b in range(k):
                n = table.games[a][b]
                if a == b or not n:
                    cells.append("" if a == b else "-")
                    continue
                elo, lo, hi = elo_interval(table.points[a][b] / n, n)
                cells.append(
                    f"{table.points[a][b]:g}/{n} {signed(elo)} ({signed(lo)} .. {signed(hi)})"
                )
            lines.append(f"| {labels[a]} | " + " | ".join(cells) + " |")
        return lines

    def _format_ratings(self, labels: list[str]) -> list[str]:
        """The ranking by Bradley-Terry Elo, centred on the field's mean."""
        lines = [
            "Ranking (Bradley-Terry maximum likelihood over the pairwise scores, one virtual draw "
            "per pair; Elo centred on the field's mean, 95% CI):",
            "",
            "| rank | bot | Elo | ± | pairwise score | pairwise games |",
            "|---:|---|---:|---:|---:|---:|",
        ]
        for place, r in enumerate(self.ratings(), 1):
            share = f"{100 * r.points / r.games:.1f}%" if r.games else "-"
            lines.append(
                f"| {place} | {labels[r.bot]} | {signed(r.elo)} | {r.ci95:.0f} | "
                f"{r.points:g} ({share}) | {r.games} |"
            )
        return lines


# -- running ------------------------------------------------------------------------------------


def read_results(path: str | os.PathLike[str], text: str | None = None) -> list[GameResult]:
    """The games in a JSON-lines file (a regular file or a pipe, read line by line: as many
    lines as it holds, each of at most ``plateau.files.MAX_INPUT_FILE_BYTES``); a torn last
    line (an interrupted write: not JSON, no newline after it) is ignored, any other bad line
    is an :class:`~plateau.InvalidResultsError` naming the file and line
    (``games.jsonl:3: ...``). ``text``: the file's text, already read (a pipe can be read
    once only); ``path`` then only names it in errors."""
    return _read_results(path, text)[0]


def _read_results(
    path: str | os.PathLike[str], text: str | None = None
) -> tuple[list[GameResult], list[int]]:
    """``read_results``, and the lengths of the file's lines that are not blank."""
    out = []
    sizes = []
    lines: dict[int, int] = {}  # game index -> its line
    limit = files.MAX_INPUT_FILE_BYTES
    source: BinaryIO = (
        files.open_input(path, InvalidResultsError)
        if text is None
        else io.BytesIO(text.encode("utf-8", "surrogatepass"))
    )
    with source as f:
        for number in itertools.count(1):
            raw = f.readline(limit + 1)
            if not raw:
                break
            last = not raw.endswith(b"\n")
            if last and len(raw) > limit:
                raise InvalidResultsError(f"{path}:{number}: a line of more than {limit} bytes")
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                raise InvalidResultsError(
                    f"{path}:{number}: not UTF-8 text (byte {e.start} of the line)"
                ) from None
            if not line.strip():
                continue
            sizes.append(len(line.rstrip("\r\n")))
            try:
                result = GameResult.from_line(line)
            except InvalidResultsError as e:
                if last and str(e).startswith("not JSON"):
                    break  # the last line, without its newline: a write cut short
                raise InvalidResultsError(
                    f"{path}:{number}: this line is not an arena game: {e}"
                ) from None
            if result.index in lines:  # (a report counted it twice; a resume kept the last)
                raise InvalidResultsError(
                    f"{path}:{number}: game {result.index} again (line {lines[result.index]}): "
                    "two arenas wrote to this file? Keep one line of each game"
                )
            lines[result.index] = number
            out.append(result)
    return out, sizes


def report(path: str | os.PathLike[str]) -> ArenaResult:
    """Re-tabulate an arena from its JSON-lines file alone."""
    results, sizes = _read_results(path)
    if not results:
        found = (
            "the file is empty"
            if not sizes
            else f"its only line ({sizes[0]} characters) is not an arena game"
        )
        raise InvalidArgumentError(
            f"{path}: no arena games ({found}); `plateau arena --out` writes them"
        )
    first = results[0]
    if first.schedule is not None:
        bots = list(first.schedule["bots"])
        fmt = str(first.schedule["format"])
    else:
        bots = [first.seats[first.players.index(b)] for b in range(len(first.seats))]
        fmt = "seats"
    try:
        schedule = Schedule.make(fmt, len(bots), len(first.seats))
    except InvalidArgumentError as e:
        raise InvalidArgumentError(f"{path}: {e}") from None
    for r in results:
        if (
            (r.game, r.variant, r.options) != (first.game, first.variant, first.options)
            or r.schedule != first.schedule
            or r.adjudication != first.adjudication
            or r.players != schedule.players(r.index)
            or r.seats != [bots[b] for b in r.players]
            or _without_games(r.sprt) != _without_games(first.sprt)
            or r.openings != first.openings
        ):
            raise InvalidArgumentError(f"{path}: game {r.index} belongs to another arena")
    results.sort(key=lambda r: r.index)
    if first.sprt is None:
        return ArenaResult(
            first.game, first.variant, bots, results, options=first.options, format=fmt
        )
    sprt = SPRT(**(_without_games(first.sprt) or {}))
    # a resumed test may have raised its maximum: the later lines carry the larger one
    max_games = max(int((r.sprt or {}).get("games", 0)) for r in results) or None
    results = _sprt_cut(results, sprt_state(results, sprt, max_games))
    return ArenaResult(
        first.game, first.variant, bots, results, sprt, max_games, options=first.options
    )


def max_jobs() -> int:
    """The most worker processes an arena may be asked for: four per CPU, at least 64 (an
    arena starts no more workers than it has games)."""
    return max(64, 4 * (os.cpu_count() or 1))


#: the most games one arena run may name (the process backend makes their tasks as it plays
#: them, and its memory grows with the games played, about 10 KiB each with their records)
MAX_GAMES = 10**9


class _Tasks:
    """The arguments of :func:`play_game` for each of ``games`` games not in ``done``, made one
    at a time as they are taken (an arena of many games holds no list of them)."""

    def __init__(
        self, games: int, done: Mapping[int, Any], make: Callable[[int], tuple[Any, ...]]
    ) -> None:
        self.games, self.done, self.make = games, done, make
        self.count = games - sum(1 for i in done if 0 <= i < games)

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return (self.make(i) for i in range(self.games) if i not in self.done)


class ArenaWorkerError(RuntimeError):
    """A worker process of an arena died in a game (a library bot that ended its process, or a
    signal sent to the worker): the arena stops, its workers and engines with it, and the games
    it finished are in its output file (``--resume`` continues). Not a ``PlateauError``: no
    input was refused."""


def _worker_died(e: BaseException) -> ArenaWorkerError:
    return ArenaWorkerError(
        "a worker process of the arena died in a game (a bot that ended its process, or a "
        f"signal sent to the worker): {e}"
    )


def _run_local(tasks: _Tasks, jobs: int) -> Generator[GameResult, None, None]:
    global _POOL
    # (with fork, the pool starts every worker at once: never more than there are games)
    jobs = min(jobs, len(tasks))
    if jobs <= 1:
        _POOL = EnginePool()
        try:
            for task in tasks:
                yield play_game(*task)
        finally:  # the end, an error, Ctrl-C or the consumer stopping: engines stop
            engines, _POOL = _POOL, None
            engines.close()
        return
    # fork where the platform has it: workers start at once and scripts need no __main__ guard
    method = "fork" if "fork" in get_all_start_methods() else "spawn"
    # workers ignore Ctrl-C: the parent alone handles it, stops them, and the games written so
    # far stay in the output file for --resume
    pool = ProcessPoolExecutor(
        max_workers=jobs, mp_context=get_context(method), initializer=_init_worker
    )
    try:
        pending: set[Future[GameResult]] = set()
        source = iter(tasks)
        more = True
        while more or pending:
            while more and len(pending) < 2 * jobs:
                item = next(source, None)
                more = item is not None
                if item is not None:
                    try:
                        pending.add(pool.submit(play_game, *item))
                    except BrokenProcessPool as e:  # (a worker died since the last wait)
                        raise _worker_died(e) from None
            if not pending:
                break
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            broken = None
            for fut in done:  # the games that ended first: they go to --out
                failure = fut.exception()
                if isinstance(failure, BrokenProcessPool):
                    broken = failure
                    continue
                yield fut.result()
            if broken is not None:
                raise _worker_died(broken)
    except BaseException:
        # interrupted (or the consumer stopped): do not wait for games in progress, but do
        # wait (a few seconds at most) for the workers to stop their engines and exit, so
        # that nothing of the arena outlives it
        workers = list(getattr(pool, "_processes", {}).values())
        manager = getattr(pool, "_executor_manager_thread", None)  # shutdown forgets it
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in workers:
            proc.terminate()
        end = time.monotonic() + 5.0
        for proc in workers:
            proc.join(max(0.0, end - time.monotonic()))
        for proc in workers:
            if proc.is_alive():
                proc.kill()
        # and for the pool's manager thread, which sees the workers gone and closes its wakeup
        # pipe: left running, it races the interpreter's exit hook, which writes to that pipe
        # (CPython before 3.12.8 and 3.13.1, gh-125451: "Bad file descriptor" and a traceback
        # after the arena has ended)
        if manager is not None:
            manager.join(max(0.0, end - time.monotonic()) + 1.0)
        raise
    pool.shutdown()


_F = TypeVar("_F", bound=Callable[..., Any])


def _stops_cleanly(fn: _F) -> _F:
    """``fn`` run with :func:`_ending_signals_raise`."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with ending_signals_raise():
            return fn(*args, **kwargs)

    return cast(_F, wrapper)


def _kill_child_groups() -> None:
    """SIGKILL to every child process of this one and, for a child leading a process group of
    its own (an engine: it runs in a session of its own), to that group: the engines of an
    arena worker that must stop now, those it is still starting included. Where there is no
    ``/proc`` (not Linux), nothing: the pool's engines are stopped by the pool."""
    me = os.getpid()
    try:
        entries = os.listdir("/proc")
    except OSError:
        return
    for name in entries:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile
        if ppid != me:
            continue
        pid = int(name)
        with contextlib.suppress(OSError):
            if os.getpgid(pid) == pid:
                os.killpg(pid, signal.SIGKILL)
            else:
                os.kill(pid, signal.SIGKILL)


def _init_worker() -> None:
    global _POOL
    # what the worker inherited from the arena's process is never collected here: a process
    # that had run a Ray arena left objects whose finalizers, run by a forked worker's
    # collector, crashed it (SIGSEGV: the games died as a worker died); it also keeps the
    # pages of those objects shared with the parent
    gc.freeze()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in ENDING_SIGNALS:  # not the arena's Terminated, inherited through fork
        signal.signal(signum, signal.SIG_DFL)
    _POOL = pool = EnginePool()
    # a worker that ends normally stops its engines on the way out (multiprocessing runs its
    # finalizers, not atexit); one stopped by the parent (SIGTERM: Ctrl-C, an error, a
    # signal to the arena) or by a hangup of its terminal kills them
    from multiprocessing.util import Finalize

    Finalize(None, pool.close, exitpriority=10)

    def on_sigterm(signum: int, frame: object) -> None:
        pool.close(grace=0)
        # an engine still in its handshake is not in the pool yet: its group, and what left
        # the group (marked with this worker's pid, see EngineProcess)
        _kill_child_groups()
        kill_marked(f"{os.getpid()}.", prefix=True)
        os._exit(128 + signum)

    for signum in ENDING_SIGNALS:
        signal.signal(signum, on_sigterm)
    # a parent that dies without stopping us (SIGKILL) leaves us to init: stop then too
    parent = os.getppid()

    def watch_parent() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch_parent, name="plateau-watch-parent", daemon=True).start()


def _run_ray(tasks: _Tasks, address: str | None) -> Generator[GameResult, None, None]:
    try:
        import ray  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise InvalidArgumentError(
            "the ray backend needs Ray: pip install 'plateau[ray]'"
        ) from None
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
    pending: list[Any] = []
    try:
        remote = ray.remote(play_game)
        source = iter(tasks)
        more = True
        while more or pending:
            # as many games in flight as the cluster has CPUs, twice over, read again as games
            # end: a cluster that scales grows the window (all the games at once held a task
            # for each: an arena of 10**9 games grew without bound)
            cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call,unused-ignore]
            window = max(2, 2 * int(cpus))
            while more and len(pending) < window:
                item = next(source, None)
                more = item is not None
                if item is not None:
                    pending.append(remote.remote(*item))
            if not pending:
                break
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        # the end, an error, Ctrl-C or the consumer stopping (an SPRT decided): the games in
        # flight are cancelled, on a cluster that outlives the arena too (a game waiting in a
        # call, such as a read of an engine's answer, ends when the call returns: not forced,
        # so that its engines are stopped by the game)
        for ref in pending:
            with contextlib.suppress(Exception):
                ray.cancel(ref)
        if started_here:
            ray.shutdown()


@_stops_cleanly
def run(
    game: str | GameSpec,
    variant: str | None,
    bots: Sequence[BotSource],
    games: int,
    jobs: int = 1,
    seed: int = 0,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    backend: str = "process",
    address: str | None = None,
    move_timeout: float | None = None,
    ply_cap: int = 400,
    progress: bool | Callable[[Iterable[GameResult], int], Iterable[GameResult]] = False,
    sprt: SPRT | None = None,
    tc: TimeControl | None = None,
    openings: OpeningSource | None = None,
    options: Mapping[str, Any] | None = None,
    format: str | None = None,
    adjudication: Adjudication | None = None,
) -> ArenaResult:
    """Play ``games`` games of ``game`` (a name with its ``variant``, None for the default, and
    its ``options``; or a :class:`plateau.GameSpec` alone) by ``bots`` (each a spec string, a
    Bot subclass or factory, or a Bot object: see :data:`BotSource`) and return the results.
    With ``out``, each game is appended to that JSON-lines file as it finishes; with
    ``resume``, games already in it are kept and not replayed.

    ``format`` (:mod:`plateau.pairings`) says who plays: ``"seats"`` (the default with one bot
    per seat) rotates the bots one seat per game; ``"round-robin"`` (the default with more bots
    than seats) plays every set of as many bots as seats in every seating, and ``"gauntlet"``
    only the sets with the first bot. Games come in rounds of every seating; a tournament's
    table adds the cross table and the Bradley-Terry ranking.

    With ``adjudication`` (:class:`plateau.adjudication.Adjudication`, two-player games) a game
    ends early by resignation, a draw or the solver, as its settings say; each such game
    records why (``GameResult.adjudicated``), as does one stopped at ``ply_cap``.

    With ``sprt`` (two bots), ``games`` is a maximum: game pairs are played until the test
    decides (``ArenaResult.sprt_state()``), and the results stop at its decision.

    With ``tc`` (:class:`plateau.clock.TimeControl`) each seat has a clock per game: engines
    are sent it with every ``go``, library bots that search by time (``seconds``) are held to a
    budget from it, every move is measured, and a bot whose clock runs out loses on time (a
    forfeit with reason ``time``).

    With ``openings`` (:class:`plateau.openings.OpeningSource`: a file, or random plies drawn
    from ``seed``) games ``n * k`` to ``n * k + n - 1`` (the ``n`` seat rotations; an SPRT's
    pair with two players) all start from opening ``k``; each game's record holds the opening's
    plies then the bots' moves, and ``GameResult.opening`` names the opening.

    Run from the main thread, SIGTERM and SIGHUP end it as Ctrl-C does (its workers and
    engines stop, the games so far stay in ``out``), by :class:`plateau.signals.Terminated`."""
    spec = spec_of(game, variant, options)
    probe = spec.new_game()
    # (the cheap checks first: the bots are built and engines started below)
    ply_cap, move_timeout = _check_limits(ply_cap, move_timeout)
    resume = check_flag(resume, "resume")
    if not callable(progress):
        progress = check_flag(progress, "progress")
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence):
        raise InvalidArgumentError(
            f"bots is a list of bot specs, Bot classes, factories or bots, got {shown(bots)}"
        )
    bots = list(bots)
    if out is not None and not isinstance(out, (str, os.PathLike)):
        raise InvalidArgumentError(f"out is a path or None, got {type(out).__name__}")
    if format is None:
        format = default_format(len(bots), probe.num_players)
    try:
        schedule = Schedule.make(format, len(bots), probe.num_players)
    except InvalidArgumentError as e:
        raise InvalidArgumentError(f"{spec.game}/{spec.variant}: {e}; bots: {bots}") from None
    for bot in bots:
        # every bot is built and asked before any game starts: a bad spec, or a bot that
        # cannot play this game (alphabeta with four players), is an error, not forfeits; an
        # engine is started, told the game and stopped
        if isinstance(bot, str) and is_engine_spec(bot):
            check_engine(bot, probe)
        else:
            build_bot(bot, 0).check_game(probe)
    games = check_int(games, "games", 0, MAX_GAMES + 1)
    jobs = check_int(jobs, "jobs", 1)
    if jobs > max_jobs():
        raise InvalidArgumentError(
            f"jobs={jobs}: an arena starts at most {max_jobs()} worker processes on this "
            f"machine (four per CPU, at least 64)"
        )
    # (each game's seeds are taken mod 2**63: seed 2**63 played the games of seed 0)
    seed = check_int(seed, "seed", 0, 2**63)
    if not isinstance(backend, str) or backend not in ("process", "ray"):
        raise InvalidArgumentError(f"unknown backend {backend!r} (process or ray)")
    if tc is not None and not isinstance(tc, TimeControl):
        raise InvalidArgumentError(f"tc must be a plateau.clock.TimeControl, got {tc!r}")
    tc_text = tc.describe() if tc is not None else None
    if openings is not None and not isinstance(openings, OpeningSource):
        raise InvalidArgumentError(
            f"openings must be a plateau.openings.OpeningSource, got {openings!r}"
        )
    book = openings.book(spec, None, seed) if openings is not None else None
    book_tag = book.tag if book is not None else None
    opening_cache: dict[int, Opening] = {}

    def opening_of(index: int) -> Opening | None:
        """The opening of game ``index``: that of its round (its seat rotations)."""
        if book is None:
            return None
        group = schedule.round_of(index)
        if group not in opening_cache:
            opening_cache[group] = book.opening(group)
        return opening_cache[group]

    tag: dict[str, Any] | None = None
    labels = [bot_label(b) for b in bots]
    sched_tag = None if format == "seats" else {"format": format, "bots": labels}
    if adjudication is not None and not isinstance(adjudication, Adjudication):
        raise InvalidArgumentError(
            f"adjudication must be a plateau.adjudication.Adjudication, got {adjudication!r}"
        )
    if adjudication is not None and not adjudication.active:
        adjudication = None
    if adjudication is not None and probe.num_players != 2:
        raise InvalidArgumentError(
            f"adjudication is for two-player games; {spec.game}/{spec.variant} has "
            f"{probe.num_players} players"
        )
    adj_tag = adjudication.to_dict() if adjudication is not None else None
    if sprt is not None:
        if not isinstance(sprt, SPRT):
            raise InvalidArgumentError(f"sprt must be a plateau.sprt.SPRT, got {sprt!r}")
        if len(bots) != 2 or format != "seats":
            raise InvalidArgumentError(
                f"an SPRT compares two bots in a two-player game (format seats), got "
                f"{len(bots)} bots, format {format}"
            )
        if games < 2 or games % 2:
            raise InvalidArgumentError(
                f"an SPRT plays game pairs: games must be even and >= 2, got {games}"
            )
        tag = {**sprt.to_dict(), "games": games}
    done: dict[int, GameResult] = {}
    if out is not None and Path(out).exists():
        if not resume:
            raise InvalidArgumentError(f"{out} exists: pass resume=True (--resume) or another file")
        for r in read_results(out):
            same = (r.game, r.variant, r.seed) == (spec.game, spec.variant, seed)
            same = same and r.options in ({}, spec.options)  # {}: written before options
            # an SPRT arena resumes with the same test (its maximum of games may change)
            same = same and _without_games(r.sprt) == _without_games(tag) and r.tc == tc_text
            # the same openings, each game from its group's
            same = same and r.openings == book_tag and r.opening == _index_of(opening_of(r.index))
            same = same and r.schedule == sched_tag and r.players == schedule.players(r.index)
            same = same and r.adjudication == adj_tag
            same = same and r.ply_cap in (None, ply_cap)  # None: written before caps were
            if not same or r.seats != [labels[b] for b in r.players]:
                raise InvalidArgumentError(
                    f"{out}: game {r.index} was played by another arena setup"
                )
            done[r.index] = r
        # rewrite without a torn last line, whole or not at all: the saved games stay safe
        replace_file(out, "".join(r.to_line() + "\n" for r in done.values()))
    counter = SPRTCounter(sprt) if sprt is not None else None

    def decided() -> bool:
        """Feed the test the pairs complete in order; True once it has decided."""
        if counter is None:
            return False
        while counter.decision is None:
            k = counter.pairs
            if 2 * k not in done or 2 * k + 1 not in done:
                break
            counter.add_pair(score_of(done[2 * k], 0, 2), score_of(done[2 * k + 1], 0, 2))
        return counter.decision is not None

    finished = decided()  # a resumed test may have decided already

    def task(i: int) -> tuple[Any, ...]:
        return (
            spec,
            None,
            [bots[b] for b in schedule.players(i)],
            i,
            seed,
            move_timeout,
            ply_cap,
            tc,
            opening_of(i),
            adjudication,
        )

    tasks = _Tasks(0 if finished else games, done, task)
    source: Generator[GameResult, None, None] = (
        _run_ray(tasks, address) if backend == "ray" else _run_local(tasks, jobs)
    )
    stream: Iterable[GameResult] = source
    if callable(progress):
        stream = progress(stream, len(tasks))
    elif progress:  # an SPRT's bar counts games and shows the test, with no ETA to its maximum
        stream = _tqdm(stream, None if sprt is not None else len(tasks))
    sink = open(out, "a", encoding="utf-8") if out is not None else None  # noqa: SIM115
    try:
        for result in stream:
            result.sprt = tag
            result.players = schedule.players(result.index)
            result.schedule = sched_tag
            done[result.index] = result
            if sink is not None:
                sink.write(result.to_line() + "\n")
                sink.flush()
            if counter is not None:
                stop = decided()
                if hasattr(stream, "set_postfix_str"):  # the progress bar shows the test
                    lower, upper = counter.sprt.bounds
                    stream.set_postfix_str(
                        f"LLR {counter.llr:.2f} of bounds ({lower:.2f}, {upper:.2f}), "
                        f"{counter.pairs} pairs",
                        refresh=False,
                    )
                if stop:
                    break
    finally:
        if sink is not None:
            sink.close()
        # a decided test stops the games still running; the workers and engines stop
        source.close()
        if stream is not source and hasattr(stream, "close"):
            stream.close()
    results = [done[i] for i in sorted(done) if i < games]
    opts = dict(spec.options)
    if sprt is None:
        return ArenaResult(spec.game, spec.variant, labels, results, options=opts, format=format)
    results = _sprt_cut(results, sprt_state(results, sprt, games))
    return ArenaResult(spec.game, spec.variant, labels, results, sprt, games, options=opts)


def _options_text(game: str, options: Mapping[str, Any]) -> str:
    """The options that differ from the game's defaults, as `` (board=ep24)`` for the table's
    closing line ("" for none); long values, such as a board's JSON, cut short."""
    defaults = game_info(game).options
    shown = [
        f"{k}={v if len(str(v)) <= 40 else str(v)[:37] + '...'}"
        for k, v in options.items()
        if k not in defaults or defaults[k] != v
    ]
    return f" ({', '.join(shown)})" if shown else ""


def _index_of(opening: Opening | None) -> int | None:
    return opening.index if opening is not None else None


def _without_games(tag: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if tag is None else {k: v for k, v in tag.items() if k != "games"}


def _tqdm(stream: Iterable[GameResult], total: int | None) -> Iterable[GameResult]:
    """A progress bar over the games: with a ``total``, its ETA; without (an SPRT, which
    stops when it decides), the count, the rate and the test's LLR."""
    from tqdm import tqdm  # type: ignore[import-untyped]  # progress bar with rate and ETA

    bar: Iterable[GameResult] = tqdm(stream, total=total, unit="game", desc="arena", smoothing=0.1)
    return bar
