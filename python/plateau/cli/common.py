"""What the commands share: the game arguments (``--game``, ``--variant``, ``--option``), the
game spec they make, argparse types, and loading a saved game."""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections import Counter
from collections.abc import Callable
from typing import Any, TextIO

from plateau.checks import load_outside_json, plain_number, shown
from plateau.clock import MAX_SECONDS
from plateau.errors import InvalidArgumentError, InvalidRecordError, InvalidResultsError
from plateau.files import read_text_limited
from plateau.record import from_json, from_record
from plateau.registry import GameSpec, games, resolve
from plateau.state import GameState

#: the game of a command given no ``--game``
DEFAULT_GAME = "plateau-x"


def game_of(args: argparse.Namespace) -> str:
    """The name ``--game`` gives, or the default game."""
    return DEFAULT_GAME if args.game is None else str(args.game)


def game_given(args: argparse.Namespace) -> list[str]:
    """The flags of :func:`add_game_args` on the command line (``--game``, ``--variant``,
    ``--option``): what a command that takes its game from a file cannot also take."""
    given = [("--game", args.game is not None), ("--variant", args.variant is not None)]
    return [flag for flag, value in [*given, ("--option", bool(args.option))] if value]


def add_game_args(p: argparse.ArgumentParser, what: str = "the game to play") -> None:
    # not choices=: an unknown game is the registry's UnknownGameError, one line and exit 2
    p.add_argument(  # (default None: a command can tell that --game was given)
        "--game", default=None, help=f"{what}: {', '.join(games())} (default {DEFAULT_GAME})"
    )
    p.add_argument("--variant", default=None, help="variant name (default: the game's default)")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option (repeatable), e.g. board=ep24, board=my_board.json, max_plies=200; "
        "the value is read as JSON if it parses (numbers, true, false), else as text",
    )


def parse_option(text: str) -> tuple[str, object]:
    """``KEY=VALUE`` of ``--option``: the value as JSON where it parses, else the text.

    >>> parse_option("max_plies=200"), parse_option("board=ep24")
    (('max_plies', 200), ('board', 'ep24'))
    """
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise InvalidArgumentError(f"--option {text!r}: expected KEY=VALUE, e.g. board=ep24")
    twice: list[str] = []

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(pairs)
        if len(out) < len(pairs):  # (recorded, not raised: load_outside_json's error is text)
            twice.extend(k for k, n in Counter(k for k, _ in pairs).items() if n > 1)
        return out

    try:
        value: object = load_outside_json(raw, ValueError, "--option", pairs_hook)
    except ValueError:  # not JSON: the text itself (a board's name or path)
        value = raw
    if twice:  # (JSON, but ambiguous: refused rather than taken for a name)
        raise InvalidArgumentError(f"--option {key}: key {twice[0]!r} given twice in one object")
    return key, value


def spec_of(args: argparse.Namespace) -> GameSpec:
    """The game spec of ``--game``, ``--variant`` and the ``--option`` flags, checked once."""
    options: dict[str, object] = {}
    for text in args.option:
        key, value = parse_option(text)
        if key in options:
            raise InvalidArgumentError(f"--option {key}: given twice")
        options[key] = value
    return resolve(game_of(args), args.variant, **options)


def new_game_of(args: argparse.Namespace) -> GameState:
    """A new game of the command line's spec, after ``args.actions`` if it has them."""
    state = spec_of(args).new_game()
    state.apply_all(getattr(args, "actions", []))
    return state


def _int_of(text: str) -> int:
    """``text`` as an int, for the argparse types below (ArgumentTypeError otherwise)."""
    if not plain_number(text):
        raise argparse.ArgumentTypeError(f"{shown(text)} is not an integer (ASCII digits)")
    try:
        return int(text)
    except ValueError:  # (also a number of over 4,300 digits: shown cut)
        raise argparse.ArgumentTypeError(f"{shown(text)} is not an integer") from None


