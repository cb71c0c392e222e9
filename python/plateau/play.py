"""``plateau play``: a game in the terminal against the computer.

Type an action in the game's notation (Plateau X: ``T@c3d3c4``, ``P@a1``, ``c3-e5``, ``end``;
Plateau: ``xx,rb@a1``, ``rb@c3/1``, ``c1:3-c2:2-c4``, ``offer:rx``), or a command:
``legal`` (or ``?``) lists your legal actions, ``undo`` takes back your last move (and the
bots' replies), ``save FILE`` and ``load FILE`` write and read the game record, ``help``,
``quit``. In a game with hidden information the board is shown as the human sees it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

from plateau.bots import Bot
from plateau.checks import shown
from plateau.engine import printable
from plateau.errors import (
    IllegalActionError,
    InvalidActionError,
    InvalidArgumentError,
    InvalidRecordError,
)
from plateau.files import read_text_limited, replace_file
from plateau.record import from_json
from plateau.registry import game_info
from plateau.state import GameState

HELP = (
    "commands: an action in the game's notation (legal lists them), "
    "legal (or ?), undo, save FILE, load FILE, help, quit"
)


#: the longest input line ``read_line`` takes (an action or a command is far shorter)
MAX_LINE = 10_000


class LineTooLong(InvalidArgumentError):
    """An input line longer than ``MAX_LINE`` characters (skipped whole)."""


def read_line(prompt: str) -> str:
    """A line of standard input, as ``input(prompt)`` reads it, but at most ``MAX_LINE``
    characters of it held: a longer line is skipped to its end and raises ``LineTooLong``
    (piped input may hold a line of any length). A terminal's lines are read by ``input``."""
    if sys.stdin is None or sys.stdin.isatty():
        return input(prompt)
    print(prompt, end="", flush=True)
    line = sys.stdin.readline(MAX_LINE + 1)
    if not line:
        raise EOFError
    if len(line) > MAX_LINE and not line.endswith("\n"):
        while True:  # the rest of the line, a bounded piece at a time
            rest = sys.stdin.readline(MAX_LINE)
            if not rest or rest.endswith("\n"):
                break
        raise LineTooLong(f"(a line of more than {MAX_LINE:,} characters: skipped)")
    return line.rstrip("\n")


def play(
    state: GameState,
    humans: Sequence[int],
    bots: dict[int, Bot],
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> GameState:
    """Run a game until it ends or a human quits; returns the final state."""
    for seat in range(state.num_players):
        if seat not in humans and seat not in bots:
            raise InvalidArgumentError(f"seat {seat} has neither a human nor a bot")
    show = _shower(state, humans, write)
    show()
    while not state.is_terminal():
        player = state.current_player
        if player in bots:
            action = bots[player].select_action(state.view_for(player, seed=state.ply))
            text = state.action_to_string(action)
            state.apply(action)
            if not _hidden(state):
                write(f"\nplayer {player} ({bots[player].describe()}) plays {text}")
            else:  # what the human saw of it
                write(
                    f"\nplayer {player} ({bots[player].describe()}) plays "
                    f"{state.history_strings(viewer=_viewer(state, humans))[-1]}"
                )
            show()
            continue
        try:
            line = read(f"player {player}> ").strip()
        except EOFError:
            write("\n(end of input)")
            return state
        except UnicodeDecodeError:  # (what follows the bad bytes cannot be told apart)
            write("\n(input that is not UTF-8 text: ending)")
            return state
        except LineTooLong as e:
            write(str(e))
            continue
        if not line:
            continue
        word, _, arg = line.partition(" ")
        cmd = word.lower()
        if cmd in ("quit", "exit", "q"):
            return state
        if cmd in ("help", "h"):
            write(HELP)
        elif cmd in ("legal", "?"):
            write(" ".join(sorted(state.legal_action_strings())))
        elif cmd == "undo":
            _undo_to_human(state, humans, show, write)
        elif cmd == "save":
            if not arg:
                write("save needs a file name")
                continue
            try:
                replace_file(arg, state.to_json())
                write(f"saved to {arg}")
            except (OSError, ValueError) as e:  # (ValueError: a NUL in the name, as open's)
                write(f"cannot save: {printable(str(e))}")
        elif cmd == "load":
            if not arg:
                write("load needs a file name")
                continue
            try:
                loaded = from_json(read_text_limited(arg, InvalidRecordError))
            except (OSError, ValueError) as e:
                write(f"cannot load: {printable(str(e))}")
                continue
            if (loaded.game, loaded.variant) != (state.game, state.variant):
                write(
                    f"cannot load: that is a {printable(loaded.game)}/"
                    f"{printable(loaded.variant)} game"
                )
                continue
            if loaded.options != state.options:
                # (its actions are ids of its own options' game: another board, or another
                # first player, would replay them as other actions, or as none)
                write(f"cannot load: that game has other options ({shown(loaded.options)})")
                continue
            if loaded.setup_position() is not None:
                write("cannot load: that game starts from a set-up position")
                continue
            if state.setup_position() is not None:
                # (its actions would be replayed on this game's set-up, not on the start)
                write("cannot load: this game starts from a set-up position")
                continue
            for _ in range(len(state.history)):
                state.undo()
            state.apply_all(loaded.history)  # (legal: the record was replayed from the start)
            write(f"loaded {printable(arg)}")
            show()
        else:
            try:
                state.apply(line)
            except InvalidActionError as e:
                write(f"not an action: {e}")
                continue
            except IllegalActionError as e:
                write(f"illegal: {e}")
                continue
            show()
    if _hidden(state):
        write(str(state))  # the game is over: everything is revealed
    write(f"\ngame over. ranking: {state.ranking()}  points: {state.returns()}")
    return state


def _hidden(state: GameState) -> bool:
    return not game_info(state.game).perfect_information


def _viewer(state: GameState, humans: Sequence[int]) -> int:
    # the human whose view is shown: the one to act (hot seat), else the first human
    return state.current_player if state.current_player in humans else humans[0]


def _shower(
    state: GameState, humans: Sequence[int], write: Callable[[str], None]
) -> Callable[[], None]:
    """A function that writes the position as the humans may see it: the full diagram, or in
    a game with hidden information the view of the human concerned."""

    def show() -> None:
        if _hidden(state) and humans and not state.is_terminal():
            write(state.observation_string(_viewer(state, humans)))
        else:
            write(str(state))

    return show


def _undo_to_human(
    state: GameState,
    humans: Sequence[int],
    show: Callable[[], None],
    write: Callable[[str], None],
) -> None:
    """Take back actions until a human's own action has been taken back, saying which."""
    taken: list[str] = []
    while state.history:
        action = state.undo()
        taken.append(state.action_to_string(action))
        if state.current_player in humans:
            write(f"took back {', '.join(reversed(taken))}")
            show()
            return
    if taken:
        write(f"took back {', '.join(reversed(taken))} (back at the start)")
        show()
    else:
        write("nothing to undo")
