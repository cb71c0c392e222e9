"""Tests of the pure-Python Empire Plateau reference, ``tests/empire/reference.py``.

Every worked check of the rules page ``docs/rules/empire-plateau.md`` ("the page", section 11,
"Worked examples", on ep16) is pinned first, then one or more tests per rule and ruling, perft
counts from the start, and random-play invariants.  Positions the page gives directly are built with
``State.from_position`` (only ``variant`` and ``armies`` are required; the per-turn fields
default to the start of a turn).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import empire.reference as ref
from empire.reference import State, perft


def pos(armies: dict[str, str], variant: str = "two", **fields: object) -> State:
    return State.from_position({"variant": variant, "armies": armies, **fields})


def moves_from(state: State, dot: str) -> set[str]:
    """The legal moves of the army on ``dot`` as ``to:n`` strings."""
    return {a.split("-")[1] for a in state.legal_actions() if a.startswith(dot + "-")}


def paths_from(state: State, dot: str) -> set[str]:
    """The moves of the army on ``dot`` that the path and budget rules allow (``to:n``), before
    the six-step rule (a lone army that can make 6 must)."""
    board = state.board
    return {f"{board.name_of(to)}:{n}" for to, n in state.army_moves(board.index_of(dot))}


def costs(state: State, dot: str) -> set[int]:
    return {int(m.split(":")[1]) for m in moves_from(state, dot)}


def small_moves(state: State) -> list[str]:
    """Legal moves of the current Empire's small armies."""
    result = []
    for a in state.legal_actions():
        if "-" in a:
            army = state.armies[state.board.index_of(a.split("-")[0])]
            assert army is not None
            if army[1] != "E":
                result.append(a)
    return result


def is_move(action: str) -> bool:
    return "-" in action


# An open board for the FAQ budget checks: a B Emblem and B small armies far from everything.
OPEN = {"c4": "BE", "g3": "B2", "g6": "B2", "k3": "B4", "k6": "B6", "o4": "B4"}


# =============================================================================================
# Worked checks (ep16)
# =============================================================================================
def test_check1_faq_small_one_step_then_emblem_between_5_and_11() -> None:
    s = pos(OPEN)
    assert costs(s, "c4") == set(range(1, 13))  # the Emblem alone: 1..12 on an open board
    s.apply("g3-g4:1")
    assert costs(s, "c4") == set(range(5, 12))  # at most 11 (12 would make 13), at least 5
    assert "end" not in s.legal_actions()
    s.apply("c4-c9:5")
    assert s.locked and s.total == 6
    assert small_moves(s) == []  # no small army may move after the Emblem
    assert s.legal_actions() == ["end"]


def test_check1_faq_emblem_first_7_then_small_up_to_5() -> None:
    s = pos(OPEN)
    s.apply("c4-c11:7")
    assert not s.locked
    assert max(costs(s, "k6")) == 5  # a 6 may use only the 5 steps left
    assert "end" in s.legal_actions()
    s.apply("k6-k11:5")
    assert s.total == 12
    assert s.legal_actions() == ["end"]


def test_check1_faq_emblem_first_3_then_small_up_to_6() -> None:
    s = pos(OPEN)
    s.apply("c4-c7:3")
    assert max(costs(s, "k6")) == 6
    assert "end" not in s.legal_actions()  # End needs at least 3 small steps
    s.apply("g3-g5:2")
    assert "end" not in s.legal_actions()  # total 5
    s.apply("k3-k4:1")
    assert "end" in s.legal_actions()  # total 6
    s.apply("k6-k9:3")
    assert (s.total, s.small) == (9, 6)  # 3 + 6
    assert s.legal_actions() == ["end"]


def test_check1_faq_small_alone_end_at_6_and_no_7th_step() -> None:
    s = pos(OPEN)
    s.apply("o4-o8:4")
    assert "end" not in s.legal_actions()
    assert max(costs(s, "g3")) == 2
    s.apply("g3-g1:2")
    assert "end" in s.legal_actions()  # exactly 6
    assert small_moves(s) == []  # a 7th small step is never legal
    assert costs(s, "c4") == set(range(1, 7))  # only the Emblem may still add steps


def test_check1_faq_emblem_alone_5_then_end_illegal() -> None:
    s = pos(OPEN)
    s.apply("c4-c9:5")
    assert "end" not in s.legal_actions()
    with pytest.raises(ValueError):
        s.apply("end")


def test_check2_order_lock() -> None:
    s = pos(OPEN)
    s.apply("g3-g4:1")
    assert "c4-c8:4" not in s.legal_actions()  # total 5 while 5 steps are possible
    assert "c4-c9:5" in s.legal_actions()
    s.apply("c4-c9:5")
    assert small_moves(s) == []
    assert s.legal_actions() == ["end"]
    assert s.total == 6

    s = pos(OPEN)
    s.apply("c4-c8:4")
    assert "g3-g5:2" in s.legal_actions()
    s.apply("g3-g5:2")
    assert s.total == 6 and not s.locked
    assert "end" in s.legal_actions()


def test_check3_opening() -> None:
    s = State("two")
    assert s.current_empire == "B" and s.current_player == 0
    legal = s.legal_actions()
    assert len(legal) == 133
    assert all(is_move(a) for a in legal)
    assert "end" not in legal
    assert sum(s.classify(a) == "capture" for a in legal) == 20
    for dot in ("m11", "m10", "m9"):
        assert moves_from(s, dot) == set()
    m5 = {m for m in moves_from(s, "m5") if s.classify("m5-" + m) == "capture"}
    assert m5 == {"a5:4", "i5:4", "j6:4", "p6:4"}
    m6 = moves_from(s, "m6")
    assert "k6:2" in m6  # the jump over the 2 on l6
    m6_captures = {m for m in m6 if s.classify("m6-" + m) == "capture"}
    assert m6_captures == {"j6:3", "j7:4", "p6:3", "p7:4"}
    assert moves_from(s, "l6") == {"k5:2", "k6:1", "k7:2", "l4:2", "l5:1"}
    # the 20 captures: 4 from m5, 4 from m6 and the rest from the other 4s and the 2s
    assert Counter(s.classify(a) for a in legal) == {"move": 113, "capture": 20}


def test_check4_twos_and_the_L() -> None:
    s = pos({"e5": "B2", "e3": "G2", "f6": "G2", "d5": "G4"})
    assert moves_from(s, "e5") == {
        "e4:1", "e6:1", "f5:1", "d4:2", "d6:2", "e7:2", "f4:2", "g5:2", "f6:2"
    }  # fmt: skip
    assert s.classify("e5-f6:2") == "capture"
    s.apply("e5-f6:2")
    assert s.armies[s.board.index_of("f6")] == ("B", "2")
    assert s.captures == {("B", "G", "2"): 1}


