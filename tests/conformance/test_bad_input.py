"""Bad input of every kind is refused with a ValueError subclass (IllegalActionError for actions;
IndexError for undo with nothing to undo) and leaves the state exactly as it was."""

from __future__ import annotations

import json
import random
import re
from typing import Any, Callable

import numpy as np
import pytest

import plateau
from conformance.support import Case, first_illegal_id, snapshot
from plateau import GameState


def quick(s: GameState) -> tuple[Any, ...]:
    """Hash, ply, history and legal list: checked around every refused call."""
    return s.hash, s.ply, s.history, s.legal_actions().tolist()


def refused(
    s: GameState,
    call: Callable[[], object],
    error: type[Exception] = ValueError,
    match: str | None = None,
) -> None:
    before = quick(s)
    with pytest.raises(error, match=match):
        call()
    assert quick(s) == before


def bad_actions(n: int) -> list[Any]:
    """Values that are no action of a game with ``n`` action ids."""
    return [
        -1,
        n,
        n + 1,
        -n,
        2**31,
        2**63,
        2**64,
        10**30,
        -(2**63),
        True,
        False,
        1.0,
        1.5,
        float("nan"),
        None,
        [0],
        (0,),
        {},
        b"0",
        bytearray(b"0"),
        "",
        " ",
        "#garbage#",
        "\x00",
        "\u00e9",
        "0",
        str(n - 1),
        "x" * 10_000,
        np.int64(-1),
        np.int64(n),
        np.uint64(2**64 - 1),
        np.float64(0.0),
        np.float32(2.0),
        np.bool_(True),
        np.array([0]),
        1 + 0j,
        object(),
    ]


# -- actions ---------------------------------------------------------------------------------------


def test_bad_actions_are_refused(case: Case) -> None:
    s = case.state()
    before = snapshot(s)
    for bad in bad_actions(s.num_distinct_actions):
        refused(s, lambda bad=bad: s.apply(bad), plateau.IllegalActionError)
        refused(s, lambda bad=bad: s.apply_all([bad]), plateau.IllegalActionError)
        refused(s, lambda bad=bad: s.string_to_action(bad), plateau.IllegalActionError)
        refused(s, lambda bad=bad: s.parse_action(bad), plateau.IllegalActionError)
        if not isinstance(bad, str):
            refused(s, lambda bad=bad: s.action_to_string(bad), plateau.IllegalActionError)
            refused(s, lambda bad=bad: s.action_id(bad), plateau.IllegalActionError)
        assert s.is_legal(bad) is False
    assert snapshot(s) == before


def test_out_of_range_and_wrong_type_messages(case: Case) -> None:
    s = case.state()
    n = s.num_distinct_actions
    span = re.escape(f"[0, {n})")
    for bad in (-1, n, n + 1, -n, 2**31, 2**63, 2**64, -(2**63), 10**30):
        pattern = rf"{bad} out of range {span}"
        for call in (s.apply, s.action_to_string):
            refused(s, lambda c=call, b=bad: c(b), plateau.IllegalActionError, pattern)
    for bad in (np.int64(n), np.int64(-1), np.int32(-1), np.uint64(2**64 - 1)):
        for call in (s.apply, s.action_to_string):
            refused(s, lambda c=call, b=bad: c(b), plateau.IllegalActionError, "out of range")
    for bad in bad_actions(n):
        if isinstance(bad, (str, np.integer)) or type(bad) is int:
            continue
        pattern = rf"int id or a notation string.*{re.escape(type(bad).__name__)}"
        for call in (s.apply, s.action_to_string):
            refused(s, lambda c=call, b=bad: c(b), plateau.IllegalActionError, pattern)
        refused(s, lambda b=bad: s.why_illegal(b), plateau.IllegalActionError, pattern)
        if not s.is_terminal():
            first = int(s.legal_actions()[0])
            refused(
                s,
                lambda b=bad, f=first: s.apply_all([f, b]),
                plateau.IllegalActionError,
                "action 1 of the sequence",
            )


