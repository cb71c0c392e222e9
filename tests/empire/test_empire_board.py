"""Empire Plateau's board as data (rules page, "Board (a polar grid)", "The board as data",
"Empires and bases", "Material and setup"): the shipped boards, the polar rule, the file format
and every validation failure."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plateau.errors import InvalidArgumentError, InvalidBoardError
from plateau.games.empire import board as eb
from plateau.games.empire.board import (
    CCW,
    CW,
    DIRECTIONS,
    EMPIRE_MAX_DOTS,
    EMPIRES,
    IN,
    OPPOSITE,
    OUT,
    SHIPPED_BOARDS,
    Board,
    board_from_dict,
    board_from_json,
    board_to_dict,
    board_to_json,
    load_board,
    polar_board,
    save_board,
)

# -- helpers ---------------------------------------------------------------------------------


def names(b: Board, ds: Any) -> set[str]:
    return {b.dot_name(d) for d in ds}


def nb(b: Board, dot: str, direction: str) -> str | None:
    j = b.neighbours[b.index(dot)][DIRECTIONS.index(direction)]
    return None if j < 0 else b.dot_name(j)


def user_dict() -> dict[str, Any]:
    """ep16 as a user board: the same table under a name of its own."""
    d = board_to_dict(load_board("ep16"))
    d["name"] = "mine"
    return d


def row(d: dict[str, Any], dot: str) -> dict[str, Any]:
    return next(r for r in d["dots"] if r["name"] == dot)


def refuse(d: object, *fragments: str) -> str:
    """``d`` is refused with a message holding every fragment; the input is left untouched and
    the shipped boards are still the ones on file (nothing half-loaded)."""
    before = copy.deepcopy(d)
    cache = dict(eb._SHIPPED)
    with pytest.raises(InvalidBoardError) as info:
        board_from_dict(d)
    message = str(info.value)
    for f in fragments:
        assert f in message, (f, message)
    assert d == before
    assert cache == eb._SHIPPED
    assert load_board("ep16") == polar_board("ep16", 16, 11)
    return message


def bfs(b: Board, start: int, allowed: set[int] | None = None) -> dict[int, int]:
    dist = {start: 0}
    todo = deque([start])
    while todo:
        i = todo.popleft()
        for j in b.neighbours[i]:
            if j >= 0 and j not in dist and (allowed is None or j in allowed):
                dist[j] = dist[i] + 1
                todo.append(j)
    return dist


# -- the shipped boards ----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SHIPPED_BOARDS))
def test_shipped_files_are_polar_board_output(name: str) -> None:
    spokes, rings = SHIPPED_BOARDS[name]
    generated = polar_board(name, spokes, rings)
    assert load_board(name) == generated
    path = Path(eb.__file__).with_name("boards") / f"{name}.json"
    assert path.read_bytes() == board_to_json(generated).encode("utf-8")
    assert (len(generated), generated.spokes, generated.rings) == (spokes * rings, spokes, rings)


def test_generator_check_passes_on_the_shipped_files_and_fails_on_a_stale_one(
    tmp_path: Path,
) -> None:
    assert eb.main(["--check"]) == 0
    assert eb.main(["--write", "--dir", str(tmp_path)]) == 0
    assert eb.main(["--check", "--dir", str(tmp_path)]) == 0
    (tmp_path / "ep24.json").write_text("{}")
    assert eb.main(["--check", "--dir", str(tmp_path)]) == 1


SAMPLE_ROWS = [  # the rules page's rows from ep16: dot, out, in, cw, ccw, base
    ("a1", "a2", None, "b1", "p1", None),
    ("e5", "e6", "e4", "f5", "d5", None),
    ("p5", "p6", "p4", "a5", "o5", None),
    ("a11", None, "a10", "b11", "p11", "G"),
    ("e11", None, "e10", "f11", "d11", "M"),
    ("i11", None, "i10", "j11", "h11", "R"),
    ("m11", None, "m10", "n11", "l11", "B"),
]


@pytest.mark.parametrize("sample", SAMPLE_ROWS, ids=[r[0] for r in SAMPLE_ROWS])
def test_ep16_rows_of_the_rules_page(sample: tuple[str | None, ...]) -> None:
    b = load_board("ep16")
    dot, *expected_neighbours, base = sample
    assert dot is not None
    assert [nb(b, dot, d) for d in DIRECTIONS] == expected_neighbours
    assert b.base_of.get(b.index(dot)) == base


def test_dot_index_is_ring_times_spokes_plus_spoke() -> None:
    for name, (spokes, rings) in SHIPPED_BOARDS.items():
        b = load_board(name)
        assert b.index("a1") == 0 and b.index("b1") == 1 and b.index("a2") == spokes
        for i in range(len(b)):
            spoke, ring = divmod(i, spokes)[::-1]
            assert b.dot_name(i) == eb.spoke_letters(spoke) + str(ring + 1)
            assert b.polar is not None and b.polar[i] == (spoke, ring + 1)
        assert b.dot_name(len(b) - 1) == eb.spoke_letters(spokes - 1) + str(rings)


def test_dot_names_are_read_in_ascii_only() -> None:
    """Either letter case and blanks around a name read; the Kelvin sign (whose lower case is
    ``k``) and blanks outside ASCII do not, in a dot name or in an action's notation."""
    from plateau import InvalidActionError, new_game

    b = load_board("ep16")
    assert b.index(" K8\t") == b.index("k8")
    for bad in ("\u212a8", "k8\u00a0", "\u2003k8"):
        with pytest.raises(InvalidArgumentError, match="is not a dot"):
            b.index(bad)
    s = new_game("empire-plateau")
    assert s.parse_action("K8-K9:1") == s.parse_action("k8-k9:1")
    with pytest.raises(InvalidActionError, match="not Empire Plateau notation"):
        s.parse_action("\u212a8-k9:1")