def test_check5_jump() -> None:
    s = pos({"c3": "B4", "d3": "B2", "f3": "G2", "k8": "BE"})
    m = moves_from(s, "c3")
    assert {"e3:2", "e3:4", "f3:3"} <= m
    assert s.classify("c3-f3:3") == "capture"
    assert len(m) == 45
    s2 = s.copy()
    s.apply("c3-e3:2")
    s2.apply("c3-e3:4")
    assert s.position()["armies"] == s2.position()["armies"]
    assert (s.total, s2.total) == (2, 4)  # different moves
    # without the Emblem the jump leaves the 2 at most 2 more steps: 4 < 6 while 6 is possible
    t = pos({"c3": "B4", "d3": "B2", "f3": "G2"})
    assert "e3:4" in moves_from(t, "c3") and "e3:2" not in moves_from(t, "c3")


def test_check6_no_jump_into_the_centre() -> None:
    s = pos({"a2": "B4", "a1": "G2"})
    into_a1 = {m for m in moves_from(s, "a2") if m.startswith("a1:")}
    assert into_a1 == {"a1:1", "a1:3"}
    assert all(s.classify("a2-" + m) == "capture" for m in into_a1)
    # the jump in other directions still exists when there is an army to jump
    s = pos({"a2": "B4", "a3": "G2"})
    assert "a4:2" in moves_from(s, "a2")


def test_check7_centre() -> None:
    s = pos({"a1": "B6", "i9": "BE"})  # the Emblem keeps 6 steps in reach (six-step rule)
    m = moves_from(s, "a1")
    assert not any(x.startswith("i1:") for x in m)  # 8 steps round ring 1
    assert {x for x in m if x.endswith(":1")} == {"a2:1", "b1:1", "p1:1"}
    assert max(costs(s, "a1")) == 6


def test_check8_own_base() -> None:
    s = pos({"l11": "BE"})
    # by the path rules (alone, the Emblem must move 6 or more: the six-step rule)
    paths = s.army_moves(s.board.index_of("l11"))
    short = {f"{s.board.name_of(to)}:{n}" for to, n in paths if n <= 2}
    assert {"m11:1", "n11:2"} <= short
    assert min(costs(s, "l11")) == 6
    # literally "budget 2" (a hand-made total of 10, see interpretation 13)
    s = pos({"l11": "BE"}, total=10)
    assert {"m11:1", "n11:2"} <= moves_from(s, "l11")
    assert max(costs(s, "l11")) == 2
    s.apply("l11-n11:2")
    assert s.armies[s.board.index_of("n11")] == ("B", "E")
    # a small army may neither enter nor cross its own base
    s = pos({"l11": "B2"})
    m = moves_from(s, "l11")
    assert not any(x.startswith(("m11:", "n11:")) for x in m)
    assert m == {"k11:1", "l10:1", "j11:2", "k10:2", "l9:2", "m10:2"}


def test_check9_conquest_by_a_two() -> None:
    s = pos({"l10": "G2", "a11": "GE"}, to_move="G")
    assert moves_from(s, "l10") >= {"m11:2"}
    assert s.classify("l10-m11:2") == "conquest"
    for blocker in ("m10", "l11"):  # the L goes either way
        t = pos({"l10": "G2", blocker: "G6"}, to_move="G")
        assert "m11:2" in moves_from(t, "l10")
    s = pos({"m9": "G2"}, to_move="G")  # in line
    assert not any(x.startswith("m11:") for x in moves_from(s, "m9"))
    s = pos({"m10": "G2"}, to_move="G")  # 1 step
    assert not any(x.startswith("m11:") for x in moves_from(s, "m10"))
    s = pos({"m10": "G4"}, to_move="G")
    assert {x for x in moves_from(s, "m10") if x.startswith("m11:")} == {"m11:1", "m11:3"}
    s.apply("m10-m11:3")
    assert s.conquered == ["B"]
    assert s.out == []  # P0 still has the Median Persian Empire
    assert s.armies[s.board.index_of("m11")] == ("G", "4")


def check10_position() -> State:
    """`four`: the Roman Empire holds two Greek 2s, the Greek Emblem and a Babylonian 2."""
    return pos(
        {
            "i10": "G6",
            "p6": "G2",
            "a7": "G4",
            "i11": "RE",
            "h8": "R2",
            "i5": "R4",
            "j7": "R2",
            "m11": "BE",
            "e11": "ME",
        },
        variant="four",
        to_move="G",
        captures=[["R", "B", "2", 1], ["R", "G", "2", 2], ["R", "G", "E", 1]],
    )


def test_check10_freeing() -> None:
    s = check10_position()
    assert s.classify("i10-i11:1") == "conquest"
    s.apply("i10-i11:1")
    assert s.conquered == ["R"] and s.out == [3]
    assert not s.is_over()
    assert not any(a and a[0] == "R" for a in s.armies)  # all Roman armies leave
    assert s.armies[s.board.index_of("i11")] == ("G", "6")
    assert s.free_window == "R"
    assert ("G", "R", "E") in s.captures  # the Roman Emblem was on its base
    legal = s.legal_actions()
    frees = [a for a in legal if a.startswith("+")]
    two_dots = {f"{sp}{r}" for sp in "pbhj" for r in range(6, 12)} - {"p6"}
    assert set(frees) == {f"+2@{d}" for d in two_dots} | {"+E@a11"}
    assert "+2@h8" in frees  # emptied when the Romans left
    assert not any(a.startswith(("+4", "+6")) for a in frees)
    s.apply("+2@h8")
    s.apply("+2@b11")
    assert not any(a.startswith("+2") for a in s.legal_actions())  # only two were captured
    s.apply("+E@a11")
    assert s.legal_actions()[-1] != "end"  # total 1, moves remain: the Greek turn goes on
    assert s.total == 1 and s.to_move == "G"
    assert moves_from(s, "h8")  # freed armies may move this turn
    assert moves_from(s, "a11")  # the freed Emblem too
    assert s.captures.get(("R", "B", "2")) == 1  # the Babylonian 2 stays out
    s.apply("h8-h10:2")
    assert s.free_window is None


