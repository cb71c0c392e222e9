"""Bad input to the Plateau (Albea) API: every kind gets a clear exception naming the input or
the reason (InvalidActionError for input that names no action, IllegalActionError for an action
not legal here, ValueError for other arguments), and the state is left exactly as it was."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import plateau
from support import assert_refused as support_refused

N = 41188  # num_distinct_actions
OPENED = ("xx,rb@a1", "rr,bx@d4")  # both openings played: Black to make a normal turn
VALUE = {"xx": 1, "bb": 4, "rr": 5, "bx": 8, "rx": 10, "ox": 15, "rb": 21}  # the rules page


def new(actions: tuple[str, ...] = (), **options: Any) -> Any:
    s = plateau.new_game("albea-plateau", **options)
    for a in actions:
        s.apply(a)
    return s


def position(stacks: dict[str, str], to_move: int, **kwargs: Any) -> Any:
    return plateau.AlbeaPlateauState.from_position(stacks, to_move, **kwargs)


def exchange_pending() -> Any:
    """The rules page's worked check 8: White holds {bx}, Black holds {rr, bb, xx}; White has
    offered its bx (worth 8), so L = 6 and Black must give rr,xx / rr,bb / rr,bb,xx."""
    s = position(
        {"a1": "Wxx Wbx", "d4": "Bxx Brr"}, to_move=1, prisoners=(["rr", "bb", "xx"], ["bx"])
    )
    s.apply("offer:bx")
    assert s.phase == "respond" and s.current_player == 0
    return s


def refused_once() -> Any:
    """Worked check 9: White offered its xx (worth 1), Black refused; White acts with floor 1."""
    s = position({"a1": "Wxx Wbx", "d4": "Bxx Brr"}, to_move=1, prisoners=(["bb"], ["xx"]))
    s.apply("offer:xx")
    s.apply("refuse")
    assert s.current_player == 1 and s.floor == [0, 1]
    return s


def finished_game(seed: int = 9) -> Any:
    """A game played to its end by random legal play with a fixed seed."""
    rng = random.Random(seed)
    s = plateau.new_game("albea-plateau")
    while not s.is_terminal():
        legal = s.legal_actions()
        s.apply(int(legal[rng.randrange(len(legal))]))
        assert s.ply < 2000
    return s


def snapshot(s: Any) -> tuple[Any, ...]:
    """Everything observable about a state (full truth, history, legal actions, both views)."""
    return (
        s.hash,
        s.history,
        s.history_strings(),
        s.ply,
        s.phase,
        s.current_player,
        s.is_terminal(),
        s.position_dict(),
        s.legal_actions().tolist(),
        s.legal_actions_mask().tobytes(),
        s.observation(0),
        s.observation(1),
        s.observation_string(0),
        s.observation_string(1),
        s.observation_tensor(0).tobytes(),
        s.observation_tensor(1).tobytes(),
        str(s),
    )


INVALID = plateau.InvalidActionError


def assert_refused(s: Any, action: Any, *patterns: str, **kw: Any) -> str:
    """:func:`support.assert_refused` with this file's snapshot."""
    return support_refused(s, action, *patterns, snap=snapshot, **kw)


# -- illegal but well-formed actions -----------------------------------------------------------

PIN = {"b1": "Wxx Wrr", "b2": "Bxx"}  # worked check 3, White to move
BLANK_TOP = {"a1": "Wrr Wxx", "b2": "Bbb"}  # worked check 4, White to move
MASK = {"a1": "Wxx Wbx"}  # worked check 2, White to move (h = 2, blue up)
ONBOARD = {"c3": "Bxx Wrr"}  # worked check 6

