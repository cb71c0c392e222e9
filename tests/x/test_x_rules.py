"""Rule tests for Plateau X: one test per rule and per ruling of the rules page
(docs/rules/plateau-x.md), each named after the rule it pins.

Every position is reached from the start by legal actions in notation, applied through the public
API only. Players alternate strictly, so sequences interleave the other players' turns; where a
player has nothing to do for the test, they place a "filler" triple in a corner far from the
action. Boards are drawn with levels; `.` is level 0, `B`/`Y`/`O`/`G` (or `0`..`3`) mark pieces.
"""

from __future__ import annotations

import numpy as np
import pytest

import plateau
from plateau import IllegalActionError, InvalidActionError

GAME = "plateau-x"
LETTERS = "abcdefg"

# Far-away triples for players who only have to pass their turn (7x7 board), one per corner:
#   a6 a7 b7 (top left), g6 f7 g7 (top right), a1 b1 a2 (bottom left), f1 g1 g2 (bottom right).
F_TL = "T@a6a7b7"
F_TR = "T@g6f7g7"
F_BL = "T@a1b1a2"
F_BR = "T@f1g1g2"


# ----------------------------------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------------------------------


def new(variant: str = "standard", **kw):
    return plateau.new_game(GAME, variant=variant, **kw)


def play(actions: str, variant: str = "standard", **kw):
    """A new game of `variant` with the space-separated actions applied in order."""
    s = new(variant, **kw)
    for a in actions.split():
        s.apply(a)
    return s


def then(s, actions: str):
    """A clone of `s` with more actions applied (`s` itself is left alone)."""
    t = s.clone()
    for a in actions.split():
        t.apply(a)
    return t


def moves(s) -> set[str]:
    return {x for x in s.legal_action_strings() if "-" in x}


def of_kind(s, prefix: str) -> set[str]:
    return {x for x in s.legal_action_strings() if x.startswith(prefix)}


def touching(actions: set[str], squares: str) -> set[str]:
    """The build actions among `actions` that cover at least one of the named squares."""
    names = squares.split()
    out = set()
    for a in actions:
        covered = a.split("@")[1]
        cells = {covered[i : i + 2] for i in range(0, len(covered), 2)}
        if cells & set(names):
            out.add(a)
    return out


def sq(name: str, n: int = 7) -> int:
    return plateau.square_index(name, board_size=n)


def squares(names: str, n: int = 7) -> list[int]:
    return sorted(sq(x, n) for x in names.split())


def all_names(n: int = 7) -> list[str]:
    """Square names in index order (a1, b1, ..., then row 2, ...)."""
    return [f"{LETTERS[c]}{r + 1}" for r in range(n) for c in range(n)]


def canonical_builds(n: int) -> tuple[list[str], list[str], list[str]]:
    """Singles, doubles and L-shaped triples of an n x n board in canonical notation, written
    out independently of the engine (covered spaces in ascending square index)."""
    names = all_names(n)

    def tile(kind: str, cells: list[tuple[int, int]]) -> str:
        idx = sorted(r * n + c for c, r in cells)
        return kind + "@" + "".join(names[i] for i in idx)

    singles = [tile("S", [(c, r)]) for r in range(n) for c in range(n)]
    doubles = [tile("D", [(c, r), (c + 1, r)]) for r in range(n) for c in range(n - 1)]
    doubles += [tile("D", [(c, r), (c, r + 1)]) for r in range(n - 1) for c in range(n)]
    triples = []
    for r in range(n - 1):
        for c in range(n - 1):
            square = [(c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1)]
            for missing in square:
                triples.append(tile("T", [x for x in square if x != missing]))
    return singles, doubles, triples


def all_action_forms(n: int) -> set[str]:
    singles, doubles, triples = canonical_builds(n)
    names = all_names(n)
    enters = ["P@" + x for x in names]
    steps = [f"{a}-{b}" for a in names for b in names if a != b]
    return set(singles + doubles + triples + enters + steps + ["end"])


# --- exhausting every tile ---------------------------------------------------------------------
# The 37 triples go on rows 1-4, columns a-f, which are split into four 3-wide, 2-high blocks.
# Each block is tiled by two L triples, in tiling A on even layers and tiling B on odd layers:
#   A: {x1,y1,x2} + {z1,y2,z2}      B: {x1,x2,y2} + {y1,z1,z2}      (x,y,z = the block's columns)
# so no triple lies flush on a triple. Layers 1-4 take 32 triples, layer 5 the first five of
# tiling A (blocks a1, d1, then a3..a4). Afterwards:
#   level 5: a1 b1 c1 d1 e1 f1 a2 b2 c2 d2 e2 f2 a3 b3 a4      level 4: c3-f3, b4-f4
# Then the own tiles go round robin (each player: double first, then singles): doubles on
# level-4 pairs, singles each on a different level-5 space. Every space left at level 0 (rows
# 5-7 and g1-g4, or rows 5-6 on the mini board) borders only level 0 or level >= 4, so a piece
# entered there can never move. Last ply: 37 + players * own tiles; then player 1 is to move in
# every variant.
EXHAUST_DOUBLES = ["D@c3d3", "D@e3f3", "D@b4c4", "D@d4e4"]
EXHAUST_SINGLES = ["S@a1", "S@b1", "S@a2", "S@c1", "S@b2", "S@c2", "S@d1", "S@e1"]
OWN_TILES = {"standard": 3, "triple": 3, "mini": 4, "double": 4}
PLAYERS = {"standard": 4, "triple": 3, "mini": 2, "double": 2}