# =============================================================================================
# Board
# =============================================================================================
def test_check11_six_steps_when_possible() -> None:
    s = pos({"c3": "BE", "e11": "ME", "e10": "M2"}, variant="duel")
    legal = s.legal_actions()
    assert "c3-c4:1" not in legal and "end" not in legal
    assert costs(s, "c3") == set(range(6, 13))
    with pytest.raises(ValueError):
        s.apply("c3-c4:1")
    # two 2s can make 4 steps at most: every move is legal, the turn goes on while one can move
    t = pos({"c3": "B2", "d3": "B2", "e11": "ME"}, variant="duel")
    assert "c3-c4:1" in t.legal_actions() and "end" not in t.legal_actions()
    t.apply("c3-c4:1")
    assert "end" not in t.legal_actions() and moves_from(t, "d3")
    t.apply("d3-d4:1")
    assert t.legal_actions() == ["end"]


def test_check12_a_winning_conquest_is_never_too_short() -> None:
    s = pos({"c3": "B2", "e8": "BE", "e5": "M6"}, variant="duel")
    s.apply("c3-c4:1")
    assert "e8-e11:3" in s.legal_actions()
    assert "e8-e10:2" not in s.legal_actions()  # short, and it wins nothing
    s.apply("e8-e11:3")
    assert s.is_over() and s.winner == 0 and s.total == 4


def test_six_steps_by_the_emblem_first_then_a_small_army() -> None:
    walls = {d: "M2" for d in ("b1", "d1", "b2", "d2", "b3", "d3", "c4")}
    s = pos({"c1": "BE", **walls, "k5": "B4"})
    legal = s.legal_actions()
    assert "c1-c3:2" in legal and "c1-c2:1" not in legal and "end" not in legal
    assert costs(s, "k5") == {4}
    s.apply("c1-c3:2")
    assert costs(s, "k5") == {4}


def test_six_steps_a_move_that_spoils_the_turn_is_illegal() -> None:
    # two 2s and a 4 on an open board: 2 + 4 reach 6 only if the 4 still can move its 4
    s = pos({"c3": "B2", "h5": "B4", "e11": "ME"}, variant="duel")
    assert "h5-h6:1" not in s.legal_actions()  # then 1 + 2 = 3 at most
    assert "c3-c4:1" not in s.legal_actions()  # then 1 + 4 = 5 at most
    assert "c3-c5:2" in s.legal_actions() and "h5-h9:4" in s.legal_actions()
    assert s.can_reach_six()
    s.apply("h5-h9:4")
    assert costs(s, "c3") == {2}


def test_board_table_rows() -> None:
    b = ref.BOARDS["ep16"]
    n = b.index_of

    def row(dot: str) -> tuple[str, str, str, str]:
        nb = b.neighbours[n(dot)]
        return tuple(b.name_of(nb[d]) if d in nb else "-" for d in ref.DIRECTIONS)  # type: ignore[return-value]

    assert row("a1") == ("a2", "-", "b1", "p1")
    assert row("e5") == ("e6", "e4", "f5", "d5")
    assert row("p5") == ("p6", "p4", "a5", "o5")
    assert row("a11") == ("-", "a10", "b11", "p11")
    assert row("e11") == ("-", "e10", "f11", "d11")
    assert row("i11") == ("-", "i10", "j11", "h11")
    assert row("m11") == ("-", "m10", "n11", "l11")
    assert {e: b.name_of(d) for e, d in b.bases.items()} == {
        "G": "a11", "M": "e11", "R": "i11", "B": "m11"
    }  # fmt: skip
    b24 = ref.BOARDS["ep24"]
    assert {e: b24.name_of(d) for e, d in b24.bases.items()} == {
        "G": "a11", "M": "g11", "R": "m11", "B": "s11"
    }  # fmt: skip
    assert b24.name_of(b24.neighbours[b24.index_of("x5")]["cw"]) == "a5"


def test_board_indices_and_names() -> None:
    for b in ref.BOARDS.values():
        assert b.size == b.spokes * 11
        assert b.index_of("a1") == 0 and b.index_of("b1") == 1 and b.index_of("a2") == b.spokes
        for i in range(b.size):
            assert b.index_of(b.name_of(i)) == i
            for d, j in b.neighbours[i].items():
                back = {"out": "in", "in": "out", "cw": "ccw", "ccw": "cw"}[d]
                assert b.neighbours[j][back] == i
    b = ref.BOARDS["ep16"]
    assert b.index_of("E5") == b.index_of("e5") == 4 * 16 + 4
    with pytest.raises(ValueError):
        b.index_of("q1")  # 16 spokes: a..p
    with pytest.raises(ValueError):
        b.index_of("a12")
    assert ref.polar_board(16, 11).neighbours == b.neighbours


def test_layout_babylonian_ep16() -> None:
    b = ref.BOARDS["ep16"]
    layout = {b.name_of(d): t for d, t in b.layout("B").items()}
    expected = {"m11": "E", "m10": "6", "m9": "6"}
    expected |= {f"m{r}": "4" for r in (8, 7, 6, 5)}
    expected |= {f"{sp}{r}": "2" for sp in "ln" for r in range(6, 12)}
    assert layout == expected
    for board in ref.BOARDS.values():
        for e in ref.ORDER:
            assert Counter(board.layout(e).values()) == ref.MATERIAL
            assert board.layout(e)[board.bases[e]] == "E"


def test_start_positions() -> None:
    for variant, empires in (("two", "BGMR"), ("four", "BGMR"), ("duel", "BM")):
        s = State(variant)
        armies = s.position()["armies"]
        assert len(armies) == 19 * len(empires)
        assert {code[0] for code in armies.values()} == set(empires)
    duel = State("duel")
    assert duel.armies[duel.board.index_of("a11")] is None
    assert set(duel.active_bases().values()) == {"B", "M"}  # G and R dots are ordinary
    s24 = State("two", "ep24")
    assert s24.armies[s24.board.index_of("s11")] == ("B", "E")
    assert s24.armies[s24.board.index_of("r6")] == ("B", "2")
    assert s24.armies[s24.board.index_of("g5")] == ("M", "4")


# =============================================================================================
# Variants and turn order
# =============================================================================================
def play_turn_with_a_six(s: State) -> None:
    """Move the current Empire's 6 by 6 steps, then End."""
    six = next(
        a
        for a in s.legal_actions()
        if a.endswith(":6")
        and s.classify(a) == "move"
        and s.armies[s.board.index_of(a.split("-")[0])] == (s.to_move, "6")
    )
    s.apply(six)
    s.apply("end")


