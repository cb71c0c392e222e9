"""What the tests share (on the path through pytest's ``pythonpath``): optional extras, seeded
random games, refusals that change nothing, child processes with default signals; and for the
conformance suite the games and variants from the registry, seeded positions of each (start, a
few plies, midgame, finished), and a snapshot of everything observable about a state."""

from __future__ import annotations

import functools
import importlib
import os
import random
import re
import signal
import subprocess
import zlib
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pytest

import plateau
from plateau import GameState


def require_extra(module: str, extra: str) -> Any:
    """Import ``module`` of the optional ``extra``; skip the test without it, or fail when
    ``PLATEAU_REQUIRE_EXTRAS=1`` (CI sets it where it installed the extras, so that a missing
    install cannot pass as skipped tests)."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        if os.environ.get("PLATEAU_REQUIRE_EXTRAS") == "1":
            pytest.fail(f"PLATEAU_REQUIRE_EXTRAS=1 but {module} is missing ({e})")
        pytest.skip(f"the optional {extra!r} extra is not installed (pip install '.[{extra}]')")


def random_game(
    game: str, variant: str | None, seed: int, plies: int | None = None, **options: Any
) -> Any:
    """Uniformly random legal play with a fixed seed, for ``plies`` plies or to the end."""
    rng = random.Random(seed)
    s = plateau.new_game(game, variant, **options)
    while not s.is_terminal() and (plies is None or s.ply < plies):
        legal = s.legal_actions()
        s.apply(int(legal[rng.randrange(len(legal))]))
        assert s.ply < 100_000
    return s


def assert_refused(
    s: Any,
    action: Any,
    *patterns: str,
    via: str = "apply",
    error: type[plateau.ActionError] = plateau.IllegalActionError,
    snap: Callable[[Any], object] | None = None,
) -> str:
    """``action`` raises ``error`` (IllegalActionError by default; InvalidActionError for input
    that names no action) whose message matches every pattern, and the state is unchanged
    (``snap``: what must not change, :func:`snapshot` by default), also after a second try
    (where the error is caught as the ValueError it also is). Returns the message."""
    snap = snap or snapshot
    before = snap(s)
    with pytest.raises(error) as info:
        getattr(s, via)(action)
    message = str(info.value)
    for pattern in patterns:
        assert re.search(pattern, message), (pattern, message)
    assert snap(s) == before
    with pytest.raises(ValueError):
        getattr(s, via)(action)
    assert snap(s) == before
    return message


def observe(s: Any) -> tuple[Any, ...]:
    return (
        s.variant,
        s.options,
        s.num_players,
        s.history,
        s.history_strings(),
        s.ply,
        s.hash,
        s.current_player,
        s.is_terminal(),
        s.legal_actions().tolist(),
        s.ranking(),
        s.returns(),
        s.piece_squares(),
        s.stamps(),
        s.supply,
        [s.stock(p) for p in range(s.num_players)],
        s.levels(),
        str(s),
    )


def default_signals() -> None:
    """``preexec_fn`` of a child that must get a real SIGINT and SIGHUP: a test run started as a
    background job ignores SIGINT, one started under ``nohup`` ignores SIGHUP, its children
    would inherit that, and Python (SIGINT) and the arena (SIGHUP) install their handlers only
    over the default disposition."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def start_in_session(argv: list[str]) -> subprocess.Popen[str]:
    """``argv`` started as a terminal or a harness starts a command: in a session (and process
    group) of its own, SIGINT and SIGHUP at their defaults, its output on pipes the test reads
    to the end."""
    return subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=default_signals,
    )


# -- the conformance suite ------------------------------------------------------------------

#: every registered game and variant, as ``(game, variant)``
GAME_VARIANTS: list[tuple[str, str]] = [
    (g, v) for g in plateau.games() for v in plateau.variants(g)
]

#: the positions every per-position test runs on
LABELS = ("start", "opening", "midgame", "finished")

#: a random game longer than this is taken for a game that does not end
MAX_RANDOM_PLIES = 5000


def gv_id(game: str, variant: str) -> str:
    return f"{game}/{variant}"


def seed_of(*parts: object) -> int:
    """A seed fixed by its parts (stable across runs and Python versions)."""
    return zlib.crc32("/".join(map(str, parts)).encode())