def exhaust_triples() -> list[str]:
    def name(c: int, r: int) -> str:
        return f"{LETTERS[c]}{r + 1}"

    out = []
    for layer in range(5):
        for x, y in [(0, 0), (3, 0), (0, 2), (3, 2)]:
            if layer % 2 == 0:
                tiles = [
                    [(x, y), (x + 1, y), (x, y + 1)],
                    [(x + 2, y), (x + 1, y + 1), (x + 2, y + 1)],
                ]
            else:
                tiles = [
                    [(x, y), (x, y + 1), (x + 1, y + 1)],
                    [(x + 1, y), (x + 2, y), (x + 2, y + 1)],
                ]
            for cells in tiles:
                cells = sorted(cells, key=lambda cr: (cr[1], cr[0]))
                out.append("T@" + "".join(name(c, r) for c, r in cells))
    return out[:37]


def exhaust_actions(variant: str) -> list[str]:
    players, own = PLAYERS[variant], OWN_TILES[variant]
    actions = exhaust_triples()
    doubles, singles = iter(EXHAUST_DOUBLES), iter(EXHAUST_SINGLES)
    placed = [0] * players
    for ply in range(37, 37 + players * own):
        p = ply % players
        actions.append(next(doubles) if placed[p] == 0 else next(singles))
        placed[p] += 1
    return actions


def exhausted(variant: str = "standard"):
    """Every tile placed; player 1 to move, nobody in play."""
    s = new(variant)
    for a in exhaust_actions(variant):
        s.apply(a)
    return s


# ----------------------------------------------------------------------------------------------
# board, coordinates, variants, material
# ----------------------------------------------------------------------------------------------


def test_square_index_is_row_major_from_a1():
    assert plateau.square_index("a1", board_size=7) == 0
    assert plateau.square_index("b1", board_size=7) == 1
    assert plateau.square_index("a2", board_size=7) == 7
    assert plateau.square_index("c3", board_size=7) == 16
    assert plateau.square_index("g7", board_size=7) == 48
    assert plateau.square_index("a2", board_size=6) == 6
    assert plateau.square_index("f6", board_size=6) == 35
    assert plateau.square_name(16, board_size=7) == "c3"
    assert plateau.square_name(6, board_size=6) == "a2"
    assert plateau.square_name(6, board_size=7) == "g1"


def test_variants_and_their_names():
    assert plateau.games() == ["albea-plateau", "empire-plateau", "plateau-x"]
    assert plateau.variants(GAME) == ["standard", "triple", "mini", "double"]
    with pytest.raises(ValueError):
        plateau.new_game(GAME, variant="quadruple")
    with pytest.raises(ValueError):
        plateau.new_game("plateau-y")


@pytest.mark.parametrize(
    "variant, players, board, pieces, singles, doubles",
    [
        ("standard", 4, 7, 1, 2, 1),
        ("triple", 3, 7, 1, 2, 1),
        ("mini", 2, 6, 1, 3, 1),
        ("double", 2, 7, 2, 3, 1),
    ],
)
def test_stocks_per_variant(variant, players, board, pieces, singles, doubles):
    s = new(variant)
    assert s.variant == variant
    assert s.num_players == players
    assert s.board_size == board
    assert s.pieces_per_player == pieces
    assert s.supply == 37
    for p in range(players):
        assert s.stock(p) == {"single": singles, "double": doubles}
    assert s.piece_squares() == [None] * (players * pieces)
    assert s.stamps() == [None] * (players * pieces)
    assert s.current_player == 0
    assert s.ply == 0


def test_first_player_option():
    # default: player 0 first, then strictly in player order
    s = new()
    order = []
    for a in ["P@a1", "P@b1", "P@c1", "P@d1", F_TR]:
        order.append(s.current_player)
        s.apply(a)
    assert order == [0, 1, 2, 3, 0]

    s = new(first_player=2)
    order = []
    for a in ["P@a1", "P@b1", "P@c1", "P@d1", F_TR]:
        order.append(s.current_player)
        s.apply(a)
    assert order == [2, 3, 0, 1, 2]
    # player 2 entered first, at ply 0
    assert s.piece_at("a1") == 2
    assert s.stamps() == [2, 3, 0, 1]

    s = new("mini", first_player=1)
    assert s.current_player == 1
    s.apply("S@a1")
    assert s.current_player == 0
    assert s.stock(1) == {"single": 2, "double": 1}
    assert s.stock(0) == {"single": 3, "double": 1}

    for variant, bad in [("standard", 4), ("standard", -1), ("mini", 2), ("triple", 3)]:
        with pytest.raises(ValueError):
            new(variant, first_player=bad)


def test_supply_of_37_triples_is_shared():
    s = new()
    for i, t in enumerate([F_BL, F_BR, F_TL, F_TR]):
        p = s.current_player
        s.apply(t)
        assert s.supply == 36 - i
        # a triple never comes out of the player's own stock
        assert s.stock(p) == {"single": 2, "double": 1}

    # once all 37 triples lie on the board, no player can take one
    s = new()
    for t in exhaust_triples():
        s.apply(t)
    assert s.supply == 0
    for _ in range(4):
        assert of_kind(s, "T@") == set()
        assert of_kind(s, "S@") and of_kind(s, "D@")
        s.apply(sorted(of_kind(s, "S@"))[0])