def test_turn_order_and_owners() -> None:
    sixes = {"B": "m4", "G": "a4", "M": "e4", "R": "i4"}
    for variant, order, players in (
        ("two", "BGMRBG", [0, 1, 0, 1, 0, 1]),
        ("four", "BGMRBG", [0, 1, 2, 3, 0, 1]),
        ("duel", "BMBM", [0, 1, 0, 1]),
    ):
        s = pos({sixes[e] + "": e + "6" for e in ref.VARIANTS[variant]}, variant=variant)
        seen, who = [], []
        for _ in order:
            seen.append(s.current_empire)
            who.append(s.current_player)
            play_turn_with_a_six(s)
        assert "".join(seen) == order
        assert who == players
    # a conquered Empire is skipped: in `two` without G, R and G... play back to back
    s = pos({"m4": "B6", "e4": "M6", "i4": "R6"}, conquered=["G"])
    seen = []
    for _ in range(4):
        seen.append(s.current_empire)
        play_turn_with_a_six(s)
    assert "".join(seen) == "BMRB"
    assert [s.owner[e] for e in "BMRB"] == [0, 0, 1, 0]


def test_friendly_and_enemy() -> None:
    two = State("two")
    assert two.friendly("B", "M") and two.friendly("G", "R") and not two.friendly("B", "G")
    four = State("four")
    assert not four.friendly("B", "M")  # the opposite Empire is an enemy in `four`
    # in `four` a B army may capture an M army; in `two` it may not
    armies = {"e5": "B6", "e6": "M2"}
    assert "e6:1" in paths_from(pos(armies, "four"), "e5")
    assert "e6:1" not in paths_from(pos(armies, "two"), "e5")


def test_unknown_variant_or_board() -> None:
    with pytest.raises(ValueError):
        State("five")
    with pytest.raises(ValueError):
        State("two", "ep20")


# =============================================================================================
# Step budget
# =============================================================================================
def test_army_values() -> None:
    s = pos({"c4": "BE", "g3": "B2", "k3": "B4", "k6": "B6"})
    assert max(costs(s, "g3")) == 2
    assert max(costs(s, "k3")) == 4
    assert max(costs(s, "k6")) == 6
    assert max(costs(s, "c4")) == 12
    assert min(costs(s, "g3")) == 1


def test_small_armies_share_6_and_all_share_12() -> None:
    s = pos(OPEN)
    s.apply("k6-k10:4")
    assert max(costs(s, "o4")) == 2 and max(costs(s, "g3")) == 2
    s.apply("o4-o6:2")
    assert small_moves(s) == []
    assert costs(s, "c4") == set(range(1, 7))  # 12 - 6
    s.apply("c4-c10:6")
    assert s.total == 12 and s.legal_actions() == ["end"]


def test_emblem_once_per_turn() -> None:
    s = pos(OPEN)
    s.apply("c4-c6:2")
    assert s.emblem_moved and s.budget("E") == 0
    assert moves_from(s, "c6") == set()


def test_an_army_moves_once_per_turn() -> None:
    s = pos(OPEN)
    s.apply("k6-k7:1")
    assert s.moved == {s.board.index_of("k7")}
    assert moves_from(s, "k7") == set()  # 5 steps to spare, but it has moved
    assert moves_from(s, "g3")  # another army may move
    s.apply("g3-g5:2")
    s.apply("o4-o7:3")
    s.apply("end")
    assert s.moved == set() and moves_from(s, "k7") == set()  # G's turn now


def test_lock_rule() -> None:
    # the Emblem before any small army: small armies may follow, nothing locked
    s = pos(OPEN)
    s.apply("c4-c5:1")
    assert not s.locked and small_moves(s)
    # the Emblem after a small army: locked
    s = pos(OPEN)
    s.apply("g3-g2:1")
    s.apply("c4-c11:7")
    assert s.locked and small_moves(s) == []
    assert s.legal_actions() == ["end"]


def test_emblem_after_small_must_reach_6_when_the_turn_can() -> None:
    boxed = {"c1": "BE", "b1": "B2", "d1": "B2", "b2": "B2", "d2": "B2", "c3": "B2", "h5": "B2"}
    s = pos(boxed)
    assert moves_from(s, "c1") == {"c2:1"}  # first: the 2s may follow with 6 more
    s.apply("h5-h6:1")
    assert moves_from(s, "c1") == set()  # it would lock the 2s, which can still make 6
    # walled in by friends of another Empire, with one 2: 6 is out of reach, all moves stay
    walled = {"c1": "BE", "b1": "M2", "d1": "M2", "b2": "M2", "d2": "M2", "c3": "M2", "h5": "B2"}
    s = pos(walled)
    assert moves_from(s, "c1") == {"c2:1"}
    s.apply("h5-h6:1")
    assert moves_from(s, "c1") == {"c2:1"}
    s.apply("c1-c2:1")
    assert s.locked and s.total == 2
    assert s.legal_actions() == ["end"]  # no move is legal: End whatever the total
    # with room, the short Emblem moves disappear after a small army (check 2 in detail)
    s = pos(OPEN)
    s.apply("g3-g5:2")
    assert costs(s, "c4") == set(range(4, 11))
    # and once total >= 6 every Emblem move is allowed again
    s = pos(OPEN)
    s.apply("k6-k11:5")
    s.apply("g3-g4:1")
    assert costs(s, "c4") == set(range(1, 7))


def test_end_rules() -> None:
    s = pos(OPEN)
    assert "end" not in s.legal_actions()
    # End legal when no army move is legal, whatever the total: here after 2 steps
    s = pos({"e5": "B2"})
    s.apply("e5-e7:2")
    assert s.legal_actions() == ["end"]
    s.apply("end")
    assert s.to_move == "G" and s.empty_turns == 0 and s.total == 0
    # a pass: no army at all
    s = pos({"e5": "G2"})
    assert s.legal_actions() == ["end"]
    s.apply("end")
    assert s.empty_turns == 1


# =============================================================================================
# Paths
# =============================================================================================
def test_simple_paths_never_end_where_they_started() -> None:
    s = pos(OPEN)
    for a in s.legal_actions():
        f, rest = a.split("-")
        assert rest.split(":")[0] != f
    # parity: every path between two dots has the same length parity (bipartite grid)
    for dot in ("c4", "k6"):
        for m in moves_from(s, dot):
            to, n = m.split(":")
            b = s.board
            (r0, s0), (r1, s1) = divmod(b.index_of(dot), 16), divmod(b.index_of(to), 16)
            assert (r0 + s0 + r1 + s1 + int(n)) % 2 == 0


