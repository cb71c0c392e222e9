"""Bad input to the Plateau X API: every kind gets a clear exception naming the input and the
reason, and the state is left exactly as it was."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import plateau
from support import assert_refused as support_refused

VARIANTS = ["standard", "triple", "mini", "double"]


def new(variant: str = "mini", actions: tuple[str, ...] = (), **options: Any) -> Any:
    s = plateau.new_game("plateau-x", variant, **options)
    for a in actions:
        s.apply(a)
    return s


def snapshot(s: Any) -> tuple[Any, ...]:
    """Everything observable about a state (position, history, legal actions, diagram)."""
    return (
        s.hash,
        s.history,
        s.ply,
        s.current_player,
        s.is_terminal(),
        s.legal_actions().tolist(),
        s.legal_actions_mask().tolist(),
        s.piece_squares(),
        s.stamps(),
        s.supply,
        [s.stock(p) for p in range(s.num_players)],
        s.levels(),
        s.ranking(),
        str(s),
    )


def exhausted_supply() -> Any:
    """A mini game in which all 37 triples of the supply have been built (two interlocking
    L-triples fill the rectangle a1-c2 exactly; alternating the two ways of splitting it keeps
    every layer legal and never flush on the same triple)."""
    s = new("mini")
    layers = [("T@a1b1a2", "T@c1b2c2"), ("T@a1a2b2", "T@b1c1c2")]
    i = 0
    while s.supply:
        for a in layers[i % 2]:
            if s.supply:
                s.apply(a)
        i += 1
    assert s.supply == 0 and s.ply == 37
    return s


INVALID = plateau.InvalidActionError


def assert_refused(s: Any, action: Any, *patterns: str, **kw: Any) -> str:
    """:func:`support.assert_refused` with this file's snapshot."""
    return support_refused(s, action, *patterns, snap=snapshot, **kw)


# -- illegal but well-formed actions -----------------------------------------------------------

# (setup actions, the illegal action, the reason it must name)
ILLEGAL = {
    "unequal levels": (("S@a1", "S@f6"), "D@a1b1", r"not all at the same level"),
    "triple on unequal levels": (("S@a1", "S@f6"), "T@a1b1a2", r"not all at the same level"),
    "build on a piece": (("P@c3",), "S@c3", r"piece stands on c3"),
    "double on a piece": (("P@c3",), "D@c3d3", r"piece stands on c3"),
    "triple on a piece": (("P@c3",), "T@b3c3b4", r"piece stands on c3"),
    "single on single": (("S@a1",), "S@a1", r"flush on a single"),
    "double on same double": (("D@a1b1",), "D@a1b1", r"flush on a double"),
    "triple on same triple": (("T@a1b1a2",), "T@a1b1a2", r"flush on a triple"),
    "no single left": (
        ("S@a1", "S@f6", "S@c1", "S@f4", "S@e1", "S@f2"),
        "S@a3",
        r"player 0 .*no single left",
    ),
    "no double left": (("D@a1b1", "S@f6"), "D@c3d3", r"player 0 .*no double left"),
    "enter on a tile": (("S@c3",), "P@c3", r"c3 is not at level 0"),
    "enter on an occupied space": (("P@c3",), "P@c3", r"c3 is occupied"),
    "enter with no piece left": (("P@a1", "S@f6"), "P@b1", r"player 0 .*no piece left"),
    "move with no path": (("P@a1", "S@f6"), "a1-c3", r"no path .*a1 to c3"),
    "move between equal levels": (("P@a1", "S@f6"), "a1-b1", r"no path"),
    "move of an opponent's piece": (("P@a1",), "a1-b1", r"player 1 .*no piece on a1"),
    "move of no piece": ((), "c3-c4", r"player 0 .*no piece on c3"),
    "end while building is possible": ((), "end", r"can still build"),
}


@pytest.mark.parametrize("case", sorted(ILLEGAL))
def test_illegal_well_formed_action(case: str) -> None:
    setup, action, reason = ILLEGAL[case]
    s = new("mini", setup)
    legal = set(s.legal_action_strings())
    assert action not in legal
    a = s.parse_action(action)  # well formed: it parses
    # by notation, by Python int id and by numpy int id
    assert_refused(s, action, re.escape(repr(action)), "illegal", reason)
    assert_refused(s, a, rf"\b{a}\b", re.escape(action), reason)
    assert_refused(s, np.int64(a), re.escape(action), reason)
    assert_refused(s, action, re.escape(repr(action)), reason, via="string_to_action")
    assert not s.is_legal(a)
    assert not s.legal_actions_mask()[a]


def test_illegal_non_canonical_spelling_names_both_forms() -> None:
    s = new("mini", ("S@a1",))
    assert_refused(s, " s@A1 ", re.escape(repr(" s@A1 ")), re.escape("(S@a1)"), "flush")
    assert_refused(s, "t@B1A1a2", re.escape("T@a1b1a2"), "illegal")
    s.apply("S@f6")
    assert_refused(s, "D@B1a1", re.escape("(D@a1b1)"), "same level")


