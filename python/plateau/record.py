"""Game records: a JSON document with a format version, the game, variant, options and the
action history in notation. Loading replays the actions through the engine, so a record with
an illegal, unparseable or corrupt action is refused with an error naming the ply and reason.
"""

from __future__ import annotations

from typing import Any

from plateau.checks import (
    check_int,
    check_json_depth,
    check_state,
    load_outside_json,
    same_json,
    shown,
)
from plateau.errors import (
    ActionError,
    InvalidRecordError,
    UnknownGameError,
    UnknownVariantError,
)
from plateau.registry import GameSpec, check_data_options
from plateau.state import RECORD_FORMAT, RECORD_VERSION, GameState

FORMAT = RECORD_FORMAT
VERSION = RECORD_VERSION

#: the most actions a record may replay. Each applied action keeps an undo record of the
#: position (up to about 1.1 KiB on Empire Plateau's largest boards), so replaying is what
#: costs memory, not reading: a 40 MB record of four million actions would have kept about
#: 5 GB. At this bound a replay keeps at most a few hundred MiB; a real game is far shorter
MAX_RECORD_ACTIONS = 200_000


def to_record(state: GameState, viewer: int | None = None) -> dict[str, Any]:
    """The record of ``state`` as a plain dict (:meth:`GameState.to_record
    <plateau.GameState.to_record>`)."""
    return check_state(state, "to_record takes").to_record(viewer)


def to_json(state: GameState, indent: int | None = None, viewer: int | None = None) -> str:
    """The record of ``state`` as JSON text (``viewer``: see :func:`~plateau.record.to_record`;
    ``indent``: see ``GameState.to_json``)."""
    return check_state(state, "to_json takes").to_json(viewer, indent=indent)


def from_record(record: object, *, max_actions: int | None = None) -> GameState:
    """Rebuild a game from a record dict by replaying its actions: at most ``max_actions``
    (None: ``MAX_RECORD_ACTIONS``; raise it only for a record you trust, since each replayed
    action keeps an undo record)."""
    limit = MAX_RECORD_ACTIONS if max_actions is None else check_int(max_actions, "max_actions", 0)
    if not isinstance(record, dict):
        raise InvalidRecordError(f"a game record is a JSON object, got {type(record).__name__}")
    check_json_depth(record, InvalidRecordError, "not a game record")
    if record.get("format") != FORMAT:
        raise InvalidRecordError(
            f"not a plateau game record: format is {shown(record.get('format'))}"
        )
    if type(record.get("version")) is not int or record.get("version") != VERSION:
        raise InvalidRecordError(
            f"unsupported record version {shown(record.get('version'))} (this library reads "
            f"{VERSION})"
        )
    if "viewer" in record:
        raise InvalidRecordError(
            f"this is player {shown(record['viewer'])}'s view of a game (hidden faces redacted): "
            "a view record cannot be replayed"
        )
    fields = {"format", "version", "game", "variant", "options", "actions", "result", "setup"}
    unknown = sorted(set(record) - fields)
    if unknown:
        names = ", ".join(shown(k) for k in unknown[:10])
        more = f" and {len(unknown) - 10:,} more" if len(unknown) > 10 else ""
        raise InvalidRecordError(f"unknown field(s) in record: {names}{more}")
    game, variant, options = record.get("game"), record.get("variant"), record.get("options", {})
    actions = record.get("actions")
    if not isinstance(game, str) or not isinstance(variant, str):
        raise InvalidRecordError(
            f"'game' and 'variant' must be strings, got {shown(game)}, {shown(variant)}"
        )
    if not isinstance(options, dict):
        raise InvalidRecordError(f"'options' must be an object, got {shown(options)}")
    for key, value in options.items():
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise InvalidRecordError(f"option {shown(key)} has a bad value {shown(value)}")
    if not isinstance(actions, list):
        raise InvalidRecordError(f"'actions' must be a list, got {type(actions).__name__}")
    if len(actions) > limit:
        raise InvalidRecordError(
            f"the record has {len(actions):,} actions, more than the {limit:,} "
            "a record may replay (plateau.record.MAX_RECORD_ACTIONS; a record you trust may "
            "be read with a larger max_actions)"
        )
    try:
        check_data_options(game, options)  # first: a path would make the loader read a file
        spec = GameSpec(game, variant, options)
    except (UnknownGameError, UnknownVariantError) as e:
        raise InvalidRecordError(f"bad game or variant: {e}") from None
    except ValueError as e:
        raise InvalidRecordError(f"bad options: {e}") from None
    state = spec.new_game()
    if "setup" in record:
        from_setup = spec.info.from_setup
        if from_setup is None:
            raise InvalidRecordError(f"{shown(game)} has no set-up positions")
        try:
            state = from_setup(variant, record["setup"], **spec.options)
        except ValueError as e:
            raise InvalidRecordError(f"bad set-up position: {e}") from None
    for ply, action in enumerate(actions):
        if not isinstance(action, str):
            raise InvalidRecordError(
                f"ply {ply}: actions are notation strings, got {shown(action)}"
            )
        try:
            state.apply(action)
        except ActionError as e:  # unreadable or illegal: either way a corrupt record
            raise InvalidRecordError(f"ply {ply}: {e}") from None
    result = record.get("result")
    if result is not None:
        expected = {"ranking": state.ranking(), "returns": state.returns()}
        if not state.is_terminal() or not same_json(result, expected):
            raise InvalidRecordError(
                f"the record's result {shown(result)} does not match the replayed game "
                f"({shown(expected)} after {state.ply} plies, game over: {state.is_terminal()})"
            )
    return state


def from_json(text: str | bytes, *, max_actions: int | None = None) -> GameState:
    """Rebuild a game from JSON text written by :func:`to_json` (or ``state.to_json()``);
    ``max_actions`` as for ``plateau.record.from_record``."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise InvalidRecordError(f"a game record is JSON text, got {type(text).__name__}")
    return from_record(
        load_outside_json(text, InvalidRecordError, "not valid JSON"), max_actions=max_actions
    )
