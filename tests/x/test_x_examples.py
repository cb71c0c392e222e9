"""The rulebook's Example 1 and Example 2 (shared/seeds/plateau-x-rulebook.txt), rebuilt as
positions reached by legal actions in the 4-player standard variant (black=0, yellow=1,
orange=2, green=3).

The printed board is missing, so the board below is built to agree with every sentence of the two
examples and of the "Terms" section (C1+C2+B2 a level-1 plateau, A3 one of its own, B5+B6 at the
second level, A4 and E4+F4 plateaus too, A5 at the third level):

    7  .  .  .  .  .  .  .        levels after the build-up (. = level 0)
    6  .  2  .  .  .  .  .        Yellow's path F3 E3 D3 D4 C4 B4 B5 A5 has the
    5  3  2  .  1  .  1  .        levels 0 1 0 1 0 1 2 3
    4  2  1  .  1  2  2  .        D4+D5 is one level-1 plateau; Orange's path
    3  1  .  .  .  1  .  .        D5 E5 F5 F4 has the levels 1 0 1 2
    2  .  1  1  .  .  .  .        (C1 B2 C2 are laid for Example 2, after Example 1)
    1  .  .  1  .  .  .  .
       a  b  c  d  e  f  g

Example 1 (Yellow to move): Black on A4, Yellow on F3, Orange on D6 (level 0, off every plateau);
Black's previous action was the single on A5. Example 2 (Yellow to move, four plies later):
Orange on D5 (on the D4+D5 plateau), Black on B1, Yellow on F3. Green's piece plays no part in
either example and stays off the board; Green only builds.

The sentence "Orange cannot move from B5 to A5, since a diagonal step would be required" cannot be
read literally (B5 and A5 share a side, and Yellow passes through B5 in the same example); the
rules page says it only illustrates the no-diagonal rule. It is checked as such below, on this
board, and no other conclusion is drawn from it.
"""

from __future__ import annotations

import plateau

GAME = "plateau-x"
BLACK, YELLOW, ORANGE, GREEN = 0, 1, 2, 3

EXAMPLE_1 = [
    "P@b3",  # 0 black enters B3 (level 0)
    "T@a3a4b4",  # 1 yellow: A3 A4 B4 -> 1
    "T@a5b5b6",  # 2 orange: A5 B5 B6 -> 1
    "T@e3e4f4",  # 3 green:  E3 E4 F4 -> 1
    "D@a4a5",  # 4 black:  A4 A5 -> 2
    "D@b5b6",  # 5 yellow: B5 B6 -> 2 (a double on a triple)
    "D@e4f4",  # 6 orange: E4 F4 -> 2
    "D@d4d5",  # 7 green:  D4 D5 -> 1
    "b3-a4",  # 8 black climbs B3 -> B4 -> A4 (level 2)
    "P@f3",  # 9 yellow enters F3
    "P@d6",  # 10 orange enters D6 (level 0, next to D5)
    "S@f5",  # 11 green:  F5 -> 1
    "S@a5",  # 12 black:  A5 -> 3 ("if he placed his single building tile on A5")
]
# From Example 1 to Example 2: Orange steps onto D5, Black walks A4 A3 A2 B2 B1.
TO_EXAMPLE_2 = [
    "S@g1",  # 13 yellow: a single in the corner, far from everything
    "d6-d5",  # 14 orange steps onto the D4+D5 plateau
    "T@c1b2c2",  # 15 green:  C1 B2 C2 -> 1 (the Terms section's plateau)
    "a4-b1",  # 16 black: A4 (2) A3 (1) A2 (0) B2 (1) B1 (0)
]
# Harmless turns far from every path (each single borders level-0 spaces no piece can reach).
YELLOW_PASS, ORANGE_PASS, GREEN_PASS = "S@g2", "S@e7", "S@a7"


def play(actions):
    s = plateau.new_game(GAME, variant="standard")
    for a in actions:
        s.apply(a)
    return s


def then(s, *actions):
    t = s.clone()
    for a in actions:
        t.apply(a)
    return t


def moves(s):
    return {x for x in s.legal_action_strings() if "-" in x}


