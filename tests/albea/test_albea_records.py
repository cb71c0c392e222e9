"""Game records of Plateau (Albea): lossless JSON, pickle and copy round trips (set-up positions
included), per-player exports that hide what the player did not see, and corrupt or hand-edited
records refused with InvalidRecordError naming the ply or the field."""

from __future__ import annotations

import copy
import json
import pickle
import random
import re
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

import plateau

HEADER = {
    "format": "plateau-game-record",
    "version": 1,
    "game": "albea-plateau",
    "variant": "standard",
}


def random_game(seed: int, plies: int | None = None, start: Any = None) -> Any:
    """Random legal play with a fixed seed, for ``plies`` plies in all or to the end."""
    rng = random.Random(seed)
    s = plateau.new_game("albea-plateau") if start is None else start
    while not s.is_terminal() and (plies is None or s.ply < plies):
        legal = s.legal_actions()
        s.apply(int(legal[rng.randrange(len(legal))]))
        assert s.ply < 2000
    return s


def position(stacks: dict[str, str], to_move: int, **kwargs: Any) -> Any:
    return plateau.AlbeaPlateauState.from_position(stacks, to_move, **kwargs)


def observe(s: Any) -> tuple[Any, ...]:
    """Everything observable about a game: the full truth, its history, both players' views."""
    return (
        type(s),
        s.variant,
        s.options,
        s.hash,
        s.history,
        s.history_strings(),
        s.ply,
        s.phase,
        s.current_player,
        s.is_terminal(),
        s.result,
        s.winner,
        s.ranking(),
        s.returns(),
        s.position_dict(),
        s.setup_position(),
        s.legal_actions().tolist(),
        s.observation(0),
        s.observation(1),
        s.observation_tensor(0).tobytes(),
        s.observation_tensor(1).tobytes(),
        s.observation_string(0),
        s.observation_string(1),
        str(s),
    )


def assert_same_with_same_past(a: Any, b: Any) -> None:
    """Same observable state now, and undoing both all the way back gives the same states."""
    assert observe(a) == observe(b)
    a, b = a.clone(), b.clone()
    while a.ply and a.history:
        assert a.undo() == b.undo()
        assert observe(a) == observe(b)
    for g in (a, b):
        with pytest.raises(IndexError):
            g.undo()


def assert_round_trip(s: Any) -> dict[str, Any]:
    """``s`` written as JSON and read back is the same game; returns the record."""
    text = s.to_json()
    assert text == plateau.to_json(s)
    record = json.loads(text)
    assert {k: record[k] for k in HEADER} == HEADER
    assert record["options"] == s.options == {"max_plies": s.max_plies}
    assert record["actions"] == s.history_strings()
    assert ("result" in record) == s.is_terminal()
    assert ("setup" in record) == (s.setup_position() is not None)
    assert "viewer" not in record
    loaded = plateau.from_json(text)
    assert loaded is not s
    assert observe(loaded) == observe(s)
    assert loaded.to_json() == text
    assert observe(plateau.from_json(text.encode())) == observe(s)
    return record


# -- JSON round trips ----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_json_round_trip_at_many_plies(seed: int) -> None:
    end = random_game(seed)
    assert end.is_terminal()
    n = len(end.history)
    # every ply that starts or answers an exchange, and a spread of the others
    plies = {0, 1, 2, 3, n - 1, n} | set(range(5, n, 9))
    texts = end.history_strings()
    plies |= {k + d for k, t in enumerate(texts) for d in (0, 1, 2) if t.startswith("offer:")}
    for k in sorted(plies):
        s = plateau.new_game("albea-plateau")
        s.apply_all(end.history[:k])
        record = assert_round_trip(s)
        assert len(record["actions"]) == k
        # the loaded game goes on like the original
        loaded = plateau.from_json(s.to_json())
        if not s.is_terminal():
            a = int(s.legal_actions()[-1])
            s.apply(a)
            loaded.apply(a)
            assert observe(loaded) == observe(s)
    assert_same_with_same_past(plateau.from_json(end.to_json()), end)


def test_round_trips_cover_every_phase_and_exchange() -> None:
    # the seeds above reach an exchange answer, a refusal, a stomp and both winners
    seen: set[str] = set()
    winners = set()
    for seed in range(8):
        s = random_game(seed)
        winners.add(s.winner)
        for t in s.history_strings():
            seen.add(t.split(":")[0] if t.split(":")[0] in ("offer", "give") else t)
    assert {"offer", "give", "refuse"} <= seen
    assert any(t.startswith(("!", "~!")) for t in seen)
    assert winners == {0, 1}


