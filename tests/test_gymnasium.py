"""plateau.gymnasium: the single-agent environment passes Gymnasium's env checker on every
game and variant and plays against library bots; the vector environment over StateBatch keeps
the final observations and returns of finished games."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import plateau
from support import require_extra

pytestmark = pytest.mark.pettingzoo  # the gymnasium environments ship with that extra

CASES = [(g, v) for g in plateau.games() for v in plateau.variants(g)]
BATCHED = [(g, v) for g, v in CASES if plateau.game_info(g).batch is not None]


@pytest.fixture(scope="module")
def pg() -> Any:
    require_extra("gymnasium", "pettingzoo")
    import plateau.gymnasium

    return plateau.gymnasium


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_single_agent_env_passes_check_env(pg: Any, game: str, variant: str) -> None:
    from gymnasium.utils.env_checker import check_env

    last = plateau.new_game(game, variant).num_players - 1
    for seat in (0, last):
        env = pg.SingleAgentEnv(game, variant, opponent="random", seat=seat, render_mode="ansi")
        with warnings.catch_warnings():
            warnings.filterwarnings("error")
            # made directly, not through gymnasium.make (no registered id)
            warnings.filterwarnings("ignore", message=".*not having a spec")
            check_env(env)


def masked_episode(env: Any, seed: int) -> tuple[float, dict[str, Any], int]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    agent_moves = 0
    while True:
        assert np.array_equal(obs, env.state.observation_tensor(env.seat))
        assert np.array_equal(info["action_mask"], env.action_masks())
        assert env.state.current_player == env.seat
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, reward, terminated, truncated, info = env.step(action)
        agent_moves += 1
        if terminated or truncated:
            return reward, info, agent_moves
        assert reward == 0.0


@pytest.mark.parametrize(("game", "variant"), [c for c in CASES if c[0] != "empire-plateau"])
def test_episode_against_random_bots_ends_with_the_returns(
    pg: Any, game: str, variant: str
) -> None:
    env = pg.SingleAgentEnv(game, variant, opponent="random", seat=1)
    reward, info, agent_moves = masked_episode(env, seed=9)
    s = env.state
    assert s.is_terminal()
    assert reward == s.returns()[1] == info["returns"][1]
    assert s.ply > agent_moves  # the bots played the other seats
    # the same seed replays the same game
    masked_episode(env, seed=9)
    assert env.state.history == s.history


def test_empire_episode_with_a_length_cap_is_truncated(pg: Any) -> None:
    env = pg.SingleAgentEnv("empire-plateau", "duel", seat=0, max_game_length=80)
    reward, _, agent_moves = masked_episode(env, seed=2)
    assert env.state.ply >= 80 and reward == 0.0 and agent_moves > 1


def test_greedy_and_mcts_opponents(pg: Any) -> None:
    for spec in ("greedy", "mcts:iters=20"):
        env = pg.SingleAgentEnv("albea-plateau", opponent=spec, seat=0)
        masked_episode(env, seed=1)
        assert env.state.is_terminal()
    with pytest.raises(ValueError, match="unknown bot"):
        pg.SingleAgentEnv("plateau-x", opponent="nobody")


def test_illegal_actions_lose_or_raise(pg: Any) -> None:
    env = pg.SingleAgentEnv("plateau-x", "mini", illegal_reward=-5.0)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-5.0, True, False, True)
    env = pg.SingleAgentEnv("plateau-x", "mini", illegal_action="raise")
    env.reset(seed=0)
    ply = env.state.ply
    with pytest.raises(plateau.IllegalActionError):
        env.step(illegal)
    assert env.state.ply == ply


def test_hidden_information_agent_sees_its_own_view(pg: Any) -> None:
    env = pg.SingleAgentEnv("albea-plateau", seat=1)
    obs, _ = env.reset(seed=4)
    for _ in range(3):
        obs, *_ = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert np.array_equal(obs, env.state.observation_tensor(1))
    assert not np.array_equal(obs, env.state.observation_tensor(0))


@pytest.mark.parametrize(("game", "variant"), BATCHED)
def test_batch_env_keeps_final_observations_and_returns(pg: Any, game: str, variant: str) -> None:
    n = 4
    env = pg.BatchEnv(game, variant, num_envs=n, ply_cap=30)
    assert env.metadata["autoreset_mode"].name == "SAME_STEP"
    obs, info = env.reset(seed=5)
    singles = [plateau.new_game(game, variant) for _ in range(n)]
    assert obs.shape == (n, *singles[0].observation_shape)
    low, high = singles[0].observation_bounds()
    space = env.single_observation_space
    assert np.array_equal(space.low, low) and np.array_equal(space.high, high)
    finished = 0
    for _ in range(70):
        masks = env.action_masks()
        actions = env.sample_legal()
        for i, s in enumerate(singles):
            assert np.array_equal(masks[i], s.legal_actions_mask())
            assert info["player"][i] == s.current_player
        obs, rewards, terminated, truncated, info = env.step(actions)
        for i, s in enumerate(singles):
            mover = s.current_player
            assert info["mover"][i] == mover
            s.apply(int(actions[i]))
            if terminated[i] or truncated[i]:
                assert info["_final_obs"][i]
                views = [s.observation_tensor(p) for p in range(s.num_players)]
                assert any(np.array_equal(info["final_obs"][i], v) for v in views)
                if terminated[i]:
                    assert info["returns"][i].tolist() == s.returns()
                    assert rewards[i] == s.returns()[mover]
                else:
                    assert rewards[i] == 0.0 and not info["returns"][i].any()
                finished += 1
                singles[i] = s = plateau.new_game(game, variant)
            else:
                assert rewards[i] == 0.0
            assert np.array_equal(obs[i], s.observation_tensor())
        assert env.observation_space.contains(obs)
    assert finished >= n  # every game was cut at 30 plies at least once
    before = env.batch.hashes().tolist()
    with pytest.raises(plateau.InvalidActionError, match="out of range"):
        env.step(np.full(n, -1))
    illegal = np.argmin(env.action_masks(), axis=1)  # per game an id in range it forbids now
    with pytest.raises(plateau.IllegalActionError, match="not legal"):
        env.step(illegal)
    assert env.batch.hashes().tolist() == before


@pytest.mark.parametrize(("game", "variant"), BATCHED)
def test_batch_env_rewards_the_mover_of_an_ending_move(pg: Any, game: str, variant: str) -> None:
    n = 3
    env = pg.BatchEnv(game, variant, num_envs=n, ply_cap=None)
    env.reset(seed=8)
    singles = [plateau.new_game(game, variant) for _ in range(n)]
    ended = 0
    for _ in range(5000):
        actions = env.sample_legal()
        _, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for i, s in enumerate(singles):
            mover = s.current_player
            s.apply(int(actions[i]))
            if terminated[i]:
                assert s.is_terminal()
                assert rewards[i] == s.returns()[mover]
                assert info["returns"][i].tolist() == s.returns()
                ended += 1
                singles[i] = plateau.new_game(game, variant)
            else:
                assert rewards[i] == 0.0 and not s.is_terminal()
        if ended >= 2:
            break
    assert ended >= 2


@pytest.mark.parametrize(("game", "variant"), BATCHED)
def test_batch_env_next_step_autoreset(pg: Any, game: str, variant: str) -> None:
    """``next_step``: the ending step returns the finished game's last observation, the next
    step ignores that game's action (even an id out of range) and returns the new game's
    first observation, reward 0, mover -1."""
    from gymnasium.vector import AutoresetMode

    n = 4
    env = pg.BatchEnv(game, variant, num_envs=n, ply_cap=20, autoreset_mode="next_step")
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert pg.BatchEnv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP  # per instance
    obs, info = env.reset(seed=3)
    singles = [plateau.new_game(game, variant) for _ in range(n)]
    pending = np.zeros(n, dtype=bool)
    resets = 0
    for _ in range(60):
        actions = env.sample_legal()
        actions[pending] = -1  # ignored
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert env.observation_space.contains(obs)
        assert "final_obs" not in info
        for i in range(n):
            if pending[i]:
                singles[i] = s = plateau.new_game(game, variant)
                assert info["mover"][i] == -1 and rewards[i] == 0.0
                assert not (terminated[i] or truncated[i])
                assert np.array_equal(obs[i], s.observation_tensor())
                resets += 1
                continue
            s = singles[i]
            mover = s.current_player
            assert info["mover"][i] == mover
            s.apply(int(actions[i]))
            if terminated[i] or truncated[i]:
                assert terminated[i] == s.is_terminal() and truncated[i] == (s.ply == 20)
                views = [s.observation_tensor(p) for p in range(s.num_players)]
                assert any(np.array_equal(obs[i], v) for v in views)
                if terminated[i]:
                    assert rewards[i] == s.returns()[mover]
            else:
                assert rewards[i] == 0.0
                assert np.array_equal(obs[i], s.observation_tensor())
        pending = terminated | truncated
    assert resets >= n  # every game was cut at 20 plies at least once, then reset
    env.reset()
    assert not env.step(env.sample_legal())[3].any()  # nothing pending after a reset


def test_batch_env_modes_and_gymnasium_vector_wrappers(pg: Any) -> None:
    from gymnasium.wrappers.vector import NormalizeObservation

    with pytest.raises(ValueError, match="autoreset_mode"):
        pg.BatchEnv("plateau-x", "mini", num_envs=2, autoreset_mode="sometimes")
    with pytest.raises(ValueError, match="NEXT_STEP"):
        NormalizeObservation(pg.BatchEnv("plateau-x", "mini", num_envs=2))
    env = NormalizeObservation(
        pg.BatchEnv("plateau-x", "mini", num_envs=2, ply_cap=5, autoreset_mode="next_step")
    )
    obs, _ = env.reset(seed=1)
    for _ in range(12):
        obs, *_ = env.step(env.unwrapped.sample_legal())
    assert obs.shape == (2, 10, 6, 6) and np.isfinite(obs).all()


def test_docs_ecosystem_examples_run(pg: Any) -> None:
    # the examples of docs/adapters.md are fenced ```py (the plain ```python blocks of the
    # README and docs/ run in test_readme without extras); each needs the extra it imports
    import re
    from pathlib import Path

    page = Path(__file__).resolve().parent.parent / "docs" / "adapters.md"
    blocks = re.findall(r"```py\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 3
    for block in blocks:
        if "pyspiel" in block:
            require_extra("pyspiel", "openspiel")
        if "pettingzoo" in block:
            require_extra("pettingzoo", "pettingzoo")
        exec(compile(block, str(page), "exec"), {"__name__": "__main__"})


# -- the legal ids compactly, and masks kept in place (issue 25) ---------------------------------

#: every registered game and variant, from the registry
ALL_VARIANTS = [(g, v) for g in plateau.games() for v in plateau.game_info(g).variants]


def check_single(env: Any, info: dict[str, Any], kept: list[Any] | None) -> None:
    """``info`` and the env's masks and legal ids: the game's legal mask when the agent is to
    act, else all False; with ``reuse_masks=True`` always the one read-only buffer."""
    s = env.state
    to_act = env._no_step is None and not s.is_terminal() and s.current_player == env.seat
    if to_act:
        expected = s.legal_actions_mask()
    else:
        expected = np.zeros(s.num_distinct_actions, dtype=np.bool_)
    for mask in (info["action_mask"], env.action_masks()):
        assert mask.dtype == np.bool_ and np.array_equal(mask, expected)
        if kept is not None:
            assert not mask.flags.writeable
            if not kept:
                kept.append(mask)
            assert np.shares_memory(mask, kept[0]), "a new mask array"
    for ids in (info["legal_actions"], env.legal_actions()):
        assert ids.dtype == np.int64 and np.array_equal(ids, np.flatnonzero(expected))


@pytest.mark.parametrize("reuse", [False, True], ids=["fresh", "reuse"])
@pytest.mark.parametrize(("game", "variant"), ALL_VARIANTS)
def test_single_agent_masks_and_legal_ids_at_every_step(
    pg: Any, game: str, variant: str, reuse: bool
) -> None:
    # a whole game against random bots (a refused illegal id now and then), a game cut by the
    # length cap, a game lost by an illegal id; each after a reset
    import random

    rng = random.Random(6)
    kept: list[Any] | None = [] if reuse else None
    env = pg.SingleAgentEnv(game, variant, seat=0, illegal_action="raise", reuse_masks=reuse)
    _, info = env.reset(seed=1)
    check_single(env, info, kept)
    done = False
    while not done:
        legal = info["legal_actions"]
        if env.state.ply % 40 == 3:
            illegal = next(a for a in range(len(legal) + 1) if a not in set(legal.tolist()))
            with pytest.raises(plateau.IllegalActionError):
                env.step(illegal)
            check_single(env, info, kept)
        _, _, terminated, truncated, info = env.step(int(legal[rng.randrange(len(legal))]))
        check_single(env, info, kept)
        done = terminated or truncated
    assert terminated and env.state.is_terminal()
    capped = pg.SingleAgentEnv(game, variant, seat=0, max_game_length=6, reuse_masks=reuse)
    kept = [] if reuse else None
    _, info = capped.reset(seed=2)
    done = False
    while not done:
        check_single(capped, info, kept)
        action = int(info["legal_actions"][0])
        _, _, terminated, truncated, info = capped.step(action)
        done = terminated or truncated
    assert truncated and not terminated
    # the step's info has the cut position's mask if the agent is to move there; then the
    # episode is over (a buffer kept in place is cleared by the next call)
    s = capped.state
    if s.current_player == 0:
        assert np.array_equal(info["action_mask"], s.legal_actions_mask())
        assert np.array_equal(info["legal_actions"], s.legal_actions())
    else:
        assert not info["action_mask"].any() and len(info["legal_actions"]) == 0
    assert not capped.action_masks().any() and len(capped.legal_actions()) == 0
    _, info = capped.reset(seed=3)
    check_single(capped, info, kept)
    _, _, terminated, _, info = capped.step(int(np.flatnonzero(~capped.action_masks())[0]))
    assert terminated and info["illegal_action"]  # lost: no legal action any more
    check_single(capped, info, kept)


@pytest.mark.parametrize(("game", "variant"), BATCHED)
def test_batch_env_reused_masks_and_legal_ids(pg: Any, game: str, variant: str) -> None:
    n = 3
    fresh = pg.BatchEnv(game, variant, num_envs=n, ply_cap=25)
    reused = pg.BatchEnv(game, variant, num_envs=n, ply_cap=25, reuse_masks=True)
    fresh.reset(seed=4)
    reused.reset(seed=4)
    buffer = reused.action_masks()
    assert not buffer.flags.writeable and buffer.shape == (n, fresh.single_action_space.n)
    for step in range(80):
        if step == 40:
            fresh.reset(seed=5)
            reused.reset(seed=5)
        expected = fresh.action_masks()
        masks = reused.action_masks()
        assert np.shares_memory(masks, buffer) and np.array_equal(masks, expected)
        ids, counts = reused.legal_actions()
        assert ids.dtype == np.int64 and counts.tolist() == expected.sum(axis=1).tolist()
        assert ids.shape[1] == counts.max()
        for i in range(n):
            assert np.array_equal(ids[i, : counts[i]], np.flatnonzero(expected[i]))
            assert (ids[i, counts[i] :] == -1).all()
        actions = fresh.sample_legal()
        assert np.array_equal(actions, reused.sample_legal())
        fresh.step(actions)
        reused.step(actions)
    narrow, counts = reused.legal_actions(width=2)
    assert narrow.shape == (n, 2) and (counts >= 1).all()


def test_batch_env_runs_one_call_at_a_time(pg: Any) -> None:
    # (a step is several calls of the batch: another thread's call between them made the step
    # raise after it was applied, its rewards and final observations lost)
    import threading

    env = pg.BatchEnv("plateau-x", "mini", num_envs=4, seed=1)
    env.reset(seed=1)
    inside, go_on = threading.Event(), threading.Event()
    real_step = env.batch.step

    def slow_step(*args: Any, **kwargs: Any) -> Any:
        inside.set()
        assert go_on.wait(30)
        return real_step(*args, **kwargs)

    env.batch.step = slow_step
    results: list[Any] = []
    stepper = threading.Thread(target=lambda: results.append(env.step(env.sample_legal())))
    stepper.start()
    assert inside.wait(30)
    before = env.batch.hashes().tolist()
    for call in (env.action_masks, env.sample_legal, env.legal_actions, env.reset):
        with pytest.raises(RuntimeError, match="in use by another thread"):
            call()
    assert env.batch.hashes().tolist() == before
    go_on.set()
    stepper.join(30)
    assert len(results) == 1 and env.batch.plies().tolist() == [1, 1, 1, 1]
    assert env.action_masks().shape == (4, env.single_action_space.n)