def test_own_stock_is_per_player():
    # mini: 3 singles and 1 double each
    s = play("D@c3d3")
    assert s.stock(0) == {"single": 2, "double": 0}
    assert s.stock(1) == {"single": 2, "double": 1}

    s = play("D@c3d3 S@a1 S@e5 T@a5b5a6 S@e6 T@e1f1f2 S@b3", "mini")
    # player 1 to move: own stock untouched by player 0's builds, the two triples came from the
    # common supply
    assert s.current_player == 1
    assert s.stock(0) == {"single": 0, "double": 0}
    assert s.stock(1) == {"single": 2, "double": 1}
    assert s.supply == 35
    assert of_kind(s, "S@") and of_kind(s, "D@")
    s.apply("S@f6")
    # player 0 has nothing of their own left: only triples from the supply
    assert s.current_player == 0
    assert of_kind(s, "S@") == set()
    assert of_kind(s, "D@") == set()
    assert of_kind(s, "T@")
    assert "end" not in s.legal_action_strings()


def test_triples_are_l_shaped_only():
    s = new()
    for straight in ["T@a1b1c1", "T@a1a2a3", "T@c3c4c5", "T@e7f7g7"]:
        with pytest.raises(InvalidActionError):
            s.parse_action(straight)
    for other in ["T@a1b2c3", "T@a1b1b3", "T@a1c1a2"]:
        with pytest.raises(InvalidActionError):
            s.parse_action(other)
    # the four L orientations in one 2x2 square are all triples
    for el in ["T@c3d3c4", "T@c3d3d4", "T@c3c4d4", "T@d3c4d4"]:
        assert s.action_to_string(s.parse_action(el)) == el
    _, _, triples = canonical_builds(7)
    assert of_kind(s, "T@") == set(triples)
    assert len(triples) == 144
    _, _, triples6 = canonical_builds(6)
    assert of_kind(new("mini"), "T@") == set(triples6)
    assert len(triples6) == 100


# ----------------------------------------------------------------------------------------------
# levels and plateaus
# ----------------------------------------------------------------------------------------------


def test_level_is_number_of_stacked_tiles():
    s = play("T@c3d3c4 S@c3")
    #  4  1 .        level 2 on c3, level 1 on d3 and c4
    #  3  2 1
    #     c d
    assert s.level("c3") == 2
    assert s.level(sq("c3")) == 2
    assert s.level("d3") == 1
    assert s.level("c4") == 1
    assert s.level("d4") == 0
    s.apply("S@d3")
    assert s.level("d3") == 2
    for bad in ["h1", "a8", 49, -1]:
        with pytest.raises(ValueError):
            s.level(bad)


def test_plateau_is_maximal_side_connected_same_level():
    s = play("T@c3d3c4")
    assert s.plateau("c3") == squares("c3 d3 c4")
    assert s.plateau("d4") == []  # level 0 is no plateau
    s.apply("S@d4")  # d4 joins at level 1
    assert s.plateau("c4") == squares("c3 d3 c4 d4")
    s.apply("S@c3")  # c3 rises to level 2 and leaves the plateau
    assert s.plateau("c3") == squares("c3")
    assert s.plateau("d3") == squares("d3 c4 d4")
    s.apply("S@e5")  # e5 touches d4 only at a corner
    assert s.plateau("e5") == squares("e5")
    assert s.plateau("d4") == squares("d3 c4 d4")


# ----------------------------------------------------------------------------------------------
# build
# ----------------------------------------------------------------------------------------------


def test_build_requires_equal_levels():
    s = play(F_BL)
    #  2  1 . .      a1 b1 a2 at level 1, b2 at level 0
    #  1  1 1 .
    #     a b c
    assert touching(of_kind(s, "D@"), "a1 b1 a2") == {"D@a1b1", "D@a1a2"}
    # every other L through a raised space also covers a level-0 space (the one flush L is
    # excluded by the flush rule)
    assert touching(of_kind(s, "T@"), "a1 b1 a2") == set()
    for bad in ["D@b1b2", "D@a2b2", "D@b1c1", "T@a1b1b2", "T@b1c1b2"]:
        with pytest.raises(IllegalActionError):
            s.string_to_action(bad)
        with pytest.raises(IllegalActionError):
            s.apply(bad)
    assert s.ply == 1 and s.level("b2") == 0
    # once b2 is level 1 too, the mixed Ls on the square become legal
    s.apply("S@b2")
    assert touching(of_kind(s, "T@"), "a1 b1 a2 b2") == {"T@a1b1b2", "T@a1a2b2", "T@b1a2b2"}


def test_build_not_on_piece():
    s = play("P@c3")
    # c3 holds black's piece: no tile may cover it, every other space takes a single
    assert of_kind(s, "S@") == {"S@" + x for x in all_names() if x != "c3"}
    assert touching(of_kind(s, "D@") | of_kind(s, "T@"), "c3") == set()
    assert touching(of_kind(s, "D@"), "d3") == {"D@d3e3", "D@d2d3", "D@d3d4"}
    # also on a tile: black steps up on the single at d3
    s = play(f"P@c3 S@d3 {F_TL} {F_TR} c3-d3")
    assert s.piece_at("d3") == 0
    assert "S@d3" not in s.legal_action_strings()
    assert "S@c3" in s.legal_action_strings()
    with pytest.raises(IllegalActionError):
        s.apply("S@d3")


def test_flush_single_on_single_is_illegal():
    s = play("S@c3")
    assert "S@c3" not in s.legal_action_strings()
    with pytest.raises(IllegalActionError):
        s.apply("S@c3")
    assert s.level("c3") == 1
    # a single may go on a double that lies on the single, though
    s.apply("S@d3")
    s.apply("D@c3d3")  # across two different singles
    assert "S@c3" in s.legal_action_strings()
    s.apply("S@c3")
    assert s.level("c3") == 3