# name: (the state, the illegal action, the reason it must name)
ILLEGAL: dict[str, tuple[Callable[[], Any], str, str]] = {
    # wrong phase
    "move during the opening": (new, "a1:1-b2", r"first places an opening pair"),
    "stomp during the opening": (new, "!a1", r"first places an opening pair"),
    "onboard during the opening": (new, "xx@a1/0", r"first places an opening pair"),
    "offer during the opening": (new, "offer:xx", r"first places an opening pair"),
    "give during the opening": (new, "give:xx", r"first places an opening pair"),
    "pass during the opening": (new, "pass", r"first places an opening pair"),
    "move during white's opening": (lambda: new(OPENED[:1]), "a1:1-b2", r"opening pair"),
    "opening after the openings": (lambda: new(OPENED), "xx,xx@a4", r"openings are over"),
    "give with no offer": (lambda: new(OPENED), "give:xx", r"no offer to answer"),
    "refuse with no offer": (lambda: new(OPENED), "refuse", r"no offer to answer"),
    "move while an offer is pending": (exchange_pending, "d4:1-d3", r"offer is pending"),
    "onboard while an offer is pending": (exchange_pending, "xx@b2/0", r"offer is pending"),
    "offer while an offer is pending": (exchange_pending, "offer:rr", r"offer is pending"),
    "pass while an offer is pending": (exchange_pending, "pass", r"offer is pending"),
    # openings
    "opening on a taken square": (lambda: new(OPENED[:1]), "xx,xx@a1", r"a1 is taken"),
    "opening with the ace twice": (new, "rb,br@a1", r"one-off piece twice"),
    "opening with the twister twice": (new, "ox,ox@b1", r"one-off piece twice"),
    # onboards
    "onboard of a piece not in reserve": (lambda: new(OPENED), "rb@b2/0", r"player 0 has no rb"),
    "onboard above the stack": (lambda: position(ONBOARD, 0), "xx@c3/3", r"gap 3 is above"),
    "onboard on top of an enemy": (lambda: position(ONBOARD, 0), "xx@c3/2", r"next to one"),
    "onboard under an enemy bottom": (lambda: position(ONBOARD, 1), "xx@c3/0", r"own pieces"),
    # moves: origin
    "move from an empty square": (lambda: position(MASK, 1), "b2:1-c3", r"b2 is empty"),
    "move of a covered stack": (
        lambda: position({"b2": "Wrr Bxx"}, 1),
        "b2:1-b3",
        r"stack on b2 is topped by the opponent",
    ),
    "move of an enemy-topped stack": (
        lambda: position({"b2": "Bxx", "c2": "Wrr"}, 1),
        "b2:1-b3",
        r"stack on b2 is topped by the opponent",
    ),
    "lift of covered pieces": (
        lambda: position({"b2": "Wrr Bxx Wbb"}, 1),
        "b2:2-c3",
        r"top unit on b2 has only 1 piece",
    ),
    "k above the top unit": (lambda: position(MASK, 1), "a1:3-b2", r"a1 has only 2 piece"),
    "distance above h": (lambda: position(MASK, 1), "a1:1-d4", r"may travel at most 2"),
    "distance above h with stops": (lambda: position(PIN, 1), "b1:2-b2:1-b4", r"at most 2"),
    # moves: direction
    "blue along a column": (lambda: position(MASK, 1), "a1:1-a2", r"b face up .* diagonal"),
    "blue along a row": (lambda: position(MASK, 1), "a1:2-b1", r"b face up .* diagonal"),
    "red along a diagonal": (lambda: position(PIN, 1), "b1:1-c2", r"r face up .* orthogonal"),
    "twister along a ray": (
        lambda: position({"b1": "Wox"}, 1),
        "b1:1-b2",
        r"o face up moves along the Twister path",
    ),
    "twister ending on its mid square": (
        lambda: position({"b1": "Wxx Wox"}, 1),
        "b1:2-b2",
        r"Twister path",
    ),
    "blank on the twister path": (lambda: position({"b1": "Wxx"}, 1), "b1:1-c3", r"8 rays"),
    "flipped mask along a knight path": (lambda: position(MASK, 1), "~a1:1-b3", r"8 rays"),
    # moves: stops
    "pin with a blank": (lambda: position(PIN, 1), "b1:2-b2:1-b3", r"stacking, pinning"),
    "blank top ending on an enemy": (
        lambda: position(BLANK_TOP, 1),
        "a1:2-b2",
        r"stacking, pinning or capture",
    ),
    "blank group stopping on an enemy": (
        lambda: position(BLANK_TOP, 1),
        "a1:1-b2",
        r"stacking, pinning or capture",
    ),
    # flips and stomps
    "flip of xx": (lambda: position({"b2": "Bbb Wxx"}, 1), "~b2:1-b3", r"xx shows the same"),
    "flip of rr": (lambda: position(PIN, 1), "~b1:2-b2", r"rr shows the same face"),
    "stomp flip of xx": (lambda: position({"b2": "Bxx Wxx"}, 1), "~!b2", r"xx shows the same"),
    "stomp with a blank top": (lambda: position({"b2": "Bxx Wxx"}, 1), "!b2", r"colored top"),
    "stomp unflipped blank mask": (lambda: position({"b2": "Bxx Wxr"}, 1), "!b2", r"colored"),
    "stomp with no enemy below": (lambda: position(MASK, 1), "!a1", r"no enemy piece lies"),
    "stomp of an enemy stack": (lambda: position(PIN, 0), "!b1", r"topped by the opponent"),
    # exchanges
    "offer not exceeding the floor": (refused_once, "offer:xx", r"value 1 does not exceed .* 1"),
    "offer below the floor": (
        lambda: position({"a1": "Wxx"}, 1, prisoners=([], ["rr", "xx"]), floor=(0, 5)),
        "offer:rr",
        r"value 5 does not exceed the refused value 5",
    ),
    "offer of prisoners not held": (lambda: new(OPENED), "offer:xx", r"player 0 does not hold"),
    "offer of more prisoners than held": (
        lambda: position({"a1": "Wxx"}, 1, prisoners=([], ["xx"])),
        "offer:xx,xx",
        r"player 1 does not hold those prisoners",
    ),
    "refuse when something can be given": (exchange_pending, "refuse", r"refusal is legal only"),
    "pass when something else is legal": (lambda: new(OPENED), "pass", r"pass is legal only"),
}


