"""What crosses into the compiled Plateau (Albea) kernel from the Python layer: the piece
tuples of ``_board()``, the plain data of ``_load_raw`` and ``_resample``, the fields of
``decode``/``encode``. The Python layer checks user input with worded errors first; the
kernel still refuses (ValueError) anything that would break its invariants, and leaves the
state as it was."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest
from plateau_core.albea import core as A

import plateau
from plateau.games.albea.state import _checked_position

XX, BB, RR, BX, RX, OX, RB = range(7)  # type indices, TYPES order


def midgame(seed: int = 4, plies: int = 40) -> Any:
    s = plateau.new_game("albea-plateau")
    rng = random.Random(seed)
    while s.ply < plies and not s.is_terminal():
        s.apply(int(rng.choice(s.legal_actions().tolist())))
    return s


def raw(s: Any) -> dict[str, Any]:
    return _checked_position(s.position_dict())


def state_of(s: Any) -> tuple[Any, ...]:
    return (s.position_dict(), s.hash, s.history, s.legal_actions().tolist())


def test_board_pieces_are_named_fields() -> None:
    s = plateau.AlbeaPlateauState.from_position({"b2": "Bxx Wbr"}, to_move=0)
    # (owner, type index, up, shown0, shown1); the top's up face (r, face 1) has been shown
    assert s._board()[5] == [(0, XX, 0, False, False), (1, RB, 1, False, True)]
    assert all(not st for i, st in enumerate(s._board()) if i != 5)


@pytest.mark.parametrize("seed", range(4))
def test_load_raw_takes_what_board_gives(seed: int) -> None:
    s = midgame(seed)
    data = raw(s)
    assert data["board"] == s._board()
    t = plateau.new_game("albea-plateau")
    t._load_raw(**data)
    assert t.position_dict() == s.position_dict() and t.hash == s.hash
    assert t.legal_actions().tolist() == s.legal_actions().tolist() and t.check_caches()


def _piece(sq: int, i: int, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        d["board"][sq][i] = value

    return change


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: d.__setitem__(key, value)


def _respond(d: dict[str, Any]) -> None:
    d.update(phase=2, player=1, offerer=0, tender=[1, 0, 0, 0, 0, 0, 0])


# name: (a change to valid data of the position below, what the refusal says)
BAD_RAW: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "15 stacks": (lambda d: d["board"].pop(), "16 stacks"),
    "a stack of 25": (_set("board", [[(0, XX, 0, False, False)] * 25] + [[]] * 15), "at most 24"),
    "owner 2": (_piece(0, 0, (2, XX, 0, False, False)), r"owner must be an int in \[0, 2\)"),
    "owner -1": (_piece(0, 0, (-1, XX, 0, False, False)), "owner must be"),
    "type 7": (_piece(0, 0, (0, 7, 0, False, False)), r"type must be an int in \[0, 7\)"),
    "up 2": (_piece(0, 0, (0, BX, 2, False, False)), r"up must be an int in \[0, 2\)"),
    "an xx upside down": (_piece(0, 0, (0, XX, 1, False, False)), r"up must be an int in \[0, 1\)"),
    "a piece of 4 fields": (_piece(0, 0, (0, XX, 0, False)), "a piece is"),
    "a type as text": (_piece(0, 0, (0, "xx", 0, False, False)), "type must be an int"),
    "a 5 mutes reserve": (lambda d: d["reserve"][0].__setitem__(XX, 5), "reserve must be"),
    "a negative reserve": (lambda d: d["reserve"][1].__setitem__(BB, -1), "reserve must be"),
    "6 reserve counts": (lambda d: d["reserve"][0].pop(), "7 counts"),
    "3 players' prisoners": (lambda d: d["prisoners"].append([0] * 7), "two lists"),
    "more pieces than exist": (lambda d: d["reserve"][0].__setitem__(BX, 1), "more pieces than"),
    "more held than exist": (lambda d: d["prisoners"][1].__setitem__(XX, 4), "more pieces than"),
    "phase 4": (_set("phase", 4), r"phase must be an int in \[0, 4\)"),
    "player 2": (_set("player", 2), r"player must be an int in \[0, 2\)"),
    "an offerer in play": (_set("offerer", 0), "respond phase only"),
    "an offerer to act": (lambda d: (_respond(d), d.update(offerer=1)), "respond phase only"),
    "a tender in play": (_set("tender", [1, 0, 0, 0, 0, 0, 0]), "tender of the offerer"),
    "a tender not held": (
        lambda d: (_respond(d), d.update(tender=[0, 1, 0, 0, 0, 0, 0])),
        "tender of the offerer",
    ),
    "an empty tender": (
        lambda d: (_respond(d), d.update(tender=[0] * 7)),
        "needs a non-empty tender",
    ),
    "floor 60": (_set("floor", [0, 60]), r"floor must be an int in \[0, 60\)"),
    "one floor": (_set("floor", [0]), "two values"),
    "result 3": (_set("result", 3), r"result must be an int in \[-1, 3\)"),
    "a result in play": (_set("result", 1), "a result needs the over phase"),
    "over with no result": (_set("phase", 3), "a result needs the over phase"),
    "2 passes in play": (_set("passes", 2), r"passes must be an int in \[0, 2\)"),
    "ply 2**30": (_set("ply", 2**30), "ply must be"),
    "max_plies -1": (_set("max_plies", -1), "max_plies must be"),
    "six prisoners in play": (
        lambda d: d.update(
            prisoners=[[4, 2, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0]],
            reserve=[d["reserve"][0], [0, 0, 1, 1, 1, 1, 1]],
        ),
        "run of six or six prisoners",
    ),
    "a run of six in play": (
        lambda d: d.update(
            board=[[(0, t, 0, False, False) for t in (XX, XX, BB, BB, RR, RR)]] + [[]] * 15,
            reserve=[[0] * 7, d["reserve"][1]],
        ),
        "run of six or six prisoners",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_RAW))
def test_load_raw_refuses_what_breaks_the_kernel(case: str) -> None:
    s = plateau.AlbeaPlateauState.from_position(
        {"a1": "Bxx Wrr", "b2": "Bbx"}, to_move=0, prisoners=(["rr"], ["xx"])
    )
    data = raw(s)
    change, pattern = BAD_RAW[case]
    bad = copy.deepcopy(data)
    change(bad)
    before = state_of(s)
    with pytest.raises(ValueError, match=pattern):
        s._load_raw(**bad)
    assert state_of(s) == before
    s._load_raw(**data)  # the unchanged data loads
    assert state_of(s) == before


def test_load_raw_limits_themselves_load() -> None:
    # all 24 pieces on one square (owners alternating), floors of 59, a draw after two passes
    full = [
        (p, t, 0, False, False) for t, n in enumerate(A.COUNT) for _ in range(n) for p in (0, 1)
    ]
    assert len(full) == A.STACK_CAP == 24
    s = plateau.new_game("albea-plateau")
    s._load_raw(
        board=[full] + [[]] * 15,
        reserve=[[0] * 7, [0] * 7],
        prisoners=[[0] * 7, [0] * 7],
        tender=[0] * 7,
        phase=3,
        player=0,
        offerer=-1,
        floor=[59, 59],
        result=2,
        passes=2,
        ply=2**30 - 1,
        max_plies=2**30 - 1,
    )
    assert s.result == "draw" and len(s.stack("a1")) == 24 and s.floor == [59, 59]
    assert s.check_caches() and s.hash == s.clone().hash


def test_resample_refuses_what_breaks_the_kernel() -> None:
    s = midgame(2, 30)
    opp = 1 - s.current_player
    mine = [(sq, lv) for sq, st in enumerate(s._board()) for lv, pc in enumerate(st)]
    theirs = [(sq, lv) for sq, lv in mine if s._board()[sq][lv][0] == opp]
    ours = [(sq, lv) for sq, lv in mine if s._board()[sq][lv][0] != opp]
    assert theirs and ours
    sq, lv = theirs[0]
    reserve = [s.reserve(opp).get(t, 0) for t in A.TYPES]
    before = state_of(s)
    cases: list[tuple[list[Any], Any, list[Any], str]] = [
        ([], 2, reserve, "player must be"),
        ([(sq, lv, XX, 0)], -1, reserve, "player must be"),
        ([(16, 0, XX, 0)], opp, reserve, r"square must be an int in \[0, 16\)"),
        ([(sq, 24, XX, 0)], opp, reserve, "level must be"),
        ([(sq, lv, 7, 0)], opp, reserve, "type must be"),
        ([(sq, lv, XX, 1)], opp, reserve, r"up must be an int in \[0, 1\)"),
        ([(sq, lv, BX)], opp, reserve, r"\(square, level, type, up\)"),
        ([(*ours[0], XX, 0)], opp, reserve, "only the opponent's pieces"),
        ([], opp, reserve[:6], "7 counts"),
        ([], opp, [5, 0, 0, 0, 0, 0, 0], "reserve must be"),
        ([], opp, list(A.COUNT), "more pieces than exist"),
    ]
    for pieces, player, res, pattern in cases:
        with pytest.raises(ValueError, match=pattern):
            s._resample(pieces, player, res)
    assert state_of(s) == before


def test_encode_answers_every_kind_of_bad_fields() -> None:
    assert A.encode("pass", ()) == A.PASS and A.encode("refuse", ()) == A.REFUSE
    invalid = [
        ("resign", ()),
        ("pass", (0,)),
        ("opening", (0, 0, 5)),  # b2 is not on the perimeter
        ("opening", (11, 0, 0)),
        ("onboard", (0, 0, 24)),
        ("onboard", (0, 16, 0)),
        ("stomp", (0, 2)),
        ("stomp", (True, 0)),
        ("offer", (0,) * 7),
        ("give", (5, 0, 0, 0, 0, 0, 0)),
        ("give", (1,) * 6),
        ("move", (0, 0, 0, (5,), ())),  # lift 0
        ("move", (0, 0, 6, (5,), ())),
        ("move", (0, 0, 1, (), ())),
        ("move", (0, 0, 1, (5, 10), ())),  # a carry missing
        ("move", (0, 0, 1, [5], ())),
        ("move", (0, 0, 1, (16,), ())),
    ]
    for kind, fields in invalid:
        assert A.encode(kind, fields) == A.ENCODE_INVALID, (kind, fields)
    assert A.encode("move", (0, 0, 1, (10, 5), (2,))) == A.ENCODE_OFF_PATH  # c3 then b2
    assert A.encode("move", (0, 0, 1, (0,), ())) == A.ENCODE_OFF_PATH  # a1 to a1
    assert A.encode("move", (0, 0, 1, (5, 10), (1,))) == A.ENCODE_BAD_CARRY  # j = g
    assert A.encode("move", (0, 0, 2, (4, 8), (11,))) == A.ENCODE_BAD_CARRY  # 9 choices of j
    assert A.encode("move", (0, 0, 2, (4, 8), (10,))) >= 0
