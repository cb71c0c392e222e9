"""Plateau (Jim Albea, 1986) notation: action ids to text and back.

The grammar is the rules page's (``docs/rules/albea-plateau.md``, Notation; design section
1.2). The kernel ``plateau_core.albea.core`` owns the id layout: its ``decode(a)`` gives an id's
fields (squares, pieces, counts) and ``encode(kind, fields)`` the id of fields; this module
turns fields into text and text into fields, and words the errors.

>>> format_action(6342), parse_action(" A1:2-B2:1-C3 ")
('a1:2-b2:1-c3', 6342)
>>> parse_action("give:xx,rr") == parse_action("give:rr,xx")
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from plateau_core.albea import core as _a

from plateau.checks import folded, shown
from plateau.errors import InvalidArgumentError

TYPES: tuple[str, ...] = tuple(_a.TYPES)
#: oriented piece codes (up face first), the kernel's oriented-piece indices
OT_CODES: tuple[str, ...] = tuple(_a.OT_CODES)
_COUNT = tuple(_a.COUNT)
_PERIMETER = tuple(_a.PERIMETER)
_NAMES = tuple(f"{'abcd'[sq % 4]}{sq // 4 + 1}" for sq in range(16))
_SQUARES = {name: sq for sq, name in enumerate(_NAMES)}
_ORIENTED = {code: i for i, code in enumerate(OT_CODES)}

_SQ = r"([a-z][0-9]+)"
# counts and gaps: ASCII digits without leading zeros
_NUM = r"(0|[1-9][0-9]*)"
_RE_OPENING = re.compile(r"([a-z]+),([a-z]+)@" + _SQ)
_RE_ONBOARD = re.compile(r"([a-z]+)@" + _SQ + r"/" + _NUM)
_RE_STOMP = re.compile(r"(~?)!" + _SQ)
_RE_MOVE = re.compile(r"(~?)" + _SQ + r":" + _NUM + r"((?:-[a-z][0-9]+:(?:0|[1-9][0-9]*))*)-" + _SQ)
_RE_STOP = re.compile(r"-" + _SQ + r":" + _NUM)


def counts_text(counts: Sequence[int]) -> str:
    """The codes of a multiset given as 7 counts in ``TYPES`` order, highest value first (the
    page's canonical order): ``(1, 0, 1, 0, 0, 0, 0)`` is ``"rr,xx"``."""
    return ",".join(TYPES[t] for t in range(6, -1, -1) for _ in range(counts[t]))


def format_action(action: int) -> str:
    """Canonical notation of any action id (design 1.2); ValueError if it is no id."""
    kind, f = _a.decode(action)
    if kind == "opening":
        return f"{OT_CODES[f[0]]},{OT_CODES[f[1]]}@{_NAMES[f[2]]}"
    if kind == "onboard":
        return f"{OT_CODES[f[0]]}@{_NAMES[f[1]]}/{f[2]}"
    if kind == "move":
        origin, flip, k, squares, carries = f
        stops = "".join(f"-{_NAMES[sq]}:{j}" for sq, j in zip(squares, carries))
        return f"{'~' if flip else ''}{_NAMES[origin]}:{k}{stops}-{_NAMES[squares[-1]]}"
    if kind == "stomp":
        return f"{'~' if f[1] else ''}!{_NAMES[f[0]]}"
    if kind in ("offer", "give"):
        return f"{kind}:{counts_text(f)}"
    return str(kind)  # refuse, pass


def parse_action(text: str) -> int:
    """The action id of notation ``text`` (either letter case, surrounding blanks ignored,
    multisets in any order): the inverse of :func:`format_action`. ValueError names what is
    wrong; TypeError if ``text`` is not a str."""
    if not isinstance(text, str):
        raise TypeError("notation must be a str")
    t = folded(text) or ""  # (not ASCII: not notation)
    if t in ("refuse", "pass"):
        return _encode(t, ())
    head, colon, rest = t.partition(":")
    if colon and head in ("offer", "give"):
        return _encode(head, _counts(rest))
    m = _RE_STOMP.fullmatch(t)
    if m:
        return _encode("stomp", (_square(m.group(2)), 1 if m.group(1) else 0))
    m = _RE_OPENING.fullmatch(t)
    if m:
        sq = _square(m.group(3))
        if sq not in _PERIMETER:
            raise InvalidArgumentError(
                f"{m.group(3)} is not a perimeter square: openings go on the edge"
            )
        return _encode("opening", (_oriented(m.group(1)), _oriented(m.group(2)), sq))
    m = _RE_ONBOARD.fullmatch(t)
    if m:
        g = int(m.group(3))
        if not 0 <= g <= 23:
            raise InvalidArgumentError(
                f"gap {g} out of range: a stack holds at most 24 pieces (0..23)"
            )
        return _encode("onboard", (_oriented(m.group(1)), _square(m.group(2)), g))
    m = _RE_MOVE.fullmatch(t)
    if m:
        return _parse_move(m)
    raise InvalidArgumentError(
        "not Plateau notation (opening 'xx,rb@a1', onboard 'rb@c3/1', move '~c1:3-c2:2-c4', "
        "stomp '!b2', 'offer:rx,xx', 'give:rr', 'refuse', 'pass')"
    )


def _encode(kind: str, fields: tuple[Any, ...]) -> int:
    a = int(_a.encode(kind, fields))
    if a < 0:  # not reached: the parser hands the kernel only fields it checked
        raise InvalidArgumentError(f"no action id has the fields {kind} {shown(fields)}")
    return a


def _square(name: str) -> int:
    sq = _SQUARES.get(name)
    if sq is None:
        raise InvalidArgumentError(f"square {shown(name)} is off the 4x4 board (a1..d4)")
    return sq


def _oriented(code: str) -> int:
    i = _ORIENTED.get(code)
    if i is None:
        raise InvalidArgumentError(
            f"unknown piece {shown(code)} (pieces: {', '.join(OT_CODES)}, up face first)"
        )
    return i


def _counts(text: str) -> tuple[int, ...]:
    """The 7 counts of a multiset written as codes, e.g. ``rr,xx``."""
    if not text:
        raise InvalidArgumentError("an offer or a gift names at least one piece type")
    counts = [0] * 7
    for code in text.split(","):
        if code not in TYPES:
            raise InvalidArgumentError(
                f"unknown piece type {shown(code)} (types: {', '.join(TYPES)})"
            )
        counts[TYPES.index(code)] += 1
    for t in range(7):
        if counts[t] > _COUNT[t]:
            raise InvalidArgumentError(f"{counts[t]} x {TYPES[t]}: a player has only {_COUNT[t]}")
    return tuple(counts)


def _parse_move(m: re.Match[str]) -> int:
    flip = 1 if m.group(1) else 0
    origin = _square(m.group(2))
    k = int(m.group(3))
    if not 1 <= k <= 5:
        raise InvalidArgumentError(f"lift {k} out of range: a top unit moves 1 to 5 pieces")
    stops = [(_square(sq), int(j)) for sq, j in _RE_STOP.findall(m.group(4))]
    squares = (*(sq for sq, _ in stops), _square(m.group(5)))
    carries = tuple(j for _, j in stops)
    a = int(_a.encode("move", (origin, flip, k, squares, carries)))
    if a == _a.ENCODE_OFF_PATH:
        raise InvalidArgumentError(
            "the stops do not lie at increasing distances on one ray (or the Twister path) "
            f"from {m.group(2)}"
        )
    if a == _a.ENCODE_BAD_CARRY:
        raise InvalidArgumentError(_carry_problem(k, carries))
    if a < 0:  # not reached: the fields were checked above
        raise InvalidArgumentError(
            f"no move has the fields {shown((origin, flip, k, squares, carries))}"
        )
    return a


def _carry_problem(k: int, carries: tuple[int, ...]) -> str:
    """Why the kernel refused the carries of a move lifting ``k``: the first stop whose carry
    is no pick-up or drop-off, or more than the id space holds (design 1.3: ``J_LEVEL``
    choices at the first and second stop)."""
    g = k
    for n, j in enumerate(carries):
        if j < 1 or j == g:
            return (
                f"carrying {j} on from stop {n + 1} is not a pick-up or drop-off "
                f"(the group has {g}; j must be >= 1 and differ from it)"
            )
        q = j - 1 - (1 if j > g else 0)
        if n >= 2 or q >= _a.J_LEVEL[n]:
            return f"carrying {j} on from stop {n + 1}: more pieces than a top unit there can hold"
        g = j
    return f"the carries {list(carries)} are not a move's"