@pytest.mark.parametrize("case", sorted(ILLEGAL))
def test_illegal_well_formed_action(case: str) -> None:
    make, action, reason = ILLEGAL[case]
    s = make()
    assert action not in s.legal_action_strings()
    a = s.parse_action(action)  # well formed: it parses ...
    assert s.action_to_string(a) == action  # ... and is written canonically
    assert re.search(reason, s.why_illegal(a)), s.why_illegal(a)
    # by notation, by Python int id, by numpy int id, and through string_to_action
    assert_refused(s, action, re.escape(repr(action)), "is illegal", reason)
    assert_refused(s, a, rf"\b{a}\b", re.escape(action), reason)
    assert_refused(s, np.int64(a), re.escape(action), reason)
    assert_refused(s, action, re.escape(repr(action)), reason, via="string_to_action")
    assert not s.is_legal(a)
    assert not s.legal_actions_mask()[a]


def test_illegal_non_canonical_spelling_names_both_forms() -> None:
    s = new(OPENED)
    assert_refused(s, " OFFER:XX ", re.escape(repr(" OFFER:XX ")), r"\(offer:xx\)", "not hold")
    assert_refused(s, "Pass", re.escape("'Pass' (pass)"), "pass is legal only")
    s = exchange_pending()
    # a multiset in any order is the same action
    assert s.parse_action("give:xx,bb") == s.parse_action("give:bb,xx")
    assert_refused(s, "give:xx,bb", re.escape("'give:xx,bb' (give:bb,xx)"), "value 5 is below")


# -- the exchange answer must be one of the allowed options (the issue) -------------------------


def test_exchange_answers_are_exactly_the_allowed_options() -> None:
    s = exchange_pending()
    held = s.prisoners(0)
    assert held == {"xx": 1, "bb": 1, "rr": 1}
    allowed = ["give:rr,xx", "give:rr,bb", "give:rr,bb,xx"]
    assert s.legal_action_strings() == allowed
    before = snapshot(s)
    first_give, refuse = s.parse_action("give:xx"), s.parse_action("refuse")
    assert s.action_to_string(first_give - 1).startswith("offer:")
    for a in range(first_give, refuse):
        text = s.action_to_string(a)
        assert text.startswith("give:")
        codes = text[5:].split(",")
        value = sum(VALUE[c] for c in codes)
        holds = all(codes.count(c) <= held.get(c, 0) for c in set(codes))
        if text in allowed:
            assert holds and value >= 6 and s.is_legal(a)
            continue
        assert not s.is_legal(a)
        with pytest.raises(plateau.IllegalActionError) as info:
            s.apply(text)
        message = str(info.value)
        assert message.startswith(f"{text!r} is illegal: ")
        if not holds:
            assert "player 0 does not hold those prisoners" in message
        else:
            assert value < 6
            assert f"its value {value} is below 6, the largest value player 0 can give" in message
            assert "offer worth 8" in message
        assert s.hash == before[0]
    assert snapshot(s) == before
    assert_refused(s, "refuse", "refusal is legal only when no prisoners")


@pytest.mark.parametrize(
    "give,reason",
    [
        ("give:xx", r"its value 1 is below 6, the largest value .* offer worth 8"),
        ("give:bb", r"its value 4 is below"),
        ("give:rr", r"its value 5 is below"),
        ("give:bb,xx", r"its value 5 is below"),
        ("give:bx", r"player 0 does not hold those prisoners"),
        ("give:rb", r"player 0 does not hold those prisoners"),
        ("give:rr,rr", r"player 0 does not hold those prisoners"),
        ("give:rr,bb,xx,xx", r"player 0 does not hold those prisoners"),
        ("give:ox,rr", r"player 0 does not hold those prisoners"),
    ],
)
def test_exchange_answer_not_allowed(give: str, reason: str) -> None:
    s = exchange_pending()
    a = s.parse_action(give)
    assert re.search(reason, s.why_illegal(a))
    assert_refused(s, give, re.escape(repr(give)), "is illegal", reason)
    assert_refused(s, a, reason)
    # the refused answer did not cost the responder anything, and a legal answer still works
    assert s.prisoners(0) == {"xx": 1, "bb": 1, "rr": 1} and s.tender == {"bx": 1}
    s.apply("give:rr,xx")
    assert s.phase == "play" and s.current_player == 0 and s.prisoners(0) == {"bb": 1}