def test_rings_close_on_themselves() -> None:
    b = load_board("ep16")
    assert nb(b, "p5", "cw") == "a5" and nb(b, "a5", "ccw") == "p5"
    assert load_board("ep24").dots[load_board("ep24").neighbours[23][CW]] == "a1"


def test_the_red_centre_is_not_a_dot_and_a1_to_i1_is_8_steps_around_ring_1() -> None:
    b = load_board("ep16")
    ring1 = {b.index(f"{eb.spoke_letters(k)}1") for k in range(16)}
    assert all(b.neighbours[i][IN] == -1 for i in ring1)
    assert bfs(b, b.index("a1"), ring1)[b.index("i1")] == 8
    assert bfs(b, b.index("a1"))[b.index("i1")] == 8  # no shortcut through the centre either


def test_outer_ring_has_no_out_and_every_other_dot_has_all_four_neighbours() -> None:
    for name in SHIPPED_BOARDS:
        b = load_board(name)
        for i, (_spoke, ring) in enumerate(b.polar or ()):
            row_ = b.neighbours[i]
            assert (row_[OUT] == -1) == (ring == b.rings)
            assert (row_[IN] == -1) == (ring == 1)
            assert row_[CW] >= 0 and row_[CCW] >= 0


@pytest.mark.parametrize("name", sorted(SHIPPED_BOARDS))
def test_the_grid_is_bipartite_so_path_parity_is_fixed(name: str) -> None:
    b = load_board(name)
    dist = bfs(b, 0)
    assert len(dist) == len(b)  # connected
    for i, row_ in enumerate(b.neighbours):
        for j in row_:
            if j >= 0:
                assert dist[i] % 2 != dist[j] % 2


