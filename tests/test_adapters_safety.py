"""The Gymnasium and PettingZoo adapters refuse what is not an action id of their space, a step
before ``reset()`` or after the episode ended, and a bad seed, each with a clear error, and a
refused call changes nothing: not the game, the env's counters and generators, the rewards nor
the agent selected (issue 21)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import plateau
from support import require_extra

pytestmark = pytest.mark.pettingzoo  # the gymnasium environments ship with that extra

NUM_ACTIONS = plateau.new_game("plateau-x", "mini").num_distinct_actions

#: values that are no action id of a ``Discrete(NUM_ACTIONS)`` space
NOT_IDS = [
    True,
    False,
    np.bool_(True),
    np.array(True),
    1.0,
    1.7,
    np.float64(2.0),
    float("inf"),
    float("nan"),
    "5",
    "S@c3",
    None,
    -1,
    NUM_ACTIONS,
    2**70,
    np.int64(-1),
    np.uint64(2**64 - 1),
    np.array([3]),
    np.array(3.0),
    [3],
]

#: seeds that every adapter refuses before it changes anything
BAD_SEEDS = [True, False, -1, 2**64, 1.0, 2.5, "3", np.float64(3.0)]


@pytest.fixture(scope="module")
def pg() -> Any:
    require_extra("gymnasium", "pettingzoo")
    import plateau.gymnasium

    return plateau.gymnasium


@pytest.fixture(scope="module")
def pz() -> Any:
    require_extra("gymnasium", "pettingzoo")
    require_extra("pettingzoo", "pettingzoo")
    import plateau.pettingzoo

    return plateau.pettingzoo


def snapshot(env: Any) -> Any:
    """Everything an environment holds, as comparable values (see :func:`freeze`)."""
    return freeze(vars(env.unwrapped))


def freeze(value: Any, depth: int = 0) -> Any:
    """``value`` as a comparable value: a game as its history and hash, a batch as its plies,
    players and observations, an array as its bytes, a generator or a space as its generator's
    state, containers and other objects (bots, ...) member by member."""
    if isinstance(value, plateau.GameState):
        return ("game", value.history, value.hash, value.ply)
    if isinstance(value, plateau.StateBatch):
        players = value.current_players().tolist()
        return ("batch", id(value), value.plies().tolist(), players, value.observations().tobytes())
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, np.random.Generator):
        return ("generator", value.bit_generator.state)
    if isinstance(value, random.Random):
        return ("random", value.getstate())
    if hasattr(value, "_np_random"):  # a gymnasium space
        rng = value._np_random
        return ("space", repr(value), None if rng is None else rng.bit_generator.state)
    if isinstance(value, dict):
        return {k: freeze(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [freeze(v, depth + 1) for v in value]
    if value is None or isinstance(value, (bool, int, float, str, np.generic)):
        return value
    if hasattr(value, "__dict__") and depth < 4:
        return (type(value).__name__, freeze(vars(value), depth + 1))
    return (type(value).__name__, id(value))


def single(pg: Any, **kwargs: Any) -> Any:
    env = pg.SingleAgentEnv("plateau-x", "mini", **kwargs)
    env.reset(seed=3)
    env.action_space.sample()  # (so that the space's generator exists and is compared)
    return env


# -- actions: exactly the ids of the space, by the library's one integer rule --------------------


@pytest.mark.parametrize("mode", ["lose", "raise"])
@pytest.mark.parametrize("bad", NOT_IDS, ids=repr)
def test_single_agent_env_refuses_what_is_no_action_id(pg: Any, mode: str, bad: Any) -> None:
    env = single(pg, illegal_action=mode)
    before = snapshot(env)
    with pytest.raises(plateau.InvalidActionError, match="action must be an int"):
        env.step(bad)
    assert snapshot(env) == before
    env.step(int(np.flatnonzero(env.action_masks())[0]))  # and the episode goes on
    assert env.state.ply > 0


@pytest.mark.parametrize("bad", NOT_IDS, ids=repr)
def test_aec_env_refuses_what_is_no_action_id(pz: Any, bad: Any) -> None:
    for env in (pz.raw_env("plateau-x", "mini"), pz.env(game="plateau-x", variant="mini")):
        env.reset(seed=3)
        for agent in env.possible_agents:
            env.action_space(agent).sample()
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
        before = snapshot(env)
        with pytest.raises(plateau.InvalidActionError, match="action must be an int"):
            env.step(bad)
        assert snapshot(env) == before


def integral_forms(a: int) -> list[Any]:
    """One id in every form an action space or a policy may hand out."""
    return [
        a,
        np.int64(a),
        np.int32(a),
        np.uint16(a),
        np.intp(a),
        np.array(a),
        np.array(a, np.int8),
    ]


def test_adapters_take_every_integral_form_of_an_id(pg: Any, pz: Any) -> None:
    env = single(pg)
    legal = int(np.flatnonzero(env.action_masks())[0])
    assert legal < 128  # (fits every form below)
    results = []
    for form in integral_forms(legal):
        env.reset(seed=3)
        env.step(form)
        results.append((env.state.history, env.state.hash))
    assert all(r == results[0] for r in results) and results[0][0][0] == legal
    aec = pz.raw_env("plateau-x", "mini")
    for form in integral_forms(legal):
        aec.reset()
        aec.step(form)
        assert aec.state.history == [legal]


def test_an_illegal_id_is_refused_and_changes_nothing(pg: Any, pz: Any) -> None:
    env = single(pg, illegal_action="raise")
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    before = snapshot(env)
    with pytest.raises(plateau.IllegalActionError):
        env.step(np.int64(illegal))
    assert snapshot(env) == before
    aec = pz.raw_env("plateau-x", "mini")
    aec.reset(seed=1)
    before = snapshot(aec)
    with pytest.raises(plateau.IllegalActionError):
        aec.step(np.array(illegal))
    assert snapshot(aec) == before


# -- order: a step needs an episode -----------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1])
def test_single_agent_step_before_reset_is_refused(pg: Any, seat: int) -> None:
    # it played for whoever was to move (seat 1: the opponent's move), then met no bot
    env = pg.SingleAgentEnv("plateau-x", "mini", seat=seat)
    legal = int(env.state.legal_actions()[0])
    before = snapshot(env)
    with pytest.raises(pg.ResetNeeded, match="before reset"):
        env.step(legal)
    assert snapshot(env) == before and env.state.ply == 0
    assert isinstance(pg.ResetNeeded("x"), RuntimeError)


def test_single_agent_step_after_an_illegal_action_lost_is_refused(pg: Any) -> None:
    env = single(pg)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, _, terminated, _, info = env.step(illegal)
    assert terminated and info["illegal_action"]
    assert not env.action_masks().any() and not info["action_mask"].any()
    before = snapshot(env)
    legal = int(env.state.legal_actions()[0])  # (the game itself goes on: the agent lost it)
    with pytest.raises(pg.ResetNeeded, match="episode is over"):
        env.step(legal)
    assert snapshot(env) == before
    env.reset(seed=4)
    env.step(int(np.flatnonzero(env.action_masks())[0]))


def test_single_agent_step_after_the_end_or_the_cap_is_refused(pg: Any) -> None:
    for kwargs in ({}, {"max_game_length": 3}):
        env = single(pg, **kwargs)
        done = False
        while not done:
            _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
            done = terminated or truncated
        before = snapshot(env)
        with pytest.raises(pg.ResetNeeded, match="episode is over"):
            env.step(0)
        assert snapshot(env) == before


def test_aec_step_before_reset_is_refused(pz: Any) -> None:
    env = pz.raw_env("plateau-x", "mini")
    before = snapshot(env)
    with pytest.raises(pz.ResetNeeded, match="before reset"):
        env.step(int(env.state.legal_actions()[0]))
    assert snapshot(env) == before and env.state.ply == 0


@pytest.mark.parametrize("wrapped", [False, True])
def test_aec_step_once_every_agent_is_done_is_refused(pz: Any, wrapped: bool) -> None:
    # env() as raw_env: PettingZoo's order-enforcing wrapper asserted before a reset and only
    # warned once every agent was done (a stranger's test)
    make = pz.env if wrapped else pz.raw_env
    env = make("plateau-x", "mini", max_game_length=4)
    with pytest.raises(pz.ResetNeeded, match="before reset"):
        env.step(0)
    env.reset()
    while not env.truncations[env.agent_selection]:
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    before = snapshot(env.unwrapped)
    with pytest.raises(plateau.InvalidActionError, match="its only action is None"):
        env.step(0)  # a done agent takes None only
    assert snapshot(env.unwrapped) == before
    while env.agents:
        env.step(None)
    before = snapshot(env.unwrapped)
    with pytest.raises(pz.ResetNeeded, match="every agent is done"):
        env.step(None)
    assert snapshot(env.unwrapped) == before


def test_single_agent_env_checks_illegal_reward_and_a_seat_that_never_acts(pg: Any) -> None:
    for bad in ("a", None, True, float("nan"), float("inf"), 10**400):
        with pytest.raises(plateau.InvalidArgumentError, match="illegal_reward"):
            pg.SingleAgentEnv("plateau-x", "mini", illegal_reward=bad)
    assert pg.SingleAgentEnv("plateau-x", "mini", illegal_reward=-2).illegal_reward == -2.0
    # the opponents end every game before seat 1 acts: a typed error, not a RuntimeError
    env = pg.SingleAgentEnv("plateau-x", "mini", seat=1, max_game_length=1)
    with pytest.raises(plateau.InvalidArgumentError, match="leave the agent no turn"):
        env.reset(seed=0)


def test_batch_env_step_before_reset_is_refused(pg: Any) -> None:
    env = pg.BatchEnv("plateau-x", "mini", num_envs=3)
    actions = env.sample_legal()
    before = snapshot(env)
    with pytest.raises(pg.ResetNeeded, match="before reset"):
        env.step(actions)
    assert snapshot(env) == before
    env.reset()
    env.step(actions)


# -- seeds: checked before anything is reseeded -------------------------------------------------


def seeded(pg: Any, pz: Any, kind: str) -> Any:
    """An environment of ``kind`` after a seeded reset and a step, its spaces' generators made."""
    if kind == "single":
        return single(pg)
    if kind == "batch":
        env = pg.BatchEnv("plateau-x", "mini", num_envs=3)
        env.reset(seed=5)
        env.step(env.sample_legal())
        env.action_space.sample()
        return env
    env = pz.raw_env("plateau-x", "mini")
    env.reset(seed=5)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    return env


