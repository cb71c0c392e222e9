"""Perft node counts of Plateau X start and midgame positions, kept in tests/data."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import plateau

DATA = json.loads((Path(__file__).parent / "perft.json").read_text())
POSITIONS: list[dict[str, Any]] = DATA["positions"]
CASES = [
    pytest.param(pos, int(depth), count, id=f"{pos['variant']}-ply{len(pos['actions'])}-d{depth}")
    for pos in POSITIONS
    for depth, count in pos["depth"].items()
]


def _position(pos: dict[str, Any]) -> plateau.GameState:
    state = plateau.new_game("plateau-x", pos["variant"])
    state.apply_all(pos["actions"])
    return state


def test_data_covers_every_variant_with_midgames() -> None:
    for variant in plateau.variants("plateau-x"):
        mine = [p for p in POSITIONS if p["variant"] == variant]
        assert any(not p["actions"] for p in mine), variant
        assert sum(1 for p in mine if p["actions"]) >= 3, variant


@pytest.mark.parametrize(("pos", "depth", "count"), CASES)
def test_perft(pos: dict[str, Any], depth: int, count: int) -> None:
    assert _position(pos).perft(depth) == count


@pytest.mark.parametrize("pos", POSITIONS, ids=lambda p: f"{p['variant']}-ply{len(p['actions'])}")
def test_perft_without_bulk_counting_agrees(pos: dict[str, Any]) -> None:
    state = _position(pos)
    for depth in (1, 2):
        assert state.perft(depth, bulk=False) == pos["depth"][str(depth)]


@pytest.mark.parametrize("pos", POSITIONS, ids=lambda p: f"{p['variant']}-ply{len(p['actions'])}")
def test_perft_one_is_the_number_of_legal_actions(pos: dict[str, Any]) -> None:
    state = _position(pos)
    assert state.perft(1) == len(state.legal_actions()) == state.num_legal_actions()


def test_perft_depth_zero_is_one_and_perft_of_a_finished_game_is_zero() -> None:
    state = plateau.new_game("plateau-x", "mini")
    assert state.perft(0) == 1
    # play until End is legal, then end the game
    rng = random.Random(3)
    while "end" not in state.legal_action_strings():
        legal = state.legal_actions()
        state.apply(int(legal[rng.randrange(len(legal))]))
    state.apply("end")
    assert state.is_terminal()
    assert state.perft(0) == 1
    assert state.perft(1) == 0
    assert state.perft(3) == 0


def test_perft_leaves_the_state_unchanged() -> None:
    state = _position(POSITIONS[1])
    before = (state.hash, state.history, list(state.legal_actions()))
    state.perft(3)
    assert (state.hash, state.history, list(state.legal_actions())) == before
