"""Openings: the positions arena games start from, so that a match measures play from a spread
of positions rather than the one start, and opening luck cancels out.

An opening file holds JSON lines, one opening per line, each a game record exactly as
:func:`plateau.record.to_record` writes it (the start or a set-up position, then actions): any
record of the library is an opening, provided its game is not over. ``docs/openings.md``
describes the format and the arena's use of it; :func:`make_openings` (``plateau openings``)
writes a file of positions a static evaluation judges even.

The arena plays games in groups of ``n`` (the number of players), the ``n`` rotations of seats,
and group ``k`` starts every game from opening ``k`` (:meth:`OpeningBook.opening`).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plateau.checks import (
    check_int,
    check_number,
    check_seed,
    check_state,
    load_outside_json,
    shown,
)
from plateau.errors import InvalidArgumentError, InvalidRecordError
from plateau.files import read_text_limited, replace_file
from plateau.record import from_record, to_record
from plateau.registry import GameSpec, spec_of
from plateau.state import GameState

#: random-ply openings that end the game are drawn again, at most this many times
RANDOM_ATTEMPTS = 100

#: the most random plies an opening takes (a game of Empire Plateau may never end: a larger
#: number would only make each opening slower)
MAX_RANDOM_PLIES = 10_000
#: the most plies ``make_openings`` keeps in all (``count * plies``): the openings are kept in
#: memory until they are all found (each ply a string, about 60 bytes), so this bounds them
#: to about a gigabyte; an arena's opening files are far smaller
MAX_OPENING_PLIES = 10_000_000


@dataclass(frozen=True)
class OpeningSource:
    """Where an arena's games start: the openings of a file (``path``, cycled through) or
    ``random_plies`` uniformly random plies from the start, seeded by the arena's seed and the
    group. Exactly one of the two.

    >>> OpeningSource(random_plies=4).describe()
    'random-plies=4'
    """

    path: str | os.PathLike[str] | None = None
    random_plies: int | None = None

    def __post_init__(self) -> None:
        if (self.path is None) == (self.random_plies is None):
            raise InvalidArgumentError(
                "an opening source is a file (path=) or random plies (random_plies=)"
            )
        if self.path is not None and not isinstance(self.path, (str, os.PathLike)):
            raise InvalidArgumentError(f"path is a path, got {type(self.path).__name__}")
        if self.random_plies is not None:
            check_int(self.random_plies, "random_plies", 1, MAX_RANDOM_PLIES + 1)

    def describe(self) -> str:
        """How results and reports name the source (a file by its name)."""
        if self.path is not None:
            return f"file {Path(self.path).name}"
        return f"random-plies={self.random_plies}"

    def book(self, game: str | GameSpec, variant: str | None, seed: int) -> OpeningBook:
        """The openings of this source for an arena of ``game``/``variant`` (or of a
        :class:`plateau.GameSpec` with ``variant`` None) with ``seed`` (a file is read and
        checked here, once, before any game)."""
        spec = spec_of(game, variant)
        seed = check_seed(seed)
        if self.path is not None:
            records = read_openings(self.path, spec)
            return OpeningBook(spec, seed, records=records, tag=_file_tag(records))
        plies = check_int(self.random_plies, "random_plies", 1, MAX_RANDOM_PLIES + 1)
        # the first group's opening now: a game that cannot last that long is an error here
        random_opening(spec, None, plies, _group_seed(seed, 0))
        return OpeningBook(spec, seed, plies=plies, tag=self.describe())


@dataclass(frozen=True)
class Opening:
    """The opening of one arena game: its index (the file's line, from 0, or the group of a
    random-ply opening), the record it starts from, and the source's tag."""

    index: int
    record: dict[str, Any]
    source: str

    @property
    def plies(self) -> int:
        """The plies of the opening (played before the bots' first move)."""
        return len(self.record["actions"])

    def start(self) -> GameState:
        """The game in the opening's position (a new state each call)."""
        return from_record(self.record)