def int_at_least(low: int) -> Callable[[str], int]:
    """An argparse type: an int >= ``low`` (so ``--jobs 0`` is refused with a message)."""

    def parse(text: str) -> int:
        value = _int_of(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {shown(value)}")
        return value

    return parse


def int_in(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an int in [``low``, ``high``), the rule and words of the library's
    check (so ``demo --perft-depth 64`` is refused before it counts depths 1 to 63)."""

    def parse(text: str) -> int:
        value = _int_of(text)
        if not low <= value < high:
            raise argparse.ArgumentTypeError(
                f"must be an int in [{low}, {high}), got {shown(value)}"
            )
        return value

    return parse


def number(text: str) -> float:
    """A finite number in ASCII (argparse type; ``float()`` also reads other scripts' digits,
    ``1_0``, ``nan`` and ``inf``); -0 is 0."""
    try:
        if not plain_number(text):
            raise ValueError(text)
        value = float(text) + 0.0
    except ValueError:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {shown(text)}")
    return value


def positive_float(text: str) -> float:
    """A finite number > 0 (argparse type)."""
    value = number(text)
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
    return value


#: what an interrupted or stopped arena with --out adds to its one line
RESUME_HINT = " (the games so far are in --out; continue with --resume)"


def positive_seconds(text: str) -> float:
    """A number of seconds > 0 and at most :data:`MAX_SECONDS` (argparse type)."""
    value = positive_float(text)
    if value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_SECONDS:,.0f} seconds, got {text}")
    return value


def summary_stream(out: str) -> TextIO:
    """Where a command that wrote ``--out`` prints its summary: standard output, or standard
    error when ``--out`` is standard output itself (the summary would end up in the file)."""
    from plateau.files import descriptor_of

    return sys.stderr if descriptor_of(out) == 1 else sys.stdout


#: an integer in ASCII digits, its range left to the library's check (argparse type)
INTEGER = _int_of
POSITIVE = int_at_least(1)
NON_NEGATIVE = int_at_least(0)
#: a perft depth, as ``GameState.perft`` takes it (below the core's PERFT_MAX_DEPTH)
PERFT_DEPTH = int_in(0, 64)


def record_alone(args: argparse.Namespace) -> None:
    """With ``--record`` the record gives the game: refuse what would otherwise be ignored."""
    given = game_given(args) + (["ACTIONS"] if args.actions else [])
    if given:
        raise InvalidArgumentError(
            f"--record gives the game, its variant, options and actions: "
            f"{', '.join(given)} cannot go with it"
        )


def no_game_index(args: argparse.Namespace) -> None:
    if args.game_index is not None:
        raise InvalidArgumentError("--game-index picks a game of an arena file: it needs --record")


def load_game(path: str, game_index: int | None = None) -> tuple[GameState, str]:
    """The game in ``path``, a JSON game record or an arena's JSON-lines file (the game whose
    ``index`` is ``game_index``, default the file's first), and a title for it."""
    from plateau import arena
    from plateau.checks import load_outside_json

    text = read_text_limited(path, InvalidRecordError)
    first = text.lstrip().split("\n", 1)[0]
    try:
        head = load_outside_json(first, ValueError, path)
    except ValueError:
        head = None
    if not (isinstance(head, dict) and head.get("format") == arena.FORMAT):
        if game_index is not None:
            raise InvalidArgumentError(
                f"{path} is a game record, not an arena file: no --game-index"
            )
        state = from_json(text)
        return state, f"{os.path.basename(path)}: {state.game} {state.variant}"
    results = arena.read_results(path, text)  # (read once: the file may be a pipe)
    if not results:
        raise InvalidArgumentError(f"{path}: no arena game in the file")
    chosen = results[0] if game_index is None else None
    for r in results:
        if r.index == game_index:
            chosen = r
    if chosen is None:
        known = ", ".join(str(r.index) for r in results[:20])
        raise InvalidArgumentError(
            f"{path} has no game with index {game_index} (games: {known}, ...)"
        )
    try:
        state = from_record(chosen.record)
    except InvalidRecordError as e:
        raise InvalidResultsError(f"{path}: arena game {chosen.index}: its record: {e}") from None
    seats = ", ".join(f"{p}: {bot}" for p, bot in enumerate(chosen.seats))
    title = (
        f"arena game {chosen.index}, {chosen.game} {chosen.variant} ({seats}); "
        f"ranking {chosen.ranking}"
    )
    return state, title


def add_position_args(p: argparse.ArgumentParser) -> None:
    """The arguments of a command that takes a position: the game's, ACTIONS from the start,
    or a saved record (``--record``, ``--game-index``) instead."""
    add_game_args(p)
    p.add_argument("actions", nargs="*", help="actions from the start, in notation")
    p.add_argument("--record", help="a JSON game record or arena JSON-lines file instead")
    p.add_argument("--game-index", type=NON_NEGATIVE, help="the arena game (its index)")


def printable(text: str) -> str:
    """``text`` for a terminal: every character that is not printable but a newline (a
    terminal's escape sequences from a hostile file, say) shown as its Python escape."""
    return "".join(c if c.isprintable() or c == "\n" else repr(c)[1:-1] for c in text)


def position_of(args: argparse.Namespace) -> tuple[GameState, str | None]:
    """The position of :func:`add_position_args`' arguments, and the record's title (None for
    a new game)."""
    if args.record is not None:  # ("" is a path, which names no file)
        record_alone(args)
        return load_game(args.record, args.game_index)
    no_game_index(args)
    return new_game_of(args), None
