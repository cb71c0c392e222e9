"""Fuzz targets for every game in plateau's registry: notation, records, set-up positions and
batches; Empire Plateau's board files; and the engine protocol from both sides (``engine``:
commands into ``plateau engine``; ``referee``: a fuzzed engine against the arena).

Each target is a pure function of the fuzzer's bytes: :class:`Provider` decodes them into
inputs (a game, a position reached by random legal play, a notation string, a mutated record,
...), the target drives the library with them and checks its contract:

* bad input raises only the documented errors: ``ValueError`` and its subclasses
  ``plateau.InvalidActionError`` (input that names no action), ``plateau.IllegalActionError``
  (an action not legal here) and ``plateau.InvalidRecordError`` (records); never
  ``TypeError``, ``AttributeError``, ``KeyError``, ``OverflowError``, ...;
* a refused call changes nothing (hash, ply, player to act, history, legal actions; for a
  batch every game's hash and ply, and its random generator);
* good input works: legal actions apply and undo, records of played games round-trip, a
  position's own set-up data loads back to the same position, a batch plays exactly like one
  state per game.

A broken contract raises :class:`ContractViolation` (an ``AssertionError``) whose message
starts with the check's name in brackets; any other exception escaping a target is a bug of
the harness. The games come from the registry only (``plateau.games()``,
``plateau.variants(game)``, ``plateau.game_info(game)``); the optional capabilities
(``from_setup``, ``batch``) are used where a game has them.

``PLATEAU_FUZZ_SKIP=check,check`` turns named checks off, e.g. to fuzz past a known bug while
it is being fixed (``batch-overlap`` turns off the overlapping arrays of the batch target).

``fuzz/run.py`` runs these targets under atheris (coverage-guided); ``tests/test_fuzz.py``
drives them with Hypothesis and replays ``fuzz/corpus/<target>/``.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import numbers
import os
import random
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn, TypeVar, Union

import numpy as np
import numpy.typing as npt
from plateau_core._common import SolverTable

import plateau
from plateau.errors import InvalidBoardError
from plateau.record import from_record
from plateau.registry import GameInfo, game_info
from plateau.solver import Solver
from plateau.state import GameState

T = TypeVar("T")
Errors = Union[type[BaseException], tuple[type[BaseException], ...]]

TARGETS = ("notation", "record", "setup", "batch", "board", "engine", "referee")

#: check names turned off through the environment (comma-separated)
SKIP: frozenset[str] = frozenset(
    name.strip() for name in os.environ.get("PLATEAU_FUZZ_SKIP", "").split(",") if name.strip()
)


class ContractViolation(AssertionError):
    """The library broke its documented contract on a fuzz input."""


def fail(name: str, message: str) -> None:
    """Raise :class:`ContractViolation` ``[name] message``, unless the check is turned off."""
    if name not in SKIP:
        raise ContractViolation(f"[{name}] {message}")


def attempt(
    name: str, fn: Callable[[], T], allowed: Errors = ValueError
) -> tuple[T | None, BaseException | None]:
    """``(result, None)`` if ``fn()`` returns, ``(None, error)`` if it raises one of the
    ``allowed`` errors; any other exception is a contract violation named ``name``."""
    try:
        return fn(), None
    except ContractViolation:
        raise
    except allowed as e:
        return None, e
    except Exception as e:
        if name in SKIP:
            return None, e
        raise ContractViolation(f"[{name}] raised {type(e).__name__}: {e}") from e


def must(name: str, fn: Callable[[], T]) -> T:
    """``fn()``, which must not raise (any exception is a contract violation)."""
    try:
        return fn()
    except ContractViolation:
        raise
    except Exception as e:
        raise ContractViolation(f"[{name}] raised {type(e).__name__}: {e}") from e


def _no(value: object) -> NoReturn:
    raise AssertionError(value)  # pragma: no cover


# ------------------------------------------------------------------------------------------
# Decoding the fuzzer's bytes
# ------------------------------------------------------------------------------------------


class Provider:
    """Reads choices from the fuzzer's bytes, front to back; once they run out every read
    gives 0, so any input (the empty one too) decodes to something. A tiny stand-in for
    ``atheris.FuzzedDataProvider`` that Hypothesis can drive as well."""

    __slots__ = ("_data", "_pos")

    def __init__(self, data: bytes) -> None:
        self._data = bytes(data)
        self._pos = 0

    @property
    def remaining(self) -> int:
        return max(0, len(self._data) - self._pos)

    def byte(self) -> int:
        if self._pos >= len(self._data):
            return 0
        b = self._data[self._pos]
        self._pos += 1
        return b

    def below(self, n: int) -> int:
        """An int in ``[0, n)`` (0 when ``n <= 1``), from as few bytes as ``n`` needs."""
        if n <= 1:
            return 0
        v = 0
        for _ in range(((n - 1).bit_length() + 7) // 8):
            v = v << 8 | self.byte()
        return v % n

    def between(self, lo: int, hi: int) -> int:
        """An int in ``[lo, hi]``."""
        return lo + self.below(hi - lo + 1)

    def chance(self, percent: int) -> bool:
        return self.below(100) < percent

    def pick(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def seed(self) -> int:
        return self.below(1 << 32)

    def take(self, n: int) -> bytes:
        out = self._data[self._pos : self._pos + n]
        self._pos += len(out)
        return out


# ------------------------------------------------------------------------------------------
# Games, states, random play
# ------------------------------------------------------------------------------------------

#: odd values given to a game's options now and then (new_game must refuse or accept them)
OPTION_VALUES: tuple[Any, ...] = (0, 1, 2, 3, 4, 5, 12, 40, -1, 2**31, 2**63, True, None, "1", 1.0)
#: lengths of random play before the checks (10_000: to the end of the game)
PLAY_LENGTHS = (0, 0, 1, 2, 3, 4, 6, 10, 20, 40, 80, 10_000)


def choose_game(p: Provider, need: Callable[[GameInfo], bool] | None = None) -> str | None:
    names = [g for g in plateau.games() if need is None or need(game_info(g))]
    return p.pick(names) if names else None


def choose_options(p: Provider, info: GameInfo) -> dict[str, Any]:
    options = dict(info.options)
    for name in sorted(options):
        if p.chance(20):
            options[name] = p.pick(OPTION_VALUES + info.option_values.get(name, ()))
    return options


def new_state(p: Provider, game: str, variant: str) -> GameState:
    """A new game, sometimes with odd option values (new_game must accept them or refuse them
    with ValueError; refused ones fall back to the defaults)."""
    options = choose_options(p, game_info(game))
    state, _ = attempt("new_game", functools.partial(plateau.new_game, game, variant, **options))
    return state if state is not None else plateau.new_game(game, variant)


def play(s: GameState, rng: random.Random, plies: int) -> None:
    """Random legal play for up to ``plies`` plies, checking each step's bookkeeping."""
    for _ in range(plies):
        if s.is_terminal():
            return
        legal = s.legal_actions()
        if len(legal) == 0:
            fail("legal-nonempty", f"{s!r} is not over but has no legal action")
            return
        ply, a = s.ply, int(legal[rng.randrange(len(legal))])
        s.apply(a)
        if not (s.ply == ply + 1 and s.history[-1:] == [a]):
            fail(
                "apply-bookkeeping",
                f"apply({a}) at ply {ply}: ply {s.ply}, history ends {s.history[-1:]}",
            )


def played_state(p: Provider, game: str, variant: str) -> GameState:
    s = new_state(p, game, variant)
    play(s, random.Random(p.seed()), p.pick(PLAY_LENGTHS))
    return s


def setup_data(s: GameState) -> dict[str, Any] | None:
    """The set-up data of the position ``s`` is in (what ``from_setup`` reads), for a game
    that has set-ups: ``position_dict()`` where the state class offers it (the data behind
    ``setup_position()``), else the set-up its history starts from."""
    position_dict = getattr(s, "position_dict", None)
    if callable(position_dict):
        data: dict[str, Any] = position_dict()
        return data
    return s.setup_position()


def snapshot(s: GameState) -> tuple[Any, ...]:
    return (
        s.hash,
        s.ply,
        s.current_player,
        s.is_terminal(),
        list(s.history),
        s.legal_actions().tolist(),
    )