@pytest.mark.parametrize(
    ("name", "bases"),
    [
        ("ep16", {"G": "a11", "M": "e11", "R": "i11", "B": "m11"}),
        ("ep24", {"G": "a11", "M": "g11", "R": "m11", "B": "s11"}),
    ],
)
def test_bases_at_the_compass_spokes_under_the_emblems(name: str, bases: dict[str, str]) -> None:
    b = load_board(name)
    assert {e: b.dot_name(d) for e, d in zip(EMPIRES, b.bases)} == bases
    assert {b.dot_name(d): e for d, e in b.base_of.items()} == {v: k for k, v in bases.items()}
    for e in EMPIRES:
        assert b.layouts[e]["E"] == (b.bases[EMPIRES.index(e)],)


def test_babylonian_layout_on_ep16() -> None:
    b = load_board("ep16")
    lay = b.layouts["B"]
    assert names(b, lay["E"]) == {"m11"}
    assert names(b, lay["6"]) == {"m10", "m9"}
    assert names(b, lay["4"]) == {"m8", "m7", "m6", "m5"}
    assert names(b, lay["2"]) == {f"{s}{r}" for s in "ln" for r in range(6, 12)}


@pytest.mark.parametrize("name", sorted(SHIPPED_BOARDS))
def test_layouts_are_disjoint_and_hold_19_armies_each(name: str) -> None:
    b = load_board(name)
    used = [d for e in EMPIRES for ds in b.layouts[e].values() for d in ds]
    assert len(used) == len(set(used)) == 4 * 19
    for e in EMPIRES:
        assert {t: len(ds) for t, ds in b.layouts[e].items()} == {"E": 1, "6": 2, "4": 4, "2": 12}


def test_ep24_has_three_empty_spokes_between_neighbouring_layouts() -> None:
    b = load_board("ep24")
    assert b.polar is not None
    spokes_used = {b.polar[d][0] for e in EMPIRES for ds in b.layouts[e].values() for d in ds}
    assert sorted(spokes_used) == [0, 1, 5, 6, 7, 11, 12, 13, 17, 18, 19, 23]


# -- lookups and arrays ----------------------------------------------------------------------


def test_index_is_case_insensitive_and_errors_name_the_input() -> None:
    b = load_board("ep16")
    assert b.index("M11") == b.index("m11") == 172
    with pytest.raises(ValueError, match=r"'q5' is not a dot of board 'ep16'"):
        b.index("q5")
    with pytest.raises(ValueError, match=r"got 5"):
        b.index(5)  # type: ignore[arg-type]
    assert b.dot_name(172) == "m11"
    with pytest.raises(ValueError, match=r"dot index must be an int in \[0, 176\), got 176"):
        b.dot_name(176)


def test_flat_arrays_for_a_core() -> None:
    b = load_board("ep16")
    a = b.neighbour_array()
    assert a.dtype == np.int16 and a.shape == (176, 4) and a.flags.c_contiguous
    assert a.tolist() == [list(r) for r in b.neighbours]
    assert b.neighbour_array(np.int32).dtype == np.int32
    with pytest.raises(ValueError, match="int16 or int32"):
        b.neighbour_array(np.int8)
    base = b.base_array()
    assert base.dtype == np.int8
    assert {int(i): int(base[i]) for i in np.flatnonzero(base >= 0)} == {
        b.index(n): EMPIRES.index(e)
        for n, e in [("m11", "B"), ("a11", "G"), ("e11", "M"), ("i11", "R")]
    }
    lay = b.layout_array()
    assert lay.dtype == np.int8 and lay.shape == (176, 2)
    assert lay[b.index("l6")].tolist() == [EMPIRES.index("B"), eb.ARMY_TYPES.index("2")]
    assert int((lay[:, 0] >= 0).sum()) == 76
    assert [int((lay[:, 0] == e).sum()) for e in range(4)] == [19] * 4


def test_direction_tables() -> None:
    assert [DIRECTIONS[OPPOSITE[d]] for d in range(4)] == ["in", "out", "ccw", "cw"]
    assert eb.RADIAL == (True, True, False, False)


def test_board_is_immutable_hashable_picklable() -> None:
    b = load_board("ep16")
    with pytest.raises(dataclasses.FrozenInstanceError):
        b.name = "x"  # type: ignore[misc]
    assert len({b, polar_board("ep16", 16, 11)}) == 1
    c = pickle.loads(pickle.dumps(b))
    assert c == b and c.index("m11") == 172
    assert repr(b) == "<Board 'ep16': 176 dots>"