def test_answer_with_nothing_to_give() -> None:
    # White offers xx; Black holds only bb (worth 4 > 1): L = 0, so refuse or give:bb
    s = position({"a1": "Wxx Wbx", "d4": "Bxx Brr"}, to_move=1, prisoners=(["bb"], ["xx"]))
    s.apply("offer:xx")
    assert s.legal_action_strings() == ["give:bb", "refuse"]
    assert_refused(s, "give:xx", "player 0 does not hold those prisoners")
    assert_refused(s, "give:bb,bb", "player 0 does not hold those prisoners")
    assert_refused(s, "d4:1-d3", "offer is pending")


def test_pass_is_the_only_action_and_nothing_else_is_legal() -> None:
    # White's only piece is covered, its reserve is empty and it holds no prisoners
    s = position({"b2": "Wrr Bxx"}, to_move=1, reserve=[{"xx": 3}, {}])
    assert s.legal_action_strings() == ["pass"]
    assert_refused(s, "b2:1-b3", "topped by the opponent")
    assert_refused(s, "xx@a1/0", "player 1 has no xx in reserve")
    assert_refused(s, "offer:xx", "player 1 does not hold")
    assert_refused(s, "refuse", "no offer to answer")


# -- unparseable strings -----------------------------------------------------------------------

# text: a pattern the reason must match (None: only the input is named; see the report)
UNPARSEABLE: dict[str, str | None] = {
    # anything
    "": r"not Plateau notation",
    "x": r"not Plateau notation",
    "passs": r"not Plateau notation",
    "resign": r"not Plateau notation",
    "\u2603": r"not Plateau notation",
    # openings
    "xx,rb@b2": r"not a perimeter square",
    "xx,rb@c3": r"not a perimeter square",
    "xx,rb@e1": r"square 'e1' is off the 4x4 board",
    "xx,rb@a1/0": r"not Plateau notation",
    "xx,zz@a1": r"unknown piece 'zz'",
    "xb,bb@a1@b1": r"not Plateau notation",
    "xx,rb,bb@a1": r"not Plateau notation",
    "xx,@a1": r"not Plateau notation",
    # onboards
    "rb@c3/24": r"gap \d+ out of range",
    "rb@c3/99": r"gap \d+ out of range",
    "rb@c3/-1": r"not Plateau notation",
    "rb@c3/x": r"not Plateau notation",
    "rb@c3": r"not Plateau notation",
    "rb@c3/0/1": r"not Plateau notation",
    "zz@c3/0": r"unknown piece 'zz'",
    "r@c3/0": r"unknown piece 'r'",
    "rbx@c3/0": r"unknown piece 'rbx'",
    "rb@e3/0": r"square 'e3' is off the 4x4 board",
    "rb@c5/0": r"square 'c5' is off the 4x4 board",
    "rb@c\u0663/0": r"not Plateau notation",  # Arabic-Indic digit three
    # moves
    "a1:0-b2": r"lift \d+ out of range",
    "a1:6-b2": r"lift \d+ out of range",
    "a1:99-b2": r"lift \d+ out of range",
    "a1:-1-b2": r"not Plateau notation",
    "a1:x-a2": r"not Plateau notation",
    "a1:1-b2:1-c3": r"not a pick-up or drop-off",  # j equal to the group size
    "a1:2-b2:2-c3": r"not a pick-up or drop-off",
    "a1:2-a2:1-a3:1-a4": r"not a pick-up or drop-off",
    "a1:1-b2:0-c3": r"not a pick-up or drop-off",
    "a1:2-a2:11-a3": r"more pieces than a top unit there can hold",
    "a1:1-c3:1-b2": r"do not lie at increasing distances on one ray",  # decreasing distance
    "a1:1-a3:2-a2": r"do not lie at increasing distances on one ray",
    "a1:1-a2:2-a2": r"do not lie at increasing distances on one ray",  # not strictly increasing
    "a1:1-a2:2-c3": r"do not lie at increasing distances on one ray",  # not collinear
    "a1:1-b2:2-b3": r"do not lie at increasing distances on one ray",
    # neither a ray nor the Twister path
    "b1:2-c2:1-d2": r"do not lie at increasing distances on one ray",
    "b1:2-b2:1-c3:1-d4": r"do not lie at increasing distances on one ray",
    "a1:1-d2": r"do not lie at increasing distances on one ray",
    "a1:1-a1": r"do not lie at increasing distances on one ray",  # distance 0
    "a1:1-a5": r"square 'a5' is off the 4x4 board",  # distance 4: off the 4x4 board
    "a1:3-e5": r"square 'e5' is off the 4x4 board",
    "a1:1": r"not Plateau notation",
    "a1-b2": r"not Plateau notation",
    "a1:1-": r"not Plateau notation",
    "a1:1-b2-": r"not Plateau notation",
    "a1:1-a4:1": r"not Plateau notation",  # the last stop has no j
    "a1:1-a2-a3": r"not Plateau notation",  # every other stop has one
    "a1:2-a2:1:1-a3": r"not Plateau notation",
    "~~a1:1-b2": r"not Plateau notation",
    "e1:1-e2": r"square 'e1' is off the 4x4 board",
    # stomps
    "!e2": r"square 'e2' is off the 4x4 board",
    "!b": r"not Plateau notation",
    "!": r"not Plateau notation",
    "!!b2": r"not Plateau notation",
    "b!b2": r"not Plateau notation",
    "~ !b2": r"not Plateau notation",
    # offers and gives
    "offer:zz": r"unknown piece type 'zz'",
    "offer:xb": r"unknown piece type 'xb'",  # an oriented code, not a type
    "give:rbx": r"unknown piece type 'rbx'",
    "offer:": r"names at least one piece type",  # the empty multiset
    "give:": r"names at least one piece type",
    "offer:xx,,xx": r"unknown piece type ''",
    "offer:xx,xx,xx,xx,xx": r"a player has only",
    "give:rb,rb": r"a player has only",
    "give:ox,ox": r"a player has only",
    "offer:rr,rr,rr": r"a player has only",
    "offer xx": r"not Plateau notation",
    "refuse!": r"not Plateau notation",
}


