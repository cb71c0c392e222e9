"""The library's exceptions. Each is a ``ValueError`` so callers can catch bad input broadly.

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


class ActionError(ValueError):
    """An action that was refused: :class:`InvalidActionError` or :class:`IllegalActionError`."""


class InvalidActionError(ActionError):
    """Input that names no action of this game: text that is not its notation, a value of the
    wrong type (a float, a bool, None, ...), an id out of range."""


class IllegalActionError(ActionError):
    """A well-formed action of this game that may not be played in this position (including
    any action once the game is over)."""


class InvalidRecordError(ValueError):
    """A saved game (JSON record) that is malformed, corrupt, or replays an illegal action."""


class GameSpecError(ValueError):
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


class InvalidPositionError(ValueError):
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


class InvalidResultsError(ValueError):
    """An arena results file (``plateau arena --out``) with a line that is not an arena game:
    not JSON, or a field missing or of the wrong type; the message names the file and line."""