def test_diagram_shows_bases_marks_and_holes() -> None:
    b = load_board("ep16")
    lines = b.diagram({b.index("m10"): "B6"}).splitlines()
    assert lines[2].split()[:1] == ["10"] and "B6" in lines[2]
    assert lines[1].split() == ["11", *"G...M...R...B..."]


# -- round trips -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SHIPPED_BOARDS))
def test_dict_and_json_round_trips(name: str, tmp_path: Path) -> None:
    b = load_board(name)
    assert board_from_dict(board_to_dict(b)) == b
    assert board_from_json(board_to_json(b)) == b
    assert json.loads(board_to_json(b)) == board_to_dict(b)
    record = json.dumps({"board": board_to_dict(b)})  # as a game record would embed it
    assert board_from_dict(json.loads(record)["board"]) == b
    path = tmp_path / "b.json"
    save_board(b, path)
    assert load_board(path) == b and load_board(str(path)) == b


def test_a_user_board_round_trips_through_a_file(tmp_path: Path) -> None:
    d = user_dict()
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(d, indent=1))
    b = load_board(path)
    assert b.name == "mine" and b.neighbours == load_board("ep16").neighbours
    assert board_to_dict(b) == d


def test_direction_keys_may_be_left_out_for_no_neighbour_and_coordinates_are_optional() -> None:
    d = user_dict()
    for r in d["dots"]:
        del r["at"]
        for k in DIRECTIONS:
            if r[k] is None:
                del r[k]
    del d["spokes"], d["rings"]
    b = board_from_dict(d)
    assert b.polar is None and b.spokes is None
    assert b.neighbours == load_board("ep16").neighbours
    with pytest.raises(ValueError, match="no polar coordinates"):
        b.diagram()
    assert "at" not in board_to_dict(b)["dots"][0] and "spokes" not in board_to_dict(b)


