"""Test-position suites: positions with a proven forced win and every winning first action, the
way chess has its EPD suites, and a bot's or engine's score on them (``docs/suites.md``).

A suite is a JSON-lines file; each line is one position::

    {"format": "plateau-suite", "id": "x-mini-0007", "game": "plateau-x", "variant": "mini",
     "options": {}, "actions": ["T@c3c4d4", ...], "to_move": 1, "value": "win", "distance": 3,
     "best": ["f5-f3"], "winning": ["f5-f3", "end"], "difficulty": 3,
     "comment": "greedy v mcts:iters=200, seed 12, ply 31"}

``actions`` lead from the start of the game (its variant and options) to the position, in
notation; ``to_move`` is the player to act there; ``value`` and ``distance`` are what the solver
proved for that player (a win in ``distance`` actions); ``winning`` lists every first action
that keeps the win and ``best`` those that win fastest; ``difficulty`` grades the position
(the distance). With ``within`` (optional, for games where a slower win cannot be told from no
win: no move limit), ``winning`` lists every first action that wins within that many actions,
and the others are proven not to. A bot *solves* a position when the action it chooses is one
of ``winning``.

The suites shipped with the library are found by name (:func:`suite_path`): each game's package
holds its own under ``suites/``.
"""

from __future__ import annotations

import importlib.resources
import io
import json
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from plateau.checks import FieldTable, check_fields, load_outside_json, shown
from plateau.errors import InvalidArgumentError, InvalidResultsError, PlateauError
from plateau.files import read_text_limited, replace_file
from plateau.registry import check_data_options, game_info, games, new_game
from plateau.state import GameState

FORMAT = "plateau-suite"
#: the longest line a suite file may have (a position's actions and its lists), in characters
MAX_LINE = 1_000_000


@dataclass
class SuitePosition:
    """One position of a suite (the line format of the module's docstring)."""

    id: str
    game: str
    variant: str
    actions: list[str]
    to_move: int
    value: str
    distance: int
    best: list[str]
    winning: list[str]
    difficulty: int
    comment: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    #: ``winning`` is complete within this many actions (None: at any distance)
    within: int | None = None
    #: ``file:line`` of the position in its suite, as :func:`read_suite` read it ("": not from
    #: a file), named by errors; not a field of the line
    source: str = field(default="", compare=False, repr=False)

    def _named(self) -> str:
        # (the id is text of the file: up to 10,000 characters, maybe terminal escapes)
        return (
            f"{self.source}: position {shown(self.id)}"
            if self.source
            else f"position {shown(self.id)}"
        )

    def state(self) -> GameState:
        """The position, replayed from the start (:class:`~plateau.InvalidResultsError` if the
        actions do not replay or the player to move differs)."""
        try:
            state = new_game(self.game, self.variant, **self.options)
            for text in self.actions:
                state.apply(text)
        except PlateauError as e:
            raise InvalidResultsError(f"{self._named()}: does not replay: {e}") from None
        if state.is_terminal() or state.current_player != self.to_move:
            raise InvalidResultsError(
                f"{self._named()}: after its actions, player {state.current_player} is to "
                f"move{' in a finished game' if state.is_terminal() else ''}, not {self.to_move}"
            )
        return state

    def winning_ids(self, state: GameState) -> set[int]:
        """The winning first actions as ids of ``state`` (the position)."""
        try:
            return {state.parse_action(text) for text in self.winning}
        except PlateauError as e:
            raise InvalidResultsError(f"{self._named()}: a winning action: {e}") from None

    def to_line(self) -> str:
        data = asdict(self)
        del data["source"]
        if data["within"] is None:
            del data["within"]
        return json.dumps({"format": FORMAT, **data})

    @classmethod
    def from_dict(cls, data: object) -> SuitePosition:
        """One line's data, checked field by field."""
        fields = check_fields(data, FORMAT, _FIELDS, InvalidResultsError, "a suite position")
        if fields["game"] not in games():
            raise InvalidResultsError(f"unknown game {str(fields['game'])[:100]!r}")
        try:  # first: an option naming a file would make the replay read it
            check_data_options(fields["game"], fields.get("options", {}))
        except PlateauError as e:
            raise InvalidResultsError(f"options: {e}") from None
        if fields["value"] != "win":
            raise InvalidResultsError(f'value must be "win", got {str(fields["value"])[:20]!r}')
        if not fields["best"] or not set(fields["best"]) <= set(fields["winning"]):
            raise InvalidResultsError("best must be a non-empty part of winning")
        if fields.get("within") is not None and fields["within"] < fields["distance"]:
            raise InvalidResultsError("within must be at least the distance")
        return cls(**fields)


def _text(v: object) -> bool:
    return isinstance(v, str) and len(v) <= 10_000


def _texts(v: object) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


#: the largest count a suite line may give (a player, a distance, a difficulty: a number far
#: past any game's, and one that prints in a table)
MAX_COUNT = 2**31 - 1


