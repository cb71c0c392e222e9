"""The one argument checker of the Python layer (the compiled wrappers use its twins,
``plateau_core._common.check_int`` and ``check_seed``, with the same rules and messages): an
integer argument may be any integral type (``int``, numpy integers) but not ``bool``; floats and
strings are refused. And the one reader of JSON from outside, :func:`load_outside_json`.

>>> import numpy as np
>>> check_int(np.int64(3), "depth", 0, 64)
3
>>> check_int(True, "depth", 0, 64)
Traceback (most recent call last):
plateau.errors.InvalidArgumentError: depth must be an int in [0, 64), got True
"""

from __future__ import annotations

import json
import math
import numbers
import operator
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from plateau.errors import InvalidArgumentError

if TYPE_CHECKING:
    from plateau.state import GameState


def shown(value: object) -> str:
    """``repr(value)`` for an error message, at most about 200 characters: a longer one is cut
    in the middle, and an int too long to print (Python refuses over 4,300 digits) is told by
    its size (the twin of the compiled core's).

    >>> shown(10**5000)
    '<an integer of 16,610 bits>'
    >>> len(shown("x" * 10**6)) < 200
    True
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 600:
        return f"<an integer of {value.bit_length():,} bits>"
    r = repr(value)
    if len(r) > 200:
        r = f"{r[:100]}...<{len(r) - 160:,} characters>...{r[-60:]}"
    return r


def folded(text: str) -> str | None:
    """``text`` as notation is matched: blanks around it dropped, in lower case; None if it
    holds a character outside ASCII, which notation never has (and whose lower case may be
    an ASCII letter: the Kelvin sign's is ``k``).

    >>> folded(" C3 "), folded("\u212a1")
    ('c3', None)
    """
    return text.strip().lower() if text.isascii() else None


def plain_number(text: str) -> bool:
    """Whether ``text`` may be read by ``int()`` or ``float()`` as a number of a command line or
    a spec: ASCII, with no underscore (both functions also read other scripts' digits, as
    ``int("\u0663")`` is 3, and ``1_000``).

    >>> plain_number("-2.5e3"), plain_number("\u0663"), plain_number("1_000")
    (True, False, False)
    """
    return text.isascii() and "_" not in text


def number_text(value: float) -> str:
    """``value`` as text that ``float()`` and :func:`plain_number` read back to the same number:
    its shortest round-trip digits, written out without an exponent, and no ``.0`` on a whole
    number (``:g`` keeps six digits, ``1e6`` became ``1e+06``, where ``+`` may be a separator).

    >>> number_text(60.0), number_text(1e6), number_text(123.456789), number_text(1e-7)
    ('60', '1000000', '123.456789', '0.0000001')
    """
    import decimal  # (here: the module is not needed to import plateau)

    text = format(decimal.Decimal(repr(float(value) + 0.0)), "f")
    return text[:-2] if text.endswith(".0") else text


def same_json(value: object, expected: object) -> bool:
    """Whether JSON data ``value`` is ``expected``: as ``==``, but a bool is equal only to a
    bool (``==`` holds True equal to 1: ``[true, false]`` is not returns of 1 and 0).

    >>> same_json({"a": [1, 0.5]}, {"a": [1.0, 0.5]}), same_json([True], [1])
    (True, False)
    """
    if isinstance(value, bool) or isinstance(expected, bool):
        return type(value) is type(expected) and value == expected
    if isinstance(expected, dict):
        return (
            isinstance(value, dict)
            and value.keys() == expected.keys()
            and all(same_json(value[k], expected[k]) for k in expected)
        )
    if isinstance(expected, (list, tuple)):
        return (
            isinstance(value, list)
            and len(value) == len(expected)
            and all(same_json(v, e) for v, e in zip(value, expected))
        )
    if isinstance(expected, (int, float)):
        return type(value) in (int, float) and value == expected
    return type(value) is type(expected) and value == expected


def _integer_in(value: object, lo: int, hi: int | None, name: str, shown_hi: str) -> int:
    # the rule of both checkers below (and of the compiled twin): any integral type but bool
    # (numpy's too: numpy 1.x still lets operator.index take it), range-checked on the value
    if not isinstance(value, (bool, np.bool_)):
        try:
            i = operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
        else:
            if lo <= i and (hi is None or i < hi):
                return int(i)
    bounds = f">= {lo}" if hi is None else f"in [{lo}, {shown_hi})"
    raise InvalidArgumentError(f"{name} must be an int {bounds}, got {shown(value)}")


def check_flag(value: object, name: str) -> bool:
    """``value`` as a ``bool`` after checking that it is one (or a numpy bool): any other
    value's truth is rarely what the caller meant (``update="no"`` is true).

    >>> check_flag("no", "update")
    Traceback (most recent call last):
    plateau.errors.InvalidArgumentError: update must be True or False, got 'no'
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise InvalidArgumentError(f"{name} must be True or False, got {shown(value)}")


def check_state(value: object, what: str) -> GameState:
    """``value`` after checking that it is a game state; InvalidArgumentError ``"{what} a game
    state, got TYPE"`` otherwise (``what``: ``"svg draws"``, ``"to_json takes"``)."""
    from plateau.state import GameState  # (the state module imports this one)

    if not isinstance(value, GameState):
        raise InvalidArgumentError(f"{what} a game state, got {type(value).__name__}")
    return value


def _is_sequence(value: object) -> bool:
    """A sequence of items: a list, tuple, range, numpy array of one or more dimensions, ...
    but not a string, bytes or a mapping."""
    if isinstance(value, np.ndarray):
        return value.ndim > 0
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray))