@settings(max_examples=40, deadline=None)
@given(spokes=st.integers(4, 16).map(lambda k: 2 * k), rings=st.integers(7, 16))
def test_random_polar_boards_round_trip(spokes: int, rings: int) -> None:
    if spokes < 12:  # neighbouring Empires' layouts share a spoke (c+1 of one is c-1 of next);
        # the smallest grids cannot even hold 76 armies
        with pytest.raises(InvalidBoardError, match=r"is a starting dot twice|at least 76"):
            polar_board("p", spokes, rings)
        return
    b = polar_board("p", spokes, rings)
    assert len(b) == spokes * rings
    assert board_from_json(board_to_json(b)) == b
    assert board_from_dict(board_to_dict(b)) == b
    for i, r in enumerate(b.neighbours):
        for d, j in enumerate(r):
            assert j < 0 or b.neighbours[j][OPPOSITE[d]] == i
    assert b.polar is not None
    base_spokes = [b.polar[d][0] for d in b.bases]
    assert base_spokes == [3 * spokes // 4, 0, spokes // 4, spokes // 2]  # B, G, M, R


def test_spokes_beyond_z_get_two_letters() -> None:
    b = polar_board("wide", 32, 7)
    assert b.dot_name(26) == "aa1" and b.index("AF7") == len(b) - 1
    assert nb(b, "af3", "cw") == "a3"


# -- user boards: a bigger red area ----------------------------------------------------------


def test_a_user_board_without_ring_1_loads_when_symmetric() -> None:
    d = user_dict()
    d["dots"] = [r for r in d["dots"] if not r["name"].endswith("1") or len(r["name"]) > 2]
    for r in d["dots"]:
        if r["in"] is not None and r["in"].endswith("1") and len(r["in"]) == 2:
            r["in"] = None
    b = board_from_dict(d)
    assert len(b) == 160 and b.index("a2") == 0 and nb(b, "a2", "in") is None
    assert b.dot_name(b.bases[0]) == "m11"
    assert b.diagram().splitlines()[-1].strip() == "1"  # ring 1 is all red now
    with pytest.raises(ValueError, match="'i1' is not a dot of board 'mine'"):
        b.index("i1")


def test_a_user_board_with_one_dot_removed_loads_when_symmetric() -> None:
    d = user_dict()
    d["dots"] = [r for r in d["dots"] if r["name"] != "c3"]
    for r in d["dots"]:
        for k in DIRECTIONS:
            if r[k] == "c3":
                r[k] = None
    b = board_from_dict(d)
    assert len(b) == 175 and nb(b, "b3", "cw") is None and nb(b, "c4", "in") is None
    assert bfs(b, 0).keys() == set(range(175))


def test_a_removed_dot_still_named_by_a_neighbour_is_refused() -> None:
    d = user_dict()
    d["dots"] = [r for r in d["dots"] if r["name"] != "c3"]
    refuse(d, "dot 'c2': its out names unknown dot 'c3'")


def test_a_removed_neighbour_on_one_side_only_is_refused() -> None:
    d = user_dict()
    row(d, "a1")["out"] = None
    refuse(d, "dot 'a2'", "its in neighbour is 'a1'", "the out neighbour of 'a1' is none")


def test_a_user_board_may_not_take_a_shipped_name_unless_it_is_that_board() -> None:
    d = user_dict()
    d["name"] = "ep16"
    assert board_from_dict(d) == load_board("ep16")
    row(d, "a1")["cw"], row(d, "b1")["ccw"] = None, None
    refuse(d, "'ep16' belongs to a shipped board")


# -- validation: every failure, naming the dot or problem ------------------------------------


def test_malformed_json_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidBoardError, match="malformed JSON"):
        board_from_json('{"format": ')
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(InvalidBoardError, match=r"bad\.json: malformed JSON.*line 1 column 2"):
        load_board(path)
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(InvalidBoardError, match=r"bad\.json: .*utf-8"):
        load_board(path)
    assert eb._SHIPPED.keys() <= set(SHIPPED_BOARDS)


@pytest.mark.parametrize("text", ["[]", "3", '"ep16"', "null"])
def test_a_board_must_be_a_json_object(text: str) -> None:
    with pytest.raises(InvalidBoardError, match="a board is a JSON object"):
        board_from_json(text)


def test_a_missing_file_names_the_path_and_the_shipped_boards(tmp_path: Path) -> None:
    with pytest.raises(InvalidBoardError, match=r"no board 'ep17': not a shipped board \(ep16"):
        load_board("ep17")
    with pytest.raises(ValueError, match="a name or a path"):
        load_board(16)  # type: ignore[arg-type]


def test_a_file_error_names_the_file(tmp_path: Path) -> None:
    d = user_dict()
    row(d, "e5")["cw"] = "g5"
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(d))
    with pytest.raises(InvalidBoardError, match=r"mine\.json: dot 'e5'"):
        load_board(path)


def test_duplicate_json_keys_are_refused() -> None:
    text = board_to_json(board_from_dict(user_dict())).replace(
        '{"name": "e5", "out": "e6",', '{"name": "e5", "out": "e6", "out": "e7",'
    )
    with pytest.raises(InvalidBoardError, match="dot 'e5': field 'out' given twice"):
        board_from_json(text)
    # the board's own name given twice: the board, not a dot, is named
    top = board_to_json(board_from_dict(user_dict()))
    top = top.replace('"name": ', '"name": "x", "name": ', 1)
    with pytest.raises(InvalidBoardError, match=r"^the board: field 'name' given twice"):
        board_from_json(top)


@pytest.mark.parametrize("field", ["format", "version", "name", "dots", "layouts"])
def test_missing_fields_are_refused(field: str) -> None:
    d = user_dict()
    del d[field]
    refuse(d, f"missing board field {field!r}")


