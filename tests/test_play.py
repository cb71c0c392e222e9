"""``plateau play``: a scripted terminal session against a bot."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import plateau
from plateau.bots import make_bot
from plateau.play import play


def _script(lines: list[str]) -> tuple[Iterator[str], list[str]]:
    it = iter(lines)
    out: list[str] = []

    def read(prompt: str) -> str:
        out.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read, out  # type: ignore[return-value]


def test_scripted_session(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    read, _out = _script(
        [
            "?",
            "S@z9",
            "P@a1",
            "T@a1b1a2",
            f"save {save}",
            "undo",
            "D@c3c4",
            "load",
            "help",
            f"load {save}",
            "quit",
        ]
    )
    state = plateau.new_game("plateau-x", "mini")
    written: list[str] = []
    final = play(state, [0], {1: make_bot("random", seed=1)}, read=read, write=written.append)
    text = "\n".join(written)
    assert "P@a1" in text and "S@a1" in text  # the legal list was printed
    assert "not an action: 'S@z9'" in text  # no such square
    assert "illegal: 'T@a1b1a2'" in text  # a piece stands on a1
    assert f"saved to {save}" in text and f"loaded {save}" in text
    assert "load needs a file name" in text
    assert "commands:" in text
    # after load the game is the saved one: P@a1 and the bot's reply
    saved = plateau.from_json(save.read_text())
    assert final.history == saved.history and final.ply == 2
    assert final.history_strings()[0] == "P@a1"


def test_undo_takes_back_the_bot_reply_too() -> None:
    read, _ = _script(["P@a1", "undo", "quit"])
    state = plateau.new_game("plateau-x", "mini")
    written: list[str] = []
    final = play(state, [0], {1: make_bot("random", seed=1)}, read=read, write=written.append)
    assert final.ply == 0 and final.current_player == 0
    took = [line for line in written if line.startswith("took back ")]
    assert len(took) == 1 and took[0].startswith("took back P@a1, ")  # and the bot's reply
    assert len(took[0].split(", ")) == 2


def test_a_game_between_bots_runs_to_the_end() -> None:
    state = plateau.new_game("plateau-x", "mini")
    written: list[str] = []
    final = play(
        state,
        [],
        {0: make_bot("random", seed=2), 1: make_bot("random")},
        read=lambda _p: "quit",
        write=written.append,
    )
    assert final.is_terminal()
    assert "game over" in written[-1]


def test_a_seat_without_player_is_refused() -> None:
    with pytest.raises(ValueError, match="seat 1"):
        play(plateau.new_game("plateau-x", "mini"), [0], {}, read=lambda _p: "quit")


@pytest.mark.parametrize(
    ("saved", "other"),
    [
        ({"first_player": 2}, {}),  # (its pieces changed owners, another player was to act)
        ({"board": "ep24"}, {}),  # (its ids are another board's: out of range, session over)
    ],
    ids=["plateau-x first_player", "empire-plateau board"],
)
def test_load_refuses_a_game_with_other_options_and_keeps_the_game(
    tmp_path: Path, saved: dict[str, object], other: dict[str, object]
) -> None:
    game = "empire-plateau" if "board" in saved else "plateau-x"
    record = plateau.new_game(game, **saved)
    for _ in range(4):
        record.apply(int(record.legal_actions()[-1]))
    path = tmp_path / "g.json"
    path.write_text(record.to_json())
    state = plateau.new_game(game, **other)
    state.apply(int(state.legal_actions()[0]))
    before = state.history
    read, out = _script([f"load {path}", "quit"])
    play(state, list(range(state.num_players)), {}, read=read, write=out.append)
    assert any("cannot load: that game has other options" in line for line in out), out
    assert state.history == before
    same = plateau.new_game(game, **saved)
    read, out = _script([f"load {path}", "quit"])
    play(same, list(range(same.num_players)), {}, read=read, write=out.append)
    assert same.history == record.history


def test_the_command_line_skips_a_huge_line_and_ends_on_bytes_that_are_not_utf8() -> None:
    # (a line was read whole, however long; bytes that are not UTF-8 were a traceback)
    import os
    import subprocess
    import sys

    args = [sys.executable, "-m", "plateau", "play", "--game", "plateau-x", "--variant", "mini"]
    args += ["--bots", "random"]
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    huge = subprocess.run(
        args, input=b"x" * 300_000 + b"\n?\nquit\n", capture_output=True, timeout=60, env=env
    )
    assert huge.returncode == 0 and b"Traceback" not in huge.stderr, huge.stderr
    assert b"a line of more than 10,000 characters: skipped" in huge.stdout
    assert b"P@a1" in huge.stdout  # (the line after it was read: `?` listed the actions)
    bad = subprocess.run(args, input=b"\xff\xfe\n?\n", capture_output=True, timeout=60, env=env)
    assert bad.returncode == 0 and b"Traceback" not in bad.stderr, bad.stderr
    assert b"not UTF-8 text" in bad.stdout


def test_load_into_a_game_from_a_set_up_position_is_refused_and_keeps_the_game(
    tmp_path: Path,
) -> None:
    # (the undo ran past the game's own moves into the set-up, raising NothingToUndoError
    # after they were lost; a set-up at ply 0 would have had the record replayed on it)
    start = plateau.new_game("albea-plateau")
    for _ in range(6):
        start.apply(int(start.legal_actions()[0]))
    state = type(start).from_position_dict(start.position_dict())  # (a set-up at ply 6)
    state.apply(int(state.legal_actions()[0]))
    before = state.history
    record = plateau.new_game("albea-plateau")
    for _ in range(3):
        record.apply(int(record.legal_actions()[0]))
    path = tmp_path / "g.json"
    path.write_text(record.to_json())
    read, out = _script([f"load {path}", "quit"])
    play(state, [0, 1], {}, read=read, write=out.append)
    assert any("cannot load: this game starts from a set-up position" in line for line in out)
    assert state.history == before and state.setup_position() is not None


def test_save_to_a_name_with_a_nul_is_refused_and_the_session_goes_on(tmp_path: Path) -> None:
    # (os.path.realpath raised ValueError("embedded null byte"): a traceback ended the session)
    read, out = _script([f"save {tmp_path}/a\x00b", "P@a1", "quit"])
    state = plateau.new_game("plateau-x", "mini")
    play(state, [0, 1], {}, read=read, write=out.append)
    assert any(line.startswith("cannot save: ") for line in out), out
    assert state.history_strings() == ["P@a1"] and list(tmp_path.iterdir()) == []