def squares(names):
    return sorted(plateau.square_index(x, board_size=7) for x in names.split())


def example_1():
    s = play(EXAMPLE_1)
    assert s.current_player == YELLOW
    return s


def example_2():
    s = play(EXAMPLE_1 + TO_EXAMPLE_2)
    assert s.current_player == YELLOW
    return s


# ----------------------------------------------------------------------------------------------
# the board itself
# ----------------------------------------------------------------------------------------------


def test_board_matches_the_examples_and_terms():
    s = play(EXAMPLE_1 + TO_EXAMPLE_2[:3])
    path = ["f3", "e3", "d3", "d4", "c4", "b4", "b5", "a5"]
    assert [s.level(x) for x in path] == [0, 1, 0, 1, 0, 1, 2, 3]
    assert [s.level(x) for x in ["d5", "e5", "f5", "f4"]] == [1, 0, 1, 2]
    assert s.plateau("d4") == squares("d4 d5")
    assert s.plateau("e4") == squares("e4 f4") and s.level("e4") == 2
    # Terms: C1+C2+B2 at level 1, A3 a plateau of its own (B2 is only a corner away)
    assert s.plateau("c1") == squares("c1 c2 b2") and s.level("b2") == 1
    assert s.plateau("a3") == squares("a3") and s.level("a3") == 1
    # B5+B6 at the second level; A4 and E4+F4 are other ones; A5 at the third level
    assert s.plateau("b5") == squares("b5 b6") and s.level("b6") == 2
    assert s.plateau("a4") == squares("a4") and s.level("a4") == 2
    assert s.plateau("a5") == squares("a5") and s.level("a5") == 3
    # spaces directly on the gameboard are no plateau
    assert s.plateau("f3") == []
    assert s.piece_at("a4") == BLACK
    assert s.piece_at("f3") == YELLOW
    assert s.piece_at("d5") == ORANGE


# ----------------------------------------------------------------------------------------------
# Example 1
# ----------------------------------------------------------------------------------------------


def test_example_1_yellow_crosses_the_board_to_a5():
    s = example_1()
    # "Too bad for Black, if he placed his single building tile on A5 during his previous turn."
    assert s.history[-1] == s.parse_action("S@a5")
    assert s.level("a5") == 3
    # Yellow: F3 E3 D3 D4 C4 B4 B5 A5 (levels 0 1 0 1 0 1 2 3), among every space its piece can
    # reach by alternating levels. Not A4 (Black stands there) and nothing beyond D4 of the D4+D5
    # plateau (D5 is level with D4).
    assert moves(s) == {
        "f3-e3",
        "f3-e4",
        "f3-d3",
        "f3-e2",
        "f3-d4",
        "f3-c4",
        "f3-b4",
        "f3-b5",
        "f3-a5",
        "f3-b3",
        "f3-a3",
        "f3-a2",
    }
    s.apply("f3-a5")
    assert s.piece_at("a5") == YELLOW
    assert s.stamps()[YELLOW] == 13
    # Yellow now stands highest; Black (level 2) second; Orange in play at level 0; Green off
    assert s.ranking() == [[YELLOW], [BLACK], [ORANGE], [GREEN]]
    # and Black can no longer take A5
    s.apply(ORANGE_PASS)
    s.apply(GREEN_PASS)
    assert s.current_player == BLACK
    assert "a4-a5" not in moves(s)
    assert "a4-b5" in moves(s)


def test_example_1_black_steps_up_from_a4_to_a5():
    # the same board a round later (Yellow, Orange, Green did not touch A4 or A5)
    s = then(example_1(), *TO_EXAMPLE_2[:3])
    assert s.current_player == BLACK
    # A5 is exactly one level higher than A4 and directly adjacent
    assert s.level("a5") - s.level("a4") == 1
    assert moves(s) == {
        "a4-a5",
        "a4-a3",
        "a4-b4",
        "a4-b5",
        "a4-c4",
        "a4-b3",
        "a4-a2",
        "a4-b2",
        "a4-b1",
        "a4-c1",
        "a4-d1",
    }
    # C4 -> D4 is closed: Orange now stands on D5 of the D4+D5 plateau


