"""Empire Plateau boards, records and set-ups: the board option in all its forms (shipped names,
board files, JSON text, dicts, ``Board``), records that carry a user board so that they replay
anywhere, bad boards refused through ``new_game``, a board with a bigger red centre and one
without polar coordinates, set-up records, and Hypothesis round trips of records and position
dicts along random games."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import plateau
from plateau import EmpirePlateauState, InvalidRecordError
from plateau.errors import InvalidBoardError
from plateau.games.empire.board import (
    board_from_dict,
    board_to_dict,
    board_to_json,
    load_board,
    polar_board,
    save_board,
)

RING12 = polar_board("ring12", 16, 12)


def hollow_board() -> dict[str, Any]:
    """ep16 without ring 1: a bigger red centre (ring 2 has no ``in`` neighbour)."""
    data = board_to_dict(load_board("ep16"))
    data["name"] = "hollow16"
    data["dots"] = [d for d in data["dots"] if d["name"][1:] != "1"]
    for d in data["dots"]:
        if d["name"][1:] == "2":
            d["in"] = None
    return data


def random_game(s: EmpirePlateauState, seed: int, plies: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        if s.is_terminal():
            return
        legal = s.legal_actions()
        s.apply(int(legal[rng.integers(len(legal))]))


# -- the board option -----------------------------------------------------------------------------


def test_the_board_option_in_every_form(tmp_path: Path) -> None:
    path = tmp_path / "ring12.json"
    save_board(RING12, path)
    forms = [str(path), path, board_to_json(RING12), board_to_dict(RING12), RING12]
    states = [plateau.new_game("empire-plateau", "four", board=b) for b in forms]
    for s in states:
        assert s.board == RING12 and len(s.board) == 192
        assert s.options == {"board": board_to_json(RING12), "turn_limit": 0}
        assert s.num_distinct_actions == 192 * 192 * 12 + 4 * 192 + 1
        assert s.observation_shape == (36, 12, 16)
        assert s.hash == states[0].hash
    shipped = plateau.new_game("empire-plateau", board=load_board("ep24"))
    assert shipped.options == {"board": "ep24", "turn_limit": 0}
    same = plateau.new_game("empire-plateau", board=board_to_json(load_board("ep16")))
    assert same.options == {"board": "ep16", "turn_limit": 0}


def test_a_record_of_a_user_board_replays_without_the_file(tmp_path: Path) -> None:
    path = tmp_path / "ring12.json"
    save_board(RING12, path)
    s = plateau.new_game("empire-plateau", "two", board=str(path))
    random_game(s, 3, 60)
    text = s.to_json()
    path.unlink()
    loaded = plateau.from_json(text)
    assert loaded == s and loaded.history == s.history and loaded.board == RING12
    assert pickle.loads(pickle.dumps(s)) == s


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ("ep99", "no board 'ep99'"),
        ("/no/such/file.json", "no such file"),
        ("{not json", "malformed JSON"),
        ('{"format": "plateau-empire-board"}', "missing board field"),
        (-1, "the board option is"),
        (True, "the board option is"),
        (None, "the board option is"),
        (1.5, "the board option is"),
        (["ep16"], "the board option is"),
        ({"name": "x"}, "missing board field"),
    ],
    ids=repr,
)
def test_bad_boards_are_refused_through_new_game(board: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        plateau.new_game("empire-plateau", board=board)
    with pytest.raises(ValueError, match=message):
        plateau.StateBatch("empire-plateau", n=1, board=board)
    with pytest.raises(ValueError, match=message):
        plateau.random_playouts("empire-plateau", n=1, board=board)


def test_bad_board_files_are_refused(tmp_path: Path) -> None:
    bad = board_to_dict(load_board("ep16"))
    bad["name"] = "broken"
    bad["dots"][0]["cw"] = "c1"  # not symmetric
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(InvalidBoardError, match="symmetric"):
        plateau.new_game("empire-plateau", board=str(path))
    impostor = board_to_dict(RING12)
    impostor["name"] = "ep16"
    with pytest.raises(InvalidBoardError, match="shipped board"):
        plateau.new_game("empire-plateau", board=impostor)
    renamed = polar_board("ep16", 16, 12)  # a Board built in code under a shipped name
    with pytest.raises(InvalidBoardError, match="shipped board"):
        plateau.new_game("empire-plateau", board=renamed)
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(InvalidBoardError):
        plateau.new_game("empire-plateau", board=str(path))


def test_a_record_with_a_bad_board_is_refused() -> None:
    s = plateau.new_game("empire-plateau", board=RING12)
    s.apply(int(s.legal_actions()[0]))
    record = json.loads(s.to_json())
    record["options"]["board"] = record["options"]["board"].replace('"ring12"', '"ep16"')
    with pytest.raises(InvalidRecordError, match="shipped board"):
        plateau.from_json(json.dumps(record))


def test_a_record_never_reads_a_board_file(tmp_path: Path) -> None:
    # a record from elsewhere holds its board; a path in it would make the loader read the
    # reader's files, so it is refused before any file is touched
    path = tmp_path / "mine.json"
    save_board(polar_board("ring12", 16, 12), path)
    plateau.new_game("empire-plateau", board=str(path))  # a path is fine from the caller
    record = json.loads(plateau.new_game("empire-plateau").to_json())
    for board in (str(path), "ep9" + "9" * 5000, str(tmp_path), "/dev/zero", 16):
        record["options"]["board"] = board
        with pytest.raises(InvalidRecordError, match=r"never a file path|bad value"):
            plateau.from_json(json.dumps(record))
    from plateau.engine import BotEngine

    reply = BotEngine("random").handle(f'game empire-plateau two {{"board": "{path}"}}')
    assert reply is not None and any("never a file path" in line for line in reply)


def test_unreadable_board_paths_are_invalid_boards(tmp_path: Path) -> None:
    for bad in (str(tmp_path), "x" * 5000, "a\0b"):
        with pytest.raises(InvalidBoardError, match="cannot read board file"):
            plateau.new_game("empire-plateau", board=bad)


def test_a_bigger_red_centre() -> None:
    board = board_from_dict(hollow_board())
    s = plateau.new_game("empire-plateau", "two", board=board)
    assert len(s.board) == 160 and s.observation_shape == (36, 11, 16)
    assert s.perft(2) == s.perft(2, bulk=False)
    assert all(not name.endswith("1") or name.endswith("11") for name in s.board.dots)
    random_game(s, 1, 200)
    assert plateau.from_json(s.to_json()) == s
    obs = s.observation_tensor()
    assert obs[35].sum() == 160 and obs[35, 0].sum() == 0  # no dot on ring 1


def test_a_board_without_polar_coordinates() -> None:
    data = board_to_dict(RING12)
    data["name"] = "flat"
    for key in ("spokes", "rings"):
        del data[key]
    for d in data["dots"]:
        del d["at"]
    s = plateau.new_game("empire-plateau", board=data)
    assert s.observation_shape == (36, 1, 192)
    assert "m11" in str(s)  # listed by dot, not drawn
    assert (
        s.legal_actions().tolist()
        == plateau.new_game("empire-plateau", board=RING12).legal_actions().tolist()
    )


def test_a_batch_on_another_board_follows_single_games() -> None:
    for board in ("ep24", RING12):
        b = plateau.StateBatch("empire-plateau", "four", n=3, seed=2, board=board)
        singles = [plateau.new_game("empire-plateau", "four", board=board) for _ in range(3)]
        assert b.num_distinct_actions == singles[0].num_distinct_actions
        for _ in range(30):
            ids, counts = b.legal_lists(4096)
            for i, s in enumerate(singles):
                assert ids[i, : counts[i]].tolist() == s.legal_actions().tolist()
            assert b.hashes().tolist() == [s.hash for s in singles]
            actions = b.sample_random()
            done, _ = b.step(actions)
            for i, s in enumerate(singles):
                s.apply(int(actions[i]))
                if done[i]:
                    singles[i] = plateau.new_game("empire-plateau", "four", board=board)


def test_random_playouts_on_every_board() -> None:
    for board in ("ep16", "ep24", RING12, board_from_dict(hollow_board())):
        out = plateau.random_playouts("empire-plateau", "duel", n=3, seed=1, board=board)
        assert out["games"] == 3 and 0 <= out["ended"] <= 3 and out["plies"] > 0


# -- set-ups in records -------------------------------------------------------------------------


def test_a_set_up_record_replays() -> None:
    s = EmpirePlateauState.from_position_dict(
        {
            "variant": "four",
            "armies": {"h10": "G2", "m11": "BE", "e11": "ME", "a5": "G4"},
            "to_move": "G",
            "captures": [["R", "G", "4", 1]],
        }
    )
    s.apply_all(["h10-i11:2", "+4@a6"])
    record = json.loads(s.to_json())
    assert record["setup"] == s.setup_position()
    loaded = plateau.from_json(s.to_json())
    assert loaded == s and loaded.history == s.history
    record["setup"]["armies"]["a7"] = "G9"
    with pytest.raises(InvalidRecordError, match="bad set-up position"):
        plateau.from_json(json.dumps(record))


def test_a_set_up_on_a_user_board() -> None:
    s = plateau.new_game("empire-plateau", "duel", board=RING12)
    random_game(s, 5, 30)
    data = s.position_dict()
    assert data["board"] == board_to_json(RING12)
    t = EmpirePlateauState.from_position_dict(data)
    assert t == s and t.board == RING12
    info = plateau.game_info("empire-plateau")
    assert info.from_setup is not None
    u = info.from_setup("duel", data, board=board_to_json(RING12))
    assert u == s
    with pytest.raises(ValueError, match="another board"):
        info.from_setup("duel", data, board="ep16")
    with pytest.raises(ValueError, match="variant"):
        info.from_setup("two", data, board=board_to_json(RING12))


# -- Hypothesis round trips ----------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    variant=st.sampled_from(["two", "four", "duel"]),
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 400),
)
def test_records_and_position_dicts_round_trip(variant: str, seed: int, plies: int) -> None:
    s = plateau.new_game("empire-plateau", variant)
    random_game(s, seed, plies)
    loaded = plateau.from_json(s.to_json())
    assert loaded == s and loaded.history == s.history and loaded.hash == s.hash
    data = s.position_dict()
    assert json.loads(json.dumps(data)) == data
    t = EmpirePlateauState.from_position_dict(data)
    assert t == s and t.hash == s.hash and t.position_dict() == data
    assert t.legal_actions().tolist() == s.legal_actions().tolist()
    assert t.is_terminal() == s.is_terminal() and t.ranking() == s.ranking()
    if s.ply:
        a = s.undo()
        assert loaded.undo() == a and loaded == s


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 300), cut=st.integers(0, 40))
def test_set_up_games_round_trip(seed: int, plies: int, cut: int) -> None:
    s = plateau.new_game("empire-plateau", "two")
    random_game(s, seed, plies)
    root = EmpirePlateauState.from_position_dict(s.position_dict())
    random_game(root, seed + 1, cut)
    loaded = plateau.from_json(root.to_json())
    assert loaded == root and loaded.setup_position() == s.position_dict()
    assert loaded.ply == root.ply == s.ply + len(root.history)
    for _ in range(len(root.history)):
        root.undo()
        loaded.undo()
        assert loaded == root
    assert root == s and root.ply == s.ply


def test_a_turn_limit_travels_in_records() -> None:
    s = plateau.new_game("empire-plateau", "four", turn_limit=5)
    s.apply_all(["m5-m1:4", "l6-k6:1", "l7-k7:1", "end"])
    text = s.to_json()
    assert json.loads(text)["options"] == {"board": "ep16", "turn_limit": 5}
    back = plateau.from_json(text)
    assert back == s and back.turn_limit == 5 and back.turns == 1
    assert back.history == s.history