@pytest.mark.parametrize("kind", ["single", "batch", "aec"])
@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_a_bad_seed_is_refused_and_changes_nothing(pg: Any, pz: Any, kind: str, seed: Any) -> None:
    # BatchEnv.reset(seed=True) reseeded its action space, then the batch refused the seed;
    # the others took True for 1
    env = seeded(pg, pz, kind)
    before = snapshot(env)
    with pytest.raises(ValueError, match="seed must be an int"):
        env.reset(seed=seed)
    assert snapshot(env) == before


def test_numpy_seeds_seed_as_the_same_int(pg: Any, pz: Any) -> None:
    def drawn(env: Any) -> Any:
        # what the seed decides: the env's generator, its action spaces', the batch's
        if isinstance(env, pg.SingleAgentEnv):
            return env.np_random.bit_generator.state, env.state.history
        if isinstance(env, pg.BatchEnv):
            return env.action_space.sample().tolist(), env.sample_legal().tolist()
        return [env.action_space(a).sample() for a in env.possible_agents]

    for make in (
        lambda: pg.SingleAgentEnv("plateau-x", "mini", seat=1),
        lambda: pg.BatchEnv("plateau-x", "mini", num_envs=2),
        lambda: pz.raw_env("plateau-x", "mini"),
    ):
        a, b, c = make(), make(), make()
        a.reset(seed=7)
        b.reset(seed=np.uint64(7))
        c.reset(seed=8)
        assert drawn(a) == drawn(b) != drawn(c)