@pytest.mark.parametrize("text", sorted(UNPARSEABLE))
def test_unparseable_string(text: str) -> None:
    reason = UNPARSEABLE[text]
    patterns = [re.escape(f"cannot read {text!r} as a Plateau action")]
    if reason is not None:
        patterns.append(reason)
    for s in (new(), new(OPENED), exchange_pending()):
        for via in ("apply", "string_to_action", "parse_action", "why_illegal"):
            assert_refused(s, text, *patterns, via=via, error=INVALID)
        assert not s.is_legal(text)


@pytest.mark.parametrize(
    "text", ["rb@c3/1_0", "rb@c3/+1", "rb@c3/\u0661", "a1:\u0661-b2", "a1:+1-b2", "a1:1 -b2"]
)
def test_numbers_in_notation_are_plain_ascii_digits(text: str) -> None:
    s = new(OPENED)
    with pytest.raises(INVALID, match="cannot read"):
        s.parse_action(text)


# -- out-of-range ids and wrong types ----------------------------------------------------------


def test_out_of_range_ids_while_an_exchange_is_pending() -> None:
    # the positions of tests/conformance/test_bad_input.py have no exchange pending
    s = exchange_pending()
    for bad in (-1, N, N + 1, -N, 2**31, 2**63, 2**64, 2**70, -(2**63), 10**30):
        assert_refused(s, bad, re.escape(str(bad)), "out of range", rf"\[0, {N}\)", error=INVALID)
        assert_refused(s, bad, "out of range", via="action_to_string", error=INVALID)
        assert_refused(s, bad, "out of range", via="why_illegal", error=INVALID)
        assert s.is_legal(bad) is False
    for bad in (np.int64(N), np.int64(-1), np.int32(-1), np.uint64(2**64 - 1)):
        assert_refused(s, bad, "out of range", rf"\[0, {N}\)", error=INVALID)
        assert_refused(s, bad, "out of range", via="action_to_string", error=INVALID)
        assert s.is_legal(bad) is False


@pytest.mark.parametrize("bad", [None, 0, b"pass", ["pass"], 1.0, True])
def test_wrong_types_for_parsing(bad: Any) -> None:
    s = new(OPENED)
    for via in ("parse_action", "string_to_action"):
        pattern = re.escape(type(bad).__name__)
        assert_refused(s, bad, "notation must be a str", pattern, via=via, error=INVALID)


@pytest.mark.parametrize(
    "npint", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
)
def test_numpy_integer_ids_are_accepted(npint: Any) -> None:
    # id 0 is "xx,xx@a1", legal at the start and small enough for every type
    s, target = new(), new()
    assert s.action_to_string(npint(0)) == "xx,xx@a1"
    target.apply(0)
    s.apply(npint(0))
    assert s.history == [0] and type(s.history[0]) is int
    assert snapshot(s) == snapshot(target)


@pytest.mark.parametrize("npint", [np.int32, np.int64, np.uint32, np.uint64])
def test_numpy_integer_ids_of_later_actions(npint: Any) -> None:
    s, target = exchange_pending(), exchange_pending()
    legal = s.legal_actions()
    a = int(legal[-1])
    assert a > 2**15 and s.action_to_string(a) == "give:rr,bb,xx"
    target.apply(a)
    s.apply(npint(a))
    assert s.history == target.history and type(s.history[-1]) is int
    assert snapshot(s) == snapshot(target)
    # straight out of legal_actions() (numpy int64) works too
    b = s.legal_actions()[0]
    assert isinstance(b, np.int64) and s.is_legal(b)
    s.apply(b)
    assert s.history[-1] == int(b)


# -- after the end -----------------------------------------------------------------------------