def test_max_plies_option_round_trips() -> None:
    s = random_game(seed=3, start=plateau.new_game("albea-plateau", max_plies=12))
    assert s.ply == 12 and s.result == "draw" and s.winner is None
    record = assert_round_trip(s)
    assert record["options"] == {"max_plies": 12}
    assert record["result"] == {"ranking": [[0, 1]], "returns": [0.5, 0.5]}
    assert_same_with_same_past(plateau.from_json(json.dumps(record)), s)
    # the same actions without the option are an unfinished game: its result no longer matches
    unlimited = dict(record, options={"max_plies": 0})
    with pytest.raises(plateau.InvalidRecordError, match=r"does not match.*game over: False"):
        plateau.from_json(json.dumps(unlimited))
    shorter = dict(record, options={"max_plies": 11})
    with pytest.raises(plateau.InvalidRecordError, match=r"^ply 11: .*game is over"):
        plateau.from_json(json.dumps(shorter))


# -- pickle and copies --------------------------------------------------------------------------


def offer_pending(seed: int) -> Any:
    """The game of ``seed`` just after its first offer."""
    texts = random_game(seed).history_strings()
    k = next(k for k, t in enumerate(texts) if t.startswith("offer:"))
    s = random_game(seed, plies=k + 1)
    assert s.phase == "respond"
    return s


GAMES: dict[str, Callable[[], Any]] = {
    "start": lambda: plateau.new_game("albea-plateau"),
    "after black's opening": lambda: random_game(1, plies=1),
    "mid-game": lambda: random_game(5, plies=40),
    "offer pending": lambda: offer_pending(0),
    "finished": lambda: random_game(6),
    "draw by max_plies": lambda: random_game(
        2, start=plateau.new_game("albea-plateau", max_plies=7)
    ),
    "set-up": lambda: random_game(3, plies=6, start=position({"b1": "Wxx Wrr", "b2": "Bxx"}, 1)),
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_pickle_and_copies(name: str) -> None:
    s = GAMES[name]()
    if name == "offer pending":
        assert s.phase == "respond"
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(s, protocol=protocol))
        assert back is not s
        assert_same_with_same_past(back, s)
    for dup in (copy.deepcopy(s), copy.copy(s), s.clone()):
        assert dup is not s
        assert_same_with_same_past(dup, s)
    # copies are independent
    dup = copy.deepcopy(s)
    before = observe(s)
    if not dup.is_terminal():
        dup.apply(int(dup.legal_actions()[0]))
    else:
        dup.undo()
    assert observe(s) == before
    assert observe(dup) != before
    box = pickle.loads(pickle.dumps({"game": s, "same": s}))
    assert box["game"] is box["same"]
    assert observe(box["game"]) == before


# -- results -------------------------------------------------------------------------------------


def test_draw_by_two_passes_round_trips() -> None:
    s = position({}, to_move=0, reserve=[{}, {}])
    s.apply_all(["pass", "pass"])
    assert s.result == "draw" and s.passes == 2
    record = assert_round_trip(s)
    assert record["actions"] == ["pass", "pass"]
    assert record["result"] == {"ranking": [[0, 1]], "returns": [0.5, 0.5]}


def refused(text: str | bytes | Any, *patterns: str) -> str:
    with pytest.raises(plateau.InvalidRecordError) as info:
        plateau.from_json(text)
    message = str(info.value)
    for pattern in patterns:
        assert re.search(pattern, message), (pattern, message)
    assert isinstance(info.value, ValueError)
    return message


# -- set-up positions ----------------------------------------------------------------------------