def test_flush_double_on_double_is_illegal():
    s = play("D@c3d3")
    assert touching(of_kind(s, "D@"), "c3 d3") == set()
    with pytest.raises(IllegalActionError):
        s.apply("D@c3d3")
    assert "S@c3" in s.legal_action_strings()


def test_flush_triple_on_triple_is_illegal():
    s = play("T@a1b1a2 T@c1b2c2")
    #  2  1 1 1     two Ls fill a1..c2 at level 1
    #  1  1 1 1
    #     a b c
    assert touching(of_kind(s, "T@"), "a1 b1 c1 a2 b2 c2") == {
        "T@a1b1b2",
        "T@a1a2b2",
        "T@b1a2b2",
        "T@b1c1b2",
        "T@b1c1c2",
        "T@b1b2c2",
    }
    for flush in ["T@a1b1a2", "T@c1b2c2"]:
        with pytest.raises(IllegalActionError):
            s.apply(flush)


def test_double_across_two_different_doubles_is_legal():
    s = play("D@c3d3 D@c4d4")
    #  4  1 1     two horizontal doubles
    #  3  1 1
    #     c d
    assert touching(of_kind(s, "D@"), "c3 d3 c4 d4") == {"D@c3c4", "D@d3d4"}
    s.apply("D@c3c4")
    assert [s.level(x) for x in ["c3", "c4", "d3", "d4"]] == [2, 2, 1, 1]


def test_triple_on_double_plus_single_is_legal():
    s = play("D@c3d3 S@c4")
    assert touching(of_kind(s, "T@"), "c3 d3 c4") == {"T@c3d3c4"}
    s.apply("T@c3d3c4")
    assert [s.level(x) for x in ["c3", "d3", "c4", "d4"]] == [2, 2, 2, 0]


def test_other_kind_may_lie_flush_on_a_tile():
    # flush is only illegal on a tile of the same kind: a double or a single on a triple is fine
    s = play("T@c3d3c4")
    assert touching(of_kind(s, "D@"), "c3 d3 c4") == {"D@c3d3", "D@c3c4"}
    assert {"S@c3", "S@d3", "S@c4"} <= of_kind(s, "S@")
    s.apply("D@c3d3")
    assert [s.level(x) for x in ["c3", "d3", "c4"]] == [2, 2, 1]


# ----------------------------------------------------------------------------------------------
# enter
# ----------------------------------------------------------------------------------------------


def test_enter_only_on_level_zero_unoccupied():
    s = play(F_BL)
    assert of_kind(s, "P@") == {"P@" + x for x in all_names() if x not in {"a1", "b1", "a2"}}
    s.apply("P@c3")
    assert of_kind(s, "P@") == {"P@" + x for x in all_names() if x not in {"a1", "b1", "a2", "c3"}}
    with pytest.raises(IllegalActionError):
        s.apply("P@a1")
    with pytest.raises(IllegalActionError):
        s.apply("P@c3")


def test_enter_at_level_zero_before_any_tile():
    s = new()
    assert of_kind(s, "P@") == {"P@" + x for x in all_names()}
    s.apply("P@d4")
    assert s.piece_at("d4") == 0
    assert s.level("d4") == 0
    assert s.piece_squares() == [sq("d4"), None, None, None]
    assert of_kind(new("mini"), "P@") == {"P@" + x for x in all_names(6)}


def test_enter_once():
    s = play(f"P@c3 {F_BL} {F_BR} {F_TL}")
    assert s.current_player == 0
    assert of_kind(s, "P@") == set()
    with pytest.raises(IllegalActionError):
        s.apply("P@e5")
    # the other players still may
    s.apply("S@e5")
    assert "P@e4" in s.legal_action_strings()


def test_enter_in_double_variant_uses_lowest_numbered_piece():
    s = play("P@c3", "double")
    assert s.piece_squares() == [sq("c3"), None, None, None]
    s.apply("P@e5")
    assert s.piece_squares() == [sq("c3"), None, sq("e5"), None]
    s.apply("P@a1")
    assert s.piece_squares() == [sq("c3"), sq("a1"), sq("e5"), None]
    assert s.stamps() == [0, 2, 1, None]
    s.apply(F_TR)
    assert of_kind(s, "P@") == set()  # both of player 0's pieces are in play
    s.apply(F_BR)
    assert "P@g4" in s.legal_action_strings()  # player 1 still has one to enter


# ----------------------------------------------------------------------------------------------
# move
# ----------------------------------------------------------------------------------------------


def test_step_needs_level_difference_one():
    s = play("P@c3 T@d2e2d3 S@d3 T@c4d4c5")
    #  5  . 1 . .        black B on c3 (level 0)
    #  4  . 1 1 .        c4 d4 c5 level 1 (one triple)
    #  3  . B 2 .        d3 level 2, d2 e2 level 1
    #  2  . . 1 1
    #     b c d e
    # c3 -> c4 (up one), then c4 -> b4 (down one). c3 -> d3 would be two levels, c4 -> d4/c5 and
    # c3 -> b3/c2 would be level steps: none of them is allowed, so d4, c5, d3 and beyond
    # stay out of reach.
    assert s.current_player == 0
    assert moves(s) == {"c3-c4", "c3-b4"}


def test_no_diagonal_step():
    s = play(f"P@c3 S@d4 S@b3 {F_TR}")
    #  4  . . . 1     d4 level 1 touches c3 only at a corner
    #  3  . 1 B .     b3 level 1 beside black's piece
    #  2  . . . .
    #     a b c d
    assert moves(s) == {"c3-b3", "c3-a3", "c3-b2", "c3-b4"}