def test_any_action_after_the_game_is_over() -> None:
    s = finished_game()
    assert s.is_terminal() and s.current_player == -1 and s.phase == "over"
    assert len(s.legal_actions()) == 0 and not s.legal_actions_mask().any()
    probe = s.clone()
    last = probe.undo()
    before_end = probe.legal_actions().tolist()
    assert last in before_end
    candidates = [last, *before_end[:5], before_end[-1], 0, N - 2, N - 1]
    for a in candidates:
        text = s.action_to_string(a)
        assert_refused(s, a, "game is over")
        assert_refused(s, np.int64(a), "game is over")
        assert_refused(s, text, re.escape(repr(text)), "game is over")
        assert_refused(s, text, "game is over", via="string_to_action")
        assert s.why_illegal(a) == "the game is over"
        assert not s.is_legal(a)
    # bad input after the end still gets its own reason
    assert_refused(s, "a1:0-b2", r"lift 0 out of range", error=INVALID)
    assert_refused(s, 1.5, "int id or a notation string", error=INVALID)
    assert_refused(s, -1, "out of range", error=INVALID)
    assert s.perft(1) == 0 and s.perft(2) == 0 and s.perft(0) == 1


def test_actions_after_a_draw() -> None:
    s = position({}, to_move=0, reserve=[{}, {}])
    s.apply_all(["pass", "pass"])
    assert s.is_terminal() and s.result == "draw"
    assert_refused(s, "pass", "'pass': the game is over")
    s = new(max_plies=3)
    s.apply_all(["xx,rb@a1", "rr,bx@d4", "xx@b2/0"])
    assert s.is_terminal() and s.result == "draw"
    assert_refused(s, "xx@b3/0", "game is over")


# -- undo ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        new,
        lambda: position(PIN, 1),
        lambda: plateau.from_json(new().to_json()),
        lambda: plateau.from_json(position(PIN, 1).to_json()),
        lambda: new().clone(),
    ],
)
def test_undo_with_no_history_raises_index_error(make: Callable[[], Any]) -> None:
    s = make()
    before = snapshot(s)
    with pytest.raises(IndexError, match="nothing to undo"):
        s.undo()
    assert snapshot(s) == before
    s.apply(int(s.legal_actions()[0]))
    s.undo()
    assert snapshot(s) == before
    with pytest.raises(IndexError):
        s.undo()
    with pytest.raises(IndexError):
        s.clone().undo()
    assert snapshot(s) == before


def test_undo_of_a_determinization() -> None:
    d = new(OPENED).resample_hidden(0, 1)
    before = snapshot(d)
    with pytest.raises(IndexError, match="determinization has no history"):
        d.undo()
    assert snapshot(d) == before


# -- player arguments (of the methods of every game: tests/conformance/test_bad_input.py) ----


@pytest.mark.parametrize("method", ["reserve", "prisoners"])
@pytest.mark.parametrize("player", [2, -1, 2**40, True, False, "0", 0.0, 1.0, [0], None])
def test_bad_player_arguments(method: str, player: Any) -> None:
    """This game's own methods word a bad player as every game does."""
    s = new((*OPENED, "xx@b2/0"))
    before = snapshot(s)
    with pytest.raises(ValueError) as info:
        getattr(s, method)(player)
    assert str(info.value) == f"player must be an int in [0, 2), got {player!r}"
    assert snapshot(s) == before
    assert getattr(s, method)(np.int64(1)) == getattr(s, method)(1)


@pytest.mark.parametrize(
    "square,pattern",
    [
        ("e1", r"square 'e1' is off the 4x4 board"),
        ("a5", r"square 'a5' is off the 4x4 board"),
        ("", r"square '' is off the 4x4 board"),
        ("b22", r"square 'b22' is off the 4x4 board"),
        (16, r"\[0, 16\), got 16"),
        (-1, r"\[0, 16\), got -1"),
        (True, r"got True"),
        (None, r"got None"),
        (1.0, r"got 1.0"),
    ],
)
def test_bad_square_for_stack(square: Any, pattern: str) -> None:
    s = position(PIN, 1)
    before = snapshot(s)
    with pytest.raises(ValueError, match=pattern):
        s.stack(square)
    assert snapshot(s) == before


@pytest.mark.parametrize(
    "kwargs,pattern",
    [
        ({"seed": 1.5}, r"seed must be an int in \[0, 2\*\*64\), got 1.5"),
        ({"seed": "1"}, r"seed must be an int"),
        ({"ply_cap": -1}, r"ply_cap must be an int in \[0, 2147483648\), got -1"),
        ({"ply_cap": True}, r"ply_cap must be an int"),
        ({"ply_cap": 2**31}, r"ply_cap must be an int"),
    ],
)
def test_bad_random_playout_arguments(kwargs: dict[str, Any], pattern: str) -> None:
    s = new(OPENED)
    before = snapshot(s)
    with pytest.raises(ValueError, match=pattern):
        s.random_playout(**kwargs)
    assert snapshot(s) == before


