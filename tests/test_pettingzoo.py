"""plateau.pettingzoo: every registered game and variant passes PettingZoo's own API and seed
tests; agents see only their own views; rewards are the returns."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import plateau
from support import require_extra

pytestmark = pytest.mark.pettingzoo

CASES = [(g, v) for g in plateau.games() for v in plateau.variants(g)]


@pytest.fixture(scope="module")
def pz() -> Any:
    require_extra("gymnasium", "pettingzoo")
    require_extra("pettingzoo", "pettingzoo")
    import plateau.pettingzoo

    return plateau.pettingzoo


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_pettingzoo_api_test(pz: Any, game: str, variant: str) -> None:
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        # any warning fails, but those PettingZoo gives every dict observation (its own
        # classic games get them too); later filters take precedence
        warnings.filterwarnings("error")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(pz.env(game=game, variant=variant, render_mode="ansi"), num_cycles=1000)


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_pettingzoo_seed_test(pz: Any, game: str, variant: str) -> None:
    from pettingzoo.test import seed_test

    seed_test(lambda: pz.env(game=game, variant=variant), num_cycles=50)


def play_out(env: Any, seed: int) -> tuple[Any, dict[str, float], list[int]]:
    """Random masked play to the end; the mirror state, final rewards, actions."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards: dict[str, float] = {}
    actions: list[int] = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        rewards[agent] = reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        # the mask is the game's legal list for the agent to act
        assert legal.tolist() == env.unwrapped.state.legal_actions().tolist()
        assert agent == f"player_{env.unwrapped.state.current_player}"
        a = int(rng.choice(legal))
        actions.append(a)
        env.step(a)
    return env.unwrapped.state, rewards, actions


@pytest.mark.parametrize(("game", "variant"), [c for c in CASES if c[0] != "empire-plateau"])
def test_rewards_are_the_returns_at_the_end(pz: Any, game: str, variant: str) -> None:
    env = pz.env(game=game, variant=variant)
    _, rewards, actions = play_out(env, seed=4)
    mirror = plateau.new_game(game, variant)
    mirror.apply_all(actions)
    assert mirror.is_terminal()
    assert [rewards[f"player_{p}"] for p in range(mirror.num_players)] == mirror.returns()
    assert env.agents == []


def test_empire_turns_are_several_actions_by_one_agent(pz: Any) -> None:
    env = pz.env(game="empire-plateau", variant="duel", max_game_length=60)
    env.reset()
    seen = []
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            env.step(None)
            continue
        seen.append(agent)
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert len(seen) == 60
    assert any(a == b for a, b in zip(seen, seen[1:])), "no agent ever acted twice in a row"
    assert {"player_0", "player_1"} == set(seen)


def test_truncation_gives_zero_rewards(pz: Any) -> None:
    env = pz.env(game="plateau-x", variant="mini", max_game_length=5)
    env.reset()
    for _ in range(5):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    _, reward, terminated, truncated, _ = env.last()
    assert truncated and not terminated and reward == 0.0


def test_hidden_faces_are_hidden_in_each_agents_observation(pz: Any) -> None:
    env = pz.env(game="albea-plateau")
    env.reset()
    rng = np.random.default_rng(2)
    for _ in range(8):
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = env.unwrapped.state
    for p in (0, 1):
        obs = env.observe(f"player_{p}")
        np.testing.assert_array_equal(obs["observation"], state.observation_tensor(p))
        if state.current_player != p:
            assert not obs["action_mask"].any()
    a, b = (env.observe(f"player_{p}")["observation"] for p in (0, 1))
    assert not np.array_equal(a, b)
    # a determinization for player 0 differs from the truth, yet player 0's view is the same
    sample = state.resample_hidden(0, 11)
    np.testing.assert_array_equal(sample.observation_tensor(0), a)


def test_illegal_action_is_refused(pz: Any) -> None:
    env = pz.env(game="plateau-x", variant="mini")
    env.reset()
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(plateau.IllegalActionError):
        env.step(illegal)


def test_render_modes(pz: Any) -> None:
    env = pz.env(game="plateau-x", variant="mini", render_mode="ansi")
    env.reset()
    assert env.render() == str(env.unwrapped.state)
    with pytest.raises(ValueError, match="render_mode"):
        pz.env(game="plateau-x", render_mode="human")


def test_rgb_array_render(pz: Any) -> None:
    # the renderer comes with the render extra (cairosvg draws the PNG): skipped without them
    pytest.importorskip("plateau.render")
    pytest.importorskip("cairosvg")
    env = pz.env(game="plateau-x", variant="mini", render_mode="rgb_array")
    env.reset()
    picture = env.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert picture.min() < 255, "a blank picture"