SETUPS: dict[str, tuple[Any, tuple[str, ...]]] = {
    "mask, no action": (lambda: position({"a1": "Wxx Wbx"}, 1), ()),
    "capture": (lambda: position({"b1": "Wxx Wrr", "b2": "Bxx"}, 1), ("b1:2-b2",)),
    "pin": (lambda: position({"a1": "Wrr Wxx", "b2": "Bbb"}, 1), ("a1:2-b2:1-c3", "xx@d1/0")),
    "stomp": (lambda: position({"b2": "Bbb Wxx Bxx Wbb Wrr"}, 1), ("!b2", "xx@a1/0")),
    "flip stomp": (lambda: position({"b2": "Bxx Wxr"}, 1), ("~!b2",)),
    "exchange": (
        lambda: position(
            {"a1": "Wxx Wbx", "d4": "Bxx Brr"}, 1, prisoners=(["rr", "bb", "xx"], ["bx"])
        ),
        ("offer:bx", "give:rr,xx", "bx@b2/0"),
    ),
    "refusal": (
        lambda: position({"a1": "Wxx Wbx", "d4": "Bxx Brr"}, 1, prisoners=(["bb"], ["xx"])),
        ("offer:xx", "refuse", "a1:1-b2"),
    ),
    "floor and passes": (
        lambda: position({"b2": "Wrr Bxx"}, 0, reserve=[{"xx": 3}, {}], floor=(7, 0), passes=1),
        ("xx@a1/0", "pass", "xx@a1/1"),
    ),
    "twister": (lambda: position({"b1": "Wxx Wox"}, 1), ("b1:2-b2:1-c3",)),
    "win by a unit of six": (
        lambda: position({"c3": "Wxx Wxx Wxx Wxx Wbb"}, 1, prisoners=([], ["xx"] * 4)),
        ("rr@c3/5",),
    ),
    "max_plies": (lambda: position({"b2": "Bxx Wrr"}, 0, max_plies=3), ("xx@b2/1", "!b2")),
}


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_set_up_position_round_trips(name: str) -> None:
    make, actions = SETUPS[name]
    start = make()
    root = start.position_dict()
    assert start.setup_position() == root
    s = start.clone()
    s.apply_all(actions)
    record = assert_round_trip(s)
    assert record["setup"] == root
    assert record["actions"] == list(actions)
    loaded = plateau.from_json(json.dumps(record))
    assert_same_with_same_past(loaded, s)
    while loaded.history:
        loaded.undo()
    assert loaded.position_dict() == root and loaded.hash == start.hash
    with pytest.raises(IndexError):
        loaded.undo()
    # a set-up record is not a game from the opening: without its setup it does not replay
    if actions:
        without = {k: v for k, v in record.items() if k not in ("setup", "result")}
        refused(json.dumps(without), r"^ply 0: ")


def test_set_up_position_with_a_later_ply() -> None:
    data = position({"b1": "Wxx Wrr", "b2": "Bxx"}, 1).position_dict()
    s = plateau.AlbeaPlateauState.from_position_dict(dict(data, ply=40))
    s.apply("b1:2-b2")
    record = assert_round_trip(s)
    assert record["setup"]["ply"] == 40 and plateau.from_json(s.to_json()).ply == 41


def test_set_up_game_finished_by_a_win() -> None:
    s = position({"c3": "Wxx Wxx Wxx Wxx Wbb"}, 1, prisoners=([], ["xx"] * 4))
    s.apply("rr@c3/5")
    assert s.winner == 1
    record = assert_round_trip(s)
    assert record["result"] == {"ranking": [[1], [0]], "returns": [0.0, 1.0]}
    refused(json.dumps(dict(record, result={"ranking": [[0], [1]], "returns": [1.0, 0.0]})))


# -- per-player exports --------------------------------------------------------------------------


def actors(s: Any) -> list[int]:
    """Who took each action of the history (replayed from the root)."""
    probe = plateau.new_game("albea-plateau")
    out = []
    for a in s.history:
        out.append(probe.current_player)
        probe.apply(a)
    return out


def public_form(text: str) -> str:
    """What the opponent may see of an action (the rules page, Hidden information)."""
    if "," in text and "@" in text:  # opening: only the top piece's up face
        pieces, square = text.split("@")
        return f"??,{pieces.split(',')[1][0]}?@{square}"
    if "@" in text:  # onboard: only the placed up face
        return f"{text[0]}?{text[2:]}"
    return text


EXAMPLE = ["xx,bx@a1", "rr,rb@d4", "xx@c3/0", "xx@b2/0", "rb@c3/1"]