def test_same_dot_rule_is_per_army() -> None:
    # [ruling] "per army (its path is simple); other armies may cross the same dots"
    s = pos(OPEN)
    s.apply("g3-h4:2")  # via g4 (or h3)
    assert "g6-g4:2" in s.legal_actions()  # another army may end where the first one passed
    s.apply("g6-g4:2")
    assert "c4-g3:5" in s.legal_actions()  # and end where the first one started
    # a single army never visits a dot twice: a 6 cannot go out and back to its start
    assert not any(a.startswith("k6-k6") for a in s.legal_actions())


def test_pass_through_occupied_dots_is_illegal() -> None:
    for blocker in ("G2", "B2", "M2"):
        s = pos({"e5": "B6", "e6": blocker})
        m = paths_from(s, "e5")
        assert "e7:2" not in m  # would pass through e6
        assert "e7:4" in m  # round it
    s = pos({"e5": "B6", "e6": "G2", "i5": "BE"})  # (the Emblem can still make 6)
    assert "e6:1" in moves_from(s, "e5")  # a capture
    s.apply("e5-e6:1")
    assert s.captures == {("B", "G", "2"): 1}
    assert paths_from(s, "e6") == set()  # the capturing army stopped and has moved


def test_captures_end_the_move() -> None:
    s = pos({"e5": "B6", "e6": "G2"})
    # every path through e6 is cut: nothing reaches e7 in 2 or e8 in 3
    m = paths_from(s, "e5")
    assert "e8:3" not in m and "e8:5" in m


def test_bases_are_not_passed_through() -> None:
    # an enemy base: entered = conquest, never crossed
    s = pos({"p11": "B6"})
    m = paths_from(s, "p11")
    assert "a11:1" in m and s.classify("p11-a11:1") == "conquest"
    assert "b11:2" not in m and "b11:4" in m
    # a friendly base (M for B in `two`) is closed
    s = pos({"d11": "B6"})
    m = paths_from(s, "d11")
    assert not any(x.startswith("e11:") for x in m)
    assert "f11:2" not in m and "f11:4" in m
    # in `four` the same base is an enemy base
    s = pos({"d11": "B6"}, variant="four")
    assert "e11:1" in paths_from(s, "d11")
    # a small army never enters nor crosses its own base
    s = pos({"l11": "B6"})
    m = paths_from(s, "l11")
    assert not any(x.startswith("m11:") for x in m)
    assert "n11:2" not in m and "n11:4" in m
    # a conquered base is an ordinary dot
    s = pos({"p11": "B6"}, conquered=["G"])
    m = paths_from(s, "p11")
    assert "a11:1" in m and "b11:2" in m and s.classify("p11-a11:1") == "move"


def test_enemy_emblem_on_its_base_is_a_conquest_and_a_capture() -> None:
    s = pos({"a6": "B6", "a11": "GE", "a5": "G4", "i11": "RE", "e5": "B2"})
    assert s.classify("a6-a11:5") == "conquest"
    s.apply("a6-a11:5")
    assert s.captures == {("B", "G", "E"): 1}
    assert s.conquered == ["G"] and s.out == []  # P1 still has R
    assert s.armies[s.board.index_of("a5")] is None
    assert s.free_window == "G"
    assert s.total == 5 and s.to_move == "B"  # the turn goes on under the same budget
    assert "end" not in s.legal_actions()


def test_friendly_end_dots_are_illegal() -> None:
    s = pos({"e5": "B6", "f5": "B2", "e6": "M2"})
    m = moves_from(s, "e5")
    assert not any(x.startswith(("f5:", "e6:")) for x in m)


def test_twos_plain_moves_any_path_but_capture_only_along_an_L() -> None:
    s = pos({"e5": "B2"})
    assert moves_from(s, "e5") >= {"e7:2", "g5:2", "f6:2"}  # plain moves in line are fine
    s = pos({"e5": "B2", "e7": "G2", "g5": "G2", "c5": "G2", "e6": "G6"})
    m = moves_from(s, "e5")
    assert not any(x.startswith(("e7:", "g5:", "c5:", "e6:")) for x in m)
    # the L in both orders: tangential then radial, radial then tangential
    s = pos({"e5": "B2", "f6": "G2"})
    assert "f6:2" in moves_from(s, "e5")
    for blocker in ("f5", "e6"):
        t = pos({"e5": "B2", "f6": "G2", blocker: "B6"})
        assert "f6:2" in moves_from(t, "e5")
    t = pos({"e5": "B2", "f6": "G2", "f5": "B6", "e6": "B6"})
    assert "f6:2" not in moves_from(t, "e5")


# =============================================================================================
# The 4s' jump
# =============================================================================================
def test_jump_only_as_first_link() -> None:
    s = pos({"a5": "B4", "c5": "G2"})
    m = moves_from(s, "a5")
    assert not any(x.startswith("d5:") for x in m)  # a step then a jump would cost 3


def test_jump_over_any_army_straight_costing_2() -> None:
    for over in ("B2", "M2", "G2", "B6"):
        s = pos({"c3": "B4", "d3": over})
        m = paths_from(s, "c3")
        assert "e3:2" in m
        assert "e4:2" not in m and "e2:2" not in m  # no change of direction in the air
        assert {"e4:3", "e2:3", "f3:3"} <= m  # the path may go on after the jump
    s = pos({"c3": "B4", "d3": "B2"}, small=3)  # 3 steps left: jump + 1 step
    m = paths_from(s, "c3")
    assert "f3:3" in m and "g3:4" not in m


def test_jump_landing_follows_the_end_rules() -> None:
    s = pos({"c3": "B4", "d3": "G2", "e3": "B2"})
    assert "e3:2" not in moves_from(s, "c3")  # friendly landing dot
    s = pos({"c3": "B4", "d3": "B2", "e3": "G2", "k8": "BE"})  # (the Emblem: six-step rule)
    assert "e3:2" in moves_from(s, "c3") and s.classify("c3-e3:2") == "capture"
    assert "f3:3" not in moves_from(s, "c3")  # the capture ends the move
    s = pos({"a9": "B4", "a10": "G2"})
    assert "a11:2" in moves_from(s, "a9") and s.classify("a9-a11:2") == "conquest"


