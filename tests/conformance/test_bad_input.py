"""Bad input of every kind is refused with a ValueError subclass (for actions:
InvalidActionError when the input names no action of the game, IllegalActionError when it names
one that is not legal here; IndexError for undo with nothing to undo) and leaves the state
exactly as it was. Bad players and seeds are refused in the same words by every game."""

from __future__ import annotations

import json
import random
import re
from typing import Any, Callable

import numpy as np
import pytest

import plateau
from plateau import GameState
from support import Case, first_illegal_id, snapshot


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


def test_bad_actions_are_invalid(case: Case) -> None:
    """Values that name no action (garbage text, out-of-range ids, wrong types) raise
    InvalidActionError from every entry point, in a running game and after its end."""
    s = case.state()
    before = snapshot(s)
    invalid = plateau.InvalidActionError
    for bad in bad_actions(s.num_distinct_actions):
        refused(s, lambda bad=bad: s.apply(bad), invalid)
        refused(s, lambda bad=bad: s.apply_all([bad]), invalid)
        refused(s, lambda bad=bad: s.string_to_action(bad), invalid)
        refused(s, lambda bad=bad: s.parse_action(bad), invalid)
        refused(s, lambda bad=bad: s.why_illegal(bad), invalid)
        if not isinstance(bad, str):
            refused(s, lambda bad=bad: s.action_to_string(bad), invalid)
            refused(s, lambda bad=bad: s.action_id(bad), invalid)
        assert s.is_legal(bad) is False
    assert snapshot(s) == before


def test_notation_outside_ascii_is_refused(live_case: Case) -> None:
    """Notation is ASCII: a legal action's text with a character outside ASCII in it (around
    it, as blanks that ``str.strip`` drops; or in place of a letter, as a look-alike whose lower
    case is that letter, like the Kelvin sign's ``k``) names no action, while the same text
    with ASCII blanks and in upper case still reads."""
    s = live_case.state()
    before = snapshot(s)
    for a in s.legal_actions()[:40].tolist():
        text = s.action_to_string(a)
        assert s.parse_action(f" {text.upper()}\t") == a
        for bad in (f"{text}\u00a0", f"\u3000{text}", text.replace("k", "\u212a")):
            if bad != text:
                refused(s, lambda bad=bad: s.parse_action(bad), plateau.InvalidActionError)
                refused(s, lambda bad=bad: s.apply(bad), plateau.InvalidActionError)
                assert s.is_legal(bad) is False
    assert snapshot(s) == before


def test_out_of_range_and_wrong_type_messages(case: Case) -> None:
    s = case.state()
    n = s.num_distinct_actions
    span = re.escape(f"[0, {n})")
    for bad in (-1, n, n + 1, -n, 2**31, 2**63, 2**64, -(2**63), 10**30):
        pattern = rf"{bad} out of range {span}"
        for call in (s.apply, s.action_to_string):
            refused(s, lambda c=call, b=bad: c(b), plateau.InvalidActionError, pattern)
    for bad in (
        np.int64(n),
        np.int64(-1),
        np.int64(2**63 - 1),
        np.int64(-(2**63)),
        np.int32(-1),
        np.uint64(2**64 - 1),
    ):
        for call in (s.apply, s.action_to_string):
            refused(s, lambda c=call, b=bad: c(b), plateau.InvalidActionError, "out of range")
    for bad in bad_actions(n):
        if isinstance(bad, (str, np.integer)) or type(bad) is int:
            continue
        pattern = rf"int id or a notation string.*{re.escape(type(bad).__name__)}"
        for call in (s.apply, s.action_to_string):
            refused(s, lambda c=call, b=bad: c(b), plateau.InvalidActionError, pattern)
        refused(s, lambda b=bad: s.why_illegal(b), plateau.InvalidActionError, pattern)
        if not s.is_terminal():
            first = int(s.legal_actions()[0])
            refused(
                s,
                lambda b=bad, f=first: s.apply_all([f, b]),
                plateau.InvalidActionError,
                "action 1 of the sequence",
            )


def test_illegal_in_range_ids_are_refused(live_case: Case) -> None:
    """An in-range id or well-formed notation that is not legal here raises IllegalActionError
    (not InvalidActionError): it names an action, only not one that may be played now."""
    s = live_case.state()
    before = snapshot(s)
    mask = s.legal_actions_mask()
    illegal = np.flatnonzero(~mask).tolist()
    rng = random.Random(live_case.seed)
    error = plateau.IllegalActionError
    for a in [first_illegal_id(s), illegal[-1], *rng.sample(illegal, min(20, len(illegal)))]:
        text = s.action_to_string(a)
        refused(s, lambda a=a: s.apply(a), error, "illegal")
        refused(s, lambda a=a: s.apply(np.int64(a)), error, "illegal")
        refused(s, lambda text=text: s.apply(text), error, "illegal")
        refused(s, lambda text=text: s.string_to_action(text), error)
        refused(s, lambda a=a: s.apply_all([a]), error, "action 0 of the sequence")
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
    # bad input after the end still gets its own reason (and class)
    invalid = plateau.InvalidActionError
    refused(s, lambda: s.apply(-1), invalid, "out of range")
    refused(s, lambda: s.apply(1.5), invalid, "int id or a notation string")
    refused(s, lambda: s.apply("#garbage#"), invalid, "garbage")
    assert (s.perft(0), s.perft(1), s.perft(2), s.perft(3), s.perft(63)) == (1, 0, 0, 0, 0)
    assert snapshot(s) == before