def test_triple_with_empty_supply() -> None:
    s = exhausted_supply()
    assert not any(a.startswith("T@") for a in s.legal_action_strings())
    assert any(a.startswith("S@") for a in s.legal_action_strings())
    assert_refused(s, "T@e5f5e6", re.escape("'T@e5f5e6'"), "supply of triples is empty")


def test_enter_with_no_piece_left_in_double_variant() -> None:
    s = new("double", ("P@a1", "S@g7", "P@b1", "S@g6"))
    assert s.piece_squares()[:2] == [0, 1]
    assert_refused(s, "P@c1", "no piece left")


def test_illegal_action_with_first_player_not_zero() -> None:
    s = new("triple", first_player=2)
    assert_refused(s, "end", "player 2", "can still build")
    s.apply("P@a1")
    assert_refused(s, "a1-b1", "player 0", "no piece on a1")


@pytest.mark.parametrize("variant", VARIANTS)
def test_end_refused_at_start_of_every_variant(variant: str) -> None:
    s = new(variant)
    assert_refused(s, "end", "can still build")
    assert_refused(s, s.spec_layout["base_end"], "end", "can still build")


# -- unparseable strings -----------------------------------------------------------------------

UNPARSEABLE = {
    "": r"not Plateau X notation",
    "x": r"not Plateau X notation",
    "S@": r"not Plateau X notation",
    "S@z9": r"off the 6x6 board",
    "S@g1": r"off the 6x6 board",
    "S@a7": r"off the 6x6 board",
    "S@a0": r"not Plateau X notation",
    "D@a1c1": r"not the shape of a double",
    "D@a1b2": r"not the shape of a double",
    "D@a1": r"not the shape of a double",
    "D@a1a1": r"not the shape of a double",
    "S@a1b1": r"not the shape of a single",
    "T@a1b1c1": r"not the shape of a triple.*L-shaped",
    "T@a1a2a3": r"not the shape of a triple",
    "T@a1b1": r"not the shape of a triple",
    "T@a1b1a2b2": r"not the shape of a triple",
    "a1-a1": r"must end on another space",
    "a1-": r"not Plateau X notation",
    "a1-z1": r"off the 6x6 board",
    "P@c3c4": r"not Plateau X notation",
    "P@": r"not Plateau X notation",
    "Q@c3": r"not Plateau X notation",
    "S-c3": r"not Plateau X notation",
    "ended": r"not Plateau X notation",
    "S@c3 D@c3d3": r"not Plateau X notation",
    "S@\u00e41": r"not Plateau X notation",  # a-umlaut
    "\u00e9": r"not Plateau X notation",
    "S@c\u0663": r"not Plateau X notation",  # Arabic-Indic digit three
    "P@\u212a1": r"off the 6x6 board|not Plateau X notation",  # Kelvin sign lowercases to k
    "\u2603": r"not Plateau X notation",
}


@pytest.mark.parametrize("text", sorted(UNPARSEABLE))
def test_unparseable_string(text: str) -> None:
    reason = UNPARSEABLE[text]
    s = new("mini", ("S@f6",))
    for via in ("apply", "string_to_action", "parse_action"):
        assert_refused(s, text, re.escape(repr(text)), reason, via=via, error=INVALID)


def test_off_board_square_depends_on_board_size() -> None:
    # g7 exists on the 7x7 board only
    assert new("standard").parse_action("S@g7") == 48
    assert_refused(new("mini"), "S@g7", "off the 6x6 board", via="parse_action", error=INVALID)
    assert_refused(new("standard"), "S@h1", "off the 7x7 board", error=INVALID)


# -- out-of-range ids and wrong types ----------------------------------------------------------


@pytest.mark.parametrize("bad", [None, 1, b"end", ["end"], 1.0, True])
def test_wrong_types_for_parsing(bad: Any) -> None:
    s = new("mini")
    for via in ("parse_action", "string_to_action"):
        assert_refused(s, bad, "must be a string", re.escape(repr(bad)), via=via, error=INVALID)


# -- undo, action_to_string, string_to_action --------------------------------------------------


def test_string_to_action_of_legal_syntax_but_illegal_action() -> None:
    s = new("mini", ("P@c3",))
    for text, reason in [
        ("P@c3", "occupied"),
        ("S@c3", "piece stands on c3"),
        ("c3-c4", "no piece on c3"),
        ("end", "can still build"),
    ]:
        a = s.parse_action(text)  # fine as syntax
        assert 0 <= a < s.num_distinct_actions
        assert_refused(s, text, re.escape(repr(text)), "illegal", reason, via="string_to_action")
    # the legal ones go through
    assert s.string_to_action("P@c4") == s.parse_action("P@c4")


# -- position queries --------------------------------------------------------------------------

BAD_SQUARES = [
    ("z9", "off the 6x6 board"),
    ("g1", "off the 6x6 board"),
    ("a7", "off the 6x6 board"),
    ("a0", "not a square name"),
    ("", "not a square name"),
    ("c", "not a square name"),
    ("3c", "not a square name"),
    ("c3c4", "not a square name"),
    ("\u00e71", "not a square name"),
    (36, r"out of range \[0, 36\)"),
    (-1, r"out of range \[0, 36\)"),
    (10**20, "out of range"),
    (None, "a square is a name"),
    (True, "a square is a name"),
    (1.0, "a square is a name"),
    ([3], "a square is a name"),
]


