"""Game records of Plateau X: hand-written notation, and records refused with InvalidRecordError
for reasons of this game (its notation, its rules, its seats). Round trips and the
game-independent refusals are in tests/conformance/test_records.py."""

from __future__ import annotations

import json
from typing import Any

import pytest

import plateau
from support import random_game


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


# -- corrupt or hand-edited records ------------------------------------------------------------


def base_record() -> dict[str, Any]:
    s = random_game("plateau-x", "mini", seed=4, plies=10)
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


def edited(change: Any) -> str:
    record = base_record()
    change(record)
    return json.dumps(record)


def test_first_player_must_be_a_seat_of_the_variant() -> None:
    # mini has two seats: first_player 2 is the first value out of range (the generic values
    # are checked by the conformance suite)
    refused(
        edited(lambda r: r.update(options={"first_player": 2})),
        "bad options",
        "first_player must be an int in [0, 2), got 2",
    )


def test_huge_first_player_option() -> None:
    refused(edited(lambda r: r.update(options={"first_player": 2**31})), "first_player")


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