# -- OpenSpiel: pyspiel hands _apply_action a C++ int64 already; the game's parameters ----------


@pytest.mark.openspiel
@pytest.mark.parametrize("length", [2.5, True, float("inf"), "7", 0, 2**31], ids=repr)
def test_openspiel_refuses_a_max_game_length_that_is_no_int(length: Any) -> None:
    # int() truncated 2.5 to 2 and took True for 1 (pyspiel.load_game checks the type, a
    # game made from its class with a parameter dict did not)
    require_extra("pyspiel", "openspiel")
    from plateau.openspiel import GAME_CLASSES

    with pytest.raises(ValueError, match="max_game_length must be an int"):
        GAME_CLASSES["plateau-x"]({"variant": "mini", "max_game_length": length})
    game = GAME_CLASSES["plateau-x"]({"variant": "mini", "max_game_length": np.int64(7)})
    assert game.max_game_length() == 7


@pytest.mark.openspiel
@pytest.mark.parametrize(
    "action", [True, False, np.bool_(True), 0.0, -1, 2**70, "0", None], ids=repr
)
def test_openspiel_apply_action_refuses_what_is_no_action_id(action: Any) -> None:
    # pyspiel's own conversion took True and False for 1 and 0, and answered a float or -1
    # with a TypeError or SpielError of its own
    pyspiel = require_extra("pyspiel", "openspiel")
    require_extra("plateau.openspiel", "openspiel")  # (registers the games)

    state = pyspiel.load_game("plateau_x(variant=mini)").new_initial_state()
    with pytest.raises(plateau.InvalidActionError):
        state.apply_action(action)
    assert state.history() == []
    state.apply_action(np.int64(state.legal_actions()[1]))
    assert len(state.history()) == 1