@pytest.mark.parametrize("method", ["level", "plateau", "piece_at"])
@pytest.mark.parametrize("square,reason", BAD_SQUARES, ids=lambda v: repr(v))
def test_bad_square_names(method: str, square: Any, reason: str) -> None:
    s = new("mini", ("T@a1b1a2", "P@c3"))
    before = snapshot(s)
    with pytest.raises(ValueError, match=reason) as info:
        getattr(s, method)(square)
    if isinstance(square, str) and square:
        assert repr(square) in str(info.value)
    assert snapshot(s) == before


@pytest.mark.parametrize(
    "player,reason",
    [
        (-1, r"must be an int in \[0, 2\), got -1"),
        (2, r"must be an int in \[0, 2\), got 2"),
        (4, "must be an int in"),
        ("0", "must be an int"),
        (True, "must be an int"),
        (None, "must be an int"),
        (0.0, "must be an int"),
    ],
)
def test_bad_player_for_stock(player: Any, reason: str) -> None:
    s = new("mini", ("S@a1",))
    before = snapshot(s)
    with pytest.raises(ValueError, match=reason) as info:
        s.stock(player)
    assert repr(player) in str(info.value)
    assert snapshot(s) == before


def test_stock_of_every_player_of_standard() -> None:
    s = new("standard")
    assert [s.stock(p) for p in range(4)] == [{"single": 2, "double": 1}] * 4
    with pytest.raises(ValueError, match=r"must be an int in \[0, 4\), got 4"):
        s.stock(4)


# -- new_game, perft ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args,kwargs,pattern",
    [
        (("chess",), {}, r"unknown game 'chess'.*plateau-x"),
        (("",), {}, "unknown game ''"),
        (("Plateau-X",), {}, "unknown game"),
        ((["plateau-x"],), {}, "unknown game"),
        ((None,), {}, "unknown game None"),
        (("plateau-x", "huge"), {}, r"unknown variant 'huge'.*standard, triple, mini, double"),
        (("plateau-x", "Standard"), {}, "unknown variant 'Standard'"),
        (("plateau-x", ""), {}, "unknown variant ''"),
        (("plateau-x", 3), {}, "unknown variant 3"),
        (("plateau-x", "mini"), {"players": 2}, r"unknown option\(s\) 'players'.*first_player"),
        (("plateau-x", "mini"), {"first": 1}, "unknown option"),
        (
            ("plateau-x", "mini"),
            {"first_player": 2},
            r"first_player must be an int in \[0, 2\), got 2",
        ),
        (
            ("plateau-x", "mini"),
            {"first_player": -1},
            r"first_player must be an int in \[0, 2\), got -1",
        ),
        (("plateau-x", "standard"), {"first_player": 4}, r"in \[0, 4\), got 4"),
        (("plateau-x", "triple"), {"first_player": 3}, r"in \[0, 3\), got 3"),
        (("plateau-x", "double"), {"first_player": 2}, r"in \[0, 2\), got 2"),
        (("plateau-x", "mini"), {"first_player": True}, "first_player must be an int"),
        (("plateau-x", "mini"), {"first_player": "1"}, "first_player must be an int"),
        (("plateau-x", "mini"), {"first_player": 1.0}, "first_player must be an int"),
        (("plateau-x", "mini"), {"first_player": None}, "first_player must be an int"),
        (
            ("plateau-x", "mini"),
            {"first_player": 2**31},
            "first_player must be an int in \\[0, 2\\), got 2147483648",
        ),
    ],
)
def test_bad_new_game_arguments(
    args: tuple[Any, ...], kwargs: dict[str, Any], pattern: str
) -> None:
    with pytest.raises(ValueError, match=pattern):
        plateau.new_game(*args, **kwargs)


def test_bad_variants_listing() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        plateau.variants("chess")


@pytest.mark.parametrize("variant", VARIANTS)
def test_negative_perft_depth(variant: str) -> None:
    s = new(variant)
    before = snapshot(s)
    for depth in (-1, -5):
        with pytest.raises(
            ValueError, match=rf"perft depth must be an int in \[0, 64\), got {depth}"
        ):
            s.perft(depth)
    assert snapshot(s) == before
    assert s.perft(0) == 1


def test_huge_player_for_stock() -> None:
    with pytest.raises(ValueError, match="must be an int in"):
        new("mini").stock(2**31)


# -- apply_all leaves the state as it was ------------------------------------------------------


def test_apply_all_rolls_back_on_an_illegal_action() -> None:
    s = new("mini", ("S@a1",))
    before = snapshot(s)
    with pytest.raises(plateau.IllegalActionError, match=r"action 2 of the sequence: 'S@f6'"):
        s.apply_all(["S@f6", "P@c3", "S@f6", "P@d4"])
    assert snapshot(s) == before