def test_illegal_in_range_ids_are_refused(live_case: Case) -> None:
    s = live_case.state()
    before = snapshot(s)
    mask = s.legal_actions_mask()
    illegal = np.flatnonzero(~mask).tolist()
    rng = random.Random(live_case.seed)
    for a in [first_illegal_id(s), illegal[-1], *rng.sample(illegal, min(20, len(illegal)))]:
        text = s.action_to_string(a)
        refused(s, lambda a=a: s.apply(a), plateau.IllegalActionError, "illegal")
        refused(s, lambda a=a: s.apply(np.int64(a)), plateau.IllegalActionError, "illegal")
        refused(s, lambda text=text: s.apply(text), plateau.IllegalActionError, "illegal")
        refused(s, lambda text=text: s.string_to_action(text), plateau.IllegalActionError)
        assert s.parse_action(text) == a  # well-formed, only not legal here
        assert not s.is_legal(a)
        reason = s.why_illegal(a)
        assert isinstance(reason, str) and reason
    assert snapshot(s) == before


def test_numpy_integer_ids_are_accepted(live_case: Case) -> None:
    s = live_case.state()
    legal = s.legal_actions()
    a = int(legal[len(legal) // 2])
    target = s.clone()
    target.apply(a)
    kinds: list[type[np.integer[Any]]] = [np.int64, np.int32, np.uint64, np.uint32]
    if a < 2**7:
        kinds += [np.int8, np.int16, np.uint8, np.uint16]
    for kind in kinds:
        assert s.action_to_string(kind(a)) == s.action_to_string(a)
        c = s.clone()
        c.apply(kind(a))
        assert type(c.history[-1]) is int
        assert snapshot(c) == snapshot(target)
    c = s.clone()
    c.apply(legal[len(legal) // 2])  # straight out of legal_actions()
    assert snapshot(c) == snapshot(target)


def test_nothing_is_legal_after_the_end(finished_case: Case) -> None:
    s = finished_case.state()
    before = snapshot(s)
    n = s.num_distinct_actions
    probe = s.clone()
    last = probe.undo()
    was_legal = probe.legal_actions().tolist()
    assert len(s.legal_actions()) == 0 and not s.legal_actions_mask().any()
    for a in {last, 0, n - 1, *was_legal[:10], was_legal[-1]}:
        text = s.action_to_string(a)
        refused(s, lambda a=a: s.apply(a), plateau.IllegalActionError, "over")
        refused(s, lambda text=text: s.apply(text), plateau.IllegalActionError, "over")
        refused(s, lambda text=text: s.string_to_action(text), plateau.IllegalActionError, "over")
        assert not s.is_legal(a)
    # bad input after the end still gets its own reason
    refused(s, lambda: s.apply(-1), plateau.IllegalActionError, "out of range")
    refused(s, lambda: s.apply(1.5), plateau.IllegalActionError, "int id or a notation string")
    refused(s, lambda: s.apply("#garbage#"), plateau.IllegalActionError, "garbage")
    assert (s.perft(0), s.perft(1), s.perft(2), s.perft(3), s.perft(63)) == (1, 0, 0, 0, 0)
    assert snapshot(s) == before


def test_apply_all_rolls_back(live_case: Case) -> None:
    s = live_case.state()
    before = snapshot(s)
    a = int(s.legal_actions()[0])
    after = s.clone()
    after.apply(a)
    bad = first_illegal_id(after) if not after.is_terminal() else 0
    for seq in ([a, bad], [a, None], [a, "#garbage#"]):
        with pytest.raises(plateau.IllegalActionError, match="action 1 of the sequence"):
            s.apply_all(seq)
        assert snapshot(s) == before
    with pytest.raises(plateau.IllegalActionError, match="action 0 of the sequence"):
        s.apply_all([None, a])
    assert snapshot(s) == before


# -- undo ------------------------------------------------------------------------------------------


def test_undo_with_nothing_to_undo(game_variant: tuple[str, str]) -> None:
    game, variant = game_variant
    fresh = plateau.new_game(game, variant)
    for s in (fresh, fresh.clone(), plateau.from_json(fresh.to_json())):
        before = snapshot(s)
        with pytest.raises(IndexError, match="nothing to undo"):
            s.undo()
        assert snapshot(s) == before
        s.apply(int(s.legal_actions()[0]))
        s.undo()
        with pytest.raises(IndexError):
            s.undo()
        assert snapshot(s) == before


# -- other arguments -------------------------------------------------------------------------------

BAD_DEPTHS = [-1, -(2**40), 64, 1500, 10**6, 2**31, 2**64, 1.5, 1.0, True, False, None, "1", [1]]
BAD_SEEDS = [-1, 2**64, 2**70, 1.5, 1.0, True, False, None, "1", [1], np.float64(1.0)]
BAD_PLY_CAPS = [-1, -(2**40), 2**31, 2**70, 1.5, True, False, "1", [1]]  # None: no cap


def bad_players(n: int) -> list[Any]:
    return [
        -1,
        n,
        n + 1,
        2**40,
        -(2**40),
        2**64,
        True,
        False,
        1.0,
        0.0,
        "0",
        [0],
        (0,),
        np.float64(0.0),
        np.bool_(False),
        np.int64(n),
    ]


#: the methods of every state that take a player; None is refused by those that need one
PLAYER_METHODS: dict[str, tuple[Callable[[GameState, Any], object], bool]] = {
    "heuristic": (lambda s, p: s.heuristic(p), False),
    "observation": (lambda s, p: s.observation(p), True),
    "observation_string": (lambda s, p: s.observation_string(p), True),
    "observation_tensor": (lambda s, p: s.observation_tensor(p), True),
    "view_for": (lambda s, p: s.view_for(p, 0), False),
    "determinizer": (lambda s, p: s.determinizer(p), False),
    "resample_hidden": (lambda s, p: s.resample_hidden(p, 0), False),
    "history_strings": (lambda s, p: s.history_strings(viewer=p), True),
    "to_json": (lambda s, p: s.to_json(viewer=p), True),
}


def test_bad_perft_depths(case: Case) -> None:
    s = case.state()
    before = snapshot(s)
    for depth in BAD_DEPTHS:
        for bulk in (True, False):
            refused(s, lambda d=depth, b=bulk: s.perft(d, b), ValueError, "depth")
    assert snapshot(s) == before


def test_bad_random_playout_arguments(case: Case) -> None:
    s = case.state()
    before = snapshot(s)
    for seed in BAD_SEEDS:
        refused(s, lambda seed=seed: s.random_playout(seed), ValueError, "seed")
    for cap in BAD_PLY_CAPS:
        refused(s, lambda cap=cap: s.random_playout(0, cap), ValueError, "ply_cap")
    assert snapshot(s) == before


@pytest.mark.parametrize("method", sorted(PLAYER_METHODS))
def test_bad_players(case: Case, method: str) -> None:
    s = case.state()
    before = snapshot(s)
    call, none_is_default = PLAYER_METHODS[method]
    for p in bad_players(s.num_players):
        refused(s, lambda p=p: call(s, p), ValueError, "player|viewer")
    if none_is_default:
        call(s, None)
    else:
        refused(s, lambda: call(s, None), ValueError, "player")
    assert snapshot(s) == before


def test_numpy_integer_arguments(live_case: Case) -> None:
    """Wherever an int is taken, a numpy integer is taken too, with the same result."""
    s = live_case.state()
    before = snapshot(s)
    assert s.perft(np.int64(2)) == s.perft(2) and s.perft(np.uint8(1), bulk=False) == s.perft(1)
    assert s.random_playout(np.int64(7)) == s.random_playout(7)
    assert s.random_playout(np.uint64(7), np.int32(50)) == s.random_playout(7, 50)
    for p in range(s.num_players):
        for kind in (np.int64, np.int32, np.uint8):
            q = kind(p)
            assert s.heuristic(q) == s.heuristic(p)
            assert np.array_equal(s.observation_tensor(q), s.observation_tensor(p))
            assert s.observation(q) == s.observation(p)
            assert s.observation_string(q) == s.observation_string(p)
            assert s.history_strings(viewer=q) == s.history_strings(viewer=p)
            assert s.to_json(viewer=q) == s.to_json(viewer=p)
        assert snapshot(s.view_for(np.int64(p), 3)) == snapshot(s.view_for(p, 3))
    for a in s.legal_actions()[:20]:  # numpy int64 straight from legal_actions()
        assert s.is_legal(a) and s.is_legal(np.int32(a)) and s.is_legal(np.uint64(a))
        assert s.why_illegal(a) is None
    a = first_illegal_id(s)
    assert not s.is_legal(np.int64(a)) and s.why_illegal(np.int64(a)) == s.why_illegal(a)
    assert snapshot(s) == before


def test_why_illegal(case: Case) -> None:
    s = case.state()
    before = snapshot(s)
    if s.is_terminal():
        for a in (0, s.num_distinct_actions - 1):
            assert s.why_illegal(a) == "the game is over"
            assert s.why_illegal(s.action_to_string(a)) == "the game is over"
    else:
        for a in s.legal_actions()[:50].tolist():
            assert s.why_illegal(a) is None
            assert s.why_illegal(s.action_to_string(a)) is None
        a = first_illegal_id(s)
        reason = s.why_illegal(a)
        assert isinstance(reason, str) and reason
        assert s.why_illegal(s.action_to_string(a)) == reason
    for bad in (-1, s.num_distinct_actions, 1.5, None, True, "#garbage#", [0]):
        refused(s, lambda b=bad: s.why_illegal(b), plateau.IllegalActionError)
    assert snapshot(s) == before


def test_apply_all_refuses_a_single_string(live_case: Case) -> None:
    s = live_case.state()
    before = snapshot(s)
    text = s.legal_action_strings()[0]
    for single in (text, text.encode()):
        refused(s, lambda x=single: s.apply_all(x), plateau.IllegalActionError, "sequence")
    assert snapshot(s) == before
    s.apply_all([text])
    assert s.ply == live_case.state().ply + 1


def test_points_for_needs_a_partition(case: Case) -> None:
    s = case.state()
    n = s.num_players
    everyone = list(range(n))
    for bad in (
        [[n + 3]],
        [[0]] if n > 1 else [[1]],
        [everyone, []],
        [[0, 0], everyone[1:]],
        [[-1], everyone],
        [[p] for p in everyone] + [[0]],
        "ab",
        5,
        None,
        [[0.0], everyone[1:]],
        [everyone[::-1], [True]],
    ):
        with pytest.raises(ValueError, match="ranking"):
            s.points_for(bad)  # type: ignore[arg-type]
    together = s.points_for([everyone])
    apart = s.points_for([[p] for p in everyone])
    assert len(together) == len(apart) == n
    assert apart == [float(x) for x in s.points_by_place()]
    assert s.points_for([[np.int64(p)] for p in everyone]) == apart
    assert s.points_for(s.ranking()) == s.points_for(tuple(tuple(g) for g in s.ranking()))


# -- the registry ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["not-a-game", "", " ", None, 5, ["x"]])
def test_unknown_game(name: Any) -> None:
    for call in (plateau.new_game, plateau.variants, plateau.game_info, plateau.random_playouts):
        with pytest.raises(ValueError, match="unknown game"):
            call(name)
    with pytest.raises(plateau.InvalidRecordError):
        plateau.from_json(
            json.dumps(
                {"format": "plateau-game-record", "version": 1, "game": name, "variant": "x"}
            )
        )


def test_game_names_are_exact(game_variant: tuple[str, str]) -> None:
    game, variant = game_variant
    for name in {game.upper(), f" {game}", f"{game} "} - {game}:
        with pytest.raises(ValueError, match="unknown game"):
            plateau.new_game(name, variant)
    for v in {variant.upper(), f" {variant}", "", "not-a-variant"} - {variant}:
        with pytest.raises(ValueError, match="unknown variant"):
            plateau.new_game(game, v)
        with pytest.raises(ValueError, match="unknown variant"):
            plateau.random_playouts(game, v, n=1)


def test_unknown_and_bad_options(game_variant: tuple[str, str]) -> None:
    game, variant = game_variant
    with pytest.raises(ValueError, match="unknown option"):
        plateau.new_game(game, variant, not_an_option=1)
    with pytest.raises(ValueError, match="unknown option"):
        plateau.random_playouts(game, variant, n=1, not_an_option=1)
    for name, default in plateau.game_info(game).options.items():
        bad: list[Any] = [None, [default], object()]
        if isinstance(default, int) and not isinstance(default, bool):
            bad += ["1", 1.5, True, 2**70]
        for value in bad:
            with pytest.raises(ValueError):
                plateau.new_game(game, variant, **{name: value})


@pytest.mark.parametrize(
    "kwargs",
    [
        {"n": -1},
        {"n": 1.5},
        {"n": True},
        {"n": "10"},
        {"seed": -1},
        {"seed": 2**64},
        {"seed": None},
        {"seed": "1"},
        {"ply_cap": -1},
        {"ply_cap": 2.0},
        {"ply_cap": "1"},
        {"ply_cap": 2**31},
    ],
    ids=repr,
)
def test_bad_random_playouts_arguments(
    game_variant: tuple[str, str], kwargs: dict[str, Any]
) -> None:
    game, variant = game_variant
    args: dict[str, Any] = {"n": 2, "seed": 0, **kwargs}
    name = next(iter(kwargs))
    with pytest.raises(ValueError, match=f"{name} must be an int"):
        plateau.random_playouts(game, variant, **args)