def test_export_of_a_small_game() -> None:
    s = plateau.new_game("albea-plateau")
    s.apply_all(EXAMPLE)
    black = json.loads(s.to_json(viewer=0))
    white = json.loads(s.to_json(viewer=1))
    assert black["actions"] == ["xx,bx@a1", "??,r?@d4", "xx@c3/0", "x?@b2/0", "rb@c3/1"]
    assert white["actions"] == ["??,b?@a1", "rr,rb@d4", "x?@c3/0", "xx@b2/0", "r?@c3/1"]
    for p, export in ((0, black), (1, white)):
        assert export["viewer"] == p
        assert set(export) == {*HEADER, "options", "viewer", "actions"}
        assert {k: export[k] for k in HEADER} == HEADER
        assert export["actions"] == s.observation(p)["history"] == s.history_strings(viewer=p)


@pytest.mark.parametrize("seed", [0, 4, 7])
@pytest.mark.parametrize("plies", [2, 30, None])
def test_export_hides_the_opponents_faces(seed: int, plies: int | None) -> None:
    s = random_game(seed, plies)
    full = s.history_strings()
    who = actors(s)
    assert who[:2] == [0, 1]
    for p in (0, 1):
        export = json.loads(s.to_json(viewer=p))
        assert export["viewer"] == p
        expected = {*HEADER, "options", "viewer", "actions"} | (
            {"result"} if plies is None else set()
        )
        assert set(export) == expected
        assert export["actions"] == s.history_strings(viewer=p) == s.observation(p)["history"]
        assert len(export["actions"]) == len(full)
        hidden = 0
        for text, shown, actor in zip(full, export["actions"], who):
            if actor == p:
                assert shown == text  # own actions in full
            else:
                assert shown == public_form(text)
                hidden += shown != text
        assert hidden >= 1  # at least the opponent's opening was redacted
        if plies is None:
            assert export["result"] == json.loads(s.to_json())["result"]


def test_export_is_the_same_for_worlds_the_player_cannot_tell_apart() -> None:
    # Black's hidden choices differ (bottom piece, down faces); White saw the same things
    a, b = plateau.new_game("albea-plateau"), plateau.new_game("albea-plateau")
    a.apply_all(EXAMPLE)
    b.apply_all(["rr,bb@a1", "rr,rb@d4", "xx@c3/0", "xx@b2/0", "rx@c3/1"])
    assert a.to_json() != b.to_json()
    assert a.observation(1) == b.observation(1)
    assert a.to_json(viewer=1) == b.to_json(viewer=1)
    assert a.to_json(viewer=0) != b.to_json(viewer=0)


def test_export_of_a_set_up_game_hides_the_opponents_faces() -> None:
    # White's bottom piece on b1 is never shown: an Ace in one world, a Blue in the other
    a = position({"b1": "Wrb Wrr", "b2": "Bxx"}, to_move=1)
    b = position({"b1": "Wbb Wrr", "b2": "Bxx"}, to_move=1)
    for s in (a, b):
        s.apply_all(["xx@d4/0", "xx@a1/0"])
    assert a.observation(0) == b.observation(0)
    assert a.history_strings(viewer=0) == b.history_strings(viewer=0)
    assert a.to_json(viewer=0) == b.to_json(viewer=0)


@pytest.mark.parametrize("viewer", [0, 1])
def test_export_is_refused_by_from_json(viewer: int) -> None:
    for s in (random_game(1, 20), random_game(1), position({"b2": "Bxx Wrr"}, 0)):
        text = s.to_json(viewer=viewer)
        message = refused(text, "view", rf"player {viewer}\b", "cannot be replayed")
        assert "redacted" in message
        # also when the actions happen to be replayable
        record = json.loads(s.to_json())
        refused(json.dumps(dict(record, viewer=viewer)), "view")
        refused(json.dumps(dict(record, viewer=None)), "view")


# -- corrupt or hand-edited records -------------------------------------------------------------


def base_record() -> dict[str, Any]:
    record = json.loads(random_game(4, plies=30).to_json())
    assert len(record["actions"]) == 30 and "result" not in record
    return record


def edited(change: Callable[[dict[str, Any]], Any]) -> str:
    record = base_record()
    change(record)
    return json.dumps(record)