def test_jump_then_step_back_onto_the_jumped_enemy() -> None:
    s = pos({"c3": "B4", "d3": "G2", "c4": "B2", "c2": "B2"})
    m = paths_from(s, "c3")
    assert "d3:1" in m and "d3:3" in m  # jump to e3, then back onto d3: capture, cost 3
    s.apply("c3-d3:3")
    assert s.captures == {("B", "G", "2"): 1}


def test_no_jump_over_own_base_but_over_another_base() -> None:
    s = pos({"l11": "B4", "m11": "BE"})
    m = moves_from(s, "l11")
    assert "n11:2" not in m and "n11:4" in m
    s = pos({"l11": "G4", "m11": "BE", "i11": "RE"}, to_move="G")
    assert "n11:2" in moves_from(s, "l11")  # over the Babylonian base and Emblem
    s = pos({"p11": "B4", "a11": "GE"})
    assert "b11:2" in moves_from(s, "p11")
    # jumping a friendly Emblem on its friendly base (M for B in `two`)
    s = pos({"d11": "B4", "e11": "ME"})
    assert "f11:2" in moves_from(s, "d11")


def test_only_4s_jump() -> None:
    for t in ("2", "6", "E"):
        s = pos({"c3": "B" + t, "d3": "B2", "c4": "B2", "c2": "B2"})
        assert not any(x.startswith("e3:2") for x in moves_from(s, "c3"))


# =============================================================================================
# Conquest, the end of the game, freeing
# =============================================================================================
def test_duel_ends_at_the_first_conquest() -> None:
    s = pos({"d10": "B4", "e11": "ME", "e5": "M4", "m11": "BE"}, variant="duel")
    s.apply("d10-e11:2")  # via d11
    assert s.is_over() and s.winner == 0
    assert s.out == [1] and s.conquered == ["M"]
    assert s.free_window is None  # the game ended: no window
    assert s.legal_actions() == []
    assert s.current_player == -1 and s.current_empire is None
    assert s.returns() == [1.0, -1.0]
    assert s.ranking() == [[0], [1]]
    with pytest.raises(ValueError):
        s.apply("end")


def test_two_needs_both_empires() -> None:
    s = pos({"a5": "B6", "a11": "GE", "i11": "RE", "h10": "M4"})
    s.apply("a5-a11:6")
    assert not s.is_over() and s.returns() == [0.0, 0.0]
    s.apply("end")  # no B army can move any more
    assert s.to_move == "M"  # G is skipped
    s.apply("h10-i11:2")  # via h11 (or i10): the second Empire of P1
    assert s.is_over() and s.winner == 0 and s.returns() == [1.0, -1.0]
    assert s.conquered == ["G", "R"] and s.out == [1]


def test_four_ranking_and_returns() -> None:
    s = pos({"i10": "B6", "i11": "RE", "m11": "BE"}, variant="four", conquered=["G", "M"],
            out=[1, 2])  # fmt: skip
    assert s.ranking() == [[0, 3], [2], [1]]  # "if the game ended now"
    assert s.returns() == [0.0] * 4
    s.apply("i10-i11:1")
    assert s.is_over() and s.winner == 0
    assert s.ranking() == [[0], [3], [2], [1]]
    assert s.returns() == pytest.approx([1.0, -1.0, -1 / 3, 1 / 3])
    assert sum(s.returns()) == pytest.approx(0.0)


def test_freeing_only_own_armies_and_targets() -> None:
    # in `two`: G conquers M, which held a G 4, a G 6 and an R 2 (R is G's friend)
    s = pos(
        {"d10": "G6", "e11": "ME", "e8": "M4", "a8": "G4", "a5": "G4"},
        captures=[["M", "G", "4", 1], ["M", "G", "6", 1], ["M", "R", "2", 1]],
        to_move="G",
    )
    s.apply("d10-e11:2")
    assert s.free_window == "M"
    frees = {a for a in s.legal_actions() if a.startswith("+")}
    # 4s: G layout a5..a8 (a5, a8 taken), M layout e5..e8 (e8 emptied by the conquest)
    # 6s: G a9, a10; M e9, e10
    assert frees == {"+4@a6", "+4@a7", "+4@e5", "+4@e6", "+4@e7", "+4@e8",
                     "+6@a9", "+6@a10", "+6@e9", "+6@e10"}  # fmt: skip
    assert "+E@a11" not in frees  # nothing of the kind was captured
    s.apply("+6@e10")
    assert s.total == 2  # frees cost no steps
    assert not any(a.startswith("+6") for a in s.legal_actions())
    assert s.captures == {("M", "G", "4"): 1, ("M", "R", "2"): 1, ("G", "M", "E"): 1}
    assert "+4@a6" in s.legal_actions()  # still open: no move or End yet
    s.apply("e10-e6:4")  # the freed 6 moves (4 small steps left)
    assert s.free_window is None
    assert not any(a.startswith("+") for a in s.legal_actions())


def test_freed_emblem_goes_only_on_own_base_and_the_window_closes_at_end() -> None:
    s = pos({"i10": "G6", "i11": "RE", "m11": "BE", "e11": "ME"}, variant="four", to_move="G",
            captures=[["R", "G", "E", 1], ["R", "G", "6", 1]], total=5, small=5)  # fmt: skip
    assert "i11:1" in moves_from(s, "i10") and costs(s, "i10") == {1}  # 1 small step left
    s.apply("i10-i11:1")
    assert s.total == 6
    # the Emblem only on a11 (never on the conquered base i11); the 6 on a9/a10 or i9/i10
    assert s.legal_actions() == ["+6@a9", "+6@i9", "+6@a10", "+6@i10", "+E@a11", "end"]
    s.apply("end")  # End closes the window; the captives stay out for good
    assert s.free_window is None and s.to_move == "M"
    assert s.captures == {("R", "G", "6"): 1, ("R", "G", "E"): 1, ("G", "R", "E"): 1}
    assert not any(a.startswith("+") for a in s.legal_actions())


def test_freeing_in_two_and_a_freed_emblem_moves() -> None:
    # G conquers M (P0 keeps B): G's Emblem, captured by M, is freed and moves in the same turn
    s = pos({"d10": "G4", "e11": "ME", "m11": "BE", "i11": "RE"}, to_move="G",
            captures=[["M", "G", "E", 1]])  # fmt: skip
    s.apply("d10-e11:2")
    assert s.conquered == ["M"] and s.out == [] and not s.is_over()
    # no army move is legal, but the freed Emblem could bring the total to 6: End is illegal
    # (the turn can still be lengthened, by a free and then a move)
    assert s.legal_actions() == ["+E@a11"]
    s.apply("+E@a11")
    assert "end" not in s.legal_actions()  # now a move is legal: total 2 is not enough
    assert s.armies[s.board.index_of("a11")] == ("G", "E")
    assert "a11-a7:4" in s.legal_actions()  # 4 more steps reach total 6
    assert "a11-a10:1" not in s.legal_actions()  # the Emblem after a small army must reach 6
    s.apply("a11-a7:4")
    assert s.locked and s.legal_actions() == ["end"]