# -- options, set-up positions, perft ----------------------------------------------------------

BAD_MAX_PLIES = [-1, -(2**40), 2**30, 2**31, 2**70, True, False, "5", "", 1.5, 10.0, None, [5]]


@pytest.mark.parametrize("value", BAD_MAX_PLIES, ids=repr)
def test_bad_max_plies_option(value: Any) -> None:
    # the ply counter is an int32: the option stays below 2**30 (a set-up's ply likewise)
    pattern = rf"max_plies must be an int in \[0, 1073741824\), got {re.escape(repr(value))}"
    with pytest.raises(ValueError, match=pattern):
        plateau.new_game("albea-plateau", max_plies=value)
    with pytest.raises(ValueError, match=pattern):
        plateau.AlbeaPlateauState(max_plies=value)


@pytest.mark.parametrize("value", [-1, 2**30, True, "5", 1.5], ids=repr)
def test_bad_max_plies_for_a_set_up_position(value: Any) -> None:
    with pytest.raises(ValueError, match=r"max_plies must be an int in \[0, 1073741824\)"):
        plateau.AlbeaPlateauState.from_position({"b2": "Bxx"}, 0, max_plies=value)


def test_max_plies_bounds_that_are_fine() -> None:
    assert new(max_plies=2**30 - 1).max_plies == 2**30 - 1
    assert new(max_plies=0).options == {"max_plies": 0}


@pytest.mark.parametrize(
    "args,kwargs,pattern",
    [
        (
            ("albea-plateau", "mini"),
            {},
            r"unknown variant 'mini' of 'albea-plateau'; known variants: standard",
        ),
        (("albea-plateau", ""), {}, r"unknown variant ''"),
        (("albea-plateau",), {"first_player": 1}, r"unknown option\(s\) 'first_player'.*max_plies"),
        (("albea-plateau",), {"max_ply": 5}, r"unknown option\(s\) 'max_ply'"),
        (("Plateau",), {}, r"unknown game 'Plateau'"),
        (("plateau-albea",), {}, r"unknown game 'plateau-albea'"),
    ],
)
def test_bad_new_game_arguments(
    args: tuple[Any, ...], kwargs: dict[str, Any], pattern: str
) -> None:
    with pytest.raises(ValueError, match=pattern):
        plateau.new_game(*args, **kwargs)


def test_bad_variant_for_the_class() -> None:
    with pytest.raises(ValueError, match="unknown variant 'mini' of 'albea-plateau'"):
        plateau.AlbeaPlateauState("mini")


# (stacks, to_move, other arguments, the reason)
BAD_POSITIONS: dict[str, tuple[dict[str, str], Any, dict[str, Any], str]] = {
    "five black mutes": (
        {"a1": "Bxx Bxx", "b1": "Bxx Bxx Bxx"},
        0,
        {},
        r"Black would have 5 x xx .* only 4 exist",
    ),
    "two aces": ({"a1": "Brb", "b1": "Bbr"}, 0, {}, r"Black would have 2 x rb .* only 1 exist"),
    "two blue masks": (
        {"a1": "Bbx", "b1": "Bxb"},
        0,
        {},
        r"Black would have 2 x bx .* only 1 exist",
    ),
    "ace on the board and held": (
        {"a1": "Brb"},
        0,
        {"prisoners": ((), ("rb",))},
        r"Black would have 2 x rb on the board and held by the opponent; only 1 exist",
    ),
    "five mutes held": (
        {},
        0,
        {"prisoners": (("xx",) * 5, ())},
        r"White would have 5 x xx on the board and held by the opponent; only 4 exist",
    ),
    "reserve beyond the material": (
        {"a1": "Bxx"},
        0,
        {"reserve": [{"xx": 4}, {}]},
        r"Black has 5 x xx on the board, in reserve and held by the opponent; only 4 exist",
    ),
    "reserve of five": ({}, 0, {"reserve": [{"xx": 5}, {}]}, r"reserve count of xx .* got 5"),
    "negative reserve": ({}, 0, {"reserve": [{"xx": -1}, {}]}, r"reserve count of xx .* got -1"),
    "unknown reserve type": ({}, 0, {"reserve": [{"zz": 1}, {}]}, r"unknown piece type 'zz'"),
    "unknown piece": ({"a1": "Bzz"}, 0, {}, r"piece 'Bzz' on a1: owner B or W, then the up"),
    "two twisters": ({"a1": "Bbb Bxo Box"}, 0, {}, r"Black would have 2 x ox .* only 1 exist"),
    "owner only": ({"a1": "B"}, 0, {}, r"piece 'B' on a1: owner B or W, then the up face"),
    "three faces": ({"a1": "Bxxx"}, 0, {}, r"piece 'Bxxx' on a1: owner B or W, then the up"),
    "square off the board": ({"e1": "Bxx"}, 0, {}, r"square 'e1' is off the 4x4 board"),
    "to_move 2": ({"a1": "Bxx"}, 2, {}, r"to_move must be an int in \[0, 2\), got 2"),
    "to_move -1": ({"a1": "Bxx"}, -1, {}, r"to_move must be an int in \[0, 2\), got -1"),
    "to_move text": ({"a1": "Bxx"}, "0", {}, r"to_move must be an int in \[0, 2\), got '0'"),
    "floor too high": (
        {"a1": "Bxx"},
        0,
        {"floor": (60, 0)},
        r"floor must be an int in \[0, 60\), got 60",
    ),
    "negative floor": (
        {"a1": "Bxx"},
        0,
        {"floor": (0, -1)},
        r"floor must be an int in \[0, 60\), got -1",
    ),
    "three passes": ({"a1": "Bxx"}, 0, {"passes": 3}, r"passes must be an int in \[0, 2\), got 3"),
    "negative passes": (
        {"a1": "Bxx"},
        0,
        {"passes": -1},
        r"passes must be an int in \[0, 2\), got -1",
    ),
    "bad max_plies": ({"a1": "Bxx"}, 0, {"max_plies": -1}, r"max_plies must be an int"),
    "a run of six": ({"a1": "Bxx Bxx Bxx Bxx Bbb Bbb"}, 0, {}, r"non-terminal .* run of six"),
    "a buried run of six": (
        {"a1": "Wrr Bxx Bxx Bxx Bxx Bbb Bbb Wxx"},
        1,
        {},
        r"run of six or six prisoners",
    ),
    "six prisoners": (
        {},
        1,
        {"prisoners": ((), ("xx", "xx", "xx", "xx", "bb", "bb"))},
        r"run of six or six prisoners",
    ),
    "more than 24 in a stack": (
        {"a1": "Bxx Wxx " * 13},
        0,
        {},
        r"Black would have 13 x xx .* only 4 exist|at most 24 pieces",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_POSITIONS))
