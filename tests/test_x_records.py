"""Game records: lossless JSON, pickle and deepcopy round trips, and corrupt or hand-edited
records refused with InvalidRecordError naming the ply and the reason."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest

import plateau
from helpers import observe, random_game

VARIANTS = ["standard", "triple", "mini", "double"]
PLAYERS = {"standard": 4, "triple": 3, "mini": 2, "double": 2}


def assert_same_with_same_past(a: Any, b: Any) -> None:
    """Same observable state now, and undoing both all the way back gives the same states."""
    assert observe(a) == observe(b)
    a, b = a.clone(), b.clone()
    while a.ply:
        assert a.undo() == b.undo()
        assert observe(a) == observe(b)
    with pytest.raises(IndexError):
        b.undo()


def games_to_check() -> list[tuple[str, int, int | None, int]]:
    cases = []
    for i, variant in enumerate(VARIANTS):
        for first in range(PLAYERS[variant]):
            cases.append((variant, 10 * i + first, 13 + first, first))  # mid-game
            cases.append((variant, 100 + 10 * i + first, None, first))  # finished
        cases.append((variant, 1, 0, 0))  # start position
    return cases


@pytest.mark.parametrize(
    "variant,seed,plies,first", games_to_check(), ids=lambda v: str(v) if v is not None else "end"
)
def test_json_round_trip(variant: str, seed: int, plies: int | None, first: int) -> None:
    s = random_game(variant, seed, plies, first)
    if plies is None:
        assert s.is_terminal()
    else:
        assert s.ply == plies and not s.is_terminal()
    text = s.to_json()
    assert text == plateau.to_json(s)
    record = json.loads(text)
    assert record["format"] == "plateau-game-record" and record["version"] == 1
    assert (record["game"], record["variant"]) == ("plateau-x", variant)
    assert record["options"] == {"first_player": first}
    assert record["actions"] == s.history_strings()
    assert ("result" in record) == s.is_terminal()
    loaded = plateau.from_json(text)
    assert type(loaded) is type(s)
    assert loaded.first_player == first
    assert_same_with_same_past(loaded, s)
    # bytes are accepted too, and writing the loaded game gives the same text
    assert loaded.to_json() == text
    assert observe(plateau.from_json(text.encode())) == observe(s)
    # the loaded game goes on like the original
    if not s.is_terminal():
        a = int(s.legal_actions()[-1])
        s.apply(a)
        loaded.apply(a)
        assert observe(loaded) == observe(s)


def test_undo_after_loading_gives_the_hashes_of_the_original() -> None:
    s = random_game("double", seed=5, plies=25)
    hashes = []
    probe = s.clone()
    while probe.ply:
        hashes.append(probe.hash)
        probe.undo()
    hashes.append(probe.hash)
    loaded = plateau.from_json(s.to_json())
    loaded_hashes = [loaded.hash]
    while loaded.ply:
        loaded.undo()
        loaded_hashes.append(loaded.hash)
    assert loaded_hashes == hashes
    assert loaded_hashes[-1] == plateau.new_game("plateau-x", "double").hash
    assert len(set(hashes)) > 1


def test_indented_json_loads_the_same() -> None:
    s = random_game("triple", seed=2, plies=9, first_player=1)
    text = plateau.to_json(s, indent=2)
    assert "\n" in text
    assert observe(plateau.from_json(text)) == observe(s)


def test_hand_written_record_in_any_spelling() -> None:
    text = json.dumps(
        {
            "format": "plateau-game-record",
            "version": 1,
            "game": "plateau-x",
            "variant": "mini",
            "actions": ["t@C2b2B3", " p@C3", "S@F6", "c3-C2"],
        }
    )
    s = plateau.from_json(text)
    assert s.history_strings() == ["T@b2c2b3", "P@c3", "S@f6", "c3-c2"]
    assert s.options == {"first_player": 0}  # options may be left out
    assert s.piece_at("c2") == 1 and s.level("c2") == 1 and s.piece_at("c3") is None


# -- pickle and deepcopy -----------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("plies", [0, 11, None])
def test_pickle_and_copies(variant: str, plies: int | None) -> None:
    s = random_game(variant, seed=len(variant), plies=plies, first_player=1)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(s, protocol=protocol))
        assert back is not s
        assert_same_with_same_past(back, s)
    for dup in (copy.deepcopy(s), copy.copy(s)):
        assert dup is not s
        assert_same_with_same_past(dup, s)
    # copies are independent
    dup = copy.deepcopy(s)
    before = observe(s)
    if not dup.is_terminal():
        dup.apply(int(dup.legal_actions()[0]))
    elif dup.ply:
        dup.undo()
    assert observe(s) == before
    assert observe(dup) != before
    # a container of states deep-copies and pickles too
    box = {"game": s, "same": s}
    box2 = pickle.loads(pickle.dumps(box))
    assert box2["game"].hash == s.hash and box2["game"].history == s.history
    box3 = copy.deepcopy(box)
    assert box3["game"] is box3["same"]  # the memo keeps shared references shared
    assert box3["game"] is not s


# -- corrupt or hand-edited records ------------------------------------------------------------


def base_record(finished: bool = False) -> dict[str, Any]:
    s = random_game("mini", seed=4, plies=None if finished else 10)
    record = json.loads(s.to_json())
    assert isinstance(record, dict)
    return record


def refused(text: str | bytes, *fragments: str) -> str:
    with pytest.raises(plateau.InvalidRecordError) as info:
        plateau.from_json(text)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    assert isinstance(info.value, ValueError)
    return message


def test_invalid_record_error_is_a_value_error() -> None:
    assert issubclass(plateau.InvalidRecordError, ValueError)


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ("not json", "not valid JSON"),
        ("{'format': 1}", "not valid JSON"),
        (b"\xff\xfe\x00", "not valid JSON"),
        ("[]", "JSON object, got list"),
        ('"a string"', "JSON object, got str"),
        ("42", "JSON object, got int"),
        ("null", "JSON object, got NoneType"),
        ("true", "JSON object"),
        ("{}", "format"),
    ],
)
def test_not_a_record(text: str | bytes, fragment: str) -> None:
    refused(text, fragment)


@pytest.mark.parametrize("value", [None, 3, ["{}"], {"a": 1}])
def test_not_text(value: Any) -> None:
    refused(value, "JSON text", type(value).__name__)


@pytest.mark.parametrize("finished", [False, True])
def test_truncated_text(finished: bool) -> None:
    text = json.dumps(base_record(finished))
    for cut in (1, 2, len(text) // 2, len(text) - 2, len(text) - 1):
        refused(text[:cut], "not valid JSON")


def edited(change: Any, finished: bool = False) -> str:
    record = base_record(finished)
    change(record)
    return json.dumps(record)


@pytest.mark.parametrize(
    "change,fragments",
    [
        (lambda r: r.update(format="chess-pgn"), ["format", "chess-pgn"]),
        (lambda r: r.pop("format"), ["format", "None"]),
        (lambda r: r.update(version=2), ["version 2"]),
        (lambda r: r.update(version=0), ["version 0"]),
        (lambda r: r.update(version="1"), ["version '1'"]),
        (lambda r: r.pop("version"), ["version None"]),
        (lambda r: r.update(game="chess"), ["unknown game 'chess'"]),
        (lambda r: r.update(game=None), ["'game'", "strings"]),
        (lambda r: r.pop("game"), ["'game'"]),
        (lambda r: r.update(variant="huge"), ["unknown variant 'huge'"]),
        (lambda r: r.update(variant=["mini"]), ["'variant'", "strings"]),
        (lambda r: r.update(moves=[]), ["unknown field", "moves"]),
        (lambda r: r.update(comment="x", zz=1), ["unknown field", "comment, zz"]),
        (lambda r: r.update(options=[]), ["'options' must be an object"]),
        (lambda r: r.update(options="first_player=1"), ["'options' must be an object"]),
        (lambda r: r.update(options=None), ["'options' must be an object"]),
        (lambda r: r.update(options={"players": 2}), ["bad options", "players"]),
        (lambda r: r.update(options={"first_player": 2}), ["bad options", "first_player 2"]),
        (lambda r: r.update(options={"first_player": -1}), ["bad options", "first_player -1"]),
        (lambda r: r.update(options={"first_player": "0"}), ["bad options", "first_player"]),
        (lambda r: r.update(options={"first_player": True}), ["first_player", "True"]),
        (lambda r: r.update(options={"first_player": 0.0}), ["first_player", "0.0"]),
        (lambda r: r.update(options={"first_player": None}), ["first_player", "None"]),
        (lambda r: r.update(options={"first_player": [0]}), ["first_player", "[0]"]),
        (lambda r: r.update(actions="S@a1"), ["'actions' must be a list", "str"]),
        (lambda r: r.update(actions={"0": "S@a1"}), ["'actions' must be a list", "dict"]),
        (lambda r: r.update(actions=None), ["'actions' must be a list"]),
        (lambda r: r.pop("actions"), ["'actions' must be a list"]),
    ],
)
def test_hand_edited_header(change: Any, fragments: list[str]) -> None:
    refused(edited(change), *fragments)


@pytest.mark.parametrize("version", [True, 1.0])
def test_version_must_be_the_integer_one(version: Any) -> None:
    refused(edited(lambda r: r.update(version=version)), "version")


def test_huge_first_player_option() -> None:
    refused(edited(lambda r: r.update(options={"first_player": 2**31})), "first_player")


def test_deeply_nested_json() -> None:
    refused("[" * 100_000 + "]" * 100_000, "JSON")


@pytest.mark.parametrize("k", [0, 3, 9])
@pytest.mark.parametrize("bad", [5, None, ["S@a1"], {"a": "S@a1"}, True])
def test_non_string_action_at_ply_k(k: int, bad: Any) -> None:
    def change(r: dict[str, Any]) -> None:
        r["actions"][k] = bad

    refused(edited(change), f"ply {k}:", "notation strings", repr(bad))


@pytest.mark.parametrize("k", [0, 4, 9])
@pytest.mark.parametrize(
    "bad,reason",
    [
        ("S@z9", "off the 6x6 board"),
        ("S@g7", "off the 6x6 board"),
        ("T@a1b1c1", "not the shape of a triple"),
        ("a1-a1", "must end on another space"),
        ("", "not Plateau X notation"),
        ("hello", "not Plateau X notation"),
    ],
)
def test_unparseable_action_at_ply_k(k: int, bad: str, reason: str) -> None:
    def change(r: dict[str, Any]) -> None:
        r["actions"][k] = bad

    message = refused(edited(change), f"ply {k}:", reason, repr(bad))
    assert message.startswith(f"ply {k}:")


def test_illegal_action_at_ply_k() -> None:
    record = base_record()
    actions = record["actions"]
    for k in range(len(actions)):
        # replace ply k by an action that parses but is not legal at that point
        s = plateau.new_game("plateau-x", "mini")
        for a in actions[:k]:
            s.apply(a)
        illegal = next(
            a
            for a in ("end", "S@a1", "S@b1", "a1-f6", "P@a1", "P@f6", "T@a1b1a2")
            if not s.is_legal(s.parse_action(a))
        )
        bad = dict(record, actions=[*actions[:k], illegal, *actions[k + 1 :]])
        message = refused(json.dumps(bad), f"ply {k}:", "illegal", repr(illegal))
        assert message.startswith(f"ply {k}:")


def test_illegal_action_found_by_the_rules() -> None:
    record = {
        "format": "plateau-game-record",
        "version": 1,
        "game": "plateau-x",
        "variant": "mini",
        "options": {"first_player": 1},
        "actions": ["S@a1", "P@c3", "S@a1"],  # player 1 puts a single on its own single
    }
    refused(json.dumps(record), "ply 2:", "'S@a1'", "flush on a single")
    record["actions"] = ["P@c3", "P@c3"]
    refused(json.dumps(record), "ply 1:", "occupied")
    record["actions"] = ["P@c3", "c3-c4"]  # player 0 moves player 1's piece
    refused(json.dumps(record), "ply 1:", "player 0", "no piece on c3")


def test_action_after_the_end() -> None:
    record = base_record(finished=True)
    n = len(record["actions"])
    assert record["actions"][-1] == "end"
    bad = dict(record, actions=[*record["actions"], "S@a1"])
    refused(json.dumps(bad), f"ply {n}:", "game is over")
    bad = dict(record, actions=[*record["actions"], "end"])
    refused(json.dumps(bad), f"ply {n}:", "game is over")


def test_result_must_match_the_replay() -> None:
    record = base_record(finished=True)
    result = record["result"]
    assert plateau.from_json(json.dumps(record)).is_terminal()
    # wrong returns
    bad = dict(record, result=dict(result, returns=list(reversed(result["returns"]))))
    assert bad["result"] != result
    refused(json.dumps(bad), "does not match")
    # wrong ranking
    bad = dict(record, result=dict(result, ranking=[[0, 1]]))
    refused(json.dumps(bad), "does not match")
    # not the shape of a result
    for value in ("1-0", [], {}, {"ranking": result["ranking"]}, 0):
        refused(json.dumps(dict(record, result=value)), "does not match")
    # a result on an unfinished game: the game over flag is named
    unfinished = dict(record, actions=record["actions"][:-1])
    message = refused(json.dumps(unfinished), "does not match")
    assert "game over: False" in message
    # a result on a game cut short anywhere
    cut = dict(record, actions=record["actions"][:5])
    refused(json.dumps(cut), "does not match", "after 5 plies")


def test_a_finished_record_without_result_still_loads() -> None:
    record = base_record(finished=True)
    del record["result"]
    s = plateau.from_json(json.dumps(record))
    assert s.is_terminal() and len(s.history) == len(record["actions"])