def test_example_1_no_diagonal_step():
    # What the "B5 to A5" sentence illustrates, on this board: A5 is entered from B5 across a
    # shared side (the only way in for Yellow while Black holds A4), and a space that only
    # touches reachable spaces at a corner stays out of reach.
    s = example_1()
    assert "f3-a5" in moves(s)
    assert s.piece_at("a4") == BLACK and s.level("a6") == 0  # A5's other side neighbours
    # Black, a round later: C2 (level 1) is one level above B1, B3 and D1, all reachable at level
    # 0, but touches each of them only at a corner; its side neighbours B2 and C1 are level
    # with it.
    t = then(s, *TO_EXAMPLE_2[:3])
    assert {"a4-b1", "a4-b3", "a4-d1"} <= moves(t)
    assert t.level("c2") == 1
    assert "a4-c2" not in moves(t)
    assert "a4-d2" not in moves(t) and "a4-c3" not in moves(t)


# ----------------------------------------------------------------------------------------------
# Example 2
# ----------------------------------------------------------------------------------------------


def test_example_2_yellow_cannot_pass_d4_while_orange_is_on_d5():
    s = example_2()
    assert s.piece_at("d5") == ORANGE
    # "it is not allowed to enter D4 - the plateau D4+D5 is occupied by Orange": the way to A5
    # (and to everything behind D4) is closed.
    assert "f3-a5" not in moves(s)
    assert moves(s) == {"f3-e3", "f3-d3", "f3-e4", "f3-e2"}


def test_example_2_orange_moves_d5_e5_f5_f4():
    s = then(example_2(), YELLOW_PASS)
    assert s.current_player == ORANGE
    assert moves(s) == {"d5-c5", "d5-e5", "d5-d6", "d5-f5", "d5-g5", "d5-f6", "d5-f4"}
    s.apply("d5-f4")
    assert s.piece_at("f4") == ORANGE and s.level("f4") == 2
    # with Orange gone from D4+D5 the way to A5 is open again, E4+F4 is now closed to Yellow
    s.apply(GREEN_PASS)
    s.apply("S@c7")
    assert s.current_player == YELLOW
    assert "f3-a5" in moves(s)
    assert "f3-e4" not in moves(s)


def test_example_2_orange_cannot_enter_e4_f4_after_yellow_stands_on_it():
    s = example_2()
    assert "f3-e4" in moves(s)  # F3 -> E3 -> E4
    s.apply("f3-e4")
    assert s.current_player == ORANGE
    # F4 (and so the whole D5 E5 F5 F4 path) is closed to Orange now
    assert moves(s) == {"d5-c5", "d5-e5", "d5-d6", "d5-f5", "d5-g5", "d5-f6"}


def test_example_2_black_goes_b1_b2_b3_b4_b5_a5():
    s = then(example_2(), YELLOW_PASS, ORANGE_PASS, GREEN_PASS)
    assert s.current_player == BLACK
    assert s.piece_at("b1") == BLACK and s.piece_at("d5") == ORANGE
    path = ["b1", "b2", "b3", "b4", "b5", "a5"]
    assert [s.level(x) for x in path] == [0, 1, 0, 1, 2, 3]
    # B1 B2 B3 B4 B5 A5 reaches A5; C4 -> D4 stays closed (Orange on D5)
    assert moves(s) == {
        "b1-b2",
        "b1-c1",
        "b1-d1",
        "b1-a2",
        "b1-b3",
        "b1-a3",
        "b1-a4",
        "b1-a5",
        "b1-b4",
        "b1-b5",
        "b1-c4",
    }


def test_example_2_orange_never_moves_d5_to_d4():
    # D5 and D4 are at the same level: no step, so no move, whatever else happens
    s = example_2()
    assert s.level("d5") == s.level("d4") == 1
    for t in [then(s, YELLOW_PASS), then(s, "f3-e4"), then(s, "f3-d3")]:
        assert t.current_player == ORANGE
        assert "d5-d4" not in t.legal_action_strings()