def test_apply_all_rolls_back(live_case: Case) -> None:
    s = live_case.state()
    before = snapshot(s)
    a = int(s.legal_actions()[0])
    after = s.clone()
    after.apply(a)
    bad = first_illegal_id(after) if not after.is_terminal() else 0
    invalid, illegal = plateau.InvalidActionError, plateau.IllegalActionError
    # the error keeps its class: an illegal action, or input that names none
    for seq, error in (([a, bad], illegal), ([a, None], invalid), ([a, "#garbage#"], invalid)):
        with pytest.raises(error, match="action 1 of the sequence"):
            s.apply_all(seq)
        assert snapshot(s) == before
    with pytest.raises(invalid, match="action 0 of the sequence"):
        s.apply_all([None, a])
    assert snapshot(s) == before


# -- undo ------------------------------------------------------------------------------------------


def test_undo_with_nothing_to_undo(game_variant: tuple[str, str]) -> None:
    game, variant = game_variant
    fresh = plateau.new_game(game, variant)
    for s in (fresh, fresh.clone(), plateau.from_json(fresh.to_json())):
        before = snapshot(s)
        # one of the library's errors, and still the IndexError it always was
        with pytest.raises(plateau.NothingToUndoError, match="nothing to undo") as caught:
            s.undo()
        assert isinstance(caught.value, plateau.PlateauError)
        assert isinstance(caught.value, IndexError)
        assert snapshot(s) == before
        s.apply(int(s.legal_actions()[0]))
        s.undo()
        with pytest.raises(IndexError):
            s.undo()
        assert snapshot(s) == before


# -- other arguments -------------------------------------------------------------------------------

BAD_DEPTHS = [-1, -(2**40), 64, 1500, 10**6, 2**31, 2**64, 1.5, 1.0, True, False, None, "1", [1]]
#: not a seed: a seed is any integral type but bool, in [0, 2**64), in every game and method
BAD_SEEDS: list[Any] = [-1, 2**64, 2**70, -(2**63), 1.5, 1.0, True, False, None, "1", [1]]
BAD_SEEDS += [np.float64(1.0), np.int64(-1), np.bool_(True)]
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


#: the methods of every state that take a player: name -> (call, the argument's name, whether
#: None is taken, for the default)
PLAYER_METHODS: dict[str, tuple[Callable[[GameState, Any], object], str, bool]] = {
    "heuristic": (lambda s, p: s.heuristic(p), "player", False),
    "observation": (lambda s, p: s.observation(p), "player", True),
    "observation_string": (lambda s, p: s.observation_string(p), "player", True),
    "observation_tensor": (lambda s, p: s.observation_tensor(p), "player", True),
    "view_for": (lambda s, p: s.view_for(p, 0), "player", False),
    "determinizer": (lambda s, p: s.determinizer(p), "player", False),
    "resample_hidden": (lambda s, p: s.resample_hidden(p, 0), "player", False),
    "history_strings": (lambda s, p: s.history_strings(viewer=p), "viewer", True),
    "to_json": (lambda s, p: s.to_json(viewer=p), "viewer", True),
    "setup_position": (lambda s, p: s.setup_position(viewer=p), "viewer", True),
}


def player_error(name: str, n: int, value: Any) -> str:
    """The one wording of a bad player, in every game and method."""
    return f"{name} must be an int in [0, {n}), got {value!r}"


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
        wording = re.escape(seed_error(seed))
        refused(s, lambda seed=seed: s.random_playout(seed), ValueError, f"^{wording}$")
    for cap in BAD_PLY_CAPS:
        refused(s, lambda cap=cap: s.random_playout(0, cap), ValueError, "ply_cap")
    assert snapshot(s) == before


@pytest.mark.parametrize("method", sorted(PLAYER_METHODS))
def test_bad_players(case: Case, method: str) -> None:
    """Every method that takes a player refuses a bad one with an InvalidArgumentError in the same
    words in every game (``player must be an int in [0, 2), got 5``), and takes any integral
    type but bool."""
    s = case.state()
    before = snapshot(s)
    call, name, none_is_default = PLAYER_METHODS[method]
    n = s.num_players
    for p in [-1, n, True, 1.5, "0", *bad_players(n)]:
        with pytest.raises(ValueError) as info:
            call(s, p)
        assert type(info.value) is plateau.InvalidArgumentError
        assert str(info.value) == player_error(name, n, p)
        assert snapshot(s) == before
    if none_is_default:
        call(s, None)
    else:
        with pytest.raises(ValueError) as info:
            call(s, None)
        assert str(info.value) == player_error(name, n, None)
    for p in range(n):
        assert same_result(call(s, np.int64(p)), call(s, p))
    assert snapshot(s) == before


