"""Perft and random playouts: perft(1) counts the legal actions, perft(2) is the sum of the
children's perft(1), bulk and non-bulk counting agree, and neither perft nor a playout changes
the state; playouts are deterministic per seed, and game i of a run seeded s is the lone game
seeded s + i."""

from __future__ import annotations

import plateau
from support import Case, seed_of, snapshot


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


def test_game_i_of_random_playouts_is_the_lone_game_seeded_s_plus_i(
    game_variant: tuple[str, str],
) -> None:
    """The seed has one meaning in every game: a run of ``k`` games seeded ``s`` counts what
    ``k`` lone runs seeded ``s``, ``s + 1``, ... count, so any game of a run replays alone."""
    game, variant = game_variant
    seed = seed_of("playouts", game, variant)
    for ply_cap in (400, 30):  # games that end, and games cut at the cap
        whole = plateau.random_playouts(game, variant, n=6, seed=seed, ply_cap=ply_cap)
        lone = [
            plateau.random_playouts(game, variant, n=1, seed=seed + i, ply_cap=ply_cap)
            for i in range(6)
        ]
        summed = {
            "games": sum(r["games"] for r in lone),
            "plies": sum(r["plies"] for r in lone),
            "ended": sum(r["ended"] for r in lone),
            "draws": sum(r["draws"] for r in lone),
            "wins": [sum(r["wins"][p] for r in lone) for p in range(len(whole["wins"]))],
        }
        assert whole == summed, ply_cap


def test_playout_counts_mean_the_same_in_every_game(game_variant: tuple[str, str]) -> None:
    """One game at a time: a game cut at the cap plays ``ply_cap`` plies and counts in neither
    ``wins`` nor ``draws``; a game that ended counts one first place per player sharing it,
    and is a draw exactly when two or more share it."""
    game, variant = game_variant
    seed = seed_of("playout counts", game, variant)
    players = plateau.new_game(game, variant).num_players
    seen = set()
    for ply_cap in (0, 5, 30, 400):
        for i in range(6):
            r = plateau.random_playouts(game, variant, n=1, seed=seed + i, ply_cap=ply_cap)
            assert r["games"] == 1 and len(r["wins"]) == players
            assert r["ended"] in (0, 1) and 0 <= r["plies"] <= ply_cap
            if r["ended"] == 0:
                assert r["plies"] == ply_cap
                assert r["wins"] == [0] * players and r["draws"] == 0
            else:
                firsts = sum(r["wins"])
                assert set(r["wins"]) <= {0, 1} and firsts >= 1
                assert r["draws"] == (1 if firsts > 1 else 0)
            seen.add(r["ended"])
    assert 0 in seen  # (the cap of 0 cuts every game)