@pytest.mark.parametrize(
    "change,patterns",
    [
        (lambda r: r.update(format="plateau-x-record"), ["format is 'plateau-x-record'"]),
        (lambda r: r.pop("format"), ["format is None"]),
        (lambda r: r.update(version=2), ["version 2"]),
        (lambda r: r.update(version=0), ["version 0"]),
        (lambda r: r.update(version="1"), ["version '1'"]),
        (lambda r: r.update(version=True), ["version True"]),
        (lambda r: r.update(version=1.0), ["version 1.0"]),
        (lambda r: r.pop("version"), ["version None"]),
        (lambda r: r.update(game="chess"), ["unknown game 'chess'"]),
        (lambda r: r.update(game="Plateau"), ["unknown game 'Plateau'"]),
        (lambda r: r.update(game=None), ["'game'", "strings"]),
        (lambda r: r.pop("game"), ["'game'"]),
        (lambda r: r.update(variant="mini"), ["unknown variant 'mini' of 'albea-plateau'"]),
        (lambda r: r.update(variant=None), ["'variant'", "strings"]),
        (lambda r: r.update(moves=[]), ["unknown field", "moves"]),
        (lambda r: r.update(comment="x", zz=1), ["unknown field", "'comment', 'zz'"]),
        (lambda r: r.update(setup_position={}), ["unknown field", "setup_position"]),
        (lambda r: r.update(options=[]), ["'options' must be an object"]),
        (lambda r: r.update(options="max_plies=5"), ["'options' must be an object"]),
        (lambda r: r.update(options=None), ["'options' must be an object"]),
        (lambda r: r.update(options={"first_player": 1}), ["bad options", "'first_player'"]),
        (lambda r: r.update(options={"max_plies": -1}), ["bad options", "max_plies", "-1"]),
        (lambda r: r.update(options={"max_plies": 2**31}), ["bad options", "2147483648"]),
        (lambda r: r.update(options={"max_plies": "5"}), ["bad options", "max_plies", "'5'"]),
        (lambda r: r.update(options={"max_plies": True}), ["'max_plies'", "bad value True"]),
        (lambda r: r.update(options={"max_plies": 1.5}), ["'max_plies'", "bad value 1.5"]),
        (lambda r: r.update(options={"max_plies": None}), ["'max_plies'", "bad value None"]),
        (lambda r: r.update(options={"max_plies": [5]}), ["'max_plies'", r"bad value \[5\]"]),
        (lambda r: r.update(options={"max_plies": 20}), ["^ply 20: ", "game is over"]),
        (lambda r: r.update(actions="xx,xx@a1"), ["'actions' must be a list", "str"]),
        (lambda r: r.update(actions={"0": "xx,xx@a1"}), ["'actions' must be a list", "dict"]),
        (lambda r: r.update(actions=None), ["'actions' must be a list"]),
        (lambda r: r.pop("actions"), ["'actions' must be a list"]),
    ],
)
def test_hand_edited_header(change: Callable[[dict[str, Any]], Any], patterns: list[str]) -> None:
    refused(edited(change), *patterns)


def test_a_plateau_x_record_is_not_a_plateau_record() -> None:
    record = base_record()
    refused(json.dumps(dict(record, game="plateau-x")), "bad options", "'max_plies'")
    del record["options"]
    first = re.escape(repr(record["actions"][0]))
    refused(json.dumps(dict(record, game="plateau-x")), r"^ply 0: ", first, "Plateau X notation")
    x = json.loads(plateau.new_game("plateau-x", "standard").to_json())
    refused(json.dumps(dict(x, game="albea-plateau")), "bad options", "'first_player'")
    del x["options"]
    x["actions"] = ["S@a1"]
    refused(json.dumps(dict(x, game="albea-plateau")), r"^ply 0: cannot read 'S@a1'")


@pytest.mark.parametrize("k", [0, 1, 2, 17, 29])
@pytest.mark.parametrize(
    "bad,reason",
    [
        ("xx,rb@b2", "not a perimeter square"),
        ("rb@c3/24", "gap 24 out of range"),
        ("a1:0-b2", "lift 0 out of range"),
        ("a1:1-b2:1-c3", "not a pick-up or drop-off"),
        ("a1:1-c3:1-b2", "do not lie at increasing distances on one ray"),
        ("offer:zz", "unknown piece type 'zz'"),
        ("give:rb,rb", "2 x rb: a player has only 1"),
        ("", "cannot read"),
        ("resign", "not Plateau notation"),
    ],
)
def test_unparseable_action_at_ply_k(k: int, bad: str, reason: str) -> None:
    def change(r: dict[str, Any]) -> None:
        r["actions"][k] = bad

    message = refused(edited(change), f"^ply {k}: ", re.escape(repr(bad)), re.escape(reason))
    assert "cannot read" in message