def test_one_piece_per_space():
    s = play(f"S@c4 P@b4 S@c2 {F_TR} P@c3")
    #  5  . . .       yellow Y on b4 (level 0), black B on c3 (level 0)
    #  4  Y 1 .       c4 and c2 are singles
    #  3  . B .
    #  2  . 1 .
    #     b c d
    # Yellow may step onto c4 and down again to d4 or c5, but not onto c3 (black's piece) and
    # so not through it to c2 and beyond.
    assert s.current_player == 1
    assert moves(s) == {"b4-c4", "b4-d4", "b4-c5"}
    # control: without black on c3 the way down through c3 is open
    t = play(f"S@c4 P@b4 S@c2 {F_TR} {F_TL}")
    assert moves(t) == {"b4-c4", "b4-d4", "b4-c5", "b4-c3", "b4-c2", "b4-b2", "b4-d2", "b4-c1"}


def test_opponent_plateau_blocks_entry_and_pass_through():
    s = play(f"D@d4d5 P@c4 S@b4 {F_BR} P@d6")
    #  6  . . . B .      black B on d6 (level 0), yellow Y on c4 (level 0)
    #  5  . . . 1 .      d4 d5: a double (one plateau); b4 a single
    #  4  . 1 Y 1 .
    #  3  . . . . .
    #     a b c d e
    assert s.current_player == 1
    free = {"c4-b4", "c4-a4", "c4-b3", "c4-b5"}
    # through d4 (d5 is level with d4: reachable only from c5, e5 or d6, none of them reachable)
    through = {"c4-d4", "c4-e4", "c4-d3"}
    assert moves(s) == free | through
    s.apply(F_TL)
    s.apply(F_TR)
    s.apply(F_BL)
    # black steps onto d5: the whole plateau d4+d5 is closed to yellow, also to pass through
    blocked = then(s, "d6-d5")
    assert moves(blocked) == free
    # control: black builds instead, the plateau stays open
    open_ = then(s, "S@g4")
    assert moves(open_) == free | through


def test_own_piece_does_not_block_in_double():
    s = play(f"D@d4d5 {F_BR} P@d6 {F_TL} d6-d5 {F_TR} P@c4 {F_BL}", "double")
    #  6  . . . .        player 0's pieces on d5 (level 1) and c4 (level 0)
    #  5  . . 0 .        d4 d5 one plateau (a double)
    #  4  . 0 1 .
    #  3  . . . .
    #     b c d e
    # The c4 piece may enter (and cross) the plateau its own partner stands on; only d5 itself is
    # taken.
    assert s.current_player == 0
    assert moves(s) == {"c4-d4", "c4-e4", "c4-d3", "d5-c5", "d5-e5", "d5-d6"}


def test_plateaus_from_start_of_move():
    s = play(f"P@d6 T@d4e4d5 T@e5f5e6 S@e5 d6-d5 {F_BL} {F_BR} {F_TL}")
    #  7  . . . .          black B on d5; d4 e4 d5 one plateau at level 1
    #  6  . . 1 .          e5 level 2 (a single on a triple); f5 and e6 level 1
    #  5  . B 2 1
    #  4  . 1 1 .
    #  3  . . . .
    #     c d e f
    # Black leaves its plateau up to e5 and comes back down onto e4 of the same plateau:
    # nothing during the move blocks it (only opponents' pieces at the start of the move do), so
    # e4, and f4 and e3 beyond it, are reachable. d4 is not (same level as d5 and e4).
    assert s.current_player == 0
    assert moves(s) == {
        "d5-c5",
        "d5-d6",
        "d5-e5",
        "d5-e4",
        "d5-f5",
        "d5-e6",
        "d5-f4",
        "d5-e3",
        "d5-g5",
        "d5-f6",
        "d5-e7",
    }


def test_leaving_joint_plateau_cannot_come_back():
    start = f"P@b4 P@f4 S@e4 D@c4c5 S@c5 f4-e4 {F_BL} {F_BR} b4-c4"
    s = play(f"{start} {F_TL} D@d4d5 {F_TR}")
    #  6  . . . . .      d4 d5 join c4 and e4 into one plateau at level 1 on which both
    #  5  . 2 1 . .      black B (c4) and yellow Y (e4) stand; c5 level 2
    #  4  . B 1 Y .
    #  3  . . . . .
    #     b c d e f
    assert s.plateau("c4") == squares("c4 d4 e4 d5")
    assert s.current_player == 0
    # Black may leave (down, or up to c5) but not come back onto the joint plateau at d5, so
    # d6 and e5 beyond it are out of reach too.
    assert moves(s) == {"c4-b4", "c4-c3", "c4-c5"}
    # control: yellow steps off to e3 instead; now black can go round via c5, d5 and e4
    t = play(f"{start} e4-e3 D@d4d5 {F_TR}")
    assert moves(t) == {
        "c4-b4",
        "c4-c3",
        "c4-c5",
        "c4-d5",
        "c4-d6",
        "c4-e5",
        "c4-e4",
        "c4-f4",
    }


def test_move_end_must_differ_from_start():
    s = play(f"P@c3 S@c4 {F_TL} {F_TR}")
    # c3 -> c4 -> c3 is a path back to the start, but no move
    assert moves(s) == {"c3-c4", "c3-b4", "c3-d4", "c3-c5"}
    assert "c3-c3" not in s.legal_action_strings()
    with pytest.raises(InvalidActionError):  # no action at all, not merely an illegal one
        s.string_to_action("c3-c3")
    with pytest.raises(InvalidActionError):
        s.apply("c3-c3")
    assert s.ply == 4


