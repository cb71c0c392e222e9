"""Game records and pickles: lossless round trips with undo working after loading (with default
and other options), per-player exports that cannot be replayed, finished games carrying their
result, and corrupt or hand-edited records refused with InvalidRecordError naming the field or
the ply. Record handling is game-independent, so the messages are checked too."""

from __future__ import annotations

import copy
import json
import pickle
import random
import re
from typing import Any, Callable

import pytest

import plateau
from plateau import GameState
from support import GAME_VARIANTS, Case, first_illegal_id, snapshot, undo_trail


def assert_same_game(loaded: GameState, s: GameState) -> None:
    """Equal now, and equal at every ply when both are undone back to the start."""
    assert loaded is not s and type(loaded) is type(s) and loaded == s
    assert snapshot(loaded) == snapshot(s)
    assert undo_trail(loaded) == undo_trail(s)


def refused(text: object, *patterns: str) -> str:
    """``from_json(text)`` raises InvalidRecordError whose message matches every pattern."""
    with pytest.raises(plateau.InvalidRecordError) as info:
        plateau.from_json(text)  # type: ignore[arg-type]
    message = str(info.value)
    for pattern in patterns:
        assert re.search(pattern, message), (pattern, message)
    assert isinstance(info.value, ValueError)
    return message


def midgame_record(game: str, variant: str) -> dict[str, Any]:
    record = json.loads(Case(game, variant, "midgame").state().to_json())
    assert isinstance(record, dict) and len(record["actions"]) >= 2
    return record


# -- round trips --------------------------------------------------------------------------------


def test_json_round_trip(case: Case) -> None:
    s = case.state()
    text = s.to_json()
    assert isinstance(text, str) and text == plateau.to_json(s)
    record = json.loads(text)
    assert record["format"] == "plateau-game-record" and record["version"] == 1
    assert (record["game"], record["variant"]) == (case.game, case.variant)
    assert record["options"] == s.options
    assert record["actions"] == s.history_strings()
    assert ("result" in record) == s.is_terminal()
    assert "viewer" not in record and "setup" not in record
    loaded = plateau.from_json(text)
    assert_same_game(loaded, s)
    assert loaded.to_json() == text
    assert snapshot(plateau.from_json(text.encode())) == snapshot(s)
    indented = plateau.to_json(s, indent=2)
    assert "\n" in indented and snapshot(plateau.from_json(indented)) == snapshot(s)
    # options may be left out (the defaults), and actions spelled in any letter case with blanks
    del record["options"]
    assert snapshot(plateau.from_json(json.dumps(record))) == snapshot(s)
    record["actions"] = [f" {a.upper()} " for a in record["actions"]]
    assert snapshot(plateau.from_json(json.dumps(record))) == snapshot(s)
    # the loaded game goes on like the original
    if not s.is_terminal():
        a = int(s.legal_actions()[-1])
        s.apply(a)
        loaded.apply(a)
        assert snapshot(loaded) == snapshot(s)


def test_pickle_round_trip(case: Case) -> None:
    s = case.state()
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert_same_game(pickle.loads(pickle.dumps(s, protocol=protocol)), s)
    box = pickle.loads(pickle.dumps({"a": s, "b": s}))
    assert box["a"] is box["b"] and snapshot(box["a"]) == snapshot(s)


def other_options(game: str, variant: str) -> list[dict[str, Any]]:
    """Option sets other than the defaults that ``new_game`` accepts (the game's
    ``option_values``, and int options moved up by 1, 2, 3 and 9 where the game takes the
    value)."""
    out = []
    info = plateau.game_info(game)
    for name, default in info.options.items():
        values = list(info.option_values.get(name, ()))
        if isinstance(default, int) and not isinstance(default, bool):
            values += [default + 1, default + 2, default + 3, default + 9]
        for value in values:
            try:
                plateau.new_game(game, variant, **{name: value})
            except ValueError:
                continue
            out.append({name: value})
    return out


def test_round_trips_with_other_options(game_variant: tuple[str, str]) -> None:
    game, variant = game_variant
    options = other_options(game, variant)
    for opts in options:
        rng = random.Random(f"options/{game}/{variant}/{opts}")
        s = plateau.new_game(game, variant, **opts)
        assert s.options == {**plateau.game_info(game).options, **opts}
        while not s.is_terminal() and s.ply < 5000:
            if s.ply == 7:
                mid = s.clone()
            legal = s.legal_actions()
            s.apply(int(legal[rng.randrange(len(legal))]))
        for t in (s, mid) if s.ply > 7 else (s,):
            record = json.loads(t.to_json())
            assert record["options"] == t.options
            assert_same_game(plateau.from_json(t.to_json()), t)
            assert_same_game(pickle.loads(pickle.dumps(t)), t)
            assert snapshot(copy.deepcopy(t)) == snapshot(t)
    if plateau.game_info(game).options:
        assert options, "no other option value accepted: nothing was checked"