def test_impossible_set_up_positions(case: str) -> None:
    stacks, to_move, kwargs, pattern = BAD_POSITIONS[case]
    with pytest.raises(ValueError, match=pattern):
        plateau.AlbeaPlateauState.from_position(stacks, to_move, **kwargs)


def test_possible_set_up_positions_next_to_the_impossible_ones() -> None:
    # the limits themselves are fine: four mutes, five prisoners, a run of five, floor 59
    s = position({"a1": "Bxx Bxx Bxx Bxx Bbb"}, 0, prisoners=(("xx",) * 4 + ("rr",), ()))
    assert s.reserve(0) == {"bb": 1, "rr": 2, "bx": 1, "rx": 1, "ox": 1, "rb": 1}
    assert s.reserve(1) == {"bb": 2, "rr": 1, "bx": 1, "rx": 1, "ox": 1, "rb": 1}
    assert position({"a1": "Bxx"}, 1, floor=(59, 59), passes=1).floor == [59, 59]


def test_unknown_prisoner_type_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="zz"):
        position({"a1": "Bxx"}, 0, prisoners=(("zz",), ()))


def test_bad_owner_letter_is_named() -> None:
    with pytest.raises(ValueError, match="Xxx"):
        position({"a1": "Xxx"}, 0)


def test_short_floor_list_is_refused() -> None:
    data = position({"a1": "Bxx"}, 0).position_dict()
    floor = [0, 5]
    floor.pop()  # a one-entry list whose spare slot still holds 5
    assert floor == [0]
    with pytest.raises(ValueError):
        plateau.AlbeaPlateauState.from_position_dict(dict(data, floor=floor))


@pytest.mark.parametrize("depth", [-1, -5, -(2**40), 64, 2**70, True, False, 1.5, None, "1"])
def test_bad_perft_depth(depth: Any) -> None:
    for s in (new(), new(OPENED), finished_game()):
        before = snapshot(s)
        for bulk in (True, False):
            with pytest.raises(ValueError, match=r"depth must be an int in \[0, 64\)") as info:
                s.perft(depth, bulk)
            assert repr(depth) in str(info.value)
        assert snapshot(s) == before
    assert new().perft(0) == 1 and new().perft(1) == 1260


# -- apply_all leaves the state as it was ------------------------------------------------------


def test_apply_all_rolls_back_on_an_illegal_action() -> None:
    s = new(OPENED[:1])
    before = snapshot(s)
    with pytest.raises(plateau.IllegalActionError, match=r"action 2 of the sequence: 'xx@b2/0'"):
        s.apply_all(["rr,bx@d4", "xx@b2/0", "xx@b2/0", "xx@c3/0"])
    assert snapshot(s) == before
    with pytest.raises(INVALID, match=r"action 1 of the sequence.*not a pick-up or drop-off"):
        s.apply_all(["rr,bx@d4", "a1:1-b2:1-c3"])
    assert snapshot(s) == before