def test_unknown_fields_are_refused() -> None:
    d = user_dict()
    d["colour"] = "red"
    refuse(d, "unknown board field 'colour'")
    d = user_dict()
    row(d, "a5")["base"] = None
    row(d, "a5")["army"] = "G4"
    refuse(d, "dot 'a5': unknown field or direction 'army'")


@pytest.mark.parametrize("direction", ["up", "north", "OUT", "cww"])
def test_unknown_direction_names_are_refused(direction: str) -> None:
    d = user_dict()
    row(d, "e5")[direction] = "e6"
    refuse(d, "dot 'e5'", f"unknown field or direction {direction!r}", "out, in, cw, ccw")


def test_wrong_format_or_version_is_refused() -> None:
    d = user_dict()
    d["format"] = "plateau-game-record"
    refuse(d, "not an Empire Plateau board", "'plateau-game-record'")
    for v in (2, "1", True, 1.0):
        d = user_dict()
        d["version"] = v
        refuse(d, f"unsupported board version {v!r}")


@pytest.mark.parametrize("bad", ["", "   ", " mine", 5, None, "x" * 65, "tab\there"])
def test_bad_board_names_are_refused(bad: object) -> None:
    d = user_dict()
    d["name"] = bad
    refuse(d, "a board name is a printable string", repr(bad))


def test_duplicate_dot_names_are_refused() -> None:
    d = user_dict()
    row(d, "b1")["name"] = "a1"
    refuse(d, "dot 'a1': the name is used by two dots")


@pytest.mark.parametrize("bad", ["A1", "1a", "a01", "a0", "a-1", "a", "", "a1b", " a1", 5, None])
def test_bad_dot_names_are_refused(bad: object) -> None:
    d = user_dict()
    row(d, "c3")["name"] = bad
    refuse(d, "dot 34: bad dot name", repr(bad))


def test_a_dot_name_longer_than_32_characters_is_refused() -> None:
    # (a valid board could force actions longer than the engine protocol's lines: 40,001-letter
    # names made 80,005-byte actions, and an engine that played one forfeited as garbage)
    def renamed(name: str) -> Any:  # c3 renamed everywhere
        return json.loads(json.dumps(user_dict()).replace('"c3"', json.dumps(name)))

    assert board_from_dict(renamed("c" * 31 + "3")).dot_name(34) == "c" * 31 + "3"
    refuse(renamed("c" * 32 + "3"), "dot 34: bad dot name", "at most 32 characters")


def test_dots_must_be_objects_with_names() -> None:
    d = user_dict()
    d["dots"][3] = ["d1"]
    refuse(d, "dots[3] is not an object")
    d = user_dict()
    del d["dots"][3]["name"]
    refuse(d, "dots[3] has no name")
    d = user_dict()
    d["dots"] = {"a1": {}}
    refuse(d, "dots must be a list")


def test_a_neighbour_naming_an_unknown_dot_is_refused() -> None:
    d = user_dict()
    row(d, "a1")["out"] = "z9"
    refuse(d, "dot 'a1': its out names unknown dot 'z9'")
    d = user_dict()
    row(d, "a1")["cw"] = "B1"  # references are exact; only lookups ignore case
    refuse(d, "dot 'a1': its cw names unknown dot 'B1'")
    d = user_dict()
    row(d, "a1")["ccw"] = 15
    refuse(d, "dot 'a1': its ccw must be a dot name, got 15")


@pytest.mark.parametrize(
    ("dot", "direction", "to", "fragments"),
    [
        ("a1", "out", "a3", ("dot 'a1': its out neighbour is 'a3'", "of 'a3' is 'a2'")),
        ("e5", "cw", "g5", ("dot 'e5': its cw neighbour is 'g5'", "ccw neighbour of 'g5' is 'f5'")),
        ("e5", "ccw", "c5", ("dot 'd5': its cw neighbour is 'e5'", "of 'e5' is 'c5'")),
        ("a11", "out", "c10", ("dot 'a11': its out neighbour is 'c10'", "in neighbour of 'c10'")),
        ("p5", "cw", None, ("dot 'a5': its ccw neighbour is 'p5'", "cw neighbour of 'p5' is none")),
    ],
)
def test_asymmetric_neighbours_are_refused(
    dot: str, direction: str, to: str | None, fragments: tuple[str, ...]
) -> None:
    d = user_dict()
    row(d, dot)[direction] = to
    refuse(d, *fragments, "symmetric")