def test_freed_small_army_is_locked_after_the_emblem_moved() -> None:
    s = pos({"a5": "GE", "h11": "G4", "i11": "RE"}, variant="four", to_move="G",
            captures=[["R", "G", "2", 1]])  # fmt: skip
    s.apply("h11-i11:1")  # a 4 conquers; the Emblem has not moved
    assert "a5-a9:4" not in s.legal_actions()  # total 5: the Emblem must reach 6
    s.apply("a5-a10:5")  # the Emblem after a small army: locked
    assert s.free_window is None and s.locked  # the move closed the window
    assert s.legal_actions() == ["end"]
    s = pos({"a5": "GE", "h11": "G4", "i11": "RE"}, variant="four", to_move="G",
            captures=[["R", "G", "2", 1]], total=1, small=1, emblem_moved=False)  # fmt: skip
    s.apply("h11-i11:1")
    s.apply("+2@h10")
    assert "h10-h9:1" in s.legal_actions()  # not locked: the freed 2 may move
    # the Emblem-after-small ruling also forbids a short conquest when 6 can be reached
    t = pos({"i10": "GE", "b5": "G2", "i11": "RE"}, variant="four", to_move="G",
            captures=[["R", "G", "2", 1]], total=1, small=1)  # fmt: skip
    assert "i10-i11:1" not in t.legal_actions()
    assert "i10-i11:5" in t.legal_actions()  # a conquest that reaches total 6
    t = pos({"i10": "GE", "b5": "G2", "i11": "RE"}, variant="four", to_move="G",
            captures=[["R", "G", "2", 1]], total=5, small=5)  # fmt: skip
    t.apply("i10-i11:1")  # the Emblem conquers after a small army: locked
    assert t.locked
    t.apply("+2@h10")
    assert not any(a.startswith("h10-") for a in t.legal_actions())


# =============================================================================================
# Draw by empty turns, returns
# =============================================================================================
def test_turn_limit_ties_the_players_in_play() -> None:
    s = State("four", turn_limit=2)
    rng = random.Random(3)
    while not s.is_over():
        s.apply(rng.choice(s.legal_actions()))
    assert s.turns == 2 and s.winner is None
    assert s.ranking() == [[0, 1, 2, 3]] and all(abs(r) < 1e-9 for r in s.returns())
    assert s.position()["turn_limit"] == 2 and s.position()["turns"] == 2
    assert State.from_position(s.position()).is_over()
    assert "turn_limit" not in State("four").position()


def test_draw_after_a_round_of_empty_turns() -> None:
    s = pos({}, variant="duel")
    s.apply("end")
    assert s.empty_turns == 1 and not s.is_over()
    s.apply("end")
    assert s.is_over() and s.is_draw() and s.winner is None
    assert s.returns() == [0.0, 0.0]
    assert s.ranking() == [[0, 1]]
    assert s.legal_actions() == []


def test_draw_counts_only_empires_in_play_and_shares_points() -> None:
    s = pos({}, variant="four", conquered=["R"], out=[3], to_move="B")
    for k in (1, 2):
        s.apply("end")
        assert s.empty_turns == k and not s.is_over()
    assert s.to_move == "M"
    s.apply("end")
    assert s.is_over()
    assert s.ranking() == [[0, 1, 2], [3]]
    assert s.returns() == pytest.approx([1 / 3, 1 / 3, 1 / 3, -1.0])


def test_a_turn_with_steps_resets_the_empty_turn_counter() -> None:
    s = pos({"e5": "M2"}, empty_turns=3)  # B, G passed... B to move with nothing
    s.apply("end")
    assert s.is_over()  # 4 empty turns with 4 Empires in play
    s = pos({"e5": "B2"}, empty_turns=3)
    s.apply("e5-e6:1")
    s.apply("end")
    assert s.empty_turns == 0 and not s.is_over()


def test_a_conquest_that_leaves_fewer_empires_than_the_count_is_no_draw() -> None:
    s = pos(
        {"a10": "RE", "m5": "B2"},
        variant="three",
        to_move="R",
        conquered=["M"],
        empty_turns=2,
        captures=[["G", "R", "6", 1]],
    )
    s.apply("a10-a11:1")
    assert not s.is_over() and s.empty_turns == 2
    assert {"+6@i10", "+6@i9"} <= set(s.legal_actions())


# =============================================================================================
# Notation, serialization
# =============================================================================================
def test_notation_parsing() -> None:
    s = State("two")
    assert s.normalize("M5XA5:4") == "m5-a5:4"
    assert s.normalize(" End ") == "end"
    assert s.normalize("+e@A11") == "+E@a11"
    for bad in ("m5-a5", "m5-a5:x", "+3@a1", "q1-a1:1", "pass", "m5--a5:4"):
        with pytest.raises(ValueError):
            s.normalize(bad)
    s.apply("M5xA5:4")
    assert s.captures == {("B", "G", "4"): 1}
    with pytest.raises(ValueError):
        s.apply("m11-m12:1")
    with pytest.raises(ValueError):
        s.apply("m11-m10:1")  # onto a friendly army
    s24 = State("two", "ep24")
    assert s24.normalize("x5xa5:1") == "x5-a5:1"


def test_canonical_order() -> None:
    s = check10_position()
    s.apply("i10-i11:1")
    legal = s.legal_actions()
    b = s.board
    moves = [a for a in legal if "-" in a]
    keys = [
        (b.index_of(a.split("-")[0]), b.index_of(a.split("-")[1].split(":")[0]),
         int(a.split(":")[1]))
        for a in moves
    ]  # fmt: skip
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    frees = [a for a in legal if a.startswith("+")]
    fkeys = [("246E".index(a[1]), b.index_of(a[3:])) for a in frees]
    assert fkeys == sorted(fkeys)
    assert legal == moves + frees + (["end"] if "end" in legal else [])
    assert legal.index(moves[-1]) < legal.index(frees[0])