def _short(value: object, limit: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _diff(before: tuple[Any, ...], after: tuple[Any, ...]) -> str:
    names = ("hash", "ply", "current_player", "is_terminal", "history", "legal_actions")
    return "; ".join(
        f"{n}: {_short(b)} -> {_short(a)}" for n, b, a in zip(names, before, after) if b != a
    )


def check_unchanged(s: GameState, before: tuple[Any, ...], what: str) -> None:
    after = snapshot(s)
    if after != before:
        fail("refusal-unchanged", f"{what} changed the state: {_diff(before, after)}")


def check_state(s: GameState, what: str, rng: random.Random | None = None) -> None:
    """Internal consistency of a state the library handed out (after loading a record or a
    set-up): legal actions against the mask, a player to act with a legal action while the
    game runs, returns and ranking, and (with ``rng``) a few legal actions applied and undone."""
    n = s.num_distinct_actions
    legal = s.legal_actions()
    ids = legal.tolist()
    if not (legal.dtype == np.int64 and legal.ndim == 1 and ids == sorted(set(ids))):
        fail("legal-sorted", f"{what}: legal_actions() not ascending int64 ids: {_short(ids)}")
    if not all(0 <= a < n for a in ids):
        fail("legal-range", f"{what}: legal ids outside [0, {n}): {_short(ids)}")
    mask = s.legal_actions_mask()
    if not (mask.shape == (n,) and np.flatnonzero(mask).tolist() == ids):
        fail("legal-mask", f"{what}: legal_actions_mask() disagrees with legal_actions()")
    players = s.num_players
    returns = s.returns()
    if not (len(returns) == players and all(isinstance(r, float) for r in returns)):
        fail("returns-shape", f"{what}: returns() {returns!r}")
    ranking = s.ranking()
    if sorted(q for group in ranking for q in group) != list(range(players)):
        fail("ranking-partition", f"{what}: ranking() {ranking!r} is no partition of the players")
    if s.is_terminal():
        if ids:
            fail("terminal-no-legal", f"{what}: the game is over, yet legal actions {ids[:8]}")
        return
    if not ids:
        fail(
            "legal-nonempty",
            f"{what}: the game is not over but player {s.current_player} has no legal action",
        )
    if not 0 <= s.current_player < players:
        fail("current-player", f"{what}: current_player {s.current_player} in a running game")
    if returns != [0.0] * players:
        fail("returns-before-end", f"{what}: returns() {returns!r} before the end")
    if rng is None or not ids:
        return
    check_engine(s, ids, what, rng)
    h = s.hash
    for a in rng.sample(ids, min(3, len(ids))):
        c = s.clone()
        _, err = attempt("apply-legal", functools.partial(c.apply, a), ())
        if err is not None:
            fail("apply-legal", f"{what}: legal action {a} refused: {err!r}")
        if not (c.undo() == a and c.hash == h):
            fail("undo", f"{what}: undo after {a} does not restore the position")


def check_engine(s: GameState, ids: list[int], what: str, rng: random.Random) -> None:
    """The rest of the state API on a running game the library accepted (a loaded record or
    set-up): the diagram, observations, perft against the legal actions, winning actions,
    heuristics, a random playout, clones, and the view a bot of the player to act is handed
    (which knows that player's legal actions and looks the same to them)."""
    before = snapshot(s)
    must("str", functools.partial(str, s))
    must("repr", functools.partial(repr, s))
    obs = must("observation_tensor", getattr(s, "observation_tensor"))  # noqa: B009
    leaves1 = must("perft", functools.partial(s.perft, 1))
    if leaves1 != len(ids):
        fail("perft-1", f"{what}: perft(1) = {leaves1}, but {len(ids)} legal actions")
    if len(ids) <= 400:
        bulk = must("perft", functools.partial(s.perft, 2))
        full = must("perft", functools.partial(s.perft, 2, False))
        if bulk != full:
            fail("perft-2", f"{what}: perft(2) = {bulk} with bulk counting, {full} without")
    me = s.current_player
    wins = must("winning_actions", s.winning_actions).tolist()
    if not set(wins) <= set(ids):
        fail("winning_actions", f"{what}: winning actions {wins} are not all legal")
    for a in wins[:2]:
        c = s.clone()
        c.apply(a)
        r = c.returns()
        if not (c.is_terminal() and r[me] == max(r) and r.count(r[me]) == 1):
            fail("winning_actions", f"{what}: {a} does not win: returns {r}")
    for player in range(s.num_players):
        value = must("heuristic", functools.partial(s.heuristic, player))
        if not (isinstance(value, float) and value == value):
            fail("heuristic", f"{what}: heuristic({player}) = {value!r}")
    seed = rng.randrange(1 << 30)
    points = must("random_playout", functools.partial(s.random_playout, seed, 300))
    if len(points) != s.num_players:
        fail("random_playout", f"{what}: random_playout gave {points!r}")
    c = s.clone()
    if snapshot(c) != before:
        fail("clone", f"{what}: clone() differs: {_diff(before, snapshot(c))}")
    # the core solver's search: on a two-player game (one input in four: the reference is
    # slow) the Python reference's answer, node count included; else a bounded question that
    # leaves the state alone
    if s.num_players == 2 and rng.random() < 0.25:
        budget = rng.choice((20, 100))
        got = must("solve", functools.partial(Solver(nodes=budget).solve, s))
        want = Solver(nodes=budget, core=False).solve(s)
        mine = (got.value, got.distance, got.winning_actions, got.undecided_actions, got.nodes)
        theirs = (want.value, want.distance, want.winning_actions, want.undecided_actions)
        if mine != (*theirs, want.nodes):
            fail("solver", f"{what}: the core solver says {mine}, the reference {theirs}")
    else:
        table = SolverTable(1000)
        table.budget(max_nodes=100)
        must("solver_forces", functools.partial(s.solver_forces, 3, me, 1, table))
    view = must("view_for", functools.partial(s.view_for, me, seed))
    if view.legal_actions().tolist() != ids:
        fail("view-legal", f"{what}: view_for({me}) has other legal actions than the game")
    if not np.array_equal(getattr(view, "observation_tensor")(), obs):  # noqa: B009
        fail("view-observation", f"{what}: view_for({me}) looks different to player {me}")
    check_unchanged(s, before, f"{what}: queries")


def check_round_trip(s: GameState, what: str) -> None:
    """``from_json(to_json(s))`` is the same game, and writes the same record."""
    text = must("to_json", s.to_json)
    t, _ = attempt("record-round-trip", functools.partial(plateau.from_json, text), ())
    if t is None:  # only when the check is turned off
        return
    mine, theirs = (s.game, s.variant, s.options), (t.game, t.variant, t.options)
    if mine != theirs or snapshot(t) != snapshot(s):
        fail(
            "record-round-trip",
            f"{what}: from_json(to_json()) is another game: {mine} / {theirs}; "
            f"{_diff(snapshot(s), snapshot(t))}; record {_short(text, 400)}",
        )
    again = t.to_json()
    if again != text:
        fail("record-stable", f"{what}: the loaded game's record differs: {_short(again, 400)}")


# ------------------------------------------------------------------------------------------
# Notation
# ------------------------------------------------------------------------------------------

#: characters that text normalisation (strip, lower, int, regexes) may treat oddly
ODD_CHARS = (
    "\x00",
    "\t",
    "\n",
    "\x1c",
    "\u00a0",
    "\u2003",
    "\u212a",  # Kelvin sign: lowercases to ASCII k
    "\u0130",  # I with a dot: lowercases to two code points
    "\u017f",  # long s: uppercases to ASCII S
    "\u00df",
    "\u0663",  # Arabic-Indic digit three
    "\uff11",  # fullwidth digit one
    "\u00e9",
    "\ud800",  # a lone surrogate
    "\U0001f600",
)
CASES: tuple[Callable[[str], str], ...] = (str.upper, str.lower, str.swapcase, str.title, str)
WHITESPACE = (" ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u3000")
ODD_ACTIONS: tuple[Any, ...] = (
    -1,
    -(2**31),
    2**31,
    2**32,
    2**63,
    -(2**63) - 1,
    2**64,
    10**30,
    True,
    False,
    None,
    0.0,
    1.5,
    float("nan"),
    float("inf"),
    1 + 0j,
    b"end",
    bytearray(b"pass"),
    [0],
    (0,),
    {"a": 1},
    np.array([0]),
    np.array(0),
    np.float64(1.0),
    np.bool_(True),
    object(),
)
NUMPY_INTS: tuple[type[np.integer[Any]], ...] = (
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint8,
    np.uint16,
    np.uint32,
    np.uint64,
)


def _options_key(options: dict[str, Any] | None) -> str:
    # a game's options (which may change its ids: Empire Plateau's board) as a cache key
    return json.dumps(options or {}, sort_keys=True)


@functools.cache
def _action_strings(game: str, variant: str, options: str) -> tuple[str, ...]:
    s = plateau.new_game(game, variant, **json.loads(options))
    return tuple(s.action_to_string(a) for a in range(s.num_distinct_actions))


def action_strings(
    game: str, variant: str, options: dict[str, Any] | None = None
) -> tuple[str, ...]:
    """The canonical notation of every action id of a variant with these options."""
    return _action_strings(game, variant, _options_key(options))


@functools.cache
def _alphabet(game: str, variant: str, options: str) -> str:
    chars = sorted(set("".join(_action_strings(game, variant, options))))
    return "".join(chars) + "".join(c.swapcase() for c in chars if c.swapcase() != c) + "0 "


def alphabet(game: str, variant: str, options: dict[str, Any] | None = None) -> str:
    """The characters of the variant's notation, in both cases, with a zero and a blank."""
    return _alphabet(game, variant, _options_key(options))


def mutate_text(p: Provider, text: str, letters: str, pool: Sequence[str]) -> str:
    """A few random edits of ``text``: characters inserted, deleted, replaced, swapped or
    repeated, case changes, blanks, leading zeros, odd Unicode, splices with ``pool``."""
    chars = list(text)
    for _ in range(1 + p.below(3)):
        op = p.below(13)
        i = p.below(len(chars) + 1)
        digits = [k for k, c in enumerate(chars) if c.isdigit()]
        if op == 0:
            chars.insert(i, p.pick(letters))
        elif op == 1 and chars:
            del chars[min(i, len(chars) - 1)]
        elif op == 2 and chars:
            chars[min(i, len(chars) - 1)] = p.pick(letters)
        elif op == 3:
            j = p.below(len(chars) + 1)
            lo, hi = min(i, j), max(i, j)
            chars[hi:hi] = chars[lo:hi]
        elif op == 4 and len(chars) > 1:
            j = p.below(len(chars))
            i = min(i, len(chars) - 1)
            chars[i], chars[j] = chars[j], chars[i]
        elif op == 5:
            case = p.pick(CASES)
            chars = list(case("".join(chars)))
        elif op == 6:
            chars.insert(p.pick((0, len(chars), i)), p.pick(WHITESPACE))
        elif op == 7 and digits:
            chars.insert(p.pick(digits), "0")  # a leading zero
        elif op == 8 and pool:
            other = p.pick(pool)
            chars = chars[:i] + list(other[p.below(len(other) + 1) :])
        elif op == 9:
            chars.insert(i, p.pick(ODD_CHARS))
        elif op == 10:
            del chars[i:]
        elif op == 11:
            sep = p.pick(("", " ", ",", "-", ":", "@", "/"))
            chars = [*chars, *sep, *chars]
        elif op == 12 and digits:
            chars[p.pick(digits)] = p.pick("0123456789")
    return "".join(chars)


def random_text(p: Provider, letters: str, pool: Sequence[str]) -> str:
    parts: list[str] = []
    for _ in range(p.below(12)):
        kind = p.below(10)
        if kind < 6:
            parts.append(p.pick(letters))
        elif kind < 8 and pool:
            piece = p.pick(pool)
            i = p.below(len(piece) + 1)
            parts.append(piece[i : i + 1 + p.below(4)])
        elif kind == 8:
            parts.append(p.pick(ODD_CHARS))
        else:
            parts.append(p.take(p.below(6)).decode("utf-8", "replace"))
    return "".join(parts)


def numpy_int(p: Provider, a: int) -> object:
    """``a`` as a numpy integer of a random type (int64 where it does not fit)."""
    kind = p.pick(NUMPY_INTS)
    info = np.iinfo(kind)
    return kind(a) if info.min <= a <= info.max else np.int64(a)


def action_input(p: Provider, s: GameState) -> object:
    """Something to hand ``apply`` & co.: mostly notation strings, legal or nearly so."""
    game, variant = s.game, s.variant
    strings = action_strings(game, variant, s.options)
    legal = s.legal_actions().tolist()
    letters = alphabet(game, variant, s.options)
    mode = p.below(16)
    if mode < 5 and legal:
        return mutate_text(p, strings[p.pick(legal)], letters, strings)
    if mode < 7 and legal:
        text = strings[p.pick(legal)]
        text = p.pick(CASES)(text)
        return p.pick(WHITESPACE) + text if p.chance(30) else text
    if mode < 9:
        text = strings[p.below(len(strings))]
        return mutate_text(p, text, letters, strings) if p.chance(50) else text
    if mode < 11:
        return random_text(p, letters, strings)
    if mode < 13:
        a = p.pick(legal) if legal and p.chance(50) else p.below(s.num_distinct_actions + 2) - 1
        return numpy_int(p, a) if p.chance(50) else a
    return p.pick(ODD_ACTIONS)


def _same_letters(text: str, canonical: str, aliases: Mapping[str, str]) -> bool:
    """``text`` spells ``canonical`` up to letter case, surrounding blanks, the order of its
    parts (build squares, multisets) and the game's ``notation_aliases`` (Empire Plateau reads
    ``x`` as ``-``): the same characters, the same number of times."""

    def spelt(t: str) -> list[str]:
        return sorted(aliases.get(c, c) for c in t)

    return spelt(text.strip().lower()) == spelt(canonical.lower())


def check_action_input(s: GameState, x: Any, what: str) -> None:
    """Every notation entry point on ``x``: they agree with each other and with the legal
    actions, refuse what names no action with InvalidActionError and what is not legal here
    with IllegalActionError, and a refusal changes nothing."""
    invalid, refused = plateau.InvalidActionError, plateau.ActionError
    before = snapshot(s)
    legal = set(before[-1])
    over = before[3]
    n = s.num_distinct_actions
    shown = f"{what}: {x!r}"
    is_str = isinstance(x, str)
    integral = isinstance(x, numbers.Integral) and not isinstance(x, bool)

    a, err = attempt("action_id", functools.partial(s.action_id, x), invalid)
    if a is not None and not (type(a) is int and 0 <= a < n):
        fail("action_id-range", f"{shown}: action_id gave {a!r}")
    if integral:
        want = int(x) if 0 <= int(x) < n else None
        if a != want:
            fail("action_id", f"{shown}: action_id gave {a!r}, not {want!r}")
    elif not is_str and err is None:
        fail("action_id", f"{shown}: action_id accepted it as {a!r}")

    if is_str:
        parsed, _ = attempt("parse_action", functools.partial(s.parse_action, x), invalid)
        if parsed != a:
            fail("parse-vs-action_id", f"{shown}: parse_action gave {parsed!r}, action_id {a!r}")
        if parsed is not None:
            canonical = must("action_to_string", functools.partial(s.action_to_string, parsed))
            if s.parse_action(canonical) != parsed:
                fail("canonical-round-trip", f"{shown}: canonical {canonical!r} parses otherwise")
            if not _same_letters(x, canonical, type(s).notation_aliases):
                fail(
                    "notation-strict",
                    f"{shown} is accepted as {canonical!r} (id {parsed}), which it does not spell "
                    "(beyond letter case, blanks around it and the order of its parts)",
                )
    else:
        for via in (s.parse_action, s.string_to_action):
            got, _ = attempt(via.__name__, functools.partial(via, x), invalid)
            if got is not None:
                fail(via.__name__ + "-type", f"{shown}: {via.__name__} accepted it as {got!r}")
        text, _ = attempt("action_to_string", functools.partial(s.action_to_string, x), invalid)
        if a is not None and text != s.action_to_string(a):
            fail("action_to_string", f"{shown}: action_to_string gave {text!r}")
    check_unchanged(s, before, f"{shown}: parsing")

    is_legal = a is not None and not over and a in legal
    # what a refusal of x must be: it names no action, or one that is not legal here
    expected = invalid if a is None else plateau.IllegalActionError
    expected_name = expected.__name__
    if is_str:
        got, err = attempt("string_to_action", functools.partial(s.string_to_action, x), refused)
        if got != (a if is_legal else None):
            fail("string_to_action", f"{shown}: string_to_action gave {got!r}; id {a!r}")
        if err is not None and not isinstance(err, expected):
            fail("error-class", f"{shown}: string_to_action raised {err!r}, not {expected_name}")
    answer = must("is_legal", functools.partial(s.is_legal, x))
    if type(answer) is not bool:
        fail("is_legal-bool", f"{shown}: is_legal gave {answer!r}")
    if not is_str and answer != is_legal:
        fail("is_legal", f"{shown}: is_legal gave {answer!r} (id {a!r}, legal: {is_legal})")
    if a is not None:
        reason, _ = attempt("why_illegal", functools.partial(s.why_illegal, a))
        name = s.action_to_string(a)
        if is_legal and isinstance(reason, str):
            fail(
                "why_illegal-legal",
                f"{what}: why_illegal({a}) of the legal action {name!r} gave a reason: {reason!r}",
            )
        if not is_legal and not (isinstance(reason, str) and reason):
            fail("why_illegal-reason", f"{what}: why_illegal({a}) ({name!r}) gave {reason!r}")
    _, err = attempt("why_illegal", functools.partial(s.why_illegal, x), invalid)
    if (err is None) != (a is not None):
        fail("why_illegal-invalid", f"{shown}: why_illegal raised {err!r} for id {a!r}")
    check_unchanged(s, before, f"{shown}: queries")

    _, err = attempt("apply", functools.partial(s.apply, x), refused)
    if err is not None:
        if is_legal:
            fail("apply-refused", f"{shown}: the legal id {a} was refused: {err}")
        if not isinstance(err, expected):
            fail("error-class", f"{shown}: apply raised {err!r}, not {expected_name}")
        check_unchanged(s, before, f"{shown}: a refused apply")
        return
    if not is_legal or a is None:
        fail("apply-accepted", f"{shown}: accepted, though id {a!r} is not legal")
        return
    reference = s.clone()
    reference.undo()
    reference.apply(a)
    if not (s.history == [*before[4], a] and s.hash == reference.hash):
        fail(
            "apply-same-as-id",
            f"{shown}: apply gave history {s.history[-3:]}, hash {s.hash:x}; the id {a} gives "
            f"hash {reference.hash:x}",
        )
    undone = s.undo()
    if undone != a:
        fail("undo-id", f"{shown}: undo() gave {undone!r}, not {a}")
    check_unchanged(s, before, f"{shown}: apply then undo")


def check_apply_all(p: Provider, s: GameState) -> None:
    """``apply_all`` of a few actions, legal and one from :func:`action_input`: all or
    nothing."""
    before = snapshot(s)
    probe = s.clone()
    actions: list[Any] = []
    rng = random.Random(p.seed())
    for _ in range(p.below(5)):
        if probe.is_terminal():
            break
        a = rng.choice(probe.legal_actions().tolist())
        actions.append(probe.action_to_string(a) if p.chance(50) else a)
        probe.apply(a)
    if p.chance(60):
        actions.insert(p.below(len(actions) + 1), action_input(p, s))
    _, err = attempt("apply_all", functools.partial(s.apply_all, actions), plateau.ActionError)
    if err is not None:
        check_unchanged(s, before, f"apply_all({actions!r}) refused")
    elif s.ply != before[1] + len(actions):
        fail("apply_all", f"apply_all({actions!r}) applied {s.ply - before[1]} actions")


def fuzz_notation(data: bytes) -> None:
    """Notation strings (random, and mutations of legal action strings) and other values fed
    to ``apply``, ``string_to_action``, ``parse_action``, ``action_id``, ``is_legal``,
    ``why_illegal`` and ``action_to_string`` of a game reached by random play."""
    p = Provider(data)
    game = choose_game(p)
    if game is None:
        return
    variant = p.pick(plateau.variants(game))
    s = played_state(p, game, variant)
    rng = random.Random(p.seed())
    for k in range(1 + p.below(6)):
        check_action_input(s, action_input(p, s), f"{game}/{variant} ply {s.ply}, input {k}")
        if p.chance(25):
            check_apply_all(p, s)
        if p.chance(30):
            play(s, rng, 1 + p.below(3))


# ------------------------------------------------------------------------------------------
# Odd values and structural mutations of JSON-like trees (records, set-ups)
# ------------------------------------------------------------------------------------------

ODD_VALUES: tuple[Any, ...] = (
    0,
    1,
    -1,
    2,
    3,
    6,
    12,
    23,
    24,
    25,
    59,
    60,
    255,
    256,
    2**31 - 1,
    2**31,
    2**32,
    2**53 + 1,
    2**63 - 1,
    2**63,
    2**64,
    -(2**63) - 1,
    10**30,
    -(10**30),
    True,
    False,
    None,
    0.0,
    -0.0,
    1.0,
    0.5,
    -1.5,
    1e308,
    float("inf"),
    float("nan"),
    "",
    "0",
    "1",
    "x" * 1000,
    "\x00",
    "\ud800",
    "\u212a1",
    "None",
    "true",
    [],
    [[]],
    [[[[[[]]]]]],
    [None, None],
    [0, 0],
    [1, 2, 3],
    {},
    {"": None},
    {"0": 0},
)
#: values no JSON document holds: only for the dict entry points (from_record, from_setup)
NON_JSON_VALUES: tuple[Any, ...] = (
    np.int64(1),
    np.int32(-1),
    np.uint64(2**64 - 1),
    np.float64(1.0),
    np.float32("nan"),
    np.bool_(True),
    np.array([0, 1]),
    np.array(1),
    np.str_("0"),
    (0, 1),
    frozenset({1}),
    b"0",
    1 + 2j,
    object(),
)
#: keys a record or set-up might contain, added now and then
EXTRA_KEYS = ("viewer", "setup", "result", "options", "format", "version", "", "extra", "ply")

Path = tuple[Any, ...]


def tree_paths(tree: Any, prefix: Path = ()) -> list[Path]:
    """Every node's path (dict keys and list indices), the root first."""
    out = [prefix]
    if isinstance(tree, dict):
        for k, v in tree.items():
            out.extend(tree_paths(v, (*prefix, k)))
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            out.extend(tree_paths(v, (*prefix, i)))
    return out


def get_at(tree: Any, path: Path) -> Any:
    for k in path:
        tree = tree[k]
    return tree


def set_at(tree: Any, path: Path, value: Any) -> Any:
    """``tree`` with the node at ``path`` replaced (the root itself when ``path`` is empty)."""
    if not path:
        return value
    get_at(tree, path[:-1])[path[-1]] = value
    return tree


def is_json(tree: Any) -> bool:
    """Whether ``tree`` holds only the types ``json.loads`` makes (numpy scalars do not
    count, though some serialise)."""
    if type(tree) is dict:
        return all(type(k) is str and is_json(v) for k, v in tree.items())
    if type(tree) is list:
        return all(is_json(v) for v in tree)
    return tree is None or type(tree) in (str, int, float, bool)


def leaves(tree: Any) -> list[Any]:
    nodes = (get_at(tree, q) for q in tree_paths(tree))
    return [v for v in nodes if not isinstance(v, (dict, list))]


def odd_value(p: Provider, pool: Sequence[Any], non_json: bool) -> Any:
    kind = p.below(10)
    if kind < 4:
        return copy.deepcopy(p.pick(ODD_VALUES))
    if kind < 7 and pool:
        return copy.deepcopy(p.pick(pool))
    if kind == 7 and non_json:
        return p.pick(NON_JSON_VALUES)
    if kind == 8:
        return [copy.deepcopy(p.pick(pool)) for _ in range(p.below(4))] if pool else []
    return p.between(-3, 70)


def mutate_tree(p: Provider, tree: Any, pool: Sequence[Any], non_json: bool = False) -> Any:
    """A deep copy of ``tree`` with one to four structural edits: a node replaced by an odd
    value or by another node of the tree, ints nudged, strings edited, dict keys deleted or
    added, list items deleted, duplicated, moved between lists or swapped."""
    tree = copy.deepcopy(tree)
    for _ in range(1 + p.below(4)):
        paths = tree_paths(tree)
        path = p.pick(paths)
        node = get_at(tree, path)
        op = p.below(12)
        if op < 3:
            tree = set_at(tree, path, odd_value(p, pool, non_json))
        elif op == 3:
            tree = set_at(tree, path, copy.deepcopy(get_at(tree, p.pick(paths))))
        elif op == 4 and isinstance(node, bool):
            tree = set_at(tree, path, not node)
        elif op == 4 and isinstance(node, int):
            tree = set_at(tree, path, node + p.pick((-1, 1, -2, 2, 1 << 31, -(1 << 31))))
        elif op == 5 and isinstance(node, str):
            strings = [v for v in pool if isinstance(v, str)]
            letters = "".join(sorted(set("".join(strings)))) or "a"
            tree = set_at(tree, path, mutate_text(p, node, letters, strings))
        elif op == 6 and isinstance(node, dict) and node:
            del node[p.pick(sorted(node, key=str))]
        elif op == 7 and isinstance(node, dict):
            keys = [k for k in EXTRA_KEYS if k not in node] + [str(p.below(20))]
            node[p.pick(keys)] = odd_value(p, pool, non_json)
        elif op == 8 and isinstance(node, list) and node:
            del node[p.below(len(node))]
        elif op == 9 and isinstance(node, list):
            item = copy.deepcopy(p.pick(node)) if node else odd_value(p, pool, non_json)
            node.insert(p.below(len(node) + 1), item)
        elif op == 10 and isinstance(node, list) and len(node) > 1:
            i, j = p.below(len(node)), p.below(len(node))
            node[i], node[j] = node[j], node[i]
        elif op == 11 and isinstance(node, list) and node:
            # an item moved to another list of the tree (a piece to another stack, ...)
            item = node.pop(p.below(len(node)))
            lists = [q for q in tree_paths(tree) if isinstance(get_at(tree, q), list)]
            dest = get_at(tree, p.pick(lists))
            dest.insert(p.below(len(dest) + 1), item)
    return tree


JSON_TOKENS = (
    "null",
    "true",
    "[]",
    "{}",
    "[[[[",
    "]",
    "}",
    ",",
    ":",
    '"',
    "-0",
    "1e999",
    "-1e999",
    "NaN",
    "Infinity",
    '"\\ud800"',
    '"\\u0000"',
    "9" * 4301,
    "1" + "0" * 30,
    "0.5",
    "\\",
)


def mutate_bytes(p: Provider, raw: bytes) -> bytes:
    """Byte-level edits of a JSON text: bit flips, insertions, deletions, duplicated or
    truncated ranges, JSON tokens (huge numbers, NaN, escapes), numbers replaced."""
    b = bytearray(raw)
    for _ in range(1 + p.below(4)):
        op = p.below(8)
        i = p.below(len(b) + 1)
        j = min(len(b), i + p.below(64))
        if op == 0 and b:
            b[min(i, len(b) - 1)] ^= 1 << p.below(8)
        elif op == 1:
            b[i:i] = bytes([p.byte()])
        elif op == 2:
            del b[i:j]
        elif op == 3:
            b[i:i] = b[i:j]
        elif op == 4:
            del b[i:]
        elif op == 5:
            b[i:i] = p.pick(JSON_TOKENS).encode()
        elif op == 6:
            spans = [m.span() for m in re.finditer(rb"-?\d+", bytes(b))]
            if spans:
                lo, hi = p.pick(spans)
                b[lo:hi] = p.pick(JSON_TOKENS[10:]).encode()
        else:
            b[i:j] = p.take(j - i)
    return bytes(b)


# ------------------------------------------------------------------------------------------
# Records
# ------------------------------------------------------------------------------------------

VIEWERS: tuple[Any, ...] = (
    -1,
    2**63,
    True,
    1.0,
    "0",
    np.int64(1),
    np.int32(0),
    np.uint8(1),
    np.float64(0.0),
)


def record_state(p: Provider, game: str, variant: str) -> GameState:
    """A game reached by random play, from the start or (for a game with set-ups, now and
    then) from the position of another random game."""
    from_setup = game_info(game).from_setup
    if from_setup is not None and p.chance(30):
        root = played_state(p, game, variant)
        data = setup_data(root)
        if data is not None:
            load = functools.partial(from_setup, variant, copy.deepcopy(data), **root.options)
            s = must("from_setup-own-position", load)
            play(s, random.Random(p.seed()), p.pick(PLAY_LENGTHS))
            return s
    return played_state(p, game, variant)


def check_exports(p: Provider, s: GameState) -> None:
    """Per-player exports (``to_json(viewer=...)``): every player's works and cannot be
    replayed; odd viewers are refused with ValueError."""
    for v in [*range(s.num_players), p.pick(VIEWERS)]:
        what = f"to_json(viewer={v!r}) of {s!r}"
        text, err = attempt("to_json-viewer", functools.partial(s.to_json, viewer=v))
        if type(v) is int and 0 <= v < s.num_players and err is not None:
            fail("to_json-viewer", f"{what}: {err!r}")
        if text is None:
            continue
        load = functools.partial(plateau.from_json, text)
        _, err = attempt("from_json-export", load, plateau.InvalidRecordError)
        if err is None:
            fail("from_json-export", f"{what}: the export replays")


def load_mutated(text: str | bytes, what: str) -> None:
    """``from_json`` of a mutated record: InvalidRecordError, or a consistent game that
    round-trips."""
    load = functools.partial(plateau.from_json, text)
    t, _ = attempt("from_json", load, plateau.InvalidRecordError)
    if t is None:
        return
    shown = f"{what}: from_json({_short(text, 300)})"
    check_state(t, shown, random.Random(0))
    check_round_trip(t, shown)


def fuzz_record(data: bytes) -> None:
    """Records: ``to_json`` of a randomly played game (from the start or a set-up) must
    round-trip, per-player exports must not replay; mutations of a record (JSON values
    replaced by odd ones, items deleted, moved or duplicated, bytes flipped, inserted or cut)
    must load as a consistent game or raise ``InvalidRecordError``."""
    p = Provider(data)
    game = choose_game(p)
    if game is None:
        return
    variant = p.pick(plateau.variants(game))
    s = record_state(p, game, variant)
    what = f"{game}/{variant} at ply {s.ply}"
    check_round_trip(s, what)
    if p.chance(30):
        check_exports(p, s)
    record = json.loads(s.to_json())
    step = max(1, s.num_distinct_actions // 200)
    pool: list[Any] = [*leaves(record), *action_strings(game, variant)[::step]]
    if p.chance(30):  # another game's record or set-up as material for the mutations
        other = record_state(p, game, variant)
        pool.append(json.loads(other.to_json()))
        extra = setup_data(other) if game_info(game).from_setup is not None else None
        if extra is not None:
            pool.append(extra)
    for _ in range(1 + p.below(3)):
        mode = p.below(10)
        if mode < 5:
            text = json.dumps(mutate_tree(p, record, pool), indent=p.pick((None, None, 1)))
            if p.chance(20):
                text = text.upper() if p.chance(50) else text.lower()
            load_mutated(text, what)
        elif mode < 8:
            raw = mutate_bytes(p, s.to_json().encode())
            load_mutated(raw if p.chance(50) else raw.decode("utf-8", "replace"), what)
        elif mode == 8:
            raw = mutate_bytes(p, json.dumps(mutate_tree(p, record, pool)).encode())
            load_mutated(raw.decode("utf-8", "replace"), what)
        else:
            # from_record takes the dict itself: values no JSON text holds may get a plain
            # ValueError (numpy's, say), JSON values only InvalidRecordError
            mutated = mutate_tree(p, record, pool, non_json=True)
            allowed: Errors = plateau.InvalidRecordError if is_json(mutated) else ValueError
            t, _ = attempt("from_record", functools.partial(from_record, mutated), allowed)
            if t is not None:
                check_state(t, f"{what}: from_record({_short(mutated, 300)})")


# ------------------------------------------------------------------------------------------
# Set-up positions
# ------------------------------------------------------------------------------------------


def check_setup_state(
    from_setup: Callable[..., GameState],
    variant: str,
    t: GameState,
    options: dict[str, Any],
    what: str,
) -> None:
    """A state made from set-up data: consistent, its own set-up data loads back to it, its
    record round-trips (also after a few plies), every player's view can be drawn."""
    rng = random.Random(t.hash & 0xFFFF)
    check_state(t, what, rng)
    data = setup_data(t)
    if data is not None:
        load = functools.partial(from_setup, variant, data, **options)
        u, _ = attempt("setup-round-trip", load, ())
        if u is not None and (snapshot(u) != snapshot(t) or setup_data(u) != data):
            fail(
                "setup-round-trip",
                f"{what}: its own set-up data loads as another position: "
                f"{_diff(snapshot(t), snapshot(u))}",
            )
    check_round_trip(t, what)
    if not t.is_terminal():
        for player in range(t.num_players):
            must("view_for", functools.partial(t.view_for, player, 1))
    play(t, rng, 6)
    then = f"{what}, then {t.history_strings()}"
    check_state(t, then)
    check_round_trip(t, then)


def fuzz_setup(data: bytes) -> None:
    """Set-up positions of every game that has them (``game_info(g).from_setup``): the set-up
    data of a randomly played position must load back to that position; mutations of it must
    load as a consistent position or raise ValueError, leaving the data unchanged. The state
    class's own ``from_position_dict``, where it has one, gets the same data."""
    p = Provider(data)
    game = choose_game(p, lambda info: info.from_setup is not None)
    if game is None:
        return
    info = game_info(game)
    from_setup = info.from_setup
    if from_setup is None:
        _no(game)
    variant = p.pick(plateau.variants(game))
    s = played_state(p, game, variant)
    base = setup_data(s)
    if base is None:
        return
    what = f"{game}/{variant} set-up of ply {s.ply}"
    load = functools.partial(from_setup, variant, copy.deepcopy(base), **s.options)
    t = must("from_setup-own-position", load)
    ts, ss = snapshot(t), snapshot(s)
    if ts[:4] != ss[:4] or ts[5] != ss[5]:  # all but the history
        fail("setup-same-position", f"{what}: from_setup gives another position: {_diff(ss, ts)}")
    check_setup_state(from_setup, variant, t, s.options, what)

    other = setup_data(played_state(p, game, variant))
    pool = leaves(base) + (leaves(other) if other is not None else [])
    loader = getattr(type(s), "from_position_dict", None)
    for k in range(1 + p.below(4)):
        mutated = mutate_tree(p, base, pool, non_json=p.chance(20))
        options = choose_options(p, info) if p.chance(20) else s.options
        frozen = repr(mutated)
        shown = f"{what}, mutation {k}: from_setup({_short(mutated, 2000)}, **{options})"
        u, _ = attempt("from_setup", functools.partial(from_setup, variant, mutated, **options))
        if repr(mutated) != frozen:
            fail("setup-input-untouched", f"{shown} changed its input")
        if u is not None:
            check_setup_state(from_setup, variant, u, options, shown)
        if callable(loader):
            v, _ = attempt("from_position_dict", functools.partial(loader, mutated))
            if v is not None:
                check_state(v, f"{what}, mutation {k}: from_position_dict({_short(mutated, 2000)})")


# ------------------------------------------------------------------------------------------
# Batches
# ------------------------------------------------------------------------------------------

OUT_DTYPES = (np.uint8, np.int8, np.bool_, np.int32, np.int64, np.uint64, np.float32, np.float64)


class _Sub(np.ndarray):
    """An ndarray subclass, as output arrays are sometimes given."""


def out_array(p: Provider, shape: tuple[int, ...], dtype: Any) -> tuple[Any, bool | None]:
    """An output array for a batch method: None, a right one, or a wrong one (dtype, shape,
    layout, read-only, not an array); and whether the method must accept it (None: it may
    accept or refuse it, as an ndarray subclass of the right kind)."""
    mode = p.below(16)
    if mode < 6:
        return None, True
    if mode < 10:
        return np.full(shape, p.below(256), dtype=np.uint8).astype(dtype), True
    if mode == 10:
        bad = p.pick([d for d in OUT_DTYPES if np.dtype(d) != np.dtype(dtype)])
        return np.zeros(shape, dtype=bad), False
    if mode == 11:
        wrong = list(shape)
        k = p.below(len(wrong) + 1)
        if k == len(wrong):
            wrong.append(1)
        else:
            wrong[k] = max(0, wrong[k] + p.pick((-1, 1)))
        return np.zeros(tuple(wrong), dtype=dtype), tuple(wrong) == shape
    if mode == 12:
        strided = np.zeros((shape[0] * 2, *shape[1:]), dtype=dtype)[::2]
        return strided, bool(strided.flags.c_contiguous)
    if mode == 13:
        fortran = np.zeros(shape, dtype=dtype, order="F")
        return fortran, bool(fortran.flags.c_contiguous)
    if mode == 14:
        readonly = np.zeros(shape, dtype=dtype)
        readonly.flags.writeable = False
        return readonly, False
    kind = p.below(3)
    if kind == 0:
        return np.zeros(shape, dtype=dtype).tolist(), False
    if kind == 1:
        return np.zeros(shape, dtype=dtype).view(_Sub), None
    return p.pick((0, "out", b"\x00" * 8, memoryview(bytearray(8)))), False


def all_ok(*flags: bool | None) -> bool | None:
    """False if any flag is False, else None if any is None (either answer), else True."""
    if False in flags:
        return False
    return None if None in flags else True


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class BatchHarness:
    """A ``StateBatch`` under test, a reference batch given only clean calls (its generator
    must stay in step), and one state per game that mirrors what the batch must do."""

    def __init__(
        self,
        p: Provider,
        game: str,
        variant: str,
        n: int,
        seed: int,
        ply_cap: int,
        options: dict[str, Any],
    ) -> None:
        self.p = p
        self.game, self.variant, self.ply_cap, self.n = game, variant, ply_cap, n
        args = {"n": n, "seed": seed, "ply_cap": ply_cap, **options}
        self.b = plateau.StateBatch(game, variant, **args)
        self.ref = plateau.StateBatch(game, variant, **args)
        self.options = options
        start = functools.partial(plateau.new_game, game, variant, **options)
        mirror, err = attempt("new_game", start)
        if mirror is None:
            raise ContractViolation(
                f"[batch-options] StateBatch({game!r}, {variant!r}, {options}) was accepted, "
                f"but new_game refuses those options ({err!r})"
            )
        self.mirrors = [mirror] + [mirror.clone() for _ in range(n - 1)]
        self.finished = 0
        self.log = [f"StateBatch({game!r}, {variant!r}, {args})"]
        #: the array legal_masks(update=True) keeps updating (None: a new one next time)
        self.kept: npt.NDArray[np.uint8] | None = None

    # -- bookkeeping ---------------------------------------------------------------------------

    def where(self) -> str:
        return " -> ".join(self.log[-8:])

    def restart(self, i: int) -> None:
        self.mirrors[i] = plateau.new_game(self.game, self.variant, **self.options)

    def sync(self) -> None:
        b = self.b
        got = (b.hashes().tolist(), b.plies().tolist(), b.current_players().tolist())
        want = (
            [s.hash for s in self.mirrors],
            [s.ply for s in self.mirrors],
            [s.current_player for s in self.mirrors],
        )
        if got != want:
            fail(
                "batch-mirrors",
                f"{self.where()}: batch (hashes, plies, players) {got} != single states {want}",
            )
        if b.games_finished != self.finished:
            fail(
                "batch-games_finished",
                f"{self.where()}: games_finished {b.games_finished}, expected {self.finished}",
            )

    def state(self) -> tuple[list[int], list[int]]:
        return self.b.hashes().tolist(), self.b.plies().tolist()

    def unchanged(self, before: tuple[list[int], list[int]], what: str) -> None:
        after = self.state()
        if after != before:
            fail(
                "batch-refusal-unchanged",
                f"{self.where()}: the refused {what} changed the batch: {before} -> {after}",
            )

    # -- actions -----------------------------------------------------------------------------

    def legal_actions(self) -> npt.NDArray[np.int64]:
        p = self.p
        return np.array([p.pick(s.legal_actions().tolist()) for s in self.mirrors], np.int64)

    def odd_actions(self, acts: npt.NDArray[np.int64]) -> Any:
        """The actions made wrong in some way, or given as another container or dtype."""
        p = self.p
        acts = acts.copy()
        nd = self.b.num_distinct_actions
        for _ in range(p.below(3)):
            i = p.below(self.n)
            a = int(acts[i])
            value = p.pick(
                (-1, nd, nd - 1, p.below(nd), 2**31 + a, 2**32 + a, -(2**63), 2**63 - 1, a - nd)
            )
            if -(2**63) <= value < 2**63:
                acts[i] = value
        form = p.below(14)
        if form < 4:
            return acts
        if form == 4:
            return acts.tolist()
        if form == 5:
            return tuple(acts.tolist())
        if form == 6:
            return acts.astype(p.pick(NUMPY_INTS))
        if form == 7:
            return acts.astype(p.pick((np.float64, np.float32, np.bool_, object, np.str_)))
        if form == 8:
            return acts.reshape(1, -1) if p.chance(50) else acts.reshape(-1, 1)
        if form == 9:
            return acts[: p.below(self.n)] if p.chance(50) else np.concatenate([acts, acts[:1]])
        if form == 10:
            return np.repeat(acts, 2)[::2]  # not contiguous
        if form == 11:
            huge = acts.tolist()
            huge[p.below(self.n)] = p.pick((2**64, -(2**64), 2**63, 10**30))
            return huge
        if form == 12:
            acts.flags.writeable = False
            return acts
        return p.pick((None, 0, "0", [[0]], [[0], [0, 1]], b"\x00"))

    def intended(self, actions: Any) -> list[int] | None:
        """The ids ``step`` must apply for ``actions`` (None: it must refuse them): integer
        arrays of shape (n,) as numpy reads them."""
        try:
            arr = np.asarray(actions)
        except (ValueError, OverflowError, TypeError):
            return None
        if arr.shape != (self.n,) or arr.dtype.kind not in "iu":
            return None
        return [int(v) for v in arr.tolist()]

    def first_illegal(self, ids: list[int], skipped: list[bool]) -> int | None:
        nd = self.b.num_distinct_actions
        for i, (a, s) in enumerate(zip(ids, self.mirrors)):
            if not skipped[i] and not (0 <= a < nd and s.is_legal(a)):
                return i
        return None

    def skip_mask(self) -> tuple[Any, list[bool] | None]:
        """A ``skip`` argument for ``step`` (usually None; sometimes a mask of some games, as
        bools or integers or another container; sometimes malformed) and the games it skips
        (None: ``step`` must refuse it with ValueError)."""
        p, n = self.p, self.n
        kind = p.below(10)
        if kind < 6:
            return None, [False] * n
        mask = [p.chance(40) for _ in range(n)]
        if kind == 6:
            return np.array(mask), mask
        if kind == 7:
            return np.array(mask, dtype=p.pick(NUMPY_INTS)) * p.pick((1, 3)), mask
        if kind == 8:
            return mask, mask
        bad = p.pick(
            (np.array([*mask, True]), np.array(mask, dtype=np.float32), [mask], "yes", 1.5)
        )
        return bad, None

    def step(
        self,
        actions: Any,
        done: Any,
        returns: Any,
        outputs_ok: bool,
        note: str,
        skip: Any = None,
        skipped: list[bool] | None = None,
    ) -> None:
        b = self.b
        before = self.state()
        if skip is None:
            skipped = [False] * self.n
        ids = self.intended(actions)
        first = None if ids is None or skipped is None else self.first_illegal(ids, skipped)
        legal = ids is not None and skipped is not None and first is None
        self.log.append(f"step({_short(actions, 120)}{note}, skip={_short(skip, 60)})")
        step = functools.partial(b.step, actions, done, returns, skip=skip)
        result, err = attempt("batch.step", step)
        if err is not None:
            if legal and outputs_ok:
                fail("batch-step-refused", f"{self.where()}: legal actions {ids} refused: {err!r}")
            # ids of the right shape and type: InvalidActionError for the first refused game's
            # id out of range, IllegalActionError for an id in range the game does not allow
            # (malformed arrays: InvalidActionError, or ValueError from numpy for the buffers)
            if outputs_ok and ids is not None and skipped is not None and first is not None:
                n = b.num_distinct_actions
                want = (
                    plateau.IllegalActionError
                    if 0 <= ids[first] < n
                    else plateau.InvalidActionError
                )
                if not isinstance(err, want):
                    fail("batch-step-error-class", f"{self.where()}: {ids} refused: {err!r}")
            in_int64 = ids is not None and all(-(2**63) <= a < 2**63 for a in ids)
            names = f"game {first} of the batch" in str(err)
            if outputs_ok and skipped is not None and first is not None and in_int64 and not names:
                fail("batch-step-names-game", f"{self.where()}: game {first} first: {err}")
            self.unchanged(before, "step")
            return
        if not legal or ids is None or skipped is None or result is None:
            fail("batch-step-accepted", f"{self.where()}: accepted (ids {ids}, skip {skip!r})")
            return
        # (a skipped game's id may be anything, even past int64: the reference gets 0 there)
        kept = [0 if s else a for a, s in zip(ids, skipped)]
        self.ref.step(np.array(kept, dtype=np.int64), skip=np.array(skipped))
        got_done, got_returns = result
        if (done is not None and got_done is not done) or (
            returns is not None and got_returns is not returns
        ):
            fail("batch-step-out", f"{self.where()}: step did not return the arrays given")
        want_done: list[int] = []
        want_returns: list[list[float] | None] = []
        for i, a in enumerate(ids):
            s = self.mirrors[i]
            if skipped[i]:
                want_done.append(0)
                want_returns.append(None)
                continue
            s.apply(a)
            if s.is_terminal():
                want_done.append(1)
                want_returns.append(s.returns())
            elif s.ply >= self.ply_cap:
                want_done.append(2)
                want_returns.append([0.0] * s.num_players)
            else:
                want_done.append(0)
                want_returns.append(None)
                continue
            self.finished += 1
            self.restart(i)
        if note != " outputs overlap each other":
            done_list = [int(d) for d in np.asarray(got_done).tolist()]
            rets = np.asarray(got_returns).tolist()
            same = all(w is None or rets[i] == w for i, w in enumerate(want_returns))
            if done_list != want_done or not same:
                fail(
                    "batch-step-results",
                    f"{self.where()}: done {done_list}, returns {rets}; expected {want_done}, "
                    f"{want_returns}",
                )
        self.sync()

    def op_step(self) -> None:
        p = self.p
        kind = p.below(10)
        actions: Any
        if kind < 2:
            actions = self.b.sample_random()
            ref = self.ref.sample_random()
            if not np.array_equal(actions, ref):
                fail(
                    "batch-sample-reference",
                    f"{self.where()}: sample_random {actions.tolist()} != reference "
                    f"{ref.tolist()} (a refused call moved the generator?)",
                )
            self.log.append("sample_random()")
        elif kind < 5:
            actions = self.legal_actions()
        elif kind < 8:
            actions = self.odd_actions(self.legal_actions())
        elif "batch-overlap" not in SKIP:
            self.step_overlapping()
            return
        else:
            actions = self.legal_actions()
        done, done_ok = out_array(p, (self.n,), np.uint8)
        returns, returns_ok = out_array(p, (self.n, self.b.num_players), np.float32)
        skip, skipped = self.skip_mask()
        if skipped is not None and not isinstance(actions, (str, bytes)):
            with contextlib.suppress(TypeError, ValueError, IndexError, OverflowError):
                # a skipped game's id is never looked at: make some of them nonsense
                for i in range(self.n):
                    if skipped[i] and p.chance(50):
                        actions[i] = p.pick((-1, self.b.num_distinct_actions, 0))
        ok = all_ok(done_ok, returns_ok) is True
        self.step(actions, done, returns, ok, "", skip, skipped)

    def step_overlapping(self) -> None:
        """Actions, done and returns carved out of one byte buffer at fuzzed offsets, so that
        they may overlap (``done = actions.view(np.uint8)[k:]`` and the like)."""
        p, n = self.p, self.n
        players = self.b.num_players
        ids = self.legal_actions()
        if p.chance(30):
            ids[p.below(n)] = p.pick((-1, self.b.num_distinct_actions, 2**32 + int(ids[0])))
        rsize = 4 * n * players
        size = 8 * n + n + rsize
        buf = np.zeros(2 * size + 16, dtype=np.uint8)
        a_off = 8 * p.below(size // 8 + 1)
        acts = buf[a_off : a_off + 8 * n].view(np.int64)
        acts[:] = ids
        mode = p.below(4)
        d_off = a_off + p.below(8 * n) if mode == 0 else p.below(len(buf) - n)
        done = buf[d_off : d_off + n]  # mode 0: inside the actions' bytes
        r_off = a_off + 4 * p.below(2 * n) if mode == 1 else 4 * p.below((len(buf) - rsize) // 4)
        r_off = min(r_off, len(buf) - rsize)
        r_off -= r_off % 4
        returns = buf[r_off : r_off + rsize].view(np.float32).reshape(n, players)
        crossed = d_off < r_off + rsize and r_off < d_off + n
        if crossed:
            note = " outputs overlap each other"
        else:
            note = f" (one buffer: actions at {a_off}, done at {d_off}, returns at {r_off})"
        self.step(acts, done, returns, True, note)

    # -- queries -----------------------------------------------------------------------------

    def query_kept_masks(self) -> None:
        """``legal_masks(update=True)``: into the kept array (updated in place), a new one, or
        the kept one after junk was written into it (every write must stay inside the array;
        only a mask from an array left alone must be right)."""
        p, b, n = self.p, self.b, self.n
        if self.kept is None or p.chance(15):
            self.kept = np.full((n, b.num_distinct_actions), p.below(3), dtype=np.uint8)
            self.log.append("legal_masks(new array, update=True)")
        elif p.chance(15):
            flat = self.kept.reshape(-1)
            for _ in range(p.below(8) + 1):
                flat[p.below(flat.size)] = p.below(256)
            self.log.append("junk into the kept masks")
            b.legal_masks(self.kept, update=True)  # (must not crash; the masks may be wrong)
            self.kept = None  # a fresh array next time, to be checked again
            return
        else:
            self.log.append("legal_masks(kept, update=True)")
        masks, err = attempt(
            "batch.legal_masks", functools.partial(b.legal_masks, self.kept, update=True)
        )
        if masks is None:
            fail("batch-kept-masks", f"{self.where()}: legal_masks(update=True) refused: {err!r}")
            return
        for i, s in enumerate(self.mirrors):
            if not np.array_equal(masks[i].astype(bool), s.legal_actions_mask()):
                fail("batch-kept-masks", f"{self.where()}: kept mask of game {i} differs")

    def op_query(self) -> None:
        p, b, n = self.p, self.b, self.n
        kind = p.below(6)
        if kind == 1:
            self.query_lists()
            return
        if kind == 5:
            self.log.append("reset()")
            b.reset()
            self.ref.reset()
            for i in range(n):
                self.restart(i)
            self.sync()
            return
        if kind == 0 and p.chance(40):
            self.query_kept_masks()
            self.sync()
            return
        before = self.state()
        if kind == 0:
            out, ok = out_array(p, (n, b.num_distinct_actions), np.uint8)
            self.log.append(f"legal_masks({type(out).__name__})")
            masks, err = attempt("batch.legal_masks", functools.partial(b.legal_masks, out))
            if masks is not None:
                for i, s in enumerate(self.mirrors):
                    if not np.array_equal(masks[i].astype(bool), s.legal_actions_mask()):
                        fail("batch-legal_masks", f"{self.where()}: mask of game {i} differs")
        elif kind == 2:
            out, ok = out_array(p, (n,), np.int32)
            self.log.append(f"num_legal({type(out).__name__})")
            counts, err = attempt("batch.num_legal", functools.partial(b.num_legal, out))
            want = [len(s.legal_actions()) for s in self.mirrors]
            if counts is not None and counts.tolist() != want:
                fail("batch-num_legal", f"{self.where()}: num_legal {counts.tolist()} != {want}")
        elif kind == 3:
            out, ok = out_array(p, (n,), np.int64)
            self.log.append(f"sample_random({type(out).__name__})")
            sampled, err = attempt("batch.sample_random", functools.partial(b.sample_random, out))
            if sampled is not None:
                ref = self.ref.sample_random()
                if not np.array_equal(sampled, ref):
                    fail(
                        "batch-sample-reference",
                        f"{self.where()}: sample_random {sampled.tolist()} != reference "
                        f"{ref.tolist()} (a refused call moved the generator?)",
                    )
                if not all(s.is_legal(a) for a, s in zip(sampled.tolist(), self.mirrors)):
                    fail("batch-sample-legal", f"{self.where()}: sampled {sampled.tolist()}")
        else:
            out, ok = out_array(p, (n, *b.observation_shape), np.float32)
            self.log.append(f"observations({type(out).__name__})")
            obs, err = attempt("batch.observations", functools.partial(b.observations, out))
            if obs is not None:
                for i, s in enumerate(self.mirrors):
                    if not np.array_equal(obs[i], getattr(s, "observation_tensor")()):  # noqa: B009
                        fail("batch-observations", f"{self.where()}: game {i}'s planes differ")
        if ok is not None and (err is None) != ok:
            fail(
                "batch-output-accepted",
                f"{self.where()}: {'refused' if err else 'accepted'} "
                f"{'a right' if ok else 'a wrong'} output array ({err!r})",
            )
        if err is not None:
            self.unchanged(before, "query")
        else:
            self.sync()

    def query_lists(self) -> None:
        p, b, n = self.p, self.b, self.n
        before = self.state()
        width: Any = p.pick((1, 2, 3, 8, 256, 300, 2000, 70000, 0, -1, True, 2.0, None, "8"))
        # (at most 256 or the longest list a position can have, whichever is more: a wider
        # list would be padding)
        widest = max(256, b._core.max_legal)
        width_int = _is_int(width) and width >= 1
        width_ok = width is None or (width_int and width <= widest)  # (None: 256, or the ids')
        ids: Any
        counts: Any
        overlap = p.chance(20) and "batch-overlap" not in SKIP
        if overlap:  # ids and counts carved out of one buffer, maybe overlapping
            w = width if width_int and width < 400 else 8
            buf = np.zeros(8 * n * w + 4 * n + 64, dtype=np.uint8)
            i_off = 8 * p.below(8)
            ids = buf[i_off : i_off + 8 * n * w].view(np.int64).reshape(n, w)
            c_off = 4 * p.below((len(buf) - 4 * n) // 4 + 1)
            counts = buf[c_off : c_off + 4 * n].view(np.int32)
            ok = width_ok
        else:
            ids, ids_ok = out_array(p, (n, min(3000, width if width_int else 4)), np.int64)
            counts, counts_ok = out_array(p, (n,), np.int32)
            if type(ids) is np.ndarray and ids.ndim == 2:
                # a given 2-D id array: its width is the lists' (at least 1), and a width given
                # with it must be that width
                ids_ok = bool(
                    ids.dtype == np.int64
                    and ids.shape[0] == n
                    and 1 <= ids.shape[1] <= widest
                    and (not width_int or ids.shape[1] == width)
                    and ids.flags.c_contiguous
                    and ids.flags.writeable
                )
            ok = all_ok(width_ok, ids_ok, counts_ok)
        self.log.append(
            f"legal_lists({width!r}, ids={type(ids).__name__}, counts={type(counts).__name__})"
        )
        call = functools.partial(b.legal_lists, width, ids, counts)
        got, err = attempt("batch.legal_lists", call)
        if not overlap and ok is not None and (err is None) != ok:
            fail(
                "batch-output-accepted",
                f"{self.where()}: {'refused' if err else 'accepted'} "
                f"{'right' if ok else 'wrong'} arguments ({err!r})",
            )
        if got is None:
            self.unchanged(before, "legal_lists")
            return
        self.sync()
        if overlap:
            return
        got_ids, got_counts = got
        w = got_ids.shape[1]
        for i, s in enumerate(self.mirrors):
            legal = s.legal_actions().tolist()
            row = legal[:w] + [-1] * max(0, w - len(legal))
            if got_ids[i].tolist() != row or int(got_counts[i]) != len(legal):
                fail("batch-legal_lists", f"{self.where()}: legal list of game {i} differs")


def fuzz_batch(data: bytes) -> None:
    """A random sequence of ``StateBatch`` calls for a game that has a batch: steps with legal,
    sampled and broken actions (other dtypes, shapes, containers, out-of-range and illegal
    ids) and right, wrong and overlapping output arrays; every answer compared with one state
    per game. A refused call must apply nothing."""
    p = Provider(data)
    game = choose_game(p, lambda info: info.batch is not None)
    if game is None:
        return
    variant = p.pick(plateau.variants(game))
    n = p.pick((1, 2, 3, 4, 5, 8))
    seed = p.pick((0, 1, 2**64 - 1, p.seed()))
    ply_cap = p.pick((1, 2, 3, 7, 20, 60, 400))
    # the game's own options, as new_game takes them (first_player, max_plies, ...)
    options = {name: p.pick((0, 0, 0, 0, 1, 2, 3)) for name in game_info(game).options}
    if p.chance(10):
        kwargs: dict[str, Any] = {
            "variant": variant,
            "n": n,
            "seed": seed,
            "ply_cap": ply_cap,
            **options,
        }
        bad = p.pick(tuple(kwargs))
        kwargs[bad] = p.pick((0, -1, 2**31, 2**64, True, 2.0, None, "1", "nope"))
        attempt("StateBatch", functools.partial(plateau.StateBatch, game, **kwargs))
    make = functools.partial(BatchHarness, p, game, variant, n, seed, ply_cap, options)
    h, err = attempt("StateBatch", make)
    if h is None:
        # a batch refuses only what new_game refuses too
        mirror, _ = attempt(
            "new_game", functools.partial(plateau.new_game, game, variant, **options)
        )
        if mirror is not None:
            fail(
                "StateBatch",
                f"StateBatch({game!r}, {variant!r}, n={n}, {options}) refused: {err!r}",
            )
        return
    h.sync()
    for _ in range(1 + p.below(24)):
        if p.chance(55):
            h.op_step()
        else:
            h.op_query()


# ------------------------------------------------------------------------------------------
# The engine protocol, from both sides
# ------------------------------------------------------------------------------------------

#: the first words of the lines an engine may write (docs/engine-protocol.md)
ENGINE_WORDS = ("id", "option", "ready", "info", "bestaction")
#: how an engine may forfeit an arena game (EngineError.reason)
FORFEIT_REASONS = frozenset(
    [
        "start",
        "refused",
        "crash",
        "timeout",
        "time",
        "flood",
        "garbage",
        "unparseable",
        "illegal",
        "no-action",
    ]
)
#: the bots ``plateau engine`` serves in the ``engine`` target (one searches by time)
ENGINE_BOTS = ("random", "greedy", "mcts:seconds=0.001")
#: odd values for the fields of a ``go`` line
GO_VALUES = ("0", "1", "-1", "10", "1000", "9" * 400, "1e9", "x", "\u0663", "", "00", "2" * 20)


def command_lines(p: Provider) -> list[str]:
    """Lines for ``plateau engine``: a referee's session (handshake, ``game``, then
    ``position`` and ``go`` as the arena writes them for a game of random play), its lines
    often mutated, with other commands, unknown words and random text mixed in."""
    from plateau.engine import HELLO, game_command, go_command, position_command

    game = choose_game(p)
    if game is None:
        return []
    variant = p.pick(plateau.variants(game))
    s = played_state(p, game, variant)
    rng = random.Random(p.seed())
    # the letters of the game's notation so far (not alphabet(): it names every action id)
    letters = "".join(sorted(set("".join(s.history_strings())))) + '{}[]":,0123456789 a@-/'

    def game_line() -> str:
        line = game_command(s)
        if p.chance(25):
            word, name, var, options = line.split(" ", 3)
            tree = mutate_tree(p, json.loads(options), OPTION_VALUES)
            line = f"{word} {name} {var} {json.dumps(tree)}" if is_json(tree) else line
        return line

    def position_line() -> str:
        seat = s.current_player if 0 <= s.current_player < s.num_players else 0
        line = position_command(s, seat, p.seed())
        if p.chance(25):
            line = mutate_bytes(p, line.encode()).decode("utf-8", "replace").replace("\n", " ")
        return line

    def go_line() -> str:
        times = [p.pick((0, 1, 10, 1000)) for _ in range(s.num_players)]
        line = go_command(s.num_players, p.pick((0, 1, 100)), times, p.pick((0, 5)))
        if p.chance(25):
            words = line.split()
            k = 1 + 2 * p.below(len(words) // 2)
            words[min(k + 1, len(words) - 1)] = p.pick(GO_VALUES)
            if p.chance(20):
                del words[k:]
            line = " ".join(words)
        return line

    def other_line() -> str:
        kind = p.below(6)
        if kind == 0:
            return p.pick((HELLO, "plateau-engine", "plateau-engine 2", "isready", "stop"))
        if kind == 1:
            value = p.pick(("1", "-1", "9" * 5000, "x", "", "1 2", str(p.seed())))
            return f"setoption name {p.pick(('seed', 'seed', 'hash', ''))} value {value}"
        if kind == 2:
            return p.pick(("quit", "", "   ", "bestaction a1", "\ufffd", "go", "position"))
        if kind == 3:
            deep = p.pick(("[", '{"a":', '[{"b":'))
            head = p.pick((f"game {game} {variant}", "position setup", "position view"))
            return f"{head} {deep * p.pick((10, 1000, 100_000))}"
        if kind == 4:
            return game_line()
        return mutate_text(p, random_text(p, letters, ()), letters, ())

    lines = [HELLO] if p.chance(80) else []
    lines.append(game_line())
    for _ in range(p.below(8)):
        if p.chance(70):
            lines += [position_line(), go_line()]
            play(s, rng, p.below(3))
        else:
            lines.append(other_line())
    return lines


def check_answer(engine: Any, line: str, answer: list[str] | None) -> None:
    """One answer of ``plateau engine``: lines of the protocol, each a single line; ``None``
    only for ``quit``; a ``bestaction`` legal in the engine's position."""
    words = line.split()
    if answer is None:
        if words[:1] != ["quit"]:
            fail("engine-quit", f"{_short(line)}: answered None (quit)")
        return
    if not isinstance(answer, list) or not all(isinstance(a, str) for a in answer):
        fail("engine-answer", f"{_short(line)}: answered {_short(answer)}")
        return
    for a in answer:
        if "\n" in a or "\r" in a or a.split()[:1] == [] or a.split()[0] not in ENGINE_WORDS:
            fail("engine-answer-line", f"{_short(line)}: answered the line {_short(a)}")
        if len(a) > 4096:
            fail("engine-answer-long", f"{_short(line)}: an answer line of {len(a)} characters")
    best = [a for a in answer if a.startswith("bestaction ")]
    if words[:1] == ["go"]:
        if len(best) != 1 or answer[-1] != best[0]:
            fail("engine-go", f"{_short(line)}: go answered {_short(answer)}")
            return
        text = best[0].split()[1]
        if text != "(none)":
            state = engine.state
            why = "no position" if state is None else state.why_illegal(text)
            if why is not None:
                fail("engine-go-legal", f"{_short(line)}: bestaction {text!r}: {why}")
    elif best:
        fail("engine-answer", f"{_short(line)}: bestaction answering {words[:1]}")


def fuzz_engine(data: bytes) -> None:
    """Commands into ``plateau engine``'s handler (``BotEngine.handle``), in-process: the
    referee's own lines for random positions of every game, mutated, and (input whose first
    byte picks a bot of :data:`ENGINE_BOTS` by its index) the raw bytes after it as standard
    input, read as ``serve`` reads them. Every
    line is answered with protocol lines (an error is ``info string error: ...``), never an
    exception; a ``bestaction`` is legal in the position the engine was given."""
    from plateau.engine import BotEngine, read_commands

    if data and data[0] < len(ENGINE_BOTS):  # raw: the bytes after the first are stdin
        import io

        engine = BotEngine(ENGINE_BOTS[data[0]], 1)
        lines = list(read_commands(io.BytesIO(data[1:])))
    else:
        p = Provider(data)
        engine = BotEngine(p.pick(ENGINE_BOTS), p.seed())
        lines = command_lines(p)
    for line in lines:
        answer = must("engine-handle", functools.partial(engine.handle, line))
        check_answer(engine, line, answer)
        if answer is None:
            return


def scripted_engine(p: Provider, log: list[Any]) -> Callable[[Any], Any]:
    """A ``start`` function for ``EnginePool``: an engine of the fuzz input behind the arena's
    real protocol code (``EngineConnection``), each appended to ``log``. Each command the
    arena writes is answered at once as a library bot would answer it (a shadow
    ``BotEngine``), then spoiled as the input says: silence, garbage, bytes that are not
    UTF-8, over-long lines, a flood, a wrong action, ``(none)``, a refusal, the end of
    output, a failed write. The answer goes through the real reader (``pump``) into the real
    bounded buffer."""
    import io

    from plateau.engine import (
        MAX_BUFFERED_BYTES,
        MAX_BUFFERED_LINES,
        MAX_LINE,
        BotEngine,
        EngineConnection,
        EngineError,
        pump,
    )

    class Scripted(EngineConnection):
        def __init__(self, spec: Any) -> None:
            super().__init__(spec)
            self.shadow = BotEngine("random", p.seed())
            self.commands = 0
            self.closed = False
            self.after_go = False
            log.append(self)
            try:
                self._handshake()
            except BaseException:
                self.close(grace=0)
                raise

        @property
        def alive(self) -> bool:
            return not self.closed and not self.output.ended

        def close(self, grace: float = 0.5) -> None:
            self.closed = True

        def _write(self, data: bytes, deadline: float) -> None:
            if self.closed:
                fail("referee-closed", f"the arena wrote {_short(data)} to a closed engine")
            if data == b"isready\n" and self.after_go:
                # the barrier after an answer: answered as it is, drawing nothing from the
                # input (so that the inputs found before it replay the same games); what the
                # spoiled answer to the go put after its bestaction comes before this ready
                self.after_go = False
                self.commands += 1
                self.feed(b"".join(a.encode() + b"\n" for a in self.shadow.handle("isready") or []))
                return
            self.after_go = data.startswith(b"go")
            if p.chance(2):
                raise EngineError(p.pick(("timeout", "crash")), "a scripted failed write")
            for line in data.decode("utf-8").splitlines():
                self.commands += 1
                answer = self.shadow.handle(line) or []
                self.feed(self.spoil(line, answer))
                if self.output.bytes > MAX_BUFFERED_BYTES:
                    fail("referee-buffer", f"{self.output.bytes} bytes of output held")

        def spoil(self, line: str, answer: list[str]) -> bytes:
            lines = [a.encode() + b"\n" for a in answer]
            for _ in range(1 + p.below(2) if p.chance(5) else 0):
                op = p.below(12)
                i = p.below(len(lines) + 1)
                if op == 0:
                    lines = []  # silence: the arena waits until its deadline
                elif op == 1:
                    lines.insert(i, p.pick((b"hello\n", b"\n", b"  \r\n", b"info\n", b"id\n")))
                elif op == 2:
                    lines.insert(i, p.take(p.below(40)) + b"\n")
                elif op == 3:
                    lines.insert(i, b"info string " + b"x" * (MAX_LINE + p.below(3) - 1) + b"\n")
                elif op == 4:
                    long = b"info string " + b"y" * 988 + b"\n"
                    blanks = b"\n" * (MAX_BUFFERED_LINES + 1)
                    lines.insert(i, p.pick((blanks, long * 100, long * 1100)))
                elif op == 5:
                    lines.insert(i, b"bestaction " + p.take(p.below(12)) + b"\n")
                elif op == 6:
                    lines.insert(i, p.pick((b"bestaction (none)\n", b"bestaction\n")))
                elif op == 7:
                    lines.insert(i, b"info string error: scripted\n")
                elif op == 8 and lines:
                    lines[min(i, len(lines) - 1)] = lines[min(i, len(lines) - 1)].rstrip(b"\n")
                elif op == 9:
                    lines.append(b"\0END")  # end of output after this
                elif op == 10 and self.shadow.state is not None:  # most ids are illegal
                    state = self.shadow.state
                    text = state.action_to_string(p.below(state.num_distinct_actions))
                    lines.insert(i, f"bestaction {text}\n".encode())
                else:
                    lines.insert(i, b"\xff\xfe\xc0" + p.take(4) + b"\r\n")
            return b"".join(lines)

        def feed(self, raw: bytes) -> None:
            end = raw.endswith(b"\0END")
            if end:
                raw = raw[: -len(b"\0END")]
            pump(io.BytesIO(raw), self.output, to_end=end)

    return Scripted


def fuzz_referee(data: bytes) -> None:
    """A fuzzed engine against the arena (:func:`scripted_engine` in one or more seats of a
    game of any registered game, library bots in the others): the game always ends with a
    result, never an exception; a failure is a forfeit of an engine seat with one of the
    documented reasons, that engine is stopped and the next game starts a fresh one; the
    arena holds at most the bounded output, and writes a bounded number of commands."""
    from plateau import arena
    from plateau.clock import TimeControl
    from plateau.engine import EnginePool

    p = Provider(data)
    game = choose_game(p)
    if game is None:
        return
    variant = p.pick(plateau.variants(game))
    n = plateau.new_game(game, variant).num_players
    spec = "engine:name=fuzz,cmd=fuzz,init_timeout=0.001"
    seats = [spec if p.chance(60) else "random" for _ in range(n)]
    if spec not in seats:
        seats[p.below(n)] = spec
    log: list[Any] = []
    pool = EnginePool(start=scripted_engine(p, log))
    ply_cap = p.pick((1, 2, 4, 8, 20, 60))
    tc = p.pick((None, None, TimeControl(1e-9, 0.0), TimeControl(1000.0, 1.0)))
    for index in range(1 + p.below(3)):
        before = len(log)
        play = functools.partial(
            arena._play_game,
            plateau.resolve(game, variant),
            seats,
            index,
            p.seed(),
            0.001,
            ply_cap,
            pool,
            tc,
        )
        r = must("referee-game", play)
        where = f"{game}/{variant} game {index} seats {seats}"
        forfeit = r.forfeit
        if forfeit is not None:
            seat = forfeit.get("seat")
            if not (isinstance(seat, int) and 0 <= seat < n):
                fail("referee-forfeit-seat", f"{where}: forfeit of seat {seat}: {forfeit}")
                return
            if seats[seat] == spec and forfeit.get("reason") not in FORFEIT_REASONS:
                fail("referee-forfeit-reason", f"{where}: {forfeit}")
            # a library bot only ever runs out of time (the arena's limit is a millisecond)
            on_time = forfeit.get("reason") == "time" or "TimeoutError" in forfeit["error"]
            if seats[seat] != spec and not on_time:
                fail("referee-forfeit-seat", f"{where}: forfeit of seat {seat}: {forfeit}")
            if r.ranking[-1] != [seat]:
                fail("referee-forfeit-last", f"{where}: ranking {r.ranking} after {forfeit}")
        state = must("referee-record", functools.partial(from_record, r.record))
        if state.ply != r.plies or state.ply > ply_cap:
            fail("referee-plies", f"{where}: {r.plies} plies, the record has {state.ply}")
        if forfeit is None and not r.truncated and not state.is_terminal():
            fail("referee-end", f"{where}: no forfeit, not truncated, not over")
        for engine in log[before:]:
            if engine.commands > 12 + 2 * (r.plies + 1) * n:
                fail("referee-commands", f"{where}: {engine.commands} commands for {r.plies} plies")
        live = [e for e in log if not e.closed]
        if forfeit is not None and len(live) > sum(s == spec for s in seats):
            fail("referee-discard", f"{where}: {len(live)} engines left open after {forfeit}")
    pool.close()
    if any(not e.closed for e in log):
        fail("referee-close", "an engine left open after the pool closed")


# ------------------------------------------------------------------------------------------
# Board files (Empire Plateau's board as data)
# ------------------------------------------------------------------------------------------

#: the raw mode's first byte: the rest of the input is the board file itself (how the
#: ``bug-*`` inputs of ``fuzz/corpus/board/`` are written: a 0 byte, then the file)
BOARD_RAW = 0
BOARD_GAME = "empire-plateau"
#: a polar grid (the observation plane) has at most this many places per dot
#: (docs/empire-board-format.md)
BOARD_PLACES_PER_DOT = 4


def _board_module() -> Any:
    from plateau.games.empire import board as empire_board

    return empire_board


def lane_board(p: Provider, lane: int) -> dict[str, Any]:
    """A board in the file format whose dot ids are ring * S + spoke with S = ``lane`` (16,
    32 or 64 spokes, at most 256 dots), so that the word-parallel search runs on it: the polar
    grid where it has room for the layouts (7 rings or more), else a few rings with each
    Empire's armies around its base on the outer ring."""
    eb = _board_module()
    rings = p.between(7, 256 // lane) if lane < 64 else 4
    if rings >= 7:
        data: dict[str, Any] = eb.board_to_dict(eb.polar_board(f"lane{lane}", lane, rings))
        return data
    data = eb.board_to_dict(eb.polar_board(f"lane{lane}", lane, 7))
    data["name"], data["rings"] = f"lane{lane}x{rings}", rings
    data["dots"] = [dict(d) for d in data["dots"] if d["at"][1] <= rings]

    def at(spoke: int, ring: int) -> str:
        return str(eb.spoke_letters(spoke % lane) + str(ring))

    quarter = lane // 4
    data["layouts"] = {
        e: {
            "E": [at(c, rings)],
            "6": [at(c, rings - 1), at(c, rings - 2)],
            "4": [at(c + k, 1) for k in (-1, 0, 1, 2)],
            "2": [at(c + k, r) for k in (-2, -1, 1, 2) for r in (rings - 2, rings - 1, rings)],
        }
        for e, c in zip("GMRB", (0, quarter, 2 * quarter, 3 * quarter))
    }
    for d in data["dots"]:
        d.pop("base", None)
        if d["at"][1] == rings:
            d["out"] = None
            if d["at"][0] % quarter == 0:
                d["base"] = "GMRB"[d["at"][0] // quarter]
    return data


def _starting_dots(data: dict[str, Any]) -> set[str]:
    return {d for lay in data["layouts"].values() for ds in lay.values() for d in ds}


def _by_name(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {d["name"]: d for d in data["dots"]}


def drop_dots(p: Provider, data: dict[str, Any]) -> None:
    """Take a few dots that start no army off the board (a bigger red area)."""
    keep = _starting_dots(data)
    free = [d["name"] for d in data["dots"] if d["name"] not in keep and "base" not in d]
    gone = {p.pick(free) for _ in range(p.below(min(len(free), 12) + 1))} if free else set()
    data["dots"] = [d for d in data["dots"] if d["name"] not in gone]
    for d in data["dots"]:
        for k in ("out", "in", "cw", "ccw"):
            if d.get(k) in gone:
                d[k] = None


def odd_ring(p: Provider, data: dict[str, Any]) -> None:
    """Make the board not bipartite: a dot that starts no army leaves its ring, and its two
    ring neighbours are joined, so that ring becomes odd (on an even ring)."""
    keep = _starting_dots(data)
    dots = _by_name(data)
    free = [
        d["name"]
        for d in data["dots"]
        if d["name"] not in keep and "base" not in d and d.get("cw") and d.get("ccw")
    ]
    if not free:
        return
    x = dots[p.pick(free)]
    cw, ccw = dots[x["cw"]], dots[x["ccw"]]
    if cw["name"] == ccw["name"] or cw.get("cw") == ccw["name"]:
        return
    for k in ("out", "in"):
        if x.get(k) is not None:
            dots[x[k]]["in" if k == "out" else "out"] = None
    cw["ccw"], ccw["cw"] = ccw["name"], cw["name"]
    data["dots"] = [d for d in data["dots"] if d is not x]


def rename_dots(p: Provider, data: dict[str, Any]) -> None:
    """Give the dots other valid names, some of them long (``m10005``, ``xyz123456789``)."""
    new: dict[str, str] = {}
    for k, d in enumerate(data["dots"]):
        letters = "".join(p.pick("abmxyz") for _ in range(1 + p.below(4)))
        new[d["name"]] = f"{letters}{k + 1}{p.below(10 ** p.below(13)) if p.chance(70) else ''}"
    for d in data["dots"]:
        for key in ("name", "out", "in", "cw", "ccw"):
            if d.get(key) is not None:
                d[key] = new[d[key]]
    data["layouts"] = {
        e: {t: [new[d] for d in ds] for t, ds in lay.items()} for e, lay in data["layouts"].items()
    }


def generated_board(p: Provider) -> dict[str, Any]:
    """A board in the file format: a shipped one, a polar grid, a board with lanes of 16, 32
    or 64 bits, then maybe with dots dropped, a ring made odd (not bipartite), dots renamed,
    listed in another order, or without polar coordinates."""
    eb = _board_module()
    kind = p.below(4)
    if kind == 0:
        data: dict[str, Any] = eb.board_to_dict(eb.load_board(p.pick(("ep16", "ep24"))))
    elif kind == 1:
        spokes = 2 * p.between(6, 40)
        rings = p.between(7, max(7, 1024 // spokes))
        data = eb.board_to_dict(eb.polar_board("polar", spokes, min(rings, 1024 // spokes)))
    else:
        data = lane_board(p, p.pick((16, 32, 64)))
    data["name"] = f"fuzz{p.below(1000)}"
    if p.chance(30):
        drop_dots(p, data)
    if p.chance(30):
        odd_ring(p, data)
    if p.chance(30):
        rename_dots(p, data)
    if p.chance(20):
        p_rng = random.Random(p.seed())
        p_rng.shuffle(data["dots"])
    if p.chance(10):
        data.pop("spokes", None)
        data.pop("rings", None)
        for d in data["dots"]:
            d.pop("at", None)
    return data


BOARD_TOKENS = (
    "ep16",
    "ep24",
    "m10005",
    "a" + "1" * 30,
    "/etc/hostname",
    "./ep16",
    "out",
    "in",
    "cw",
    "ccw",
    "up",
    "B",
    "G",
    "M",
    "R",
    "E",
    "6",
    "4",
    "2",
    1024,
    1025,
    4096,
)


def board_text(p: Provider) -> str | bytes:
    """A board file: the raw input after the mode byte, or a generated board, mutated as a
    tree (odd values, keys and items moved) and as bytes now and then."""
    if p.below(16) == BOARD_RAW:
        return p.take(p.remaining)
    data = generated_board(p)
    if p.chance(50):
        pool = [*leaves(data), *BOARD_TOKENS]
        data = mutate_tree(p, data, pool)
    text = json.dumps(data, indent=p.pick((None, None, 1)))
    if p.chance(25):
        raw = mutate_bytes(p, text.encode())
        return raw if p.chance(50) else raw.decode("utf-8", "replace")
    return text


def check_board_game(p: Provider, board: Any, text: str, what: str) -> None:
    """A game on an accepted board: bounded observations, a few random plies with every legal
    action's notation read back, apply and undo, and the record, set-up and pickle round
    trips."""
    import pickle

    variant = p.pick(plateau.variants(BOARD_GAME))
    s = must("new_game-accepted-board", lambda: plateau.new_game(BOARD_GAME, variant, board=text))
    assert isinstance(s, plateau.EmpirePlateauState)
    _, rows, cols = s.observation_shape
    if rows * cols > max(BOARD_PLACES_PER_DOT * len(board), len(board)):
        fail("board-observation-size", f"{what}: {rows} x {cols} planes for {len(board)} dots")
    rng = random.Random(p.seed())
    for _ in range(p.pick((2, 0, 1, 4, 8, 16))):  # 2 once the input is used up
        if s.is_terminal():
            break
        ids = s.legal_actions().tolist()
        for a in ids:
            name = s.action_to_string(a)
            back, err = attempt("board-notation", functools.partial(s.parse_action, name), ())
            if err is not None or back != a:
                fail("board-notation", f"{what}: action {a} writes {name!r}, read back as {back}")
        check_state(s, f"{what} ply {s.ply}", rng)
        s.apply(rng.choice(ids))
    check_round_trip(s, what)
    position = must("position_dict", s.position_dict)
    t = must("from_position_dict", lambda: type(s).from_position_dict(position))
    if must("position_dict", t.position_dict) != position:
        fail("board-setup-round-trip", f"{what}: its position loads as another one")
    u = must("pickle", lambda: pickle.loads(pickle.dumps(s)))
    if snapshot(u) != snapshot(s):
        fail(
            "board-pickle", f"{what}: the pickle is another game: {_diff(snapshot(s), snapshot(u))}"
        )


def fuzz_board(data: bytes) -> None:
    """Board files: mutations of shipped and generated boards (lanes of 16, 32 and 64 bits,
    dots dropped, odd rings that are not bipartite, long dot names, dots in another order),
    and raw bytes. ``board_from_json`` raises only ``InvalidBoardError``, ``new_game`` only
    ``ValueError`` and a record carrying the board only ``InvalidRecordError``; an accepted
    board round-trips as JSON, and plays (:func:`check_board_game`)."""
    eb = _board_module()
    p = Provider(data)
    raw = board_text(p)
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    what = f"board {_short(text, 300)}"
    board, _ = attempt("board_from_json", functools.partial(eb.board_from_json, text),
                       InvalidBoardError)  # fmt: skip
    record = json.dumps({"format": "plateau-game-record", "version": 1, "game": BOARD_GAME,
                         "variant": "two", "options": {"board": text}, "actions": []})  # fmt: skip
    loaded, _ = attempt("from_json-board", functools.partial(plateau.from_json, record),
                        plateau.InvalidRecordError)  # fmt: skip
    if not text.lstrip().startswith("{"):
        # new_game would take this text for a path (the caller's right); a record never does
        if (loaded is not None) != (text in ("ep16", "ep24")):
            fail("board-record-path", f"{what}: a record's board that is no JSON: {loaded!r}")
        return
    s, _ = attempt("new_game-board", functools.partial(plateau.new_game, BOARD_GAME, board=text))
    if (board is None) != (s is None) or (loaded is None) != (s is None):
        fail(
            "board-accepted",
            f"{what}: board_from_json, new_game and a record carrying the board disagree: "
            f"{board!r}, {s!r}, {loaded!r}",
        )
    if board is None:
        return
    again = must("board_to_json", functools.partial(eb.board_to_json, board))
    if must("board-json-round-trip", functools.partial(eb.board_from_json, again)) != board:
        fail("board-json-round-trip", f"{what}: board_from_json(board_to_json(b)) != b")
    check_board_game(p, board, text, what)


TARGET_FUNCTIONS: dict[str, Callable[[bytes], None]] = {
    "notation": fuzz_notation,
    "record": fuzz_record,
    "setup": fuzz_setup,
    "batch": fuzz_batch,
    "board": fuzz_board,
    "engine": fuzz_engine,
    "referee": fuzz_referee,
}
