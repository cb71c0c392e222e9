"""Square names of square boards: columns ``a``.. left to right, rows ``1``.. bottom to top."""

from __future__ import annotations

import numbers
import operator
import re

from plateau.checks import check_int, folded, shown
from plateau.errors import InvalidArgumentError

_SQUARE = re.compile(r"([a-z])([1-9][0-9]?)\Z")


def _board_size(board_size: object) -> int:
    """A board's side: an int in [1, 26] (its columns are the letters a to z)."""
    return check_int(board_size, "board_size", 1, 27)


def square_name(index: int, board_size: int = 7) -> str:
    """The name of square ``index`` (``row * board_size + col``).

    >>> square_name(0), square_name(8), square_name(35, board_size=6)
    ('a1', 'b2', 'f6')
    """
    board_size = _board_size(board_size)
    if isinstance(index, bool) or not isinstance(index, numbers.Integral):
        raise InvalidArgumentError(f"square index must be an int, got {shown(index)}")
    index = operator.index(index)
    if not 0 <= index < board_size * board_size:
        raise InvalidArgumentError(
            f"square index {shown(index)} out of range [0, {board_size * board_size})"
        )
    row, col = divmod(index, board_size)
    return f"{chr(ord('a') + col)}{row + 1}"


def square_index(name: str, board_size: int = 7) -> int:
    """The index of the square called ``name`` (either letter case).

    >>> square_index("a1"), square_index("C3"), square_index("f6", board_size=6)
    (0, 16, 35)
    """
    board_size = _board_size(board_size)
    if not isinstance(name, str):
        raise InvalidArgumentError(f"square name must be a string, got {shown(name)}")
    m = _SQUARE.match(folded(name) or "")
    if m is None:
        raise InvalidArgumentError(
            f"{shown(name)} is not a square name (a letter and a row number, e.g. 'c3')"
        )
    col = ord(m.group(1)) - ord("a")
    row = int(m.group(2)) - 1
    if not (0 <= col < board_size and 0 <= row < board_size):
        raise InvalidArgumentError(
            f"square {shown(name)} is off the {board_size}x{board_size} board"
        )
    return row * board_size + col
