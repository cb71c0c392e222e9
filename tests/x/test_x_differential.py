"""Differential test: the compiled engine against the slow pure-Python reference
(tests/x/reference.py, written independently from the rules page).

For each variant, 200 seeded random games are played to the end (or 400 plies); at every ply
both must agree on the set of legal actions (in notation), the player to move, whether the game
is over, the ranking and the returns.
"""

from __future__ import annotations

import random

import pytest

import plateau
import x.reference as ref

GAMES_PER_VARIANT = 200
MAX_PLIES = 400


def _check_same(state: plateau.GameState, model: ref.RefState, where: str) -> list[str]:
    legal = sorted(state.legal_action_strings())
    assert legal == sorted(model.legal()), where
    assert state.current_player == model.current_player, where
    assert state.is_terminal() == model.is_over(), where
    assert state.ranking() == model.ranking(), where
    assert state.returns() == model.returns(), where
    return legal


def _play(variant: str, seed: int, first_player: int = 0) -> int:
    rng = random.Random(seed)
    state = plateau.new_game("plateau-x", variant, first_player=first_player)
    model = ref.RefState(variant, first_player=first_player)
    while True:
        where = f"{variant} seed {seed} ply {state.ply}: {state.history_strings()}"
        legal = _check_same(state, model, where)
        if not legal or state.ply >= MAX_PLIES:
            return state.ply
        # bias towards moves now and then, so that pieces travel over the plateaus
        moves = [a for a in legal if "-" in a]
        action = rng.choice(moves) if moves and rng.random() < 0.3 else rng.choice(legal)
        state.apply(action)
        model.play(action)


@pytest.mark.parametrize("variant", ["standard", "triple", "mini", "double"])
def test_engine_matches_reference_over_random_games(variant: str) -> None:
    plies = [_play(variant, seed) for seed in range(GAMES_PER_VARIANT)]
    # the games really were played (most to their end)
    assert sum(plies) > 20 * GAMES_PER_VARIANT


@pytest.mark.parametrize("variant", ["standard", "double"])
def test_engine_matches_reference_with_another_first_player(variant: str) -> None:
    for seed in range(10):
        _play(variant, 10_000 + seed, first_player=1)


@pytest.mark.parametrize("variant", ["standard", "mini", "double"])
def test_perft_two_matches_reference_after_a_few_plies(variant: str) -> None:
    rng = random.Random(99)
    state = plateau.new_game("plateau-x", variant)
    model = ref.RefState(variant)
    for _ in range(12):
        action = rng.choice(sorted(model.legal()))
        state.apply(action)
        model.play(action)
    assert state.perft(2) == ref.perft(model, 2)