@pytest.mark.openspiel
def test_openspiel_refuses_a_board_file_in_a_game_string(tmp_path: Path) -> None:
    # a game string is data (pyspiel serializes it with the state): no path to a file
    pyspiel = require_extra("pyspiel", "openspiel")
    require_extra("plateau.openspiel", "openspiel")  # (registers the games)

    board = tmp_path / "board.json"
    board.write_text("{}")
    with pytest.raises(ValueError, match="never a file path"):
        pyspiel.load_game(f"empire_plateau(board={board})")
    assert pyspiel.load_game("empire_plateau(board=ep24)").num_distinct_actions() > 0


def test_gymnasium_keeps_its_own_spec_attribute(pg: Any) -> None:
    # gymnasium.Env.spec is the registration's EnvSpec (read by gymnasium.make and wrappers):
    # the game's spec lives in game_spec, and made through gymnasium.make the env keeps its
    # EnvSpec
    import gymnasium

    single = pg.SingleAgentEnv("empire-plateau", "duel", board="ep24")
    batch = pg.BatchEnv("plateau-x", "mini", num_envs=2)
    assert single.spec is None and batch.spec is None
    assert single.game_spec == plateau.resolve("empire-plateau", "duel", board="ep24")
    assert batch.game_spec == plateau.resolve("plateau-x", "mini")
    gymnasium.register("plateau-test/mini-v0", entry_point=pg.SingleAgentEnv)
    try:
        env = gymnasium.make("plateau-test/mini-v0", game="plateau-x", variant="mini")
        assert isinstance(env.spec, gymnasium.envs.registration.EnvSpec)
        assert env.unwrapped.game_spec == plateau.resolve("plateau-x", "mini")
    finally:
        gymnasium.registry.pop("plateau-test/mini-v0", None)


# -- masks kept in place (reuse_masks=True): a refused call leaves them as they were -------------


def views(env: Any) -> Any:
    """What the agents see now, as bytes: every AEC agent's mask and legal ids, or the
    single-agent env's."""
    raw = env.unwrapped
    if hasattr(raw, "possible_agents"):
        return [
            (
                raw.observe(a)["action_mask"].tobytes(),
                raw.legal_actions(a).tolist(),
                raw.infos[a]["legal_actions"].tolist() if a in raw.infos else None,
            )
            for a in raw.possible_agents
        ]
    return raw.action_masks().tobytes(), raw.legal_actions().tolist()


def test_refused_steps_leave_reused_masks_as_they_were(pg: Any, pz: Any) -> None:
    aec = pz.env(game="plateau-x", variant="mini", reuse_masks=True)
    aec.reset(seed=1)
    for bad in (NOT_IDS[0], NUM_ACTIONS, int(np.flatnonzero(aec.last()[0]["action_mask"] == 0)[0])):
        before = views(aec)
        with pytest.raises(plateau.ActionError):
            aec.step(bad)
        assert views(aec) == before
    env = single(pg, illegal_action="raise", reuse_masks=True)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    for bad in (NOT_IDS[0], illegal):
        before = views(env)
        with pytest.raises(plateau.ActionError):
            env.step(bad)
        assert views(env) == before
    env = single(pg, max_game_length=3, reuse_masks=True)
    done = False
    while not done:
        _, _, terminated, truncated, _ = env.step(int(env.legal_actions()[0]))
        done = terminated or truncated
    before = views(env)
    with pytest.raises(pg.ResetNeeded):
        env.step(0)
    assert views(env) == before == (bytes(NUM_ACTIONS), [])