def test_two_paths_to_same_end_are_one_move():
    s = play(f"P@c3 S@b3 S@c2 {F_TR}")
    #  3  . 1 B      b2 is reached both via b3 and via c2
    #  2  . . 1
    #     a b c
    strings = s.legal_action_strings()
    assert strings.count("c3-b2") == 1
    assert len(strings) == len(set(strings))
    assert moves(s) == {"c3-b3", "c3-c2", "c3-a3", "c3-b4", "c3-b2", "c3-d2", "c3-c1"}


# ----------------------------------------------------------------------------------------------
# end
# ----------------------------------------------------------------------------------------------


def test_end_only_when_cannot_build():
    s = new()
    assert "end" not in s.legal_action_strings()
    actions = exhaust_actions("standard")
    for a in actions[:37]:
        s.apply(a)
    # supply empty, but player 1 still has a double and two singles
    assert s.current_player == 1 and s.supply == 0
    assert "end" not in s.legal_action_strings()
    for a in actions[37:45]:
        s.apply(a)
    # player 1 still has one single
    assert s.current_player == 1 and s.stock(1) == {"single": 1, "double": 0}
    assert "end" not in s.legal_action_strings()
    for a in actions[45:]:
        s.apply(a)
    # player 1 has nothing left to build with: End is legal, next to entering
    assert s.current_player == 1 and s.stock(1) == {"single": 0, "double": 0}
    free = [f"{c}{r}" for r in (5, 6, 7) for c in LETTERS] + ["g1", "g2", "g3", "g4"]
    assert set(s.legal_action_strings()) == {"P@" + x for x in free} | {"end"}


def test_end_only_action_when_nothing_else():
    s = exhausted()
    for x in ["a7", "b7", "c7", "d7"]:  # players 1, 2, 3, 0 enter where they can never move
        assert "end" in s.legal_action_strings()
        s.apply("P@" + x)
    assert s.current_player == 1
    assert s.legal_action_strings() == ["end"]
    assert list(s.legal_actions()) == [s.string_to_action("end")]


def test_end_only_action_when_board_full_mini():
    # mini: the same exhaustion, then rows 5-6 are the only level-0 spaces
    s = exhausted("mini")
    assert s.current_player == 1
    assert set(s.legal_action_strings()) == {f"P@{c}{r}" for r in (5, 6) for c in "abcdef"} | {
        "end"
    }
    s.apply("P@a5")
    s.apply("P@f6")
    assert s.legal_action_strings() == ["end"]


def test_no_action_after_end():
    s = exhausted()
    s.apply("P@a7")
    ply, history = s.ply, s.history
    s.apply("end")
    assert s.is_terminal()
    assert s.current_player == -1
    assert s.ply == ply + 1
    assert len(s.legal_actions()) == 0
    assert s.legal_action_strings() == []
    assert not s.legal_actions_mask().any()
    for a in ["end", "P@b7", "S@g7", s.parse_action("P@b7")]:
        with pytest.raises(IllegalActionError):
            s.apply(a)
    assert s.ply == ply + 1
    assert s.history == [*history, s.parse_action("end")]


# ----------------------------------------------------------------------------------------------
# stamps
# ----------------------------------------------------------------------------------------------


def test_enter_sets_stamp_to_ply():
    s = play(f"{F_BL} P@c3")
    assert s.stamps() == [None, 1, None, None]
    assert s.piece_squares()[1] == sq("c3")


def test_move_sets_stamp_to_ply():
    s = play(f"{F_BL} P@c3 S@c4 {F_BR} {F_TL}")
    assert s.ply == 5
    s.apply("c3-c4")
    assert s.stamps() == [None, 5, None, None]
    s.apply(F_TR)  # building does not touch any stamp
    assert s.stamps() == [None, 5, None, None]
    s.undo()
    s.undo()
    assert s.stamps() == [None, 1, None, None]


# ----------------------------------------------------------------------------------------------
# ranking
# ----------------------------------------------------------------------------------------------


def test_rank_in_play_beats_not_in_play():
    s = new()
    assert s.ranking() == [[0, 1, 2, 3]]
    s.apply(F_BL)
    s.apply("P@d4")
    assert s.ranking() == [[1], [0, 2, 3]]


def test_rank_higher_level_first():
    s = play("T@c3d3c4 P@b3 T@e5f5e6 S@e5 P@f4 b3-c3")
    #  6  . . . 1 .      yellow Y on c3: level 1, plateau c3 d3 c4 (size 3), stamp 5
    #  5  . . . 2 1      black B on f4: level 0; e5 level 2 (plateau of one)
    #  4  . 1 . . B
    #  3  . Y 1 . .
    #     b c d e f
    assert s.ranking() == [[1], [0], [2, 3]]
    s.apply(F_TL)
    s.apply(F_BR)
    s.apply("f4-e5")  # black climbs f5 to e5: higher, though smaller plateau and later stamp
    assert s.level("e5") == 2 and len(s.plateau("e5")) == 1
    assert s.level("c3") == 1 and len(s.plateau("c3")) == 3
    assert s.stamps()[:2] == [8, 5]
    assert s.ranking() == [[0], [1], [2, 3]]


def test_rank_larger_plateau_first():
    s = play(f"S@b5 T@d3e3d4 {F_BR} {F_BL} P@a5 P@c3 {F_TR} {F_TL} a5-b5")
    #  5  . B . . .     black on the single b5 (size 1, stamp 8)
    #  4  . . . 1 .     d3 e3 d4: one triple (size 3)
    #  3  . . Y 1 1     yellow on c3, level 0
    #     a b c d e
    assert s.ranking() == [[0], [1], [2, 3]]
    s.apply("c3-d3")  # same level, larger plateau, later stamp
    assert s.stamps()[:2] == [8, 9]
    assert s.ranking() == [[1], [0], [2, 3]]


