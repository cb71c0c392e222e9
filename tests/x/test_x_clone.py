"""Clones share their undo records copy-on-write: any interleaving of clone, apply, undo and
dropping games must leave every game exactly as a replay of its own history."""

from __future__ import annotations

import random

import pytest

import plateau


@pytest.mark.parametrize("variant", ["standard", "double"])
def test_interleaved_clones_apply_undo_match_replays(variant: str) -> None:
    rng = random.Random(11)
    start_hash = plateau.new_game("plateau-x", variant).hash
    games = [plateau.new_game("plateau-x", variant)]
    for step in range(6000):
        g = rng.choice(games)
        r = rng.random()
        if r < 0.15 and len(games) < 24:
            games.append(g.clone())
        elif r < 0.3 and g.ply:
            g.undo()
        elif r < 0.35 and len(games) > 1:
            games.remove(g)
        elif not g.is_terminal():
            legal = g.legal_actions()
            g.apply(int(legal[rng.randrange(len(legal))]))
        if step % 100 == 0:
            for x in games:
                replay = plateau.new_game("plateau-x", variant)
                replay.apply_all(x.history)
                assert replay.hash == x.hash and replay.tiles() == x.tiles()
                assert replay.legal_actions().tolist() == x.legal_actions().tolist()
                y = x.clone()
                while y.ply:
                    y.undo()
                assert y.hash == start_hash and y.tiles() == []
