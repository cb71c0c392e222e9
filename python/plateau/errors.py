"""The library's exceptions. Each is a ``ValueError`` so callers can catch bad input broadly."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that is unparseable, out of range, of the wrong type, or not legal here."""


class InvalidRecordError(ValueError):
    """A saved game (JSON record) that is malformed, corrupt, or replays an illegal action."""


class InvalidBoardError(ValueError):
    """A board table (Empire Plateau's board as data) that is malformed or breaks a rule of the
    format; the message names the dot, field or Empire at fault."""
