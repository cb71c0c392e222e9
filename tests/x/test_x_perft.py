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


@pytest.mark.parametrize("variant", plateau.variants("plateau-x"))
def test_bulk_counting_agrees_with_making_every_leaf_in_long_random_games(variant: str) -> None:
    # Bulk counting's last ply reuses the next player's moves, worked out once on the parent's
    # board, after each build whose border its floods do not visit (the closed plateaus' for
    # any reuse, each piece's reach for its own): these positions (random games that avoid
    # End, up to 150 plies: pieces on plateaus, closed plateaus, moves) check that shortcut
    # against the children made and counted one by one.
    rng = random.Random(f"bulk-{variant}")
    for _ in range(30):
        state = plateau.new_game("plateau-x", variant)
        for _ in range(rng.randrange(150)):
            ids = state.legal_actions()
            legal = [int(a) for a in ids if state.action_to_string(int(a)) != "end"]
            if not legal:
                break
            state.apply(legal[rng.randrange(len(legal))])
        by_leaf = 0
        for a in state.legal_actions():
            child = state.clone()
            child.apply(int(a))
            by_leaf += child.num_legal_actions()
        assert state.perft(2) == state.perft(2, bulk=False) == by_leaf
