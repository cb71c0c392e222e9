"""The library's exceptions. Each is a :class:`PlateauError`, itself a ``ValueError``, so callers
can catch bad input broadly (``except plateau.PlateauError``) or by kind. Anything else the
library raises is a bug (the command line shows its traceback).

Actions are refused in two ways, as python-chess refuses moves (``InvalidMoveError`` and
``IllegalMoveError``): :class:`InvalidActionError` when the input names no action of the game at
all, :class:`IllegalActionError` when it names one that may not be played here. Both are
:class:`ActionError`, so ``except ActionError`` (or ``except ValueError``) catches either.

>>> import plateau
>>> s = plateau.new_game("plateau-x", "mini")
>>> try:
...     s.apply("a1-b1")          # notation of an action, but nobody stands on a1
... except plateau.IllegalActionError as e:
...     print("illegal:", e)
illegal: 'a1-b1' is illegal: player 0 (black) has no piece on a1
>>> try:
...     s.apply("z9")             # not notation of any action of this game
... except plateau.InvalidActionError as e:
...     print("invalid:", e)
invalid: 'z9' is not Plateau X notation (S@c3, D@c3d3, T@c3d3c4, P@c3, c3-e5 or end)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

#: the longest message an error keeps: one quoting hostile input at length is cut in the middle
MAX_MESSAGE = 2000


class PlateauError(ValueError):
    """Input the library refuses: the base of all its errors. A message longer than
    ``MAX_MESSAGE`` characters (input quoted whole) is cut in the middle."""

    def __init__(self, *args: object) -> None:
        if len(args) == 1 and isinstance(args[0], str) and len(args[0]) > MAX_MESSAGE:
            m = args[0]
            cut = len(m) - MAX_MESSAGE
            args = (f"{m[: MAX_MESSAGE // 2]} ...<{cut:,} characters>... {m[-MAX_MESSAGE // 2 :]}",)
        super().__init__(*args)


class InvalidArgumentError(PlateauError):
    """An argument of a library call that is refused: of the wrong type, out of range, or not
    one of the accepted values (a seed, a count, a player, a bot's parameter, an array's shape,
    ...); the message names the argument. The compiled core raises it too."""


class ActionError(PlateauError):
    """An action that was refused: :class:`InvalidActionError` or :class:`IllegalActionError`."""


class InvalidActionError(ActionError):
    """Input that names no action of this game: text that is not its notation, a value of the
    wrong type (a float, a bool, None, ...), an id out of range."""


class IllegalActionError(ActionError):
    """A well-formed action of this game that may not be played in this position (including
    any action once the game is over)."""


class NothingToUndoError(PlateauError, IndexError):
    """``undo()`` of a state with no action to take back (a new game, a determinization). Also
    an ``IndexError``, as popping an empty list is."""


class InvalidRecordError(PlateauError):
    """A saved game (JSON record) that is malformed, corrupt, or replays an illegal action."""


class GameSpecError(PlateauError):
    """A game, variant or option that the registry refuses (:func:`plateau.resolve`): one of
    the four errors below."""


class UnknownGameError(GameSpecError):
    """A game name that is not registered; the message lists the known games."""


class UnknownVariantError(GameSpecError):
    """A variant name the game does not have; the message lists its variants."""


class UnknownOptionError(GameSpecError):
    """An option name the game does not have; the message lists its options."""


class InvalidOptionError(GameSpecError):
    """A value of a game option that the game refuses (an int out of range, a board that
    cannot be loaded, ...)."""


class InvalidBoardError(InvalidOptionError):
    """A board table (Empire Plateau's board as data) that is malformed or breaks a rule of the
    format; the message names the dot, field or Empire at fault. A board is the value of Empire
    Plateau's ``board`` option, so this is an :class:`InvalidOptionError`."""


class InvalidPositionError(PlateauError):
    """A position given as data (a position dict, a set-up of a record, set-up arguments) that
    is malformed or is no position of the game; the message names the field at fault."""


@contextmanager
def position_errors() -> Iterator[None]:
    """Check a position inside this block: any ``ValueError`` raised in it becomes an
    :class:`InvalidPositionError` with the same message (a game spec's errors stay what they
    are: the options are not the position)."""
    try:
        yield
    except (InvalidPositionError, GameSpecError):
        raise
    except ValueError as e:
        raise InvalidPositionError(str(e)) from None


class InvalidResultsError(PlateauError):
    """An arena results file (``plateau arena --out``) with a line that is not an arena game:
    not JSON, or a field missing or of the wrong type; the message names the file and line."""


def _install_in_core() -> None:
    """The compiled core raises this module's errors too (it cannot import this package,
    which is built on it: the classes are handed down once, here)."""
    from plateau_core import _common

    _common._use_errors(
        InvalidArgumentError, InvalidActionError, IllegalActionError, NothingToUndoError
    )


_install_in_core()