def test_a_dot_may_not_be_its_own_neighbour() -> None:
    d = user_dict()
    row(d, "e5")["cw"] = "e5"
    refuse(d, "dot 'e5': it is its own cw neighbour")


def test_one_dot_may_not_be_a_neighbour_in_two_directions() -> None:
    d = user_dict()
    row(d, "e5")["out"] = "f5"
    refuse(d, "dot 'e5': 'f5' is both its out and its cw neighbour")


def test_bases_must_be_exactly_one_per_empire() -> None:
    d = user_dict()
    del row(d, "e11")["base"]
    refuse(d, "Empire 'M' (Median Persian) has no base")
    d = user_dict()
    row(d, "b11")["base"] = "G"
    refuse(d, "Empire 'G' (Greek) has two bases: 'a11' and 'b11'")
    d = user_dict()
    row(d, "e11")["base"] = "X"
    refuse(d, "dot 'e11': base 'X' is not an Empire letter (B, G, M, R)")
    d = user_dict()
    row(d, "e11")["base"] = "m"
    refuse(d, "dot 'e11': base 'm' is not an Empire letter")


def test_a_base_must_be_the_emblems_starting_dot() -> None:
    d = user_dict()
    d["layouts"]["G"]["E"] = ["a10"]
    d["layouts"]["G"]["6"] = ["a11", "a9"]
    refuse(d, "Empire 'G' (Greek): its base is 'a11' but its Emblem starts on 'a10'")


def test_overlapping_layouts_are_refused() -> None:
    d = user_dict()
    d["layouts"]["G"]["2"][0] = "d6"  # a Median Persian 2's dot
    refuse(d, "dot 'd6': it is a starting dot twice (G 2 and M 2)", "may not overlap")
    d = user_dict()
    d["layouts"]["R"]["4"][0] = "i9"  # the Roman 6's own dot
    refuse(d, "dot 'i9': it is a starting dot twice (R 6 and R 4)")


@pytest.mark.parametrize(
    ("army", "count"), [("E", 0), ("E", 2), ("6", 1), ("6", 3), ("4", 3), ("4", 5), ("2", 11)]
)
def test_wrong_army_counts_are_refused(army: str, count: int) -> None:
    d = user_dict()
    spare = ["c3", "c4", "c5", "c6", "c7"]
    lay = d["layouts"]["B"]
    lay[army] = (lay[army] + spare)[:count]
    refuse(d, f"Empire 'B' (Babylonian): {count} starting dots for type {army}", "12 twos")


def test_layouts_must_name_every_empire_and_army_type_and_no_other() -> None:
    d = user_dict()
    del d["layouts"]["R"]
    refuse(d, "layouts: missing Empire 'R'")
    d = user_dict()
    d["layouts"]["X"] = d["layouts"]["R"]
    refuse(d, "layouts: unknown Empire 'X'")
    d = user_dict()
    d["layouts"]["G"]["8"] = []
    refuse(d, "Empire 'G' (Greek): layout: unknown army type '8'")
    d = user_dict()
    del d["layouts"]["G"]["6"]
    refuse(d, "Empire 'G' (Greek): layout: missing army type '6'")
    d = user_dict()
    d["layouts"]["M"] = ["e11"]
    refuse(d, "Empire 'M' (Median Persian): its layout must map army types to dots")
    d = user_dict()
    d["layouts"]["M"]["E"] = "e11"
    refuse(d, "Empire 'M' (Median Persian): its E starting dots must be a list")
    d = user_dict()
    d["layouts"] = [1]
    refuse(d, "layouts must be an object")