def _count(low: int) -> Callable[[object], bool]:
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and low <= v <= MAX_COUNT


#: each field of a suite line: its check, what the check wants, whether it is required
_FIELDS: FieldTable = {
    "id": (_text, "a string", True),
    "game": (_text, "a string", True),
    "variant": (_text, "a string", True),
    "actions": (_texts, "a list of strings", True),
    "to_move": (_count(0), "an integer in [0, 2**31)", True),
    "value": (_text, "a string", True),
    "distance": (_count(1), "an integer in [1, 2**31)", True),
    "best": (_texts, "a list of strings", True),
    "winning": (_texts, "a list of strings", True),
    "difficulty": (_count(0), "an integer in [0, 2**31)", True),
    "comment": (_text, "a string", False),
    "options": (lambda v: isinstance(v, dict), "an object", False),
    "within": (lambda v: v is None or _count(1)(v), "an integer in [1, 2**31) or null", False),
}


def read_suite(path: str | os.PathLike[str]) -> list[SuitePosition]:
    """The positions of a suite file, each line checked (:class:`~plateau.InvalidResultsError`
    naming the file and line); blank lines and ``#`` comments are skipped."""
    out = []
    ids: set[str] = set()
    text = read_text_limited(path, InvalidResultsError)
    for number, line in enumerate(io.StringIO(text, newline=None), 1):  # as open() splits
        if len(line) > MAX_LINE:
            raise InvalidResultsError(f"{path}:{number}: a line of over {MAX_LINE} characters")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            data = load_outside_json(line, InvalidResultsError, "not JSON")
            pos = SuitePosition.from_dict(data)
        except InvalidResultsError as e:
            raise InvalidResultsError(f"{path}:{number}: {e}") from None
        if pos.id in ids:
            raise InvalidResultsError(f"{path}:{number}: the id {shown(pos.id)} is used twice")
        ids.add(pos.id)
        pos.source = f"{path}:{number}"
        out.append(pos)
    return out


def write_suite(path: str | os.PathLike[str], positions: Iterable[SuitePosition]) -> None:
    """Write positions as a suite file, whole or not at all: each line is checked first as
    :func:`read_suite` will read it (InvalidResultsError naming the first that is not, an id
    used twice included, and nothing written), then the file is replaced at once
    (``plateau.files.replace_file``)."""
    if isinstance(positions, (str, bytes, SuitePosition)) or not isinstance(positions, Iterable):
        raise InvalidResultsError(f"positions is a list of SuitePosition, got {shown(positions)}")
    lines = []
    ids: set[str] = set()
    for number, pos in enumerate(positions):
        if not isinstance(pos, SuitePosition):
            raise InvalidResultsError(f"position {number}: not a SuitePosition: {shown(pos)}")
        line = pos.to_line()
        try:
            SuitePosition.from_dict(load_outside_json(line, InvalidResultsError, "not JSON"))
        except InvalidResultsError as e:
            raise InvalidResultsError(f"position {number}: {e}") from None
        if pos.id in ids:
            raise InvalidResultsError(f"position {number}: the id {shown(pos.id)} is used twice")
        ids.add(pos.id)
        lines.append(line + "\n")
    if not lines:
        raise InvalidResultsError("no positions to write (a suite holds at least one)")
    replace_file(path, "".join(lines))


def shipped_suites() -> dict[str, Path]:
    """The suites shipped with the library, by name (``plateau-x-mini``), from each game's
    package (``plateau/games/<game>/suites/<name>.jsonl``)."""
    found: dict[str, Path] = {}
    for name in games():
        package = game_info(name).package
        if package is None:
            continue
        folder = importlib.resources.files(package) / "suites"
        if not folder.is_dir():
            continue
        for entry in folder.iterdir():
            if entry.name.endswith(".jsonl"):
                found[entry.name[: -len(".jsonl")]] = Path(str(entry))
    return dict(sorted(found.items()))


def suite_path(name_or_path: str) -> Path:
    """A shipped suite by name, or a suite file by its path (a regular file or a pipe, as
    :func:`read_suite` reads)."""
    shipped = shipped_suites()
    if name_or_path in shipped:
        return shipped[name_or_path]
    path = Path(name_or_path)
    if not (path.is_file() or path.is_fifo()):
        raise InvalidArgumentError(
            f"{name_or_path!r} is neither a suite file nor a shipped suite "
            f"({', '.join(shipped) or 'none shipped'})"
        )
    return path


@dataclass
class SuiteResult:
    """A bot's answer to one position."""

    id: str
    difficulty: int
    action: str | None  # None: it failed to answer (an error, no legal action)
    solved: bool
    seconds: float
    error: str | None = None


