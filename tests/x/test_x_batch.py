"""StateBatch: every game of a batch behaves exactly like a PlateauXState given the same
actions (masks, hashes, observations, returns, resets); bad input changes nothing."""

from __future__ import annotations

import numpy as np
import pytest

import plateau

VARIANTS = ["standard", "triple", "mini", "double"]


def _shadow(batch: plateau.StateBatch) -> list[plateau.GameState]:
    return [plateau.new_game("plateau-x", batch.variant) for _ in range(batch.num_envs)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_batch_games_match_single_states(variant: str) -> None:
    n = 16
    batch = plateau.StateBatch("plateau-x", variant, n=n, seed=3, ply_cap=60)
    states = _shadow(batch)
    masks = np.zeros((n, batch.num_distinct_actions), dtype=np.uint8)
    obs = np.zeros((n, *batch.observation_shape), dtype=np.float32)
    finished = truncated = 0
    for _ in range(150):
        batch.legal_masks(masks)
        batch.observations(obs)
        for i, s in enumerate(states):
            assert np.array_equal(masks[i].astype(bool), s.legal_actions_mask()), i
            assert np.array_equal(obs[i], s.observation_tensor()), i
        assert batch.hashes().tolist() == [s.hash for s in states]
        assert batch.plies().tolist() == [s.ply for s in states]
        assert batch.current_players().tolist() == [s.current_player for s in states]
        assert batch.num_legal().tolist() == [len(s.legal_actions()) for s in states]
        actions = batch.sample_random()
        done, returns = batch.step(actions)
        for i, s in enumerate(states):
            s.apply(int(actions[i]))
            if s.is_terminal():
                assert done[i] == 1
                assert returns[i].tolist() == s.returns()
                finished += 1
                states[i] = plateau.new_game("plateau-x", variant)
            elif s.ply >= 60:
                assert done[i] == 2
                assert returns[i].tolist() == [0.0] * s.num_players
                truncated += 1
                states[i] = plateau.new_game("plateau-x", variant)
            else:
                assert done[i] == 0
    assert finished > 0
    assert batch.games_finished == finished + truncated


def test_observations_into_an_array_of_the_wrong_shape_are_refused() -> None:
    # the other bad output arrays are checked by tests/conformance/test_batch.py
    batch = plateau.StateBatch("plateau-x", "standard", n=8)
    with pytest.raises(ValueError, match="shape"):
        batch.observations(np.zeros((8, 12, 7, 6), dtype=np.float32))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n": 0}, "n must be"),
        ({"n": 2.0}, "n must be"),
        ({"seed": -1}, "seed must be"),
        ({"ply_cap": 0}, "ply_cap must be"),
        ({"first_player": 2}, r"first_player must be an int in \[0, 2\), got 2"),
        ({"variant": "huge"}, "unknown variant"),
    ],
)
def test_bad_batch_arguments(kwargs: dict[str, object], match: str) -> None:
    args: dict[str, object] = {"variant": "mini", "n": 4}
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        plateau.StateBatch("plateau-x", **args)  # type: ignore[arg-type]


def test_reset_restores_the_start() -> None:
    batch = plateau.StateBatch("plateau-x", "double", n=4, seed=2, first_player=1)
    start = batch.hashes().copy()
    assert batch.current_players().tolist() == [1, 1, 1, 1]
    batch.step(batch.sample_random())
    assert not np.array_equal(batch.hashes(), start)
    batch.reset()
    assert np.array_equal(batch.hashes(), start)
    assert start[0] == plateau.new_game("plateau-x", "double", first_player=1).hash


def test_observation_planes_of_a_position() -> None:
    s = plateau.new_game("plateau-x", "mini")
    s.apply_all(["T@c3d3c4", "P@a1", "P@c5", "S@c3"])
    # player 0 to move; player 1 stands on a1 (level 0), player 0 on c5 (level 0)
    obs = s.observation_tensor()
    assert obs.shape == s.observation_shape == (10, 6, 6)
    levels = np.array(s.levels(), dtype=np.float32)
    assert np.array_equal(obs[0], levels)
    assert obs[1].sum() == 1 and obs[1][4][2] == 1  # own piece on c5 (row 4, col 2)
    assert obs[2].sum() == 1 and obs[2][0][0] == 1  # opponent on a1
    assert obs[3].sum() == 1 and obs[3][2][2] == 1  # the single on c3 lies on top
    assert obs[4].sum() == 0  # no double on the board
    assert obs[5].sum() == 0  # the single covers part of the triple: no flush on it possible
    assert obs[6].sum() == 0  # nobody stands on a plateau
    assert np.all(obs[7] == 3 / 4) and np.all(obs[8] == 1 / 4)  # player 0: 3 singles, 1 double
    assert np.all(obs[9] == 36 / 37)


def test_observation_marks_a_triple_lying_fully_on_top() -> None:
    s = plateau.new_game("plateau-x", "mini")
    s.apply("T@c3d3c4")
    obs = s.observation_tensor()
    # player 1 to move: the own-piece plane is player 1's, the next plane player 0's
    assert obs[5].sum() == 3 and obs[5][2][2] == obs[5][2][3] == obs[5][3][2] == 1
    assert obs[3].sum() == 0 and obs[4].sum() == 0
    assert np.all(obs[7] == 3 / 4)  # player 1 still has 3 singles