def check_ranking(ranking: object, num_players: int) -> list[list[int]]:
    """``ranking`` (best group first; a group is a list, tuple or set of players tied for a
    place) as lists of plain ints, after checking that its groups partition players
    ``0..num_players - 1``: any integral player but a bool; the ranking and its groups any
    sequence (not a string), groups also sets. InvalidArgumentError otherwise.

    >>> check_ranking(((np.int64(1),), {0, 2}), 3)
    [[1], [0, 2]]
    """
    groups: list[list[int]] = []
    if _is_sequence(ranking):
        for group in cast("Sequence[Any]", ranking):
            if not (_is_sequence(group) or isinstance(group, (set, frozenset))) or any(
                isinstance(p, (bool, np.bool_)) or not isinstance(p, numbers.Integral)
                for p in group
            ):
                break
            players = [operator.index(p) for p in group]
            groups.append(sorted(players) if isinstance(group, (set, frozenset)) else players)
        else:
            flat = sorted(p for g in groups for p in g)
            if flat == list(range(num_players)) and all(groups):
                return groups
    raise InvalidArgumentError(
        f"a ranking must place each of players 0..{num_players - 1} once in non-empty groups "
        f"(lists of player ints, best first), got {shown(ranking)}"
    )


def check_int(value: object, name: str, lo: int, hi: int | None = None) -> int:
    """``value`` as an ``int`` after checking that it is an integer (not a bool) in
    ``[lo, hi)`` (``hi`` None: no upper bound); ValueError naming ``name`` otherwise."""
    return _integer_in(value, lo, hi, name, str(hi))


def check_seed(value: object, name: str = "seed") -> int:
    """``value`` as an ``int`` after checking that it is a seed: an integer (not a bool) in
    ``[0, 2**64)``; ValueError naming ``name`` otherwise, in the compiled twin's words.

    >>> check_seed(-1)
    Traceback (most recent call last):
    plateau.errors.InvalidArgumentError: seed must be an int in [0, 2**64), got -1
    """
    return _integer_in(value, 0, 2**64, name, "2**64")


def check_number(value: object, name: str, lo: float = 0.0) -> float:
    """``value`` as a ``float`` after checking that it is a finite real number (not a bool,
    not NaN nor infinite: a budget of inf seconds searched for ever) ``>= lo``; ValueError
    naming ``name`` otherwise."""
    if not isinstance(value, bool) and isinstance(value, numbers.Real):
        try:
            if math.isfinite(float(value)) and float(value) >= lo:
                return float(value)
        except OverflowError:  # (an int too large for a float)
            pass
    bound = f" >= {lo:g}" if lo > -math.inf else ""
    raise InvalidArgumentError(f"{name} must be a finite number{bound}, got {shown(value)}")


#: the deepest nesting of arrays and objects a JSON document from outside may have (a record,
#: a board or an arena line needs fewer than 10 levels); deeper text is refused before anything
#: walks it, so no reader, check or error message of the library can exceed Python's recursion
#: limit on it
MAX_JSON_DEPTH = 64

#: the most values (about: commas and openings counted in the text) a JSON document from
#: outside may hold; a game record of a million plies holds about a million. Decoding takes tens
#: to hundreds of bytes a value, so this bounds the memory a file of up to
#: ``files.MAX_INPUT_FILE_BYTES`` can take to a few hundred MiB
MAX_JSON_VALUES = 4_000_000


