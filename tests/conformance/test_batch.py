"""``StateBatch``, for every game with a batch engine: each game of a batch plays exactly like a
single state given the same actions (legal masks and lists, counts, hashes, plies, players,
observations, returns, restarts), and bad input changes nothing."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

import plateau
from support import has_batch, seed_of

N = 6
CAP = 40  # ply_cap of the batch: games are truncated (done == 2) within the run
STEPS = 90
WIDTH = 48  # legal_lists width, below some counts: the cut lists are checked too


def new_batch(game: str, variant: str, **kwargs: int) -> plateau.StateBatch:
    args = {"n": N, "seed": seed_of("batch", game, variant), "ply_cap": CAP, **kwargs}
    return plateau.StateBatch(game, variant, **args)


def test_batch_games_follow_single_states(batch_variant: tuple[str, str]) -> None:
    game, variant = batch_variant
    b = new_batch(game, variant)
    single = plateau.new_game(game, variant)
    assert (b.num_envs, b.num_players) == (N, single.num_players)
    assert b.num_distinct_actions == single.num_distinct_actions
    assert b.observation_shape == single.observation_shape
    singles = [plateau.new_game(game, variant) for _ in range(N)]
    ended = truncated = 0
    cut_lists = False
    for _ in range(STEPS):
        masks = b.legal_masks()
        ids, counts = b.legal_lists(WIDTH)
        num = b.num_legal()
        obs = b.observations()
        assert b.hashes().tolist() == [s.hash for s in singles]
        assert b.plies().tolist() == [s.ply for s in singles]
        assert b.current_players().tolist() == [s.current_player for s in singles]
        assert set(np.unique(masks).tolist()) <= {0, 1}
        for i, s in enumerate(singles):
            legal = s.legal_actions()
            assert num[i] == counts[i] == len(legal)
            assert np.array_equal(masks[i].astype(bool), s.legal_actions_mask())
            k = min(len(legal), WIDTH)
            cut_lists |= len(legal) > WIDTH
            assert ids[i, :k].tolist() == legal[:k].tolist()
            assert np.all(ids[i, k:] == -1)
            assert np.array_equal(obs[i], s.observation_tensor())
        actions = b.sample_random()
        assert all(s.is_legal(int(a)) for s, a in zip(singles, actions))
        done, returns = b.step(actions)
        for i, s in enumerate(singles):
            s.apply(int(actions[i]))
            if done[i] == 1:
                assert s.is_terminal()
                assert returns[i].tolist() == s.returns()
                ended += 1
            elif done[i] == 2:
                assert not s.is_terminal() and s.ply == CAP
                assert returns[i].tolist() == [0.0] * s.num_players
                truncated += 1
            else:
                assert done[i] == 0 and not s.is_terminal() and s.ply < CAP
                assert returns[i].tolist() == [0.0] * s.num_players
            if done[i]:
                singles[i] = plateau.new_game(game, variant)  # the batch restarted it
    assert ended + truncated > 0 and b.games_finished == ended + truncated
    assert cut_lists


def test_random_stepping_alone_follows_single_states(batch_variant: tuple[str, str]) -> None:
    """Sampling and stepping without ever asking for masks or lists (a game may then draw and
    check actions without listing them): every draw is legal, illegal steps are refused, and
    the games follow single states."""
    game, variant = batch_variant
    b = new_batch(game, variant)
    singles = [plateau.new_game(game, variant) for _ in range(N)]
    for step in range(STEPS):
        actions = b.sample_random()
        for s, a in zip(singles, actions):
            assert s.is_legal(int(a)), (s.ply, s.action_to_string(int(a)))
        if step % 10 == 5:  # an illegal action in one game refuses the whole step
            illegal = actions.copy()
            s = singles[1]
            legal = set(s.legal_actions().tolist())
            near = (a + k for a in sorted(legal) for k in (1, 2, 3, -1, -2, -3))
            illegal[1] = next(a for a in near if 0 <= a < s.num_distinct_actions and a not in legal)
            hashes = b.hashes().tolist()
            with pytest.raises(plateau.IllegalActionError):
                b.step(illegal)
            assert b.hashes().tolist() == hashes
        done, _ = b.step(actions)
        for i, s in enumerate(singles):
            s.apply(int(actions[i]))
            if done[i]:
                singles[i] = plateau.new_game(game, variant)
        assert b.hashes().tolist() == [s.hash for s in singles]


def test_masks_updated_in_place_equal_masks_written_whole(
    batch_variant: tuple[str, str],
) -> None:
    """``legal_masks(update=True)`` into the array it filled last writes only what changed,
    and the array equals a mask written whole at every step: across restarts, a reset, a
    skipped game, a switch to another array and back, and a call without ``update`` into the
    kept array (which must make the next update write it whole again)."""
    game, variant = batch_variant
    b = new_batch(game, variant)
    kept = np.full((N, b.num_distinct_actions), 7, dtype=np.uint8)  # junk: the first is whole
    other = np.zeros_like(kept)
    for step in range(STEPS):
        target = other if step % 23 == 11 else kept
        if step % 17 == 8:
            b.legal_masks(kept)  # without update: the kept array must be forgotten
            kept[:, :] = 5  # ... so this junk is overwritten by the next update
        got = b.legal_masks(target, update=True)
        assert got is target
        assert np.array_equal(got, b.legal_masks()), step
        if step == 50:
            b.reset()
            assert np.array_equal(b.legal_masks(kept, update=True), b.legal_masks())
            target = kept
        skip = np.zeros(N, dtype=np.uint8)
        skip[step % N] = step % 3 == 0
        b.step(b.sample_random(), skip=skip)
    assert b.games_finished > 0


def test_an_update_interleaved_with_another_arrays_update_is_still_right(
    batch_variant: tuple[str, str],
) -> None:
    """Whether ``arr`` is the kept array is decided under the batch's guard: another call that
    updates another array, run at any point of ``legal_masks`` where Python could switch
    threads (here: at each line event of the method, as a tracer sees them), cannot make the
    first call clear the wrong ids. (Decided in Python before the core call, it could; the
    core's own decision, an array other than the kept one written whole, is checked by
    ``test_masks_updated_in_place_equal_masks_written_whole``.)"""
    game, variant = batch_variant
    b = new_batch(game, variant)
    mine = np.zeros((N, b.num_distinct_actions), dtype=np.uint8)
    other = np.zeros_like(mine)
    code = plateau.StateBatch.legal_masks.__code__
    at = {"line": 0, "seen": 0}  # the line event to interleave at, and those seen this time

    def local(frame: Any, event: str, arg: Any) -> Any:
        if event == "line":
            at["seen"] += 1
            if at["seen"] == at["line"] + 1:
                b.legal_masks(other, update=True)
        return local

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        return local if frame.f_code is code and frame.f_locals.get("out") is mine else None

    while True:
        b.legal_masks(mine, update=True)
        b.step(b.sample_random())
        at["seen"] = 0
        sys.settrace(tracer)
        try:
            got = b.legal_masks(mine, update=True).copy()
        finally:
            sys.settrace(None)
        assert np.array_equal(got, b.legal_masks()), at
        if at["seen"] <= at["line"]:
            break
        at["line"] += 1
    assert at["line"] >= 2  # (the tracer saw the method's lines)


def test_a_draw_spares_only_its_own_check(batch_variant: tuple[str, str]) -> None:
    """``step`` skips the legality check of an action ``sample_random`` drew in the same
    position, and only that one: an id out of range before any draw (the draw's empty slot
    is -1), a drawn action replayed after its game moved on, and a draw followed by a reset
    are all checked again."""
    game, variant = batch_variant
    b = new_batch(game, variant)
    before = b.hashes().tolist()
    with pytest.raises(plateau.InvalidActionError):
        b.step(np.full(N, -1))  # no draw yet
    drawn = b.sample_random()
    with pytest.raises(plateau.InvalidActionError):
        b.step(np.full(N, -1))  # drawn, but -1 is still out of range
    assert b.hashes().tolist() == before
    b.step(drawn)
    singles = [plateau.new_game(game, variant) for _ in range(N)]
    for s, a in zip(singles, drawn):
        s.apply(int(a))
    # the same ids again, now illegal in some game: refused, nothing changed
    assert any(not s.is_legal(int(a)) for s, a in zip(singles, drawn))
    moved = b.hashes().tolist()
    with pytest.raises(plateau.IllegalActionError):
        b.step(drawn)
    assert b.hashes().tolist() == moved
    start = plateau.new_game(game, variant)
    for _ in range(300):  # play on until some game draws an action illegal at the start
        again = b.sample_random()
        if any(not start.is_legal(int(a)) for a in again):
            break
        b.step(again)
    else:
        raise AssertionError("no draw illegal at the start in 300 steps")
    b.reset()
    with pytest.raises(plateau.IllegalActionError):
        b.step(again)  # drawn before the reset: checked again
    assert b.hashes().tolist() == before


def test_skipped_games_are_left_as_they_are(batch_variant: tuple[str, str]) -> None:
    game, variant = batch_variant
    b = new_batch(game, variant)
    b.step(b.sample_random())
    hashes, plies = b.hashes().copy(), b.plies().copy()
    actions = b.sample_random()
    skip = np.zeros(N, dtype=bool)
    skip[::2] = True
    actions[0], actions[2] = -7, b.num_distinct_actions  # skipped: not even checked
    done, _ = b.step(actions, skip=skip)
    assert not done[skip].any()
    assert np.array_equal(b.hashes()[skip], hashes[skip])
    assert np.array_equal(b.plies()[skip], plies[skip])
    assert np.all(b.plies()[~skip] == plies[~skip] + 1)
    fresh = b.sample_random()
    fresh[0], fresh[2] = -7, b.num_distinct_actions
    with pytest.raises(plateau.InvalidActionError, match="game 2 "):  # not skipped: checked
        b.step(fresh, skip=np.arange(N) == 0)
    for bad in (np.ones(N + 1, dtype=bool), np.ones(N, dtype=np.float32), [[True] * N]):
        with pytest.raises(ValueError, match="skip"):
            b.step(b.sample_random(), skip=bad)
    assert np.array_equal(b.hashes()[skip], hashes[skip])
    # unsigned ids past 2**63 are refused only where they would be used
    wide = b.sample_random().astype(np.uint64)
    wide[0] = np.uint64(2**64 - 1)
    with pytest.raises(
        plateau.InvalidActionError, match=f"game 0 of the batch: action {2**64 - 1} "
    ):
        b.step(wide)
    # the first refused game is named, whatever the ids of the games after it
    late = wide.copy()
    late[0] = int(np.flatnonzero(b.legal_masks()[0] == 0)[0])
    late[1] = np.uint64(2**63)
    with pytest.raises(plateau.IllegalActionError, match="game 0 of the batch"):
        b.step(late)
    before = b.plies().copy()
    b.step(wide, skip=np.arange(N) == 0)
    assert b.plies()[0] == before[0] and np.all(b.plies()[1:] == before[1:] + 1)
    assert wide[0] == np.uint64(2**64 - 1)  # the caller's array is left as it was


def test_batch_is_seeded_and_resets(batch_variant: tuple[str, str]) -> None:
    game, variant = batch_variant
    a, b = new_batch(game, variant), new_batch(game, variant)
    start = a.hashes().copy()
    assert start.tolist() == [plateau.new_game(game, variant).hash] * N
    for _ in range(5):
        acts = a.sample_random()
        assert np.array_equal(acts, b.sample_random())
        a.step(acts)
        b.step(acts)
    assert np.array_equal(a.hashes(), b.hashes())
    assert not np.array_equal(a.hashes(), start)
    a.reset()
    assert np.array_equal(a.hashes(), start) and a.plies().tolist() == [0] * N
    # 64 games at the start: the uniform draws spread over the legal actions
    wide = plateau.StateBatch(game, variant, n=64, seed=1)
    draws = wide.sample_random()
    count = plateau.new_game(game, variant).num_legal_actions()
    assert len(set(draws.tolist())) > min(count, 64) // 4
    assert all(wide.legal_masks()[i, a] for i, a in enumerate(draws))
    other = new_batch(game, variant, seed=seed_of("another", game, variant))
    assert not np.array_equal(other.sample_random(), new_batch(game, variant).sample_random())


def test_game_i_of_a_batch_seeded_s_samples_as_a_batch_of_one_seeded_s_plus_i(
    batch_variant: tuple[str, str],
) -> None:
    """The seed rule: any game of a big batch, restarts included, replays alone."""
    game, variant = batch_variant
    seed = seed_of("seed rule", game, variant)
    big = plateau.StateBatch(game, variant, n=N, seed=seed, ply_cap=CAP)
    alone = [plateau.StateBatch(game, variant, n=1, seed=seed + i, ply_cap=CAP) for i in range(N)]
    restarts = 0
    for _ in range(STEPS):
        acts = big.sample_random()
        done, _ = big.step(acts)
        for i, lone in enumerate(alone):
            act = lone.sample_random()
            assert act[0] == acts[i]
            lone_done, _ = lone.step(act)
            assert lone_done[0] == done[i]
        restarts += int(np.count_nonzero(done))
    assert big.hashes().tolist() == [lone.hashes()[0] for lone in alone]
    assert restarts > 0


def test_bad_actions_change_nothing(batch_variant: tuple[str, str]) -> None:
    game, variant = batch_variant
    b = new_batch(game, variant)
    b.step(b.sample_random())
    before = (b.hashes().tolist(), b.plies().tolist(), b.legal_masks().tobytes())
    good = b.sample_random()
    illegal = int(np.flatnonzero(b.legal_masks()[2] == 0)[0])
    for i, value, error, reason in (
        (2, illegal, plateau.IllegalActionError, "not legal"),
        (3, -1, plateau.InvalidActionError, "out of range"),
        (4, b.num_distinct_actions, plateau.InvalidActionError, "out of range"),
        (0, 2**62, plateau.InvalidActionError, "out of range"),
    ):
        acts = good.copy()
        acts[i] = value
        with pytest.raises(error, match=f"game {i} of the batch.*{reason}"):
            b.step(acts)
    for acts, reason in (
        (good[:-1], "shape"),
        (np.append(good, 0), "shape"),
        ([[0] * N], "shape"),
        (good.astype(np.float64), "integer"),
        (np.full(N, 2**64 - 1, dtype=np.uint64), "game 0 of the batch.*out of range"),
    ):
        with pytest.raises(plateau.InvalidActionError, match=reason):
            b.step(acts)
    assert (b.hashes().tolist(), b.plies().tolist(), b.legal_masks().tobytes()) == before
    done, _ = b.step(good.tolist())  # a plain list of legal ids is fine
    assert done.shape == (N,)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"n": 0},
        {"n": 1.5},
        {"n": True},
        {"seed": -1},
        {"seed": 2**64},
        {"ply_cap": 0},
        {"no_such_option": 1},
        {"variant": "not-a-variant"},
    ],
)
def test_bad_batch_arguments(batch_variant: tuple[str, str], kwargs: dict[str, object]) -> None:
    game, variant = batch_variant
    args: dict[str, object] = {"variant": variant, "n": 2, **kwargs}
    with pytest.raises(ValueError):
        plateau.StateBatch(game, **args)  # type: ignore[arg-type]


def test_bad_output_arrays(batch_variant: tuple[str, str]) -> None:
    game, variant = batch_variant
    b = new_batch(game, variant)
    a = b.num_distinct_actions
    before = (b.hashes().tolist(), b.plies().tolist())
    for method, array, reason in (
        ("legal_masks", np.zeros((N, a), dtype=np.bool_), "dtype uint8"),
        ("legal_masks", np.zeros((N, a - 1), dtype=np.uint8), "shape"),
        ("legal_masks", np.zeros((a, N), dtype=np.uint8).T, "shape|C-contiguous"),
        ("sample_random", np.zeros(N, dtype=np.int32), "dtype int64"),
        ("num_legal", np.zeros(N + 1, dtype=np.int32), "shape"),
        ("observations", np.zeros((N, *b.observation_shape), dtype=np.float64), "dtype"),
        ("observations", [[0.0]], "numpy.ndarray"),
        # a subclass was refused as of the wrong shape, naming the same shape twice
        ("num_legal", np.zeros(N, dtype=np.int32).view(np.matrix), "numpy.ndarray, got matrix"),
    ):
        with pytest.raises(ValueError, match=reason):
            getattr(b, method)(array)
    with pytest.raises(ValueError, match=r"numpy\.ndarray"):
        b.legal_lists(8, ids=[[0] * 8] * N)  # type: ignore[arg-type]
    for width in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="width"):
            b.legal_lists(width=width)  # type: ignore[arg-type]
    # the width of ids: at least 1, and a width given with them must be theirs
    with pytest.raises(ValueError, match="width"):
        b.legal_lists(ids=np.zeros((N, 0), dtype=np.int64))
    with pytest.raises(ValueError, match="shape"):
        b.legal_lists(5, ids=np.zeros((N, 10), dtype=np.int64))
    assert b.legal_lists(ids=np.zeros((N, 10), dtype=np.int64))[0].shape == (N, 10)
    # at most the longest list a position can have, or 256: past that, a width was written
    # as padding however large (2**27: a GiB a game)
    widest = max(256, b._core.max_legal)
    assert b.legal_lists(widest)[0].shape == (N, widest)
    for width in (widest + 1, 2**27):
        with pytest.raises(ValueError, match=f"width must be an int in \\[1, {widest + 1}\\)"):
            b.legal_lists(width)
    frozen = np.zeros((N, a), dtype=np.uint8)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        b.legal_masks(frozen)
    assert (b.hashes().tolist(), b.plies().tolist()) == before


def test_batch_takes_the_options_new_game_takes(batch_variant: tuple[str, str]) -> None:
    # the game's own options (Plateau X's first_player, Albea's max_plies): a value new_game
    # refuses is refused alike, and an accepted one gives batch games that follow new_game's
    game, variant = batch_variant
    for name, default in plateau.game_info(game).options.items():
        for bad in (-1, 2**31, True, "1"):
            with pytest.raises(ValueError) as single:
                plateau.new_game(game, variant, **{name: bad})
            with pytest.raises(ValueError) as batched:
                plateau.StateBatch(game, variant, n=2, **{name: bad})
            assert str(batched.value) == str(single.value)
        values = list(plateau.game_info(game).option_values.get(name, ()))
        if isinstance(default, int) and not isinstance(default, bool):
            values.append(default + 1)
        assert values, f"no other value of option {name!r} to try"
        for value in values:
            b = plateau.StateBatch(game, variant, n=1, seed=4, ply_cap=None, **{name: value})
            assert b.options[name] == value
            mirror = plateau.new_game(game, variant, **{name: value})
            assert b.num_distinct_actions == mirror.num_distinct_actions
            assert b.observation_shape == mirror.observation_shape
            for _ in range(8):
                assert b.hashes()[0] == mirror.hash
                assert b.current_players()[0] == mirror.current_player
                action = b.sample_random()
                done, _ = b.step(action)
                if done[0]:
                    break
                mirror.apply(int(action[0]))


def test_a_batch_too_big_for_memory_says_so(batch_variant: tuple[str, str]) -> None:
    game, variant = batch_variant
    with pytest.raises(MemoryError, match="no memory for a batch"):
        plateau.StateBatch(game, variant, n=10**9)


@pytest.mark.parametrize("game", plateau.games())
def test_a_batch_or_a_clear_refusal(game: str) -> None:
    if has_batch(game):
        b = plateau.StateBatch(game, n=1)
        assert b.num_distinct_actions == plateau.new_game(game).num_distinct_actions
    else:
        with pytest.raises(ValueError, match="no batched engine"):
            plateau.StateBatch(game)


def test_final_observations_of_finished_games_are_kept(batch_variant: tuple[str, str]) -> None:
    # a game that ends or is truncated restarts inside the step; its last observation (as
    # observations() gave the position, from the seat to act there) reaches final_observations
    game, variant = batch_variant
    b = new_batch(game, variant, ply_cap=CAP)
    singles = [plateau.new_game(game, variant) for _ in range(N)]
    sentinel = np.float32(-7.0)
    final = np.full((N, *b.observation_shape), sentinel, dtype=np.float32)
    seen = 0
    for _ in range(STEPS):
        before = final.copy()
        actions = b.sample_random()
        done, _ = b.step(actions, final_observations=final)
        for i, s in enumerate(singles):
            s.apply(int(actions[i]))
            if done[i]:
                views = [s.observation_tensor(p) for p in range(s.num_players)]
                if done[i] == 2:  # truncated: the game goes on, the seat to act sees it
                    assert np.array_equal(final[i], s.observation_tensor(s.current_player))
                else:
                    assert any(np.array_equal(final[i], v) for v in views)
                seen += 1
                singles[i] = plateau.new_game(game, variant)
            else:
                assert np.array_equal(final[i], before[i]), "an unfinished game's row changed"
    assert seen > 0
    with pytest.raises(ValueError, match="final observation array"):
        b.step(b.sample_random(), final_observations=np.zeros((N, 1), dtype=np.float32))


def test_a_batch_is_neither_copied_nor_pickled(batch_variant: tuple[str, str]) -> None:
    # copy.copy gave a second object over the same games (stepping one stepped both)
    import copy
    import pickle

    b = new_batch(*batch_variant)
    for attempt in (copy.copy, copy.deepcopy, pickle.dumps):
        with pytest.raises(TypeError, match="cannot be copied or pickled"):
            attempt(b)
    assert b.plies().tolist() == [0] * b.num_envs