def test_reuse_masks_is_a_keyword_and_not_a_game_option(pg: Any, pz: Any) -> None:
    # it is the adapters' own: a game built with it is the game without it
    assert pz.raw_env("plateau-x", "mini", reuse_masks=True).game_spec == plateau.resolve(
        "plateau-x", "mini"
    )
    single = pg.SingleAgentEnv("plateau-x", "mini", reuse_masks=True)
    assert single.game_spec == plateau.resolve("plateau-x", "mini")
    batch = pg.BatchEnv("plateau-x", "mini", num_envs=2, reuse_masks=True)
    assert batch.game_spec == plateau.resolve("plateau-x", "mini")


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_copied_env_with_reused_masks_hands_out_its_own_current_mask(
    pg: Any, pz: Any, how: str
) -> None:
    # (copied as a slot, the read-only view was an array of its own that the copy never
    # wrote: its masks stayed those of the moment of the copy)
    import copy
    import pickle

    def dup(env: Any) -> Any:
        return copy.deepcopy(env) if how == "deepcopy" else pickle.loads(pickle.dumps(env))

    env = dup(single(pg, reuse_masks=True))
    aec = pz.raw_env("plateau-x", "mini", reuse_masks=True)
    aec.reset(seed=1)
    aec = dup(aec)
    for _ in range(6):
        assert np.array_equal(env.action_masks(), env.state.legal_actions_mask())
        env.step(int(env.legal_actions()[0]))
        agent = aec.agent_selection
        assert np.array_equal(aec.observe(agent)["action_mask"], aec.state.legal_actions_mask())
        aec.step(int(aec.legal_actions()[-1]))


class _Resets:
    """An action whose ``__index__`` resets the environment first, as a caller's code may."""

    def __init__(self, env: Any, action: int) -> None:
        self.env, self.action = env, action

    def __index__(self) -> int:
        self.env.reset(seed=5)
        return self.action


def test_an_action_that_resets_the_env_while_it_is_read_is_played_in_the_new_game(
    pg: Any, pz: Any
) -> None:
    # (the state was read before the action: the action went to the old game, and the
    # agent selected, the rewards and the flags came from it while the env held the new one)
    aec = pz.raw_env("plateau-x", "mini")
    aec.reset(seed=1)
    first = int(aec.legal_actions()[0])
    aec.step(_Resets(aec, first))
    assert aec.state.history == [first]
    assert aec.agent_selection == aec.possible_agents[aec.state.current_player]
    assert len(aec.legal_actions()) > 0
    env = pg.SingleAgentEnv("plateau-x", "mini", opponent="random", max_game_length=2)
    env.reset(seed=1)
    first = int(env.legal_actions()[0])
    _, _, terminated, truncated, info = env.step(_Resets(env, first))
    assert env.state.history[0] == first
    assert info["ply"] == env.state.ply == 2
    assert truncated and not terminated


def test_a_reused_mask_pickled_before_it_had_its_own_state_loads_with_a_live_view() -> None:
    # (pickles made before ReusedMask.__getstate__ hold (None, its slots), the view a copy)
    from plateau._adapt import ReusedMask

    old = ReusedMask(6, np.int8)
    old.show(np.array([1, 4]))
    legacy = (None, {"_array": old._array.copy(), "_set": old._set, "view": old.view.copy()})
    mask = ReusedMask.__new__(ReusedMask)
    mask.__setstate__(legacy)
    assert mask.view.tolist() == [0, 1, 0, 0, 1, 0]
    assert mask.show(np.array([2])).tolist() == [0, 0, 1, 0, 0, 0]


def test_a_choice_given_as_a_numpy_string_array_is_refused(pg: Any, pz: Any) -> None:
    """``mode not in ("ansi", ...)`` compares a one-string numpy array element-wise, so
    ``np.array(["ansi"])`` passed and was kept as an array; a choice is a str."""
    for mode in (np.array(["ansi"]), np.str_("x"), b"ansi"):
        with pytest.raises(plateau.InvalidArgumentError, match="render_mode"):
            pg.SingleAgentEnv("plateau-x", "mini", render_mode=mode)
        with pytest.raises(plateau.InvalidArgumentError, match="render_mode"):
            pz.env("plateau-x", "mini", render_mode=mode)
    with pytest.raises(plateau.InvalidArgumentError, match="illegal_action"):
        pg.SingleAgentEnv("plateau-x", "mini", illegal_action=np.array(["raise"]))
    assert pg.SingleAgentEnv("plateau-x", "mini", render_mode=np.str_("ansi")).render_mode == "ansi"