def test_finished_record_carries_the_result(finished_case: Case) -> None:
    s = finished_case.state()
    record = json.loads(s.to_json())
    assert record["result"] == {"ranking": s.ranking(), "returns": s.returns()}
    loaded = plateau.from_json(s.to_json())
    assert loaded.is_terminal() and loaded.returns() == s.returns()
    # a finished record without its result still loads
    del record["result"]
    assert snapshot(plateau.from_json(json.dumps(record))) == snapshot(s)


def test_per_player_export_is_not_replayable(case: Case) -> None:
    s = case.state()
    full = json.loads(s.to_json())
    for p in range(s.num_players):
        before = snapshot(s)
        text = s.to_json(viewer=p)
        assert snapshot(s) == before
        record = json.loads(text)
        assert record["viewer"] == p
        assert len(record["actions"]) == len(full["actions"])
        assert record["actions"] == s.history_strings(viewer=p)
        if plateau.game_info(case.game).perfect_information:
            assert record["actions"] == full["actions"]  # every action is public
        refused(text, "view", rf"player {p}\b", "cannot be replayed")
        # refused for the field alone, even where the actions would replay
        refused(json.dumps(dict(full, viewer=p)), "view")
    refused(json.dumps(dict(full, viewer=None)), "view")


# -- not a record -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ("not json", "not valid JSON"),
        ("{'format': 1}", "not valid JSON"),
        (b"\xff\xfe\x00", "not valid JSON"),
        ("[]", "JSON object, got list"),
        ('"a string"', "JSON object, got str"),
        ("42", "JSON object, got int"),
        ("null", "JSON object, got NoneType"),
        ("true", "JSON object"),
        ("{}", "format is None"),
        ("[" * 100_000 + "]" * 100_000, "JSON"),
        ("{" * 100_000, "JSON"),
    ],
    ids=lambda v: repr(v)[:20],
)
def test_not_a_record(text: str | bytes, pattern: str) -> None:
    refused(text, pattern)


@pytest.mark.parametrize("value", [None, 3, ["{}"], {"format": "plateau-game-record"}])
def test_not_text(value: Any) -> None:
    refused(value, "JSON text", type(value).__name__)