def load_outside_json(
    text: str | bytes | bytearray,
    error: type[ValueError],
    what: str,
    object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None,
) -> Any:
    """``json.loads(text)`` for text from outside the program (a file, a line of a protocol, a
    saved game): any failure to decode it, including nesting that would exceed the recursion
    limit, an integer beyond Python's digit limit and bytes that are not UTF-8, raises
    ``error`` (a ``ValueError`` subclass, e.g. ``InvalidRecordError``) with the message
    ``"{what}: {why}"``; errors of the type ``error`` that ``object_pairs_hook`` raises pass as
    they are. Documents nested deeper than :data:`MAX_JSON_DEPTH`, or with
    :data:`MAX_JSON_VALUES` values or more, are refused too, and so is an object that gives
    one key twice (readers differ on which one counts: Python's takes the last), unless
    ``object_pairs_hook`` decides otherwise.

    >>> load_outside_json('{"a": [1]}', ValueError, "not valid JSON")
    {'a': [1]}
    >>> load_outside_json("[" * 100000, ValueError, "not valid JSON")
    Traceback (most recent call last):
    ValueError: not valid JSON: nested more than 64 levels deep
    >>> load_outside_json('{"a": 1, "a": 2}', ValueError, "a record")
    Traceback (most recent call last):
    ValueError: a record: key 'a' given twice in one object
    """
    if object_pairs_hook is None:

        def object_pairs_hook(pairs: list[tuple[str, Any]]) -> Any:
            out = dict(pairs)
            if len(out) < len(pairs):
                seen: set[str] = set()
                for k, _ in pairs:
                    if k in seen:
                        raise error(f"{what}: key {shown(k)} given twice in one object")
                    seen.add(k)
            return out

    if isinstance(text, str):
        values = text.count("[") + text.count("{") + text.count(",")
    else:
        values = text.count(b"[") + text.count(b"{") + text.count(b",")
    if values >= MAX_JSON_VALUES:
        # (an upper bound on the values, counted before any is made: decoded, each takes
        # tens to hundreds of bytes, so a file of a few MiB could fill gigabytes)
        raise error(f"{what}: more than {MAX_JSON_VALUES:,} values")
    try:
        value = json.loads(text, object_pairs_hook=object_pairs_hook)
    except RecursionError:
        value = _TOO_DEEP
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise error(f"{what}: {e}") from None
    except error:  # the hook's own refusal
        raise
    except (ValueError, TypeError) as e:  # an integer beyond Python's digit limit, a bad type
        raise error(f"{what}: {e}") from None
    if value is _TOO_DEEP:
        raise error(f"{what}: nested more than {MAX_JSON_DEPTH} levels deep")
    check_json_depth(value, error, what)
    return value


def check_json_depth(value: object, error: type[ValueError], what: str) -> None:
    """Raise ``error("{what}: nested more than 64 levels deep")`` if the lists and dicts of
    ``value`` (data decoded from outside) nest deeper than :data:`MAX_JSON_DEPTH`. Iterative,
    so it cannot itself exceed the recursion limit; the entry points that take data as dicts
    (``from_record``) call it too."""
    if _too_deep(value):
        raise error(f"{what}: nested more than {MAX_JSON_DEPTH} levels deep")


_TOO_DEEP = object()


def _too_deep(value: object) -> bool:
    """Whether the dicts, lists and tuples of ``value`` nest deeper than MAX_JSON_DEPTH. One
    iterator per open level: memory grows with the depth, not with the number of values."""
    if not isinstance(value, (dict, list, tuple)):
        return False
    stack: list[Any] = [iter(value.values() if isinstance(value, dict) else value)]
    while stack:
        for child in stack[-1]:
            if isinstance(child, (dict, list, tuple)):
                if len(stack) >= MAX_JSON_DEPTH:
                    return True
                stack.append(iter(child.values() if isinstance(child, dict) else child))
                break
        else:
            stack.pop()
    return False


def short_json(value: object, limit: int = 80) -> str:
    """``value`` as JSON for a message, cut to ``limit`` characters."""
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


#: a data line's fields: name -> (check, what the check wants, for the message; required)
FieldTable = dict[str, tuple[Callable[[Any], bool], str, bool]]


def check_fields(
    data: object, fmt: str, table: FieldTable, error: type[ValueError], what: str
) -> dict[str, Any]:
    """The fields of one line of outside data (an arena result, a suite position) without its
    ``"format"``, once ``data`` is an object whose ``format`` is ``fmt`` and each field is known
    and passes its check; ``error`` naming the first fault otherwise (``what``: the kind of line,
    for the message)."""
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise error(f'not {what} (no "format": "{fmt}")')
    fields = {k: v for k, v in data.items() if k != "format"}
    for name in fields:
        if name not in table:
            raise error(f"unknown field {str(name)[:100]!r}")
    for name, (check, wants, required) in table.items():
        if name not in fields:
            if required:
                raise error(f"field {name!r} is missing")
            continue
        if not check(fields[name]):
            raise error(f"field {name!r} must be {wants}, got {short_json(fields[name])}")
    return fields
