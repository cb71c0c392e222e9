"""plateau.openspiel: every registered game and variant runs OpenSpiel's own checks and
algorithms (random simulation with serialization, MCTS, information-set MCTS)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import plateau
from support import require_extra

pytestmark = pytest.mark.openspiel

CASES = [(g, v) for g in plateau.games() for v in plateau.variants(g)]


@pytest.fixture(scope="module")
def pyspiel() -> Any:
    mod = require_extra("pyspiel", "openspiel")
    import plateau.openspiel  # noqa: F401  (registers the games)

    return mod


def load(pyspiel: Any, game: str, variant: str, **params: Any) -> Any:
    from plateau.openspiel import short_name

    return pyspiel.load_game(short_name(game), {"variant": variant, **params})


def test_every_registered_game_is_registered(pyspiel: Any) -> None:
    names = set(pyspiel.registered_names())
    assert {"plateau_x", "albea_plateau", "empire_plateau"} <= names
    for game in plateau.games():
        assert game.replace("-", "_") in names


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_game_info_comes_from_the_registry(pyspiel: Any, game: str, variant: str) -> None:
    g = load(pyspiel, game, variant)
    s = plateau.new_game(game, variant)
    assert g.num_players() == s.num_players
    assert g.num_distinct_actions() == s.num_distinct_actions
    assert g.observation_tensor_shape() == list(s.observation_shape)
    assert g.max_utility() == max(s.points_by_place())
    info = plateau.game_info(game).perfect_information
    kinds = pyspiel.GameType.Information
    assert g.get_type().information == (
        kinds.PERFECT_INFORMATION if info else kinds.IMPERFECT_INFORMATION
    )
    assert g.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_random_simulation_check(pyspiel: Any, game: str, variant: str) -> None:
    # OpenSpiel's own checks over random games: legal masks, clones, serialization, returns
    # within the declared utilities (and their declared sum), the length bound
    pyspiel.random_sim_test(load(pyspiel, game, variant), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_mcts_bot_plays_then_random_to_the_end(pyspiel: Any, game: str, variant: str) -> None:
    from open_spiel.python.algorithms import mcts

    g = load(pyspiel, game, variant)
    rng = np.random.RandomState(7)
    bot = mcts.MCTSBot(g, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = g.new_initial_state()
    mirror = plateau.new_game(game, variant)
    for ply in range(10_000):
        if state.is_terminal():
            break
        if ply < 4:
            action = bot.step(state)
        else:
            legal = state.legal_actions()
            action = legal[rng.randint(len(legal))]
        assert mirror.is_legal(action)
        state.apply_action(action)
        mirror.apply(action)
    assert state.is_terminal() and mirror.is_terminal()
    assert state.returns() == mirror.returns()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_observations_are_the_players_views(pyspiel: Any, game: str, variant: str) -> None:
    g = load(pyspiel, game, variant)
    state = g.new_initial_state()
    rng = np.random.RandomState(3)
    for _ in range(12):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randint(len(legal))])
    ps = state.plateau_state
    for p in range(g.num_players()):
        np.testing.assert_array_equal(
            np.asarray(state.observation_tensor(p)), ps.observation_tensor(p).ravel()
        )
        assert state.observation_string(p) == ps.observation_string(p)
    copy = g.deserialize_state(state.serialize())
    assert copy.history() == state.history() == ps.history
    assert str(copy) == str(state)


def test_hidden_faces_make_views_differ_and_resamples_keep_the_information_state(
    pyspiel: Any,
) -> None:
    g = load(pyspiel, "albea-plateau", "standard")
    state = g.new_initial_state()
    rng = np.random.RandomState(5)
    for _ in range(10):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randint(len(legal))])
    p = state.current_player()
    assert state.information_state_string(0) != state.information_state_string(1)
    assert state.observation_tensor(0) != state.observation_tensor(1)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differs = False
    for _ in range(5):
        sample = state.resample_from_infostate(p, sampler)
        assert sample.information_state_string(p) == state.information_state_string(p)
        assert sample.observation_string(p) == state.observation_string(p)
        assert sorted(sample.legal_actions()) == sorted(state.legal_actions())
        differs |= str(sample) != str(state)
        # the sample plays on; the history part of the key stays p's view
        sample.apply_action(sample.legal_actions()[0])
        assert sample.information_state_string(p).startswith(
            state.information_state_string(p).split("\n")[0]
        )
    assert differs, "five determinizations all equal to the truth: nothing was hidden"


def test_information_set_mcts_plays_albea(pyspiel: Any) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    g = load(pyspiel, "albea-plateau", "standard")
    rng = np.random.RandomState(1)
    bots = [
        ismcts.ISMCTSBot(g, mcts.RandomRolloutEvaluator(1, rng), 2.0, 10, random_state=rng)
        for _ in range(2)
    ]
    state = g.new_initial_state()
    for ply in range(10_000):
        if state.is_terminal():
            break
        if ply < 8:
            action = bots[state.current_player()].step(state)
        else:
            legal = state.legal_actions()
            action = legal[rng.randint(len(legal))]
        state.apply_action(action)
    assert state.is_terminal()
    assert sorted(state.returns()) in ([0.0, 1.0], [0.5, 0.5])


def test_max_game_length_ends_the_game_as_a_tie(pyspiel: Any) -> None:
    g = load(pyspiel, "plateau-x", "standard", max_game_length=6)
    assert g.max_game_length() == 6
    state = g.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert len(state.history()) == 6
    assert state.returns() == [1.75, 1.75, 1.75, 1.75]  # all four tied: (4 + 2 + 1 + 0) / 4


def test_options_are_game_parameters(pyspiel: Any) -> None:
    g = load(pyspiel, "plateau-x", "mini", first_player=1)
    assert g.new_initial_state().current_player() == 1
    with pytest.raises(ValueError, match="variant"):
        load(pyspiel, "plateau-x", "giant")


def test_games_and_states_pickle(pyspiel: Any) -> None:
    import pickle

    g = load(pyspiel, "empire-plateau", "duel", board="ep24")
    assert (
        g.num_distinct_actions()
        == plateau.new_game("empire-plateau", "duel", board="ep24").num_distinct_actions
    )
    state = g.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    assert str(pickle.loads(pickle.dumps(g))) == str(g)
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history() and str(copy) == str(state)


def test_a_state_cut_at_max_game_length_takes_no_action(pyspiel: Any) -> None:
    g = load(pyspiel, "plateau-x", "mini", max_game_length=5)
    s = g.new_initial_state()
    for _ in range(5):
        s.apply_action(s.legal_actions()[0])
    assert s.is_terminal() and s.legal_actions() == []
    with pytest.raises(plateau.IllegalActionError, match="max_game_length"):
        s.apply_action(int(s.plateau_state.legal_actions()[0]))
    assert len(s.history()) == 5 and s.plateau_state.ply == 5


def test_deepcopy_keeps_the_history_as_clone_does(pyspiel: Any) -> None:
    import copy

    s = load(pyspiel, "plateau-x", "mini").new_initial_state()
    for _ in range(4):
        s.apply_action(s.legal_actions()[0])
    for twin in (s.clone(), copy.deepcopy(s)):
        assert twin.history() == s.history() and twin.move_number() == 4
        assert twin.serialize() == s.serialize()
        twin.apply_action(twin.legal_actions()[0])
        assert len(s.history()) == 4  # independent


def test_resample_from_infostate_refuses_a_draw_outside_0_1(pyspiel: Any) -> None:
    g = load(pyspiel, "albea-plateau", "standard")
    state = g.new_initial_state()
    p = state.current_player()
    for good in (0.0, 0.5, np.float32(0.25), np.float64(0.999), 0):
        state.resample_from_infostate(p, lambda good=good: good)
    # (NaN leaked ValueError, inf OverflowError, a str a MemoryError from int(str * 2**53))
    for bad in (math.nan, math.inf, -math.inf, 1.0, -0.5, True, "x", None, 10**5000, [0.5]):
        with pytest.raises(plateau.InvalidArgumentError, match="sampler: a draw"):
            state.resample_from_infostate(p, lambda bad=bad: bad)
    with pytest.raises(plateau.InvalidArgumentError, match="sampler: a probability sampler"):
        state.resample_from_infostate(p, 0.5)


def test_deserialize_state_replays_and_never_unpickles(pyspiel: Any) -> None:
    import base64
    import pickle

    g = load(pyspiel, "plateau-x", "mini")
    s = g.new_initial_state()
    for _ in range(3):
        s.apply_action(s.legal_actions()[-1])
    back = g.deserialize_state(s.serialize())
    assert back.history() == s.history() and back.plateau_state.hash == s.plateau_state.hash
    ran: list[str] = []

    class Payload:
        def __reduce__(self) -> Any:
            return (ran.append, ("ran",))

    hostile = (
        "history=\nmove_number=0\n__dict__="
        + base64.b64encode(pickle.dumps({"x": Payload()})).decode()
    )
    assert g.deserialize_state(hostile).history() == [] and ran == []
    for bad, match in [
        ("history=0:x\nmove_number=1\n", "player:action"),
        # digits that are not ASCII: int() refuses '²' and reads '٣' as 3
        ("history=0:\u00b2\nmove_number=1\n", "entry 0: not player:action: '0:\u00b2'"),
        ("history=0:\u0663\nmove_number=1\n", "entry 0: not player:action: '0:\u0663'"),
        ("history=\u0660:3\nmove_number=1\n", "player:action"),
        # ids too long for int() (over 4,300 digits), shown cut
        ("history=0:" + "1" * 5000 + "\nmove_number=1\n", r"player:action: '0:1111.*characters"),
        ("history=" + "0" * 5000 + ":3\nmove_number=1\n", "player:action"),
        ("history=1:0\nmove_number=1\n", "does not act"),
        ("history=0:999999\nmove_number=1\n", "entry 0"),
        ("history=\nmove_number=3\n", "move_number"),
        ("nonsense", "not a serialized state"),
    ]:
        with pytest.raises(plateau.InvalidArgumentError, match=match):
            g.deserialize_state(bad)
