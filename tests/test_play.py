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
