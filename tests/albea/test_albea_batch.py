"""``StateBatch`` for Plateau (Albea): every game in the batch plays exactly like a
``AlbeaPlateauState`` given the same actions."""

from __future__ import annotations

import numpy as np
import pytest

import plateau


def test_batch_games_follow_single_states() -> None:
    n = 6
    b = plateau.StateBatch("albea-plateau", n=n, seed=3, ply_cap=120)
    mirrors = [plateau.new_game("albea-plateau") for _ in range(n)]
    finished = {1: 0, 2: 0}
    for _ in range(600):
        ids, counts = b.legal_lists(width=8192)
        masks = b.legal_masks()
        obs = b.observations()
        players, plies, hashes = b.current_players(), b.plies(), b.hashes()
        assert b.num_legal().tolist() == counts.tolist()
        for i, s in enumerate(mirrors):
            legal = s.legal_actions()
            assert counts[i] == len(legal)
            assert ids[i, : counts[i]].tolist() == legal.tolist()
            assert np.all(ids[i, counts[i] :] == -1)
            assert np.array_equal(masks[i].astype(bool), s.legal_actions_mask())
            assert (players[i], plies[i], int(hashes[i])) == (s.current_player, s.ply, s.hash)
            assert np.array_equal(obs[i], s.observation_tensor(s.current_player))
        actions = b.sample_random()
        done, returns = b.step(actions)
        for i, s in enumerate(mirrors):
            s.apply(int(actions[i]))
            if done[i] == 1:
                assert s.is_terminal() and returns[i].tolist() == s.returns()
            elif done[i] == 2:
                assert not s.is_terminal() and s.ply == 120 and returns[i].tolist() == [0, 0]
            else:
                assert not s.is_terminal() and s.ply < 120
            if done[i]:
                finished[int(done[i])] += 1
                mirrors[i] = plateau.new_game("albea-plateau")
    assert finished[1] > 10 and b.games_finished == finished[1] + finished[2]


def test_batch_arguments() -> None:
    with pytest.raises(ValueError, match=r"unknown option\(s\) 'first_player'"):
        plateau.StateBatch("albea-plateau", n=2, first_player=1)
    b = plateau.StateBatch("albea-plateau", n=2)
    assert b.num_distinct_actions == 41188 and b.observation_shape == (276, 4, 4)
    with pytest.raises(ValueError, match="width"):
        b.legal_lists(width=0)
    ids, counts = b.legal_lists(width=10)
    assert counts.tolist() == [1260, 1260] and ids[:, :3].tolist() == [[0, 1, 2], [0, 1, 2]]


def test_plateau_x_batch_lists_agree_with_masks() -> None:
    b = plateau.StateBatch("plateau-x", "mini", n=4, seed=2)
    for _ in range(30):
        ids, counts = b.legal_lists(width=1493)
        masks = b.legal_masks()
        for i in range(4):
            assert ids[i, : counts[i]].tolist() == np.flatnonzero(masks[i]).tolist()
        b.step(b.sample_random())