def has_batch(game: str) -> bool:
    return plateau.game_info(game).batch is not None


def perfect(game: str) -> bool:
    return plateau.game_info(game).perfect_information


@functools.cache
def random_history(game: str, variant: str, seed: int) -> tuple[int, ...]:
    """The actions of a whole game of uniformly random legal play, seeded."""
    rng = random.Random(seed)
    s = plateau.new_game(game, variant)
    while not s.is_terminal():
        legal = s.legal_actions()
        assert len(legal) > 0, "a state that is not over has a legal action"
        s.apply(int(legal[rng.randrange(len(legal))]))
        assert s.ply < MAX_RANDOM_PLIES, f"{game}/{variant}: random play does not end"
    return tuple(s.history)


def replay(game: str, variant: str, actions: tuple[int, ...] | list[int]) -> GameState:
    s = plateau.new_game(game, variant)
    s.apply_all(list(actions))
    return s


@dataclass(frozen=True)
class Case:
    """One seeded position of one game and variant; :meth:`state` builds a fresh copy."""

    game: str
    variant: str
    label: str

    @property
    def history(self) -> tuple[int, ...]:
        whole = random_history(self.game, self.variant, seed_of(self.game, self.variant))
        n = len(whole)
        ply = {"start": 0, "opening": min(3, n - 1), "midgame": n // 2, "finished": n}[self.label]
        return whole[:ply]

    def state(self) -> GameState:
        s = replay(self.game, self.variant, self.history)
        assert s.is_terminal() == (self.label == "finished")
        return s

    @property
    def id(self) -> str:
        return f"{self.game}/{self.variant}/{self.label}"

    @property
    def seed(self) -> int:
        return seed_of(self.game, self.variant, self.label)


CASES: list[Case] = [Case(g, v, label) for g, v in GAME_VARIANTS for label in LABELS]


def record_of(s: GameState) -> str | None:
    """The JSON record, or None for a determinization (which has none)."""
    return None if s.is_determinization else s.to_json()


def snapshot(s: GameState) -> tuple[Any, ...]:
    """Everything observable about a state through the game-independent API."""
    return (
        type(s),
        s.game,
        s.variant,
        s.options,
        s.num_players,
        s.hash,
        s.ply,
        s.history,
        s.current_player,
        s.is_terminal(),
        s.is_determinization,
        s.legal_actions().tolist(),
        s.legal_actions_mask().tobytes(),
        s.num_legal_actions(),
        s.ranking(),
        s.returns(),
        [s.observation_tensor(p).tobytes() for p in range(s.num_players)],
        [s.observation(p) for p in range(s.num_players)],
        [s.heuristic(p) for p in range(s.num_players)],
        str(s),
        record_of(s),
    )


def undo_one(s: GameState) -> int:
    """Undo one action, checking that it was taken off the history."""
    ply, history = s.ply, s.history
    a = s.undo()
    assert (s.ply, s.history) == (ply - 1, history[:-1]) and a == history[-1]
    return a


def undo_all(s: GameState) -> list[int]:
    """Undo ``s`` back to the start of its history (a bounded loop: an undo that takes nothing
    back fails instead of looping); returns the actions taken back, last first."""
    return [undo_one(s) for _ in range(len(s.history))]


def undo_trail(s: GameState) -> list[tuple[int, int]]:
    """``(action taken back, hash after)`` for undoing a clone of ``s`` back to its start."""
    c = s.clone()
    out = []
    for _ in range(len(c.history)):
        a = undo_one(c)
        out.append((a, c.hash))
    return out


def first_illegal_id(s: GameState) -> int:
    """The smallest in-range id that is not legal in ``s``."""
    illegal = np.flatnonzero(~s.legal_actions_mask())
    assert len(illegal) > 0, "every id legal: no illegal id to try"
    return int(illegal[0])


def without_costs(table: str) -> str:
    """An arena table without its table of what the moves cost (times differ run to run)."""
    out, skipping = [], False
    for line in table.split("\n"):
        if line.startswith("| bot | moves | seconds a move"):
            skipping = True
        elif skipping and not line.startswith("|"):
            skipping = False
        if not skipping:
            out.append(line)
    return "\n".join(out)
