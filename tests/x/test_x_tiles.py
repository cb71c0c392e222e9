"""The tile table and the top tile of each space: every placed tile has an identity, and for each
space the engine knows which tile lies on top of it (rules page, "Levels and plateaus")."""

from __future__ import annotations

import random

import pytest

import plateau


def test_tile_table_records_kind_squares_and_level() -> None:
    s = plateau.new_game("plateau-x", "mini")
    s.apply_all(["T@c3d3c4", "S@a1", "D@c3d3", "S@c3"])
    c3, d3, c4 = (plateau.square_index(q, 6) for q in ("c3", "d3", "c4"))
    assert s.tiles() == [
        {"kind": "T", "squares": [c3, d3, c4], "level": 1},
        {"kind": "S", "squares": [0], "level": 1},
        {"kind": "D", "squares": [c3, d3], "level": 2},
        {"kind": "S", "squares": [c3], "level": 3},
    ]
    assert s.top_tile("c3") == 3
    assert s.top_tile("d3") == 2
    assert s.top_tile("c4") == 0
    assert s.top_tile("a1") == 1
    assert s.top_tile("b1") is None
    s.undo()
    assert s.top_tile("c3") == 2 and len(s.tiles()) == 3


@pytest.mark.parametrize("variant", ["standard", "mini", "double"])
def test_top_tiles_agree_with_levels_over_random_games(variant: str) -> None:
    rng = random.Random(5)
    for _ in range(20):
        s = plateau.new_game("plateau-x", variant)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply(int(legal[rng.randrange(len(legal))]))
            tiles = s.tiles()
            for sq in range(s.board_size**2):
                top = s.top_tile(sq)
                if s.level(sq) == 0:
                    assert top is None
                else:
                    assert top is not None
                    assert sq in tiles[top]["squares"]
                    assert tiles[top]["level"] == s.level(sq)
        # every tile placed is in the table, once
        builds = [a for a in s.history_strings() if "@" in a and not a.startswith("P")]
        assert len(s.tiles()) == len(builds)
        clone = s.clone()
        assert clone.tiles() == s.tiles()
        assert plateau.from_json(s.to_json()).tiles() == s.tiles()
