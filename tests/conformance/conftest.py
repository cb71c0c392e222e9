"""Fixtures of the conformance suite, all drawn from the registry: games and variants, seeded
positions of each, and the subsets with a capability (a batch engine, hidden information)."""

from __future__ import annotations

import pytest

from support import CASES, GAME_VARIANTS, Case, gv_id, has_batch, perfect


@pytest.fixture(params=GAME_VARIANTS, ids=[gv_id(*gv) for gv in GAME_VARIANTS])
def game_variant(request: pytest.FixtureRequest) -> tuple[str, str]:
    """Every registered ``(game, variant)``."""
    gv: tuple[str, str] = request.param
    return gv


@pytest.fixture(params=CASES, ids=[c.id for c in CASES])
def case(request: pytest.FixtureRequest) -> Case:
    """Every game and variant at start, after a few plies, midgame and finished."""
    c: Case = request.param
    return c


_LIVE = [c for c in CASES if c.label != "finished"]
_FINISHED = [c for c in CASES if c.label == "finished"]
_HIDDEN = [c for c in CASES if not perfect(c.game)]
_PERFECT = [c for c in CASES if perfect(c.game)]
_BATCH = [gv for gv in GAME_VARIANTS if has_batch(gv[0])]


@pytest.fixture(params=_LIVE, ids=[c.id for c in _LIVE])
def live_case(request: pytest.FixtureRequest) -> Case:
    """The positions of games still in progress."""
    c: Case = request.param
    return c


@pytest.fixture(params=_FINISHED, ids=[c.id for c in _FINISHED])
def finished_case(request: pytest.FixtureRequest) -> Case:
    """A finished game of every variant."""
    c: Case = request.param
    return c


@pytest.fixture(params=_HIDDEN, ids=[c.id for c in _HIDDEN])
def hidden_case(request: pytest.FixtureRequest) -> Case:
    """The positions of games whose players hide information (``perfect_information`` False)."""
    c: Case = request.param
    return c


@pytest.fixture(params=_PERFECT, ids=[c.id for c in _PERFECT])
def perfect_case(request: pytest.FixtureRequest) -> Case:
    """The positions of games with perfect information."""
    c: Case = request.param
    return c


@pytest.fixture(params=_BATCH, ids=[gv_id(*gv) for gv in _BATCH])
def batch_variant(request: pytest.FixtureRequest) -> tuple[str, str]:
    """Every variant of the games that have a ``StateBatch`` engine."""
    gv: tuple[str, str] = request.param
    return gv