@dataclass
class SuiteReport:
    """A bot's score on a suite: every position's answer, and the totals by difficulty."""

    suite: str
    bot: str
    seconds: float
    results: list[SuiteResult]

    @property
    def solved(self) -> int:
        return sum(r.solved for r in self.results)

    def by_difficulty(self) -> dict[int, tuple[int, int, float]]:
        """Difficulty -> (solved, positions, seconds spent)."""
        out: dict[int, tuple[int, int, float]] = {}
        for r in self.results:
            s, n, t = out.get(r.difficulty, (0, 0, 0.0))
            out[r.difficulty] = (s + r.solved, n + 1, t + r.seconds)
        return dict(sorted(out.items()))

    def format_table(self) -> str:
        lines = [
            f"{self.bot} on {self.suite} ({self.seconds:g} s a position):",
            "",
            "| difficulty (win in) | solved | positions | share | seconds |",
            "|---:|---:|---:|---:|---:|",
        ]
        for d, (s, n, t) in self.by_difficulty().items():
            lines.append(f"| {d} | {s} | {n} | {100 * s / n:.1f}% | {t:.1f} |")
        total = len(self.results)
        spent = sum(r.seconds for r in self.results)
        share = 100 * self.solved / total if total else 0.0
        lines.append(f"| all | {self.solved} | {total} | {share:.1f}% | {spent:.1f} |")
        errors = [r for r in self.results if r.error is not None]
        if errors:
            lines.append("")
            lines.append(
                f"{len(errors)} positions failed: "
                + "; ".join(f"{r.id}: {r.error}" for r in errors[:5])
                + (" ..." if len(errors) > 5 else "")
            )
        return "\n".join(lines)


def run_suite(
    suite: str | os.PathLike[str],
    bot: str,
    seconds: float = 1.0,
    ids: Sequence[str] | None = None,
) -> SuiteReport:
    """Ask ``bot`` (a bot spec, or an engine spec ``engine:cmd=...``) for its action in each
    position of ``suite`` (a shipped suite's name or a file), with ``seconds`` a position: a
    library bot that can search by time gets them as its ``seconds`` (unless its spec sets
    ``seconds`` or ``iters``: then the spec rules), an engine as its ``movetime``, and other bots
    play as their spec says. ``ids``: only those positions."""
    from plateau.arena import bot_label, build_bot
    from plateau.bots.base import spec_params
    from plateau.checks import check_number
    from plateau.engine import EngineError, EnginePool, is_engine_spec

    check_number(seconds, "seconds")
    if not seconds > 0:
        raise InvalidArgumentError(f"seconds must be > 0, got {seconds}")
    path = suite_path(str(suite))
    positions = read_suite(path)
    if not positions:
        raise InvalidResultsError(f"{path}: no positions (one JSON position per line)")
    if ids is not None:
        if isinstance(ids, (str, bytes)) or not isinstance(ids, Iterable):
            raise InvalidArgumentError(f"ids is a list of position ids, got {shown(ids)}")
        ids = list(ids)  # (once: a generator is read here only)
        if not ids or not all(isinstance(i, str) for i in ids):
            raise InvalidArgumentError(f"ids is a non-empty list of position ids, got {shown(ids)}")
        missing = sorted(set(ids) - {p.id for p in positions})
        if missing:
            names = ", ".join(shown(i) for i in missing[:5])
            more = f" and {len(missing) - 5:,} more" if len(missing) > 5 else ""
            raise InvalidArgumentError(f"{path.name} has no position {names}{more}")
        wanted = set(ids)
        positions = [p for p in positions if p.id in wanted]
    engine = isinstance(bot, str) and is_engine_spec(bot)
    # a spec that sets its own budget keeps it
    budgeted = not engine and bool(set(spec_params(bot)) & {"seconds", "iters"})
    pool = EnginePool() if engine else None
    results = []
    try:
        for index, pos in enumerate(positions):
            state = pos.state()
            winning = pos.winning_ids(state)
            t0 = time.perf_counter()
            error = None
            action: int | None = None
            player = None
            if pool is None:  # a bad spec, or a bot that declines the game: the caller's error
                player = build_bot(bot, index)
                player.check_game(state)
                if "seconds" in player.params and not budgeted:
                    player.params["seconds"] = seconds  # a bot that can search by time
            try:
                if pool is not None:
                    conn = pool.get(bot, 0)
                    conn.new_game(state, index)
                    action = conn.select_action(state, state.current_player, index, seconds)
                elif player is not None:
                    action = player.select_action(state.view_for(state.current_player, seed=index))
            except EngineError as e:
                error = f"{e.reason}: {e.message}"[:200]
                if pool is not None:
                    pool.close()
                    pool = EnginePool()
            except Exception as e:  # the bot's fault (a library error included): position failed
                error = f"{type(e).__name__}: {e}"[:200]
            spent = time.perf_counter() - t0
            solved = action is not None and action in winning
            text = None
            if action is not None and error is None:
                try:
                    text = state.action_to_string(action)
                except PlateauError as e:  # not an action of this position
                    error = f"{type(e).__name__}: {e}"[:200]
            results.append(SuiteResult(pos.id, pos.difficulty, text, solved, spent, error))
    finally:
        if pool is not None:
            pool.close()
    return SuiteReport(path.name, bot_label(bot), seconds, results)