def test_rank_level_zero_counts_plateau_size_zero():
    s = play(f"T@b1c1b2 S@a2 {F_TR} {F_TL} P@a1 P@d5")
    #  2  1 1 .      black on a1, walled in: its level-0 area is just a1 (stamp 4)
    #  1  B 1 1      yellow on d5 in the wide open level-0 area (stamp 5)
    #     a b c
    # At level 0 there is no plateau: both count size 0, so the earlier stamp decides.
    assert s.plateau("a1") == [] and s.plateau("d5") == []
    assert s.ranking() == [[0], [1], [2, 3]]


def test_rank_earlier_stamp_first():
    # mini: two singles c3 and e3, each a plateau of one at level 1
    s = play("S@c3 S@e3 P@b3 P@f3 b3-c3 f3-e3", "mini")
    # black came first (stamp 4), yellow second (stamp 5)
    assert s.stamps() == [4, 5]
    assert s.ranking() == [[0], [1]]


def test_rank_leaving_and_returning_loses_seniority():
    # the rulebook's example: A stands on a plateau, later B reaches one of the same level and
    # size; A leaves and comes back; B has stood there longer and wins
    s = play("S@c3 S@e3 P@b3 P@f3 b3-c3 f3-e3 c3-b3 S@a6 b3-c3", "mini")
    assert s.piece_squares() == [sq("c3", 6), sq("e3", 6)]
    assert s.stamps() == [8, 5]
    assert s.ranking() == [[1], [0]]


def test_rank_same_plateau_earlier_first():
    # both pieces end up on one plateau (joined later); yellow came first
    s = play(f"P@b4 P@f4 S@e4 D@c4c5 S@c5 f4-e4 {F_BL} {F_BR} b4-c4 {F_TL} D@d4d5")
    assert s.plateau("c4") == s.plateau("e4") == squares("c4 d4 e4 d5")
    assert s.stamps()[:2] == [8, 5]
    assert s.ranking() == [[1], [0], [2, 3]]


def test_rank_by_best_piece_in_double():
    s = play("S@d4 P@a1 P@d3 P@g7", "double")
    # player 1 entered first (stamp 1) and twice; player 0 once (stamp 2)
    assert s.stamps() == [2, None, 1, 3]
    assert s.ranking() == [[1], [0]]
    s.apply("d3-d4")  # player 0's only piece in play climbs: its best piece now leads
    assert s.ranking() == [[0], [1]]


def test_ties_only_among_players_without_pieces_in_play():
    s = new()
    assert s.ranking() == [[0, 1, 2, 3]]
    s.apply("P@a1")
    assert s.ranking() == [[0], [1, 2, 3]]
    s.apply("P@g7")  # same level 0, same size 0 as black: the stamp separates them
    assert s.ranking() == [[0], [1], [2, 3]]
    s.apply("P@d4")
    assert s.ranking() == [[0], [1], [2], [3]]


# ----------------------------------------------------------------------------------------------
# points
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant, free, points",
    [
        ("standard", ["a7", "b7", "c7", "d7"], [4, 2, 1, 0]),
        ("triple", ["a7", "b7", "c7"], [3, 1, 0]),
        ("mini", ["a5", "b5"], [1, 0]),
        ("double", ["a5", "b5"], [1, 0]),
    ],
)
def test_points_by_place(variant, free, points):
    s = exhausted(variant)
    n = s.num_players
    assert s.current_player == 1
    order = []
    for x in free:  # everybody enters, in turn, where no piece can ever move
        order.append(s.current_player)
        s.apply("P@" + x)
    assert s.returns() == [0.0] * n
    s.apply("end")
    assert s.ranking() == [[p] for p in order]
    expected = [0.0] * n
    for place, p in enumerate(order):
        expected[p] = float(points[place])
    assert s.returns() == expected


@pytest.mark.parametrize(
    "variant, actions, ranking, returns",
    [
        ("standard", "end", [[0, 1, 2, 3]], [1.75, 1.75, 1.75, 1.75]),
        ("standard", "P@a7 end", [[1], [0, 2, 3]], [1, 4, 1, 1]),
        ("standard", "P@a7 P@b7 end", [[1], [2], [0, 3]], [0.5, 4, 2, 0.5]),
        ("triple", "end", [[0, 1, 2]], [4 / 3, 4 / 3, 4 / 3]),
        ("triple", "P@a7 end", [[1], [0, 2]], [0.5, 3, 0.5]),
        ("mini", "end", [[0, 1]], [0.5, 0.5]),
    ],
)
def test_tied_players_split_the_points_of_their_places(variant, actions, ranking, returns):
    # [ruling, rules page 2026-12-01] players who share places split those places' points
    s = exhausted(variant)
    for a in actions.split():
        s.apply(a)
    assert s.is_terminal()
    assert s.ranking() == ranking
    assert s.returns() == pytest.approx(returns)
    assert sum(s.returns()) == pytest.approx(sum(s.points_by_place()))