def test_layouts_naming_unknown_dots_are_refused() -> None:
    d = user_dict()
    d["layouts"]["B"]["4"][0] = "z1"
    refuse(d, "Empire 'B': its layout for type 4 names unknown dot 'z1'")
    d = user_dict()
    d["layouts"]["B"]["4"][0] = 77
    refuse(d, "Empire 'B': its layout for type 4 must be a dot name, got 77")


def test_too_many_dots_for_the_core_are_refused() -> None:
    d = user_dict()
    d["dots"] = [{"name": f"a{k}"} for k in range(1, EMPIRE_MAX_DOTS + 2)]
    refuse(d, "board has 1025 dots; the core takes at most EMPIRE_MAX_DOTS = 1024")
    with pytest.raises(InvalidBoardError, match="1088 dots; the core takes at most"):
        polar_board("big", 64, 17)
    b = polar_board("full", 128, 8)  # exactly the limit: every index fits an int16
    assert len(b) == EMPIRE_MAX_DOTS and int(b.neighbour_array().max()) == EMPIRE_MAX_DOTS - 1


def test_too_few_dots_are_refused() -> None:
    d = user_dict()
    d["dots"] = d["dots"][:75]
    refuse(d, "board has 75 dots; it needs at least 76")


def test_polar_coordinates_are_checked() -> None:
    d = user_dict()
    row(d, "c3")["at"] = [2, 12]
    refuse(d, "dot 'c3': its polar coordinates [2, 12] are not [spoke, ring]")
    d = user_dict()
    row(d, "c3")["at"] = [3, 3]
    refuse(d, "dot 'd3': its polar coordinates [3, 3] are those of 'c3' too")
    d = user_dict()
    del row(d, "c3")["at"]
    refuse(d, "dot 'c3' has no 'at' while other dots have polar coordinates")
    d = user_dict()
    del d["spokes"]
    refuse(d, "so spokes must be an int")
    d = user_dict()
    for r in d["dots"]:
        del r["at"]
    refuse(d, "spokes and rings are given but the dots have no polar coordinates")


def test_a_board_built_in_code_is_validated_the_same_way() -> None:
    b = load_board("ep16")
    fields = {f.name: getattr(b, f.name) for f in dataclasses.fields(b) if f.init}
    bad = [list(r) for r in b.neighbours]
    bad[0][OUT] = 999
    with pytest.raises(InvalidBoardError, match=r"dot 'a1': its out neighbour 999 is not"):
        Board(**{**fields, "neighbours": bad})
    with pytest.raises(InvalidBoardError, match=r"dot 'a1': its neighbour row must hold 4"):
        Board(**{**fields, "neighbours": [r[:3] for r in b.neighbours]})
    with pytest.raises(InvalidBoardError, match=r"Empire 'B' \(Babylonian\) has no base"):
        Board(**{**fields, "base_of": {d: e for d, e in b.base_of.items() if e != "B"}})
    lists = Board(**{**fields, "dots": list(b.dots), "neighbours": [list(r) for r in b.neighbours]})
    assert lists == b and isinstance(lists.dots, tuple)
    from_arrays = Board(**{**fields, "neighbours": b.neighbour_array()})  # numpy ints are ints
    assert from_arrays == b and type(from_arrays.neighbours[0][0]) is int
    with pytest.raises(InvalidBoardError, match=r"dot 'a1': its out neighbour True is not"):
        Board(
            **{
                **fields,
                "neighbours": [(True, *r[1:]) if i == 0 else r for i, r in enumerate(b.neighbours)],
            }
        )


def test_polar_board_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="spokes must be even"):
        polar_board("odd", 15, 11)
    with pytest.raises(ValueError, match=r"rings must be an int in \[7, "):
        polar_board("low", 16, 6)
    with pytest.raises(ValueError, match=r"spokes must be an int"):
        polar_board("s", 16.0, 11)  # type: ignore[arg-type]
    with pytest.raises(InvalidBoardError, match="a board name is"):
        polar_board("", 16, 11)
