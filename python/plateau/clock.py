"""Game clocks for the arena: a time control ``BASE+INC`` (seconds for the whole game, plus an
increment after each move), the clock of each seat, and the per-move budget a library bot with
a ``seconds`` parameter is given."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from plateau.checks import number_text, plain_number, shown
from plateau.errors import InvalidArgumentError

#: the longest time, in seconds (11.6 days), that a time control, a deadline or a command's
#: seconds option may name: longer ones overflowed the clocks and waits they became
MAX_SECONDS = 1e6


@dataclass(frozen=True)
class TimeControl:
    """``base`` seconds per seat for the game, ``inc`` seconds added after each of its moves.

    >>> TimeControl.parse("10+0.1")
    TimeControl(base=10.0, inc=0.1)
    >>> TimeControl.parse("60").describe()
    '60+0'
    """

    base: float
    inc: float = 0.0

    def __post_init__(self) -> None:
        for name in ("base", "inc"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise InvalidArgumentError(f"time control {name} must be a number, got {value!r}")
            # (an int too large for a float is refused before isfinite overflows on it)
            if not (-1 < value <= MAX_SECONDS and math.isfinite(value) and value >= 0):
                raise InvalidArgumentError(
                    f"time control {name} must be >= 0 and at most {MAX_SECONDS:,.0f} "
                    f"seconds, got {shown(value)}"
                )
            object.__setattr__(self, name, float(value) + 0.0)  # (+ 0.0: -0.0 is 0)
        if not self.base > 0:
            raise InvalidArgumentError(f"time control base must be > 0 seconds, got {self.base!r}")

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """From ``"BASE+INC"`` or ``"BASE"`` in seconds (``"10+0.1"``, ``"60"``)."""
        base, plus, inc = str(text).strip().partition("+")
        if "+" in base.strip()[:1] + inc.strip()[:1] or not plain_number(str(text)):
            # (float() reads a sign, "1++1" was 1+1; and other scripts' digits and 1_0)
            raise InvalidArgumentError(
                f"time control {text!r} is not BASE+INC in seconds (e.g. 10+0.1)"
            )
        try:
            return cls(float(base), float(inc) if plus else 0.0)
        except ValueError as e:
            if "time control" in str(e):
                raise
            raise InvalidArgumentError(
                f"time control {text!r} is not BASE+INC in seconds (e.g. 10+0.1)"
            ) from None

    def describe(self) -> str:
        """``"BASE+INC"``, which :meth:`parse` reads back to the same time control."""
        return f"{number_text(self.base)}+{number_text(self.inc)}"


def move_budget(remaining: float, inc: float) -> float:
    """The seconds a bot that searches by time is given for a move: a thirtieth of its
    remaining clock plus the increment, never more than half of what remains.

    >>> move_budget(10.0, 0.1)
    0.43333333333333335
    >>> move_budget(0.1, 1.0)
    0.05
    """
    return max(0.0, min(remaining / 2.0, remaining / 30.0 + inc))


def own_seconds(params: dict[str, Any]) -> float:
    """A bot's own ``seconds`` per move (0 when it has none, or searches by iterations or
    depth): a bot that searches by time is held to its clock's budget, the others are only
    measured."""
    value = params.get("seconds", 0)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        return 0.0
    return float(value)


def held_to_budget(own: float, remaining: float, inc: float) -> float:
    """The ``seconds`` a bot with its own ``own`` seconds per move searches for with
    ``remaining`` seconds on its clock (``own`` when it fits in the budget).

    >>> held_to_budget(1.0, 10.0, 0.1), held_to_budget(0.2, 10.0, 0.1)
    (0.43333333333333335, 0.2)
    """
    return min(own, move_budget(remaining, inc))