def test_truncated_record(case: Case) -> None:
    text = case.state().to_json()
    for cut in (1, 2, len(text) // 3, len(text) // 2, len(text) - 2, len(text) - 1):
        refused(text[:cut], "not valid JSON")


# -- hand-edited records ------------------------------------------------------------------------

HEADER_EDITS: dict[str, tuple[Callable[[dict[str, Any]], object], list[str]]] = {
    "format": (lambda r: r.update(format="chess-pgn"), ["format is 'chess-pgn'"]),
    "no format": (lambda r: r.pop("format"), ["format is None"]),
    "version 2": (lambda r: r.update(version=2), ["version 2"]),
    "version 0": (lambda r: r.update(version=0), ["version 0"]),
    "version '1'": (lambda r: r.update(version="1"), ["version '1'"]),
    "version True": (lambda r: r.update(version=True), ["version True"]),
    "version 1.0": (lambda r: r.update(version=1.0), ["version 1.0"]),
    "no version": (lambda r: r.pop("version"), ["version None"]),
    "unknown game": (lambda r: r.update(game="chess"), ["unknown game 'chess'"]),
    "game in capitals": (lambda r: r.update(game=r["game"].upper()), ["unknown game"]),
    "game None": (lambda r: r.update(game=None), ["'game'", "strings"]),
    "no game": (lambda r: r.pop("game"), ["'game'"]),
    "unknown variant": (lambda r: r.update(variant="huge"), ["unknown variant 'huge'"]),
    "variant None": (lambda r: r.update(variant=None), ["'variant'", "strings"]),
    "variant a list": (lambda r: r.update(variant=[r["variant"]]), ["'variant'", "strings"]),
    "unknown field": (lambda r: r.update(moves=[]), ["unknown field", "moves"]),
    "unknown fields": (lambda r: r.update(comment="x", zz=1), ["unknown field", "'comment', 'zz'"]),
    "setup_position": (lambda r: r.update(setup_position={}), ["unknown field", "setup_position"]),
    "options a list": (lambda r: r.update(options=[]), ["'options' must be an object"]),
    "options a string": (lambda r: r.update(options="a=1"), ["'options' must be an object"]),
    "options None": (lambda r: r.update(options=None), ["'options' must be an object"]),
    "unknown option": (lambda r: r.update(options={"zz": 2}), ["bad options", "'zz'"]),
    "actions a string": (lambda r: r.update(actions="abc"), ["'actions' must be a list", "str"]),
    "actions a dict": (
        lambda r: r.update(actions={"0": "a"}),
        ["'actions' must be a list", "dict"],
    ),
    "actions None": (lambda r: r.update(actions=None), ["'actions' must be a list"]),
    "no actions": (lambda r: r.pop("actions"), ["'actions' must be a list"]),
}


@pytest.mark.parametrize("edit", sorted(HEADER_EDITS))
def test_hand_edited_header(game_variant: tuple[str, str], edit: str) -> None:
    record = midgame_record(*game_variant)
    change, patterns = HEADER_EDITS[edit]
    change(record)
    refused(json.dumps(record), *patterns)


def test_hand_edited_options(game_variant: tuple[str, str]) -> None:
    game, variant = game_variant
    record = midgame_record(game, variant)
    for name, default in plateau.game_info(game).options.items():
        wrong: list[Any] = [None, [default], {"a": 1}]
        if isinstance(default, int) and not isinstance(default, bool):
            wrong += [True, 1.5, 0.0]
        for value in wrong:
            refused(json.dumps(dict(record, options={name: value})), f"'{name}'", "bad value")
        if isinstance(default, int) and not isinstance(default, bool):
            for value in (-1, 2**31, 2**70, str(default)):
                refused(json.dumps(dict(record, options={name: value})), "bad options", name)


def test_a_record_of_another_game(game_variant: tuple[str, str]) -> None:
    game, variant = game_variant
    record = midgame_record(game, variant)
    for other in plateau.games():
        if other == game:
            continue
        relabelled = dict(record, game=other, variant=plateau.game_info(other).default_variant)
        refused(json.dumps(relabelled))
        del relabelled["options"]
        refused(json.dumps(relabelled))


@pytest.mark.parametrize("bad", [5, None, ["x"], {"a": "x"}, True, 1.5], ids=repr)
def test_non_string_action_at_ply_k(game_variant: tuple[str, str], bad: Any) -> None:
    record = midgame_record(*game_variant)
    n = len(record["actions"])
    for k in sorted({0, 1, n // 2, n - 1}):
        actions = [*record["actions"][:k], bad, *record["actions"][k + 1 :]]
        message = refused(
            json.dumps(dict(record, actions=actions)),
            f"^ply {k}: ",
            "notation strings",
            re.escape(repr(bad)),
        )
        assert message.startswith(f"ply {k}:")


@pytest.mark.parametrize("bad", ["", " ", "#garbage#", "\x00", "@@@", "12345678901234567890"])
def test_unparseable_action_at_ply_k(game_variant: tuple[str, str], bad: str) -> None:
    record = midgame_record(*game_variant)
    n = len(record["actions"])
    for k in sorted({0, 1, n // 2, n - 1}):
        actions = [*record["actions"][:k], bad, *record["actions"][k + 1 :]]
        refused(json.dumps(dict(record, actions=actions)), f"^ply {k}: ", re.escape(repr(bad)))


def test_a_record_longer_than_the_bound_is_refused_before_it_is_replayed(
    game_variant: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # each replayed action keeps an undo record of the position: the replay, not the text, is
    # what a long record costs, so the length is checked before the first action is applied
    record = midgame_record(*game_variant)
    n = len(record["actions"])
    too_long = [record["actions"][0]] * (plateau.record.MAX_RECORD_ACTIONS + 1)
    refused(
        json.dumps(dict(record, actions=too_long)),
        f"^the record has {plateau.record.MAX_RECORD_ACTIONS + 1:,} actions, more than",
        "MAX_RECORD_ACTIONS",
    )
    monkeypatch.setattr(plateau.record, "MAX_RECORD_ACTIONS", n)
    assert plateau.from_json(json.dumps(record)).ply == n
    monkeypatch.setattr(plateau.record, "MAX_RECORD_ACTIONS", n - 1)
    refused(json.dumps(record), f"^the record has {n:,} actions, more than the {n - 1:,} ")
    # a record the caller trusts may be read with another bound, from the dict or the text
    assert plateau.from_json(json.dumps(record), max_actions=n).ply == n
    assert plateau.record.from_record(record, max_actions=n).ply == n
    refused(json.dumps(record), "max_actions")
    with pytest.raises(plateau.InvalidRecordError, match=f"more than the {n - 1:,} "):
        plateau.record.from_record(record, max_actions=n - 1)
    for bad in (-1, 1.5, "10", True):
        with pytest.raises(plateau.InvalidArgumentError, match="max_actions"):
            plateau.from_json(json.dumps(record), max_actions=bad)  # type: ignore[arg-type]


def test_illegal_action_at_every_ply(game_variant: tuple[str, str]) -> None:
    game, variant = game_variant
    record = midgame_record(game, variant)
    actions = record["actions"]
    s = plateau.new_game(game, variant)
    for k in range(len(actions)):
        # replace ply k by an action that parses but is not legal at that point
        a = first_illegal_id(s)
        illegal = s.action_to_string(a)
        bad = dict(record, actions=[*actions[:k], illegal, *actions[k + 1 :]])
        message = refused(json.dumps(bad), f"^ply {k}: ", re.escape(repr(illegal)), "is illegal")
        assert message.endswith(s.why_illegal(a))
        s.apply(actions[k])


def test_action_after_the_end(finished_case: Case) -> None:
    s = finished_case.state()
    record = json.loads(s.to_json())
    n = len(record["actions"])
    probe = s.clone()
    last = probe.undo()
    extras = {s.action_to_string(a) for a in (last, 0, s.num_distinct_actions - 1)}
    extras |= set(probe.legal_action_strings()[:3])
    for extra in sorted(extras):
        bad = dict(record, actions=[*record["actions"], extra])
        message = refused(json.dumps(bad), rf"^ply {n}: ", re.escape(repr(extra)), "game is over")
        assert message.startswith(f"ply {n}:")


def wrong_results(s: GameState) -> list[Any]:
    """Results that are not the one of the finished game ``s``."""
    ranking, returns = s.ranking(), s.returns()
    everyone = [list(range(s.num_players))]
    other_ranking = everyone if ranking != everyone else [[p] for p in range(s.num_players)]
    return [
        {"ranking": ranking, "returns": [r + 1.0 for r in returns]},
        {"ranking": ranking, "returns": [*reversed(returns), 0.0]},
        {"ranking": other_ranking, "returns": returns},
        {"ranking": ranking},
        {"returns": returns},
        {"ranking": ranking, "returns": returns, "winner": ranking[0][0]},
        "1-0",
        [],
        {},
        0,
        True,
    ]


def test_result_must_match_the_replay(finished_case: Case) -> None:
    s = finished_case.state()
    record = json.loads(s.to_json())
    for result in wrong_results(s):
        assert result != record["result"]
        bad = dict(record, result=result)
        refused(json.dumps(bad), "result", "does not match", re.escape(repr(result)))


def test_result_is_compared_as_json_numbers(finished_case: Case) -> None:
    """The result's numbers are compared as numbers (an integral return may be written as an
    int), and a JSON true or false is never one of them, though Python holds True == 1."""
    s = finished_case.state()
    record = json.loads(s.to_json())
    ranking, returns = record["result"]["ranking"], record["result"]["returns"]
    as_ints = [int(r) if r == int(r) else r for r in returns]
    written = dict(record, result={"ranking": ranking, "returns": as_ints})
    assert plateau.from_json(json.dumps(written)).returns() == returns

    def flag(v: Any) -> Any:
        return bool(v) if v in (0, 1) else v

    bools = [
        {"ranking": ranking, "returns": [flag(r) for r in returns]},
        {"ranking": [[flag(p) for p in tier] for tier in ranking], "returns": returns},
    ]
    for result in bools:
        if json.dumps(result) == json.dumps(record["result"]):
            continue  # (nothing was 0 or 1)
        assert result == record["result"]  # (as Python compares them)
        bad = dict(record, result=result)
        refused(json.dumps(bad), "result", "does not match")
    assert any(json.dumps(r) != json.dumps(record["result"]) for r in bools)


def test_result_on_an_unfinished_game(finished_case: Case) -> None:
    record = json.loads(finished_case.state().to_json())
    n = len(record["actions"])
    message = refused(json.dumps(dict(record, actions=record["actions"][:-1])), "does not match")
    assert f"after {n - 1} plies, game over: False" in message
    refused(json.dumps(dict(record, actions=record["actions"][:2])), "after 2 plies")
    refused(json.dumps(dict(record, actions=[])), "after 0 plies")


def test_bad_set_up_in_a_record_is_refused(game_variant: tuple[str, str]) -> None:
    game, variant = game_variant
    record = json.loads(plateau.new_game(game, variant).to_json())
    for setup in ("not a position", None, 5, []):
        refused(json.dumps(dict(record, setup=setup)), "set-up")


def test_every_game_is_recorded() -> None:
    assert {g for g, _ in GAME_VARIANTS} == set(plateau.games())