def test_tournament_sums_points_ties_broken_by_rounds_won():
    t = plateau.Tournament(GAME, "standard")
    t.add([[0], [1], [2], [3]])
    t.add([[2], [1], [3], [0]])
    assert t.points == [4.0, 4.0, 5.0, 1.0]
    assert t.wins == [1, 0, 1, 0]
    # 0 and 1 have equal sums; 0 won a round, 1 did not
    assert t.standings() == [[2], [0], [1], [3]]
    # a round in which nobody got a piece into play: everybody shares every place, splitting
    # their points (7 / 4 each), and nobody wins it (a round is won by a sole first place)
    t.add([[0, 1, 2, 3]])
    assert t.points == [5.75, 5.75, 6.75, 2.75]
    assert t.wins == [1, 0, 1, 0]
    assert t.standings() == [[2], [0], [1], [3]]
    # a finished game counts by its ranking: yellow first, the others share second to fourth
    s = exhausted()
    s.apply("P@a7")
    s.apply("end")
    t.add(s)
    assert t.points == [6.75, 9.75, 7.75, 3.75]
    assert t.wins == [1, 1, 1, 0]
    assert t.standings() == [[1], [2], [0], [3]]
    # equal sums and equal wins stay grouped
    u = plateau.Tournament(GAME, "triple")
    u.add([[0], [1], [2]])
    u.add([[1], [0], [2]])
    assert u.points == [4.0, 4.0, 0.0]
    assert u.standings() == [[0, 1], [2]]


# ----------------------------------------------------------------------------------------------
# notation and action ids
# ----------------------------------------------------------------------------------------------


def test_notation_canonical_output():
    s = new()
    singles, doubles, triples = canonical_builds(7)
    enters = ["P@" + x for x in all_names()]
    strings = s.legal_action_strings()
    assert set(strings) == set(singles + doubles + triples + enters)
    assert len(strings) == 49 + 84 + 144 + 49
    assert strings == [s.action_to_string(a) for a in s.legal_actions()]
    for canon in ["S@c3", "D@c3d3", "D@c3c4", "T@c3d3c4", "T@d3c4d4", "P@c3", "c3-e5", "end"]:
        assert s.action_to_string(s.parse_action(canon)) == canon
    s.apply("t@D4C3D3")
    assert s.action_to_string(s.history[-1]) == "T@c3d3d4"


def test_parser_accepts_any_order_and_case():
    s = new()
    forms = {
        "T@c3d3c4": ["T@c4d3c3", "T@d3c3c4", "t@C3D3C4", "T@C4c3D3"],
        "D@c3d3": ["D@d3c3", "d@D3C3", "D@C3d3"],
        "D@c3c4": ["D@c4c3"],
        "S@c3": ["s@C3", "S@C3"],
        "P@c3": ["p@C3"],
        "c3-e5": ["C3-E5", "c3-E5"],
        "end": ["END", "End"],
    }
    for canon, others in forms.items():
        a = s.parse_action(canon)
        for other in others:
            assert s.parse_action(other) == a, other
            assert s.action_to_string(s.parse_action(other)) == canon
    assert s.string_to_action("d@D3C3") == s.parse_action("D@c3d3")


def test_parser_rejects_malformed():
    s = new()
    bad = [
        "",
        "S@",
        "S@c3d3",
        "D@c3",
        "D@c3e3",
        "D@c3d4",
        "D@c3c3",
        "T@c3d3e3",
        "T@c3d3",
        "T@c3d3c3",
        "T@c3d3c4d4",
        "P@c3d3",
        "S@h1",
        "S@a8",
        "S@a0",
        "X@c3",
        "c3-",
        "c3e5",
        "c3-h9",
        "ends",
    ]
    for txt in bad:
        with pytest.raises(InvalidActionError):
            s.parse_action(txt)
    m = new("mini")
    for txt in ["S@g1", "S@a7", "c3-g6", "T@e6f6e7", "P@g7"]:
        with pytest.raises(InvalidActionError):
            m.parse_action(txt)


def test_string_to_action_rejects_syntactically_valid_but_illegal():
    s = new()
    for txt in ["c3-e5", "end", "c3-c4"]:
        s.parse_action(txt)  # well formed
        with pytest.raises(IllegalActionError):
            s.string_to_action(txt)


@pytest.mark.parametrize("variant", ["standard", "triple", "mini", "double"])
def test_num_distinct_actions_fixed_per_variant(variant):
    s = new(variant)
    n = s.num_distinct_actions
    strings = [s.action_to_string(a) for a in range(n)]
    # one id per action of the variant: builds, enters, moves between two different spaces, end
    assert len(set(strings)) == n
    assert set(strings) == all_action_forms(s.board_size)
    for a in [0, n // 3, n // 2, n - 1]:
        assert s.parse_action(strings[a]) == a
    # the numbering does not depend on the position or the first player
    t = play("P@c3 S@c4 S@a1", variant)
    assert t.num_distinct_actions == n
    assert [t.action_to_string(a) for a in range(n)] == strings
    u = new(variant, first_player=1)
    assert u.num_distinct_actions == n
    assert u.parse_action("c3-e5") == s.parse_action("c3-e5")


def _sample_positions():
    yield new()
    yield play(f"P@c3 S@c4 {F_TL} {F_TR}")
    yield play(f"P@b4 P@f4 S@e4 D@c4c5 S@c5 f4-e4 {F_BL} {F_BR} b4-c4 {F_TL} D@d4d5")
    yield play("D@d4d5 P@c4 P@d6", "double")
    yield exhausted("mini")


def test_legal_actions_ascending():
    for s in _sample_positions():
        la = s.legal_actions()
        assert la.dtype == np.int64
        assert len(la) > 0
        assert np.all(np.diff(la) > 0)
        assert la[0] >= 0 and la[-1] < s.num_distinct_actions


def test_mask_consistent_with_legal_actions():
    for s in _sample_positions():
        mask = s.legal_actions_mask()
        assert mask.dtype == np.bool_
        assert mask.shape == (s.num_distinct_actions,)
        assert np.array_equal(np.flatnonzero(mask), s.legal_actions())
        assert s.legal_action_strings() == [s.action_to_string(int(a)) for a in s.legal_actions()]
