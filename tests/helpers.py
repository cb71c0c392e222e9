"""Helpers shared by the test modules (on the path through pytest's ``pythonpath``)."""

from __future__ import annotations

import importlib
import os
import random
import signal
import subprocess
from typing import Any

import pytest

import plateau


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


def random_game(variant: str, seed: int, plies: int | None = None, first_player: int = 0) -> Any:
    """Random legal play with a fixed seed, for ``plies`` plies or to the end."""
    rng = random.Random(seed)
    s = plateau.new_game("plateau-x", variant, first_player=first_player)
    while not s.is_terminal() and (plies is None or s.ply < plies):
        legal = s.legal_actions()
        s.apply(int(legal[rng.randrange(len(legal))]))
        assert s.ply < 2000
    return s


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