def test_position_dict_format() -> None:
    s = State("two")
    p = s.position()
    assert list(p) == ["variant", "board", "to_move", "armies", "total", "small",
                       "emblem_moved", "locked", "moved", "free_window", "captures",
                       "conquered", "out", "empty_turns"]  # fmt: skip
    assert p["armies"]["m11"] == "BE" and p["armies"]["a5"] == "G4"
    idx = [s.board.index_of(d) for d in p["armies"]]
    assert idx == sorted(idx)
    s.apply("m5-a5:4")
    s.apply("l6-k6:1")
    p = s.position()
    assert p["moved"] == ["a5", "k6"]  # dot-index order
    assert p["captures"] == [["B", "G", "4", 1]]
    assert (p["total"], p["small"], p["emblem_moved"], p["locked"]) == (5, 5, False, False)
    assert json.loads(json.dumps(p)) == p
    assert State.from_position(p).position() == p


def test_from_position_rejects_impossible_positions() -> None:
    for armies in ({"m11": "B2"}, {"m11": "GE"}, {"a1": "X2"}, {"a1": "B5"},
                   {f"a{r}": "BE" for r in (1, 2)}):  # fmt: skip
        with pytest.raises(ValueError):
            pos(armies)
    with pytest.raises(ValueError):
        pos({"a1": "G2"}, variant="duel")  # G is not in play
    with pytest.raises(ValueError):
        pos({"a1": "G2"}, conquered=["G"])
    with pytest.raises(ValueError):
        pos({}, to_move="G", conquered=["G"])


def random_game_states(variant: str, board: str, seed: int, plies: int) -> list[State]:
    rng = random.Random(seed)
    s = State(variant, board)
    states = [s.copy()]
    for _ in range(plies):
        if s.is_over():
            break
        s.apply(rng.choice(s.legal_actions()))
        states.append(s.copy())
    return states


def test_position_round_trip_along_random_games() -> None:
    for variant, board, seed in (("two", "ep16", 1), ("four", "ep16", 2), ("duel", "ep24", 3)):
        for s in random_game_states(variant, board, seed, 120)[::7]:
            p = s.position()
            t = State.from_position(json.loads(json.dumps(p)))
            assert t.position() == p
            assert t.legal_actions() == s.legal_actions()


def check_invariants(s: State) -> None:
    assert 0 <= s.small <= ref.SMALL_LIMIT and 0 <= s.total <= ref.TURN_LIMIT
    assert s.small <= s.total
    assert s.emblem_moved or s.total == s.small
    assert not s.locked or s.emblem_moved
    for e in s.alive_empires():  # an army is on the board or held by its captor, never both
        for t in ref.TYPES:
            on_board = sum(1 for a in s.armies if a == (e, t))
            held = sum(n for (c, v, tt), n in s.captures.items() if v == e and tt == t)
            assert on_board + held == ref.MATERIAL[t]
    for e in s.conquered:
        assert not any(a and a[0] == e for a in s.armies)
    for dot, e in s.active_bases().items():
        assert s.armies[dot] in (None, (e, "E"))
    for dot in s.moved:
        assert s.armies[dot] is not None and s.armies[dot][0] == s.to_move  # type: ignore[index]


@settings(max_examples=8, deadline=None)
@given(
    st.sampled_from([("two", "ep16"), ("four", "ep16"), ("duel", "ep16"), ("two", "ep24")]),
    st.integers(0, 2**32 - 1),
)
def test_random_play_invariants(game: tuple[str, str], seed: int) -> None:
    rng = random.Random(seed)
    s = State(*game)
    for _ in range(150):
        check_invariants(s)
        legal = s.legal_actions()
        if s.is_over():
            assert legal == [] and s.current_player == -1
            assert sum(s.returns()) == pytest.approx(0.0)
            break
        assert legal, "a running game always has an action"
        assert len(set(legal)) == len(legal)
        # prefer captures and conquests so that games get somewhere in 150 plies
        kinds = {a: s.classify(a) for a in legal}
        hot = [a for a in legal if kinds[a] in ("conquest", "capture", "free")]
        action = rng.choice(hot) if hot and rng.random() < 0.7 else rng.choice(legal)
        before = s.position()
        s.apply(action)
        if kinds[action] == "end":
            assert s.total == 0 and s.moved == set()
        else:
            assert s.to_move == before["to_move"]


# =============================================================================================
# Perft from the start (§Notes for implementers)
# =============================================================================================
@pytest.mark.parametrize(
    ("variant", "depth", "count"),
    [
        ("two", 1, 133),
        ("two", 2, 11_323),
        ("duel", 1, 151),
        ("duel", 2, 15_663),
        ("three", 1, 133),
    ],
)
def test_perft_start(variant: str, depth: int, count: int) -> None:
    assert perft(State(variant), depth) == count


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "count"), [("two", 306_197), ("duel", 492_451)])
def test_perft_start_depth3(variant: str, count: int) -> None:
    assert perft(State(variant), 3) == count


def test_perft_edge_cases() -> None:
    s = pos({}, variant="duel")
    assert perft(s, 0) == 1 and perft(s, 1) == 1 and perft(s, 2) == 1
    assert perft(s, 3) == 0  # drawn after two passes
    s.apply("end")
    s.apply("end")
    assert perft(s, 0) == 1 and perft(s, 1) == 0


DATA = Path(__file__).parent / "perft.json"


def stored_positions() -> list[dict]:  # type: ignore[type-arg]
    return list(json.loads(DATA.read_text())["positions"])


def replay(entry: dict) -> State:  # type: ignore[type-arg]
    s = State(entry["variant"], entry["board"])
    for a in entry["actions"]:
        s.apply(a)
    return s


def test_perft_data_positions_and_depths_1_2() -> None:
    entries = stored_positions()
    assert {(e["variant"], e["board"]) for e in entries} == {
        ("two", "ep16"), ("four", "ep16"), ("duel", "ep16"), ("three", "ep16"), ("two", "ep24")
    }  # fmt: skip
    assert len(entries) == 29
    assert any(e["position"]["free_window"] for e in entries)  # right after a conquest
    assert any(e["position"]["total"] > 0 for e in entries)  # mid-turn
    for entry in entries:
        s = replay(entry)
        assert s.position() == entry["position"]
        assert State.from_position(entry["position"]).position() == entry["position"]
        for depth in (1, 2):
            assert perft(s, depth) == entry["depth"][str(depth)], entry["name"]


@pytest.mark.slow
def test_perft_data_depth3() -> None:
    for entry in stored_positions():
        if "3" in entry["depth"]:
            s = State.from_position(entry["position"])
            assert perft(s, 3) == entry["depth"]["3"], entry["name"]