@dataclass(frozen=True)
class OpeningBook:
    """The openings of an arena: the records of a file, or random plies seeded per group."""

    spec: GameSpec
    seed: int
    records: list[dict[str, Any]] | None = None
    plies: int = 0
    #: names the source in results: ``random-plies=N``, or a file by a digest of its openings
    #: (so that ``--resume`` refuses another file, not a renamed one)
    tag: str = ""

    def opening(self, group: int) -> Opening:
        """The opening of game group ``group`` (games ``n * group`` .. ``n * group + n - 1``
        for ``n`` players): the file's openings in turn, cycling, or ``plies`` random plies
        drawn with a seed of the arena's seed and the group."""
        group = check_int(group, "group", 0)
        if self.records is not None:
            index = group % len(self.records)
            return Opening(index, self.records[index], self.tag)
        record = random_opening(self.spec, None, self.plies, _group_seed(self.seed, group))
        return Opening(group, record, self.tag)

    @property
    def game(self) -> str:
        return self.spec.game

    @property
    def variant(self) -> str:
        return self.spec.variant


def _group_seed(seed: int, group: int) -> int:
    # mixed, so that arena seed s, group k+1 is not arena seed s+1, group k
    return (seed * 1_000_003 + group * 7_919 + 17) % 2**63


def _file_tag(records: list[dict[str, Any]]) -> str:
    text = "\n".join(json.dumps(r, sort_keys=True) for r in records)
    return f"file sha256={hashlib.sha256(text.encode()).hexdigest()[:16]}"


def random_opening(
    game: str | GameSpec, variant: str | None, plies: int, seed: int
) -> dict[str, Any]:
    """The record of ``game``/``variant`` (or of a :class:`plateau.GameSpec` with ``variant``
    None) after ``plies`` uniformly random plies from the start, drawn with
    ``random.Random(seed)``; a line that ends the game is drawn again (ValueError after
    :data:`RANDOM_ATTEMPTS` such lines).

    >>> r = random_opening("plateau-x", "mini", 3, seed=1)
    >>> len(r["actions"]), r == random_opening("plateau-x", "mini", 3, seed=1)
    (3, True)
    """
    spec = spec_of(game, variant)
    plies = check_int(plies, "plies", 0, MAX_RANDOM_PLIES + 1)
    rng = random.Random(check_seed(seed))  # (None drew another opening at every call)
    for _ in range(RANDOM_ATTEMPTS):
        state = spec.new_game()
        while state.ply < plies and not state.is_terminal():
            legal = state.legal_actions()
            state.apply(int(legal[rng.randrange(len(legal))]))
        if not state.is_terminal():
            return to_record(state)
    raise InvalidArgumentError(
        f"{plies} random plies ended all {RANDOM_ATTEMPTS} games of {spec.game}/{spec.variant} "
        "drawn with "
        f"seed {seed}: use fewer plies"
    )


def read_openings(
    path: str | os.PathLike[str], game: str | GameSpec | None = None, variant: str | None = None
) -> list[dict[str, Any]]:
    """The openings of a file, each replayed and written again as
    :func:`~plateau.record.to_record` does. A line that is not JSON, not a replayable record,
    of another game or variant than the one given (or, for a :class:`plateau.GameSpec`, with
    other options), or a finished game, is an error naming the line (blank lines are
    skipped)."""
    # (lines end at \n, \r or \r\n only, as open() splits them: str.splitlines would also cut
    # at U+2028 and other separators that JSON strings may hold raw)
    lines = io.StringIO(read_text_limited(path, InvalidRecordError), newline=None)
    out: list[dict[str, Any]] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}: line {number}"
        record = load_outside_json(line, InvalidRecordError, f"{where}: not JSON")
        try:
            state = from_record(record)
        except InvalidRecordError as e:
            raise InvalidRecordError(f"{where}: not an opening: {e}") from None
        except ValueError as e:
            raise InvalidRecordError(f"{where}: not a game record: {e}") from None
        options = None
        if isinstance(game, GameSpec):
            spec = game
            game, variant, options = spec.game, spec.variant, spec.options
        if game is not None and (state.game, state.variant) != (game, variant or state.variant):
            raise InvalidRecordError(
                f"{where}: an opening of {state.game}/{state.variant}, but the games are "
                f"{game}/{variant}"
            )
        if options is not None and state.options != options:
            raise InvalidRecordError(
                f"{where}: an opening with options {_short(state.options)}, but the games are "
                f"played with {_short(options)}"
            )
        if state.is_terminal():
            raise InvalidRecordError(
                f"{where}: the game is over after {state.ply} plies: an opening leaves a game "
                "to play"
            )
        out.append(to_record(state))
    if not out:
        raise InvalidRecordError(f"{path}: no openings (one game record per line)")
    return out


