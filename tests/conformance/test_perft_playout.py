"""Perft and random playouts: perft(1) counts the legal actions, perft(2) is the sum of the
children's perft(1), bulk and non-bulk counting agree, and neither perft nor a playout changes
the state; playouts are deterministic per seed."""

from __future__ import annotations

import plateau
from conformance.support import Case, snapshot


def test_perft_counts(case: Case) -> None:
    s = case.state()
    before = snapshot(s)
    assert s.perft(0) == 1
    one = s.perft(1)
    assert type(one) is int and one == s.num_legal_actions()
    assert s.perft(1, bulk=False) == one
    two = s.perft(2)
    assert s.perft(2, bulk=False) == two
    children = 0
    for a in s.legal_actions().tolist():
        s.apply(a)
        children += s.perft(1)
        s.undo()
    assert two == children
    assert snapshot(s) == before


def test_perft_of_a_clone_and_a_loaded_game(live_case: Case) -> None:
    s = live_case.state()
    two = s.perft(2)
    assert s.clone().perft(2) == two
    assert plateau.from_json(s.to_json()).perft(2) == two


def test_random_playout(case: Case) -> None:
    s = case.state()
    before = snapshot(s)
    first = s.random_playout(7)
    assert isinstance(first, list) and len(first) == s.num_players
    assert all(type(x) is float for x in first)
    assert s.random_playout(7) == first
    assert s.random_playout(seed=7, ply_cap=400) == s.random_playout(7, 400)
    assert s.random_playout(7, sensible_end=True) == s.random_playout(7, sensible_end=True)
    if s.is_terminal():
        assert first == s.returns()
    assert snapshot(s) == before


def test_random_playouts_depend_on_the_seed(game_variant: tuple[str, str]) -> None:
    s = plateau.new_game(*game_variant)
    if s.num_players < 2:
        return
    outcomes = {tuple(s.random_playout(seed)) for seed in range(32)}
    assert len(outcomes) > 1