def test_illegal_actions_found_by_the_rules() -> None:
    start = position({"b1": "Wxx Wrr", "b2": "Bxx"}, 1).position_dict()

    def record(*actions: str) -> str:
        return json.dumps({**HEADER, "setup": start, "actions": list(actions)})

    assert plateau.from_json(record("b1:2-b2")).prisoners(1) == {"xx": 1}
    refused(record("b1:2-b2:1-b3"), "^ply 0: ", "'b1:2-b2:1-b3' is illegal", "pinning")
    refused(record("b1:1-c2"), "^ply 0: ", "r face up moves along one orthogonal")
    refused(record("b1:2-b2", "b2:1-b3"), "^ply 1: ", "b2 is topped by the opponent|b2 is")
    refused(record("b1:2-b2", "offer:xx"), "^ply 1: ", "player 0 does not hold")
    refused(record("b1:2-b2", "xx@a1/0", "offer:rr"), "^ply 2: ", "'offer:rr'", "not hold")
    refused(record("b1:2-b2", "xx@a1/0", "offer:xx", "give:xx"), "^ply 3: ", "not hold")
    refused(record("b1:2-b2", "xx@a1/0", "offer:xx", "refuse", "refuse"), "^ply 4: ", "no offer")


# -- bad set-up data -----------------------------------------------------------------------------


def setup_record() -> dict[str, Any]:
    s = position({"b1": "Wxx Wrr", "b2": "Bxx"}, 1, prisoners=(["rr"], []))
    s.apply("b1:2-b2")
    record = json.loads(s.to_json())
    assert plateau.from_json(json.dumps(record)).hash == s.hash
    return record


