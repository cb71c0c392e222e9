"""plateau.pettingzoo: every registered game and variant passes PettingZoo's own API and seed
tests; agents see only their own views; rewards are the returns."""

from __future__ import annotations

import random
import warnings
from pathlib import Path
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
    pytest.importorskip("PIL")
    env = pz.env(game="plateau-x", variant="mini", render_mode="rgb_array")
    env.reset()
    picture = env.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert picture.min() < 255, "a blank picture"


def test_rgb_array_without_the_render_extra_is_refused_when_the_env_is_made(
    pz: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import sys

    from plateau.gymnasium import SingleAgentEnv
    from plateau.render import png

    # Pillow missing (an import of None in sys.modules fails), cairosvg there (a module that
    # imports, standing in for it where the extra is not installed)
    fine, broken = tmp_path / "fine", tmp_path / "broken"
    fine.mkdir()
    broken.mkdir()
    (fine / "cairosvg.py").write_text("", encoding="utf-8")
    # (set, then deleted: the stand-ins imported below leave sys.modules as it was)
    monkeypatch.setitem(sys.modules, "cairosvg", None)
    monkeypatch.delitem(sys.modules, "cairosvg")
    monkeypatch.syspath_prepend(str(fine))
    monkeypatch.setitem(sys.modules, "PIL.Image", None)
    with pytest.raises(
        ImportError, match=r"render_mode='rgb_array': .*Pillow: pip install 'plateau\[render\]'"
    ):
        pz.env(game="plateau-x", variant="mini", render_mode="rgb_array")
    with pytest.raises(ImportError, match=r"plateau\[render\]"):
        SingleAgentEnv("plateau-x", "mini", render_mode="rgb_array")
    # cairosvg installed but the cairo library missing: importing it raises OSError (as
    # cairocffi does), which the check found no better than the first picture did
    (broken / "cairosvg.py").write_text(
        "raise OSError(\"no library called 'cairo-2' was found\")\n", encoding="utf-8"
    )
    monkeypatch.delitem(sys.modules, "cairosvg")
    monkeypatch.syspath_prepend(str(broken))
    for make in (
        lambda: pz.env(game="plateau-x", variant="mini", render_mode="rgb_array"),
        lambda: SingleAgentEnv("plateau-x", "mini", render_mode="rgb_array"),
        lambda: png(plateau.new_game("plateau-x", "mini")),
    ):
        with pytest.raises(ImportError, match=r"install the cairo library.*cairo-2"):
            make()


# -- the legal ids compactly, and masks kept in place (issue 25) ---------------------------------

#: every registered game and variant, from the registry
ALL_VARIANTS = [(g, v) for g in plateau.games() for v in plateau.game_info(g).variants]


def check_views(env: Any, kept: dict[str, Any] | None) -> None:
    """Every agent's mask is the game's legal mask for the agent to act and all zeros for the
    others; its legal ids (``legal_actions`` and, for an agent still in the game, its info) are
    the ids set in that mask. ``kept``: with ``reuse_masks=True``, each agent's buffer, which
    every observation must hand out again (read-only)."""
    raw = env.unwrapped
    s = raw.state
    for p, agent in enumerate(raw.possible_agents):
        mask = env.observe(agent)["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (s.num_distinct_actions,)
        if s.current_player == p:
            expected = s.legal_actions_mask()
            assert np.array_equal(mask.view(np.bool_), expected)
        else:
            expected = np.zeros(s.num_distinct_actions, dtype=np.bool_)
            assert not mask.any()
        ids = raw.legal_actions(agent)
        assert ids.dtype == np.int64
        assert np.array_equal(ids, np.flatnonzero(expected))
        if agent in raw.infos:
            assert np.array_equal(raw.infos[agent]["legal_actions"], ids)
        if kept is not None:
            assert not mask.flags.writeable
            assert np.shares_memory(mask, kept.setdefault(agent, mask)), "a new mask array"


@pytest.mark.parametrize("reuse", [False, True], ids=["fresh", "reuse"])
@pytest.mark.parametrize(("game", "variant"), ALL_VARIANTS)
def test_masks_and_legal_ids_are_right_at_every_step(
    pz: Any, game: str, variant: str, reuse: bool
) -> None:
    # whole random games, a refused illegal id now and then, and a second game after a reset
    env = pz.env(game=game, variant=variant, reuse_masks=reuse)
    kept: dict[str, Any] | None = {} if reuse else None
    rng = random.Random(5)
    histories = []
    for seed in (1, 2):
        env.reset(seed=seed)
        check_views(env, kept)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, info = env.last()
            check_views(env, kept)
            if terminated or truncated:
                assert len(info["legal_actions"]) == 0
                env.step(None)
                continue
            legal = info["legal_actions"]
            assert np.array_equal(legal, np.flatnonzero(obs["action_mask"]))
            assert agent == env.agent_selection
            if env.unwrapped.state.ply % 40 == 3:
                illegal = next(a for a in range(len(legal) + 1) if a not in set(legal.tolist()))
                with pytest.raises(plateau.IllegalActionError):
                    env.step(illegal)
                check_views(env, kept)
            env.step(int(legal[rng.randrange(len(legal))]))
        assert env.unwrapped.state.is_terminal()
        check_views(env, kept)
        histories.append(env.unwrapped.state.history)
    assert histories[0] != histories[1]


@pytest.mark.parametrize(("game", "variant"), ALL_VARIANTS)
def test_masks_and_legal_ids_after_truncation(pz: Any, game: str, variant: str) -> None:
    # the cut position keeps its masks and legal ids (what a learner that bootstraps needs),
    # though the agents take None only; both modes alike, and a reset starts afresh
    runs = []
    for reuse in (False, True):
        env = pz.env(game=game, variant=variant, max_game_length=7, reuse_masks=reuse)
        kept: dict[str, Any] | None = {} if reuse else None
        env.reset(seed=3)
        masks = []
        for agent in env.agent_iter():
            obs, _, terminated, truncated, info = env.last()
            check_views(env, kept)
            masks.append((agent, obs["action_mask"].tobytes(), info["legal_actions"].tolist()))
            if terminated or truncated:
                assert truncated and not terminated and env.unwrapped.state.ply == 7
                env.step(None)
                continue
            env.step(int(info["legal_actions"][-1]))
        check_views(env, kept)
        env.reset()
        check_views(env, kept)
        runs.append(masks)
    assert runs[0] == runs[1]


def test_reused_masks_are_one_read_only_buffer_per_agent(pz: Any) -> None:
    env = pz.env(game="empire-plateau", variant="duel", reuse_masks=True)
    env.reset()
    obs, *_ = env.last()
    mask = obs["action_mask"]
    copy = mask.copy()
    with pytest.raises(ValueError, match="read-only"):
        mask[0] = 1
    env.step(int(env.unwrapped.legal_actions()[0]))
    again, *_ = env.last()
    assert np.shares_memory(again["action_mask"], mask)  # the same buffer, overwritten
    assert not np.array_equal(mask, copy) and np.array_equal(copy, copy.astype(bool))
    other = pz.env(game="empire-plateau", variant="duel")  # the default: a fresh array each time
    other.reset()
    first, *_ = other.last()
    second, *_ = other.last()
    assert first["action_mask"].flags.writeable
    assert not np.shares_memory(first["action_mask"], second["action_mask"])


def test_legal_actions_of_the_agent_selected_and_of_the_others(pz: Any) -> None:
    env = pz.raw_env("plateau-x", "mini")
    env.reset()
    s = env.state
    assert np.array_equal(env.legal_actions(), s.legal_actions())
    other = next(a for a in env.possible_agents if a != env.agent_selection)
    assert len(env.legal_actions(other)) == 0 and env.legal_actions(other).dtype == np.int64
    assert len(env.infos[other]["legal_actions"]) == 0


def test_env_wrapper_checks_as_pettingzoos_order_enforcing_wrapper(pz: Any) -> None:
    # env() wraps in a faster subclass of PettingZoo's wrapper: the same refusals, word for word,
    # but for a step before reset() or once every agent is done, which raise the environment's
    # own ResetNeeded (PettingZoo's wrapper asserts before a reset and only warns after the end)
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    def outcome(call: Any, env: Any) -> Any:
        try:
            result = call(env)
        except Exception as e:
            return type(e), str(e)
        return "ok", repr(result)[:60]

    calls = [
        lambda e: e.agents,
        lambda e: e.agent_selection,
        lambda e: e.infos,
        lambda e: e._cumulative_rewards,
        lambda e: e._index,
        lambda e: e.last(),
        lambda e: e.step(0),
        lambda e: e.observe("player_0"),
        lambda e: str(e),
        lambda e: e.num_agents,
    ]
    ours = pz.env(game="plateau-x", variant="mini", max_game_length=2)
    theirs = OrderEnforcingWrapper(pz.raw_env("plateau-x", "mini", max_game_length=2))
    assert isinstance(ours, OrderEnforcingWrapper)
    for stage in range(4):
        if stage == 1:
            ours.reset(seed=1)
            theirs.reset(seed=1)
        for call in calls:
            if stage == 0 and call is calls[6]:  # step before reset
                assert outcome(call, ours)[0] is pz.ResetNeeded
                assert outcome(call, theirs)[0] is AssertionError
                continue
            assert outcome(call, ours) == outcome(call, theirs)
        if stage >= 1:
            for e in (ours, theirs):
                obs, _, terminated, truncated, _ = e.last()
                e.step(None if terminated or truncated else int(np.argmax(obs["action_mask"])))
            assert ours.unwrapped.state.history == theirs.unwrapped.state.history
    while ours.agents:
        ours.step(None)
        theirs.step(None)
    with pytest.raises(pz.ResetNeeded, match="every agent is done"):
        ours.step(None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs.step(None)  # (PettingZoo's wrapper warns and does nothing)
    for call in calls:
        if call is calls[6]:
            continue
        assert outcome(call, ours) == outcome(call, theirs)