def same_result(a: object, b: object) -> bool:
    """Equal results of two calls (states by snapshot, arrays by content, samplers by what
    they draw)."""
    if isinstance(a, GameState) and isinstance(b, GameState):
        return snapshot(a) == snapshot(b)
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return np.array_equal(a, b)
    if hasattr(a, "sample") and hasattr(b, "sample"):
        return same_result(a.sample(3), b.sample(3))
    return a == b


#: not an ``rng`` of ``resample_hidden`` and ``Determinizer.sample``, which takes a seed,
#: None, a ``random.Random`` or a numpy ``Generator``
BAD_RNGS: list[Any] = [x for x in BAD_SEEDS if x is not None]
BAD_RNGS += [random, np.random.RandomState(1), object()]


def seed_error(value: Any) -> str:
    return f"seed must be an int in [0, 2**64), got {value!r}"


def test_bad_seeds_for_views(case: Case) -> None:
    """Every game checks the seed of a view and the source of a sample the same way, whether it
    draws from them (hidden information) or not (a view is then a clone)."""
    s = case.state()
    before = snapshot(s)
    for seed in [*BAD_SEEDS, random.Random(1)]:  # a view's seed is a seed, nothing else
        for call in (lambda x: s.view_for(0, x), lambda x: s.view_for(player=0, seed=x)):
            with pytest.raises(ValueError) as info:
                call(seed)
            assert type(info.value) is plateau.InvalidArgumentError and str(
                info.value
            ) == seed_error(seed)
    sampler = s.determinizer(0)
    for rng in BAD_RNGS:
        wording = (
            f"rng must be an int in [0, 2**64), a random.Random or a numpy Generator, got {rng!r}"
        )
        for call in (lambda x: s.resample_hidden(0, x), sampler.sample):
            with pytest.raises(ValueError) as info:
                call(rng)
            assert type(info.value) is plateau.InvalidArgumentError and str(info.value) == wording
    # a bad player is named before a bad seed
    with pytest.raises(ValueError, match="player"):
        s.view_for(s.num_players, -1)
    with pytest.raises(ValueError, match="player"):
        s.resample_hidden(-1, 1.5)
    assert snapshot(s) == before


def test_good_seeds_for_views(case: Case) -> None:
    """Seeds at both ends of the range and of any integral type draw the same worlds as the
    same int; ``random.Random``, numpy Generators and None are taken as sources."""
    s = case.state()
    before = snapshot(s)
    for seed in (0, 7, 2**64 - 1):
        view = snapshot(s.view_for(0, seed))
        for kind in (np.uint64, np.int64) if seed < 2**63 else (np.uint64,):
            assert snapshot(s.view_for(0, kind(seed))) == view
        assert snapshot(s.resample_hidden(0, seed)) == view
        assert snapshot(s.determinizer(0).sample(seed)) == view
    for rng in (None, random.Random(3), np.random.default_rng(3)):
        world = s.resample_hidden(0, rng)
        assert world.current_player == s.current_player and world.ply == s.ply
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
        refused(s, lambda b=bad: s.why_illegal(b), plateau.InvalidActionError)
    assert snapshot(s) == before


def test_is_legal_reads_notation_as_apply_does(case: Case) -> None:
    """``is_legal`` takes what ``apply`` and ``why_illegal`` take: an id or notation (text
    that names no action: False, never an error)."""
    s = case.state()
    before = snapshot(s)
    ids = s.legal_actions()[:50].tolist()
    for a in ids:
        text = s.action_to_string(a)
        assert s.is_legal(text) is True and s.why_illegal(text) is None
    if not s.is_terminal():
        a = first_illegal_id(s)
        assert s.is_legal(s.action_to_string(a)) is False
    else:
        assert s.is_legal(s.action_to_string(0)) is False
    for text in ("#garbage#", "", " ", "\x00", "x" * 10_000):
        assert s.is_legal(text) is False
    assert snapshot(s) == before


def test_apply_all_refuses_a_single_string(live_case: Case) -> None:
    s = live_case.state()
    before = snapshot(s)
    text = s.legal_action_strings()[0]
    for single in (text, text.encode()):
        refused(s, lambda x=single: s.apply_all(x), plateau.InvalidActionError, "sequence")
    for other in (None, 5, 1.5):  # not a sequence at all
        refused(s, lambda x=other: s.apply_all(x), plateau.InvalidActionError, "sequence")
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
