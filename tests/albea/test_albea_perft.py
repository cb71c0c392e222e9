"""Perft node counts of Plateau (Albea) positions, kept in tests/albea/perft.json
(depths 1-3 confirmed by the pure-Python reference when the file was made)."""

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
    pytest.param(pos, int(depth), count, id=f"ply{len(pos['actions'])}-d{depth}")
    for pos in POSITIONS
    for depth, count in pos["depth"].items()
]


def _position(pos: dict[str, Any]) -> plateau.GameState:
    state = plateau.new_game("albea-plateau")
    state.apply_all(pos["actions"])
    return state


def test_data_covers_every_phase_of_play() -> None:
    phases = {_position(p).phase for p in POSITIONS}
    assert phases == {"opening", "play", "respond"}
    assert len(POSITIONS) >= 10
    assert all(max(map(int, p["depth"])) >= 3 for p in POSITIONS)


@pytest.mark.parametrize(("pos", "depth", "count"), CASES)
def test_perft(pos: dict[str, Any], depth: int, count: int) -> None:
    assert _position(pos).perft(depth) == count


@pytest.mark.parametrize("pos", POSITIONS, ids=lambda p: f"ply{len(p['actions'])}")
def test_perft_without_bulk_counting_agrees(pos: dict[str, Any]) -> None:
    state = _position(pos)
    for depth in (1, 2, 3):
        if pos["depth"][str(depth)] > 5_000_000:
            break  # every leaf made one by one: keep the run short
        assert state.perft(depth, bulk=False) == pos["depth"][str(depth)]


@pytest.mark.parametrize("pos", POSITIONS, ids=lambda p: f"ply{len(p['actions'])}")
def test_perft_one_is_the_number_of_legal_actions(pos: dict[str, Any]) -> None:
    state = _position(pos)
    assert state.perft(1) == len(state.legal_actions()) == state.num_legal_actions()
    assert state.perft(0) == 1


def test_perft_leaves_the_state_unchanged_and_sums_over_children() -> None:
    state = _position(POSITIONS[3])
    before = (state.hash, state.history, state.legal_actions().tolist())
    total = 0
    for a in state.legal_actions().tolist():
        state.apply(a)
        total += state.perft(2)
        state.undo()
    assert total == state.perft(3)
    assert (state.hash, state.history, state.legal_actions().tolist()) == before


def test_perft_of_a_finished_game() -> None:
    state = plateau.new_game("albea-plateau")
    assert state.random_playout(seed=1, ply_cap=None) in ([1.0, 0.0], [0.0, 1.0], [0.5, 0.5])
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply(int(rng.choice(state.legal_actions().tolist())))
    assert state.perft(0) == 1 and state.perft(1) == 0 and state.perft(3, bulk=False) == 0


def test_perft_rejects_bad_depths() -> None:
    state = plateau.new_game("albea-plateau")
    for bad in (-1, True, 1.5, "2", 64):
        with pytest.raises(ValueError):
            state.perft(bad)  # type: ignore[arg-type]
