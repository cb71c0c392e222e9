"""``plateau play``: a game in the terminal against the computer.

Type an action in the rules page's notation (``T@c3d3c4``, ``P@a1``, ``c3-e5``, ``end``), or a
command: ``legal`` (or ``?``) lists your legal actions, ``undo`` takes back your last move
(and the bots' replies), ``save FILE`` and ``load FILE`` write and read the game record,
``help``, ``quit``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from plateau.bots import Bot
from plateau.errors import IllegalActionError
from plateau.record import from_json
from plateau.state import GameState

HELP = (
    "commands: an action in notation (e.g. T@c3d3c4, P@a1, c3-e5, end), "
    "legal (or ?), undo, save FILE, load FILE, help, quit"
)


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
            raise ValueError(f"seat {seat} has neither a human nor a bot")
    write(str(state))
    while not state.is_terminal():
        player = state.current_player
        if player in bots:
            action = bots[player].select_action(state.view_for(player, seed=state.ply))
            text = state.action_to_string(action)
            state.apply(action)
            write(f"\nplayer {player} ({bots[player].describe()}) plays {text}")
            write(str(state))
            continue
        try:
            line = read(f"player {player}> ").strip()
        except EOFError:
            write("\n(end of input)")
            return state
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
            _undo_to_human(state, humans, write)
        elif cmd == "save":
            if not arg:
                write("save needs a file name")
                continue
            try:
                with open(arg, "w", encoding="utf-8") as f:
                    f.write(state.to_json())
                write(f"saved to {arg}")
            except OSError as e:
                write(f"cannot save: {e}")
        elif cmd == "load":
            if not arg:
                write("load needs a file name")
                continue
            try:
                with open(arg, encoding="utf-8") as f:
                    loaded = from_json(f.read())
            except (OSError, ValueError) as e:
                write(f"cannot load: {e}")
                continue
            if (loaded.game, loaded.variant) != (state.game, state.variant):
                write(f"cannot load: that is a {loaded.game}/{loaded.variant} game")
                continue
            while state.ply:
                state.undo()
            for action in loaded.history:
                state.apply(action)
            write(f"loaded {arg}")
            write(str(state))
        else:
            try:
                state.apply(line)
            except IllegalActionError as e:
                write(f"illegal: {e}")
                continue
            write(str(state))
    write(f"\ngame over. ranking: {state.ranking()}  points: {state.returns()}")
    return state


def _undo_to_human(state: GameState, humans: Sequence[int], write: Callable[[str], None]) -> None:
    """Take back actions until a human's own action has been taken back."""
    while state.history:
        state.undo()
        if state.current_player in humans:
            write(str(state))
            return
    write("nothing to undo")