def write_openings(path: str | os.PathLike[str], records: Iterable[dict[str, Any]]) -> int:
    """Write ``records`` to ``path`` as an opening file; returns how many. Each record is
    checked first as :func:`read_openings` will read it (a game record of a game in progress):
    InvalidRecordError naming the first that is not, and nothing written."""
    if isinstance(records, (str, bytes, dict)) or not isinstance(records, Iterable):
        raise InvalidRecordError(f"records is a list of game records, got {shown(records)}")
    lines = []
    for number, record in enumerate(records):
        try:
            state = from_record(record)
        except ValueError as e:  # (InvalidRecordError included)
            raise InvalidRecordError(f"record {number}: not a game record: {e}") from None
        if state.is_terminal():
            raise InvalidRecordError(
                f"record {number}: the game is over after {state.ply} plies: an opening leaves "
                "a game to play"
            )
        lines.append(json.dumps(record, separators=(",", ":")) + "\n")
    if not lines:
        raise InvalidRecordError("no openings to write (read_openings refuses an empty file)")
    replace_file(path, "".join(lines))
    return len(lines)


def _short(options: dict[str, Any]) -> str:
    text = json.dumps(options, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."


def evaluation_spread(state: GameState) -> float:
    """How far from even a position is by the game's static evaluation
    (``state.heuristic``, a player's value minus the best other player's): the largest
    ``|heuristic(p)|`` over the players, which is the gap between the best and the worst
    player's values (with two players, ``|heuristic(0)|``). 0 is even.

    >>> import plateau
    >>> evaluation_spread(plateau.new_game("plateau-x", "mini"))
    0.0
    """
    check_state(state, "evaluation_spread takes")
    return max(abs(float(state.heuristic(p))) for p in range(state.num_players))


def make_openings(
    game: str | GameSpec,
    variant: str | None,
    count: int,
    plies: int,
    bot: str | None = None,
    max_eval: float | None = None,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """``count`` openings of ``game``/``variant`` (or of a :class:`plateau.GameSpec` with
    ``variant`` None) of ``plies`` plies each from the start: random plies, or the plies
    of ``bot`` (a library bot spec, seeded per line; it sees what the arena would show it),
    keeping positions that are not over, not seen before (by position hash) and, with
    ``max_eval``, whose :func:`evaluation_spread` is at most ``max_eval``. Deterministic for
    ``seed``; ValueError if ``count`` such positions are not found in
    ``max(1000, 50 * count)`` lines."""
    from plateau.bots import make_bot

    spec = spec_of(game, variant)
    plies = check_int(plies, "plies", 1, MAX_RANDOM_PLIES + 1)
    count = check_int(count, "count", 1)
    if count * plies > MAX_OPENING_PLIES:
        raise InvalidArgumentError(
            f"{count:,} openings of {plies:,} plies: at most {MAX_OPENING_PLIES:,} plies in all "
            "(plateau.openings.MAX_OPENING_PLIES: they are kept in memory until all are found)"
        )
    seed = check_seed(seed)
    if max_eval is not None:
        max_eval = check_number(max_eval, "max_eval", 0.0)
    if bot is not None:
        make_bot(bot).check_game(spec.new_game())
    rng = random.Random(seed)
    seen: set[int] = set()
    out: list[dict[str, Any]] = []
    attempts = max(1000, 50 * count)
    skipped = {"over": 0, "duplicate": 0, "uneven": 0}
    for _ in range(attempts):
        line_seed = rng.getrandbits(62)
        line_rng = random.Random(line_seed)
        players = spec.new_game().num_players
        bots = [make_bot(bot, seed=line_seed + p) for p in range(players)] if bot else []
        for b in bots:
            b.reset()
        state = spec.new_game()
        while state.ply < plies and not state.is_terminal():
            if bots:
                mover = state.current_player
                view = state.view_for(mover, seed=line_seed ^ state.ply)
                action = bots[mover].select_action(view)
            else:
                legal = state.legal_actions()
                action = int(legal[line_rng.randrange(len(legal))])
            state.apply(action)
        if state.is_terminal():
            skipped["over"] += 1
        elif state.hash in seen:
            skipped["duplicate"] += 1
        elif max_eval is not None and evaluation_spread(state) > max_eval:
            skipped["uneven"] += 1
        else:
            seen.add(state.hash)
            out.append(to_record(state))
            if len(out) == count:
                return out
    why = ", ".join(f"{n} {k}" for k, n in skipped.items())
    raise InvalidArgumentError(
        f"found {len(out)} of {count} openings of {spec.game}/{spec.variant} in {attempts} "
        f"lines of {plies} plies (skipped: {why}); raise --max-eval, change --plies or lower "
        "--count"
    )