def set_key(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(setup: dict[str, Any]) -> None:
        setup[key] = value

    return change


def del_key(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda setup: setup.pop(key)


def set_piece(field: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(setup: dict[str, Any]) -> None:
        setup["board"][1][0][field] = value

    return change


BAD_SETUPS: dict[str, tuple[Callable[[dict[str, Any]], Any], str]] = {
    "no board": (del_key("board"), r"board must be a list, got None"),
    "no reserve": (del_key("reserve"), r"reserve must be a list, got None"),
    "no phase": (del_key("phase"), r"phase must be one of .*, got None"),
    "no floor": (del_key("floor"), r"floor must be a list, got None"),
    "15 stacks": (set_key("board", [[]] * 15), r"board must be a list of 16 stacks"),
    "17 stacks": (set_key("board", [[]] * 17), r"board must be a list of 16 stacks"),
    "board text": (set_key("board", "b2: Bxx"), r"board must be a list, got 'b2: Bxx'"),
    "unknown type": (set_piece("type", "zz"), r"unknown piece type 'zz'"),
    "owner 2": (set_piece("owner", 2), r"owner must be an int in \[0, 2\), got 2"),
    "owner null": (set_piece("owner", None), r"owner must be an int in \[0, 2\), got None"),
    "up 2": (set_piece("up", 2), r"up must be an int in \[0, 2\), got 2"),
    "xx upside down": (set_piece("up", 1), r"a xx has no second orientation \(up must be 0\)"),
    "no shown flags": (lambda d: d["board"][1][0].pop("shown"), r"shown must be a list of two"),
    "piece not an object": (
        lambda d: d["board"][1].append("Wrr"),
        r"piece 2 of stack 1 must be a dict",
    ),
    "five white mutes": (
        lambda d: d["board"][3].extend([d["board"][1][0]] * 4),
        r"White has 8 x xx on the board, in reserve and held by the opponent; only 4 exist",
    ),
    "too tall": (
        lambda d: d["board"].__setitem__(3, [{}] * 25),
        r"stack 3 must be a list of at most 24 pieces",
    ),
    "reserve of nine": (
        set_key("reserve", [{"xx": 9}, {}]),
        r"reserve count of xx must be an int in \[0, 5\), got 9",
    ),
    "reserve beyond the material": (
        lambda d: d["reserve"][1].update(xx=4),
        r"White has 5 x xx on the board, in reserve and held by the opponent; only 4 exist",
    ),
    "unknown prisoner": (set_key("prisoners", [{"zz": 1}, {}]), r"unknown piece type 'zz'"),
    "prisoner count text": (
        set_key("prisoners", [{"rr": "1"}, {}]),
        r"prisoner count of rr must be an int in \[0, 3\), got '1'",
    ),
    "unknown phase": (
        set_key("phase", "middle"),
        r"phase must be one of opening, play, respond, over, got 'middle'",
    ),
    "to_move 2": (set_key("to_move", 2), r"to_move must be an int in \[0, 2\), got 2"),
    "to_move text": (set_key("to_move", "1"), r"to_move must be an int in \[0, 2\), got '1'"),
    "floor 60": (set_key("floor", [60, 0]), r"floor must be an int in \[0, 60\), got 60"),
    "floor text": (set_key("floor", "00"), r"floor must be a list, got '00'"),
    "passes 3": (set_key("passes", 3), r"passes must be an int in \[0, 2\), got 3"),
    "ply -1": (set_key("ply", -1), r"ply must be an int"),
    "ply 1.5": (set_key("ply", 1.5), r"ply must be an int"),
    "result without a winner": (
        set_key("result", "win"),
        r"winner must be an int in \[0, 2\), got None",
    ),
    "result while playing": (set_key("result", "draw"), r"result needs the over phase"),
    "over without a result": (set_key("phase", "over"), r"over phase a result"),
    "tender while playing": (
        set_key("tender", {"xx": 1}),
        r"an offerer and a tender belong to the respond phase only",
    ),
    "respond without a tender": (
        set_key("phase", "respond"),
        r"offerer must be an int in \[0, 2\), got None",
    ),
    "tender not held": (
        lambda d: d.update(phase="respond", offerer=0, to_move=1, tender={"bb": 1}),
        r"tender must come from the offerer's prisoners",
    ),
    "black mutes beyond the material": (
        lambda d: d["board"].__setitem__(3, [d["board"][5][0]] * 4),  # b2 and reserve too
        r"Black has 8 x xx on the board, in reserve and held by the opponent; only 4 exist",
    ),
    "other options": (
        set_key("options", {"max_plies": 7}),
        r"the set-up's options \{'max_plies': 7\} are not the game's \{'max_plies': 0\}",
    ),
    "options as a list": (set_key("options", [7]), r"are not the game's"),
    "another option": (set_key("options", {"max_plies": None, "x": 1}), r"are not the game's"),
    "a history": (set_key("history", ["b1:2-b2"]), r"a set-up position has no history"),
    "white mutes held beyond the material": (
        set_key("prisoners", [{"xx": 4, "rr": 1}, {}]),
        r"White has 8 x xx on the board, in reserve and held by the opponent; only 4 exist",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_SETUPS))
def test_bad_set_up_data(case: str) -> None:
    change, pattern = BAD_SETUPS[case]
    record = setup_record()
    change(record["setup"])
    refused(json.dumps(record), "^bad set-up position: ", pattern)


def test_set_up_options_are_the_records() -> None:
    """A set-up's own options, where it has them, are the record's (position_dict writes them);
    an empty history is what position_dict leaves out."""
    record = setup_record()
    assert record["setup"]["options"] == {"max_plies": None}
    record["setup"]["history"] = []
    assert plateau.from_json(json.dumps(record)).ply == record["setup"]["ply"] + 1
    long = dict(record, options={"max_plies": 500})
    refused(json.dumps(long), "^bad set-up position: ", "are not the game's")
    long["setup"] = dict(record["setup"], options={"max_plies": 500})
    assert plateau.from_json(json.dumps(long)).max_plies == 500
    # no cap, as position data says it (a null or 0 max_plies, {} or null options, or none)
    for options in ({"max_plies": 0}, {"max_plies": None}, {}, None):
        record["setup"]["options"] = options
        assert plateau.from_json(json.dumps(record)).max_plies == 0
    del record["setup"]["options"]
    assert plateau.from_json(json.dumps(record)).max_plies == 0
    # a cap of 1 is not given by true, 1.0 or "1" (Python holds True == 1 == 1.0)
    one = dict(record, options={"max_plies": 1})
    one["setup"] = dict(record["setup"], options={"max_plies": 1})
    assert plateau.from_json(json.dumps(one)).max_plies == 1
    for bad in (True, 1.0, "1"):
        one["setup"]["options"] = {"max_plies": bad}
        refused(json.dumps(one), "^bad set-up position: ", "are not the game's")


@pytest.mark.parametrize("setup", [None, [], "b2: Bxx", 5, True])
def test_set_up_position_is_an_object(setup: Any) -> None:
    record = dict(setup_record(), setup=setup)
    refused(json.dumps(record), "^bad set-up position: ", type(setup).__name__)


def test_set_up_position_must_fit_the_actions() -> None:
    record = setup_record()
    record["setup"]["to_move"] = 0  # now Black is to move, and b1 is White's
    refused(json.dumps(record), r"^ply 0: 'b1:2-b2' is illegal: the stack on b1 is topped")


def test_set_up_run_of_six_in_an_unfinished_game() -> None:
    record = setup_record()
    black = {"owner": 0, "type": "xx", "up": 0, "shown": [True, False]}
    blue = dict(black, type="bb")
    record["setup"]["board"][5] = [black] * 4 + [blue] * 2
    record["setup"]["reserve"][0] = {"rr": 2, "bx": 1, "rx": 1, "ox": 1, "rb": 1}
    refused(json.dumps(record), "^bad set-up position: ", "non-terminal", "run of six")


def test_set_up_six_prisoners_in_an_unfinished_game() -> None:
    record = setup_record()
    assert record["setup"]["prisoners"] == [{"rr": 1}, {}]
    record["setup"]["prisoners"][0] = {"rr": 1, "xx": 3, "bb": 2}
    record["setup"]["reserve"][1] = {"bx": 1, "rx": 1, "ox": 1, "rb": 1}
    refused(json.dumps(record), "^bad set-up position: ", "non-terminal", "six prisoners")
    record["setup"]["prisoners"][0] = {"rr": 1, "xx": 3, "bb": 1}  # five are fine
    record["setup"]["reserve"][1]["bb"] = 1
    assert plateau.from_json(json.dumps(record)).prisoners(0) == {"xx": 3, "bb": 1, "rr": 1}


@pytest.mark.parametrize(
    "key,value", [("offerer", 0), ("passes", 2), ("floor", [1.5, 0]), ("to_move", True)]
)
def test_inconsistent_set_up_values_are_refused(key: str, value: Any) -> None:
    record = setup_record()
    record["setup"][key] = value
    refused(json.dumps(record), "^bad set-up position: ", key)


CHILD = """
import json, sys
import plateau
s = plateau.AlbeaPlateauState.from_position({"b2": "Bxx"}, 0)
record = json.loads(s.to_json())
record["setup"][sys.argv[1]] = record["setup"][sys.argv[1]][:1]
try:
    plateau.from_json(json.dumps(record))
    print("accepted")
except plateau.InvalidRecordError as e:
    print(e)
"""


@pytest.mark.parametrize("key", ["floor", "reserve", "prisoners"])
def test_short_lists_in_a_set_up_position(key: str) -> None:
    # in a child process: reading past the end of a list may crash the interpreter
    run = subprocess.run(
        [sys.executable, "-c", CHILD, key], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    message = run.stdout.strip()
    assert message.startswith("bad set-up position: ")
    assert re.search(r"index out of range|\b(2|two) (entries|items|values|dicts)\b|length", message)


# -- determinizations ----------------------------------------------------------------------------


@pytest.mark.parametrize("plies", [2, 25])
def test_determinizations_have_no_record(plies: int) -> None:
    s = random_game(8, plies)
    for p in (0, 1):
        for d in (s.resample_hidden(p, 3), s.view_for(p, 4), s.determinizer(p).sample(5)):
            assert d.is_determinization and d.history == []
            for viewer in (None, 0, 1):
                with pytest.raises(ValueError, match=r"determinization .* has no record"):
                    d.to_json(viewer=viewer)
            with pytest.raises(ValueError, match="determinization"):
                pickle.dumps(d)
            clone = copy.deepcopy(d)
            assert clone.is_determinization
            with pytest.raises(ValueError, match="determinization"):
                clone.to_json()
    # the game it was drawn from still writes its record
    assert_round_trip(s)


@pytest.mark.parametrize("viewer", [None, 0])
def test_module_to_json_refuses_a_determinization(viewer: int | None) -> None:
    d = random_game(8, 25).resample_hidden(1, 3)
    with pytest.raises(ValueError, match="determinization"):
        plateau.to_json(d, viewer=viewer)
