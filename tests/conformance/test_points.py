"""Players who share places split their points, so a game's points always sum the same: over
every ranking, in finished and capped games, in the kernels' playouts and batches, and in
tournaments (where a round is won only by a sole first place). Every game and variant."""

from __future__ import annotations

import random

import numpy as np
import pytest

import plateau
from plateau._adapt import outcomes, rankings
from support import GAME_VARIANTS, gv_id, has_batch, random_history, replay

_BATCH = [gv for gv in GAME_VARIANTS if has_batch(gv[0])]


def _total(game: str, variant: str) -> float:
    return float(sum(plateau.new_game(game, variant).points_by_place()))


def test_every_ranking_splits_shared_places(game_variant: tuple[str, str]) -> None:
    s = plateau.new_game(*game_variant)
    table = s.points_by_place()
    total = sum(table)
    for ranking in rankings(s.num_players):
        got = s.points_for(ranking)
        assert sum(got) == pytest.approx(total), (ranking, got)
        place = 0
        for group in ranking:
            share = sum(table[place : place + len(group)]) / len(group)
            assert [got[p] for p in group] == pytest.approx([share] * len(group)), (ranking, got)
            place += len(group)
    assert outcomes(*game_variant).utility_sum == pytest.approx(total)


def test_all_players_tied_share_the_mean(game_variant: tuple[str, str]) -> None:
    s = plateau.new_game(*game_variant)
    n = s.num_players
    assert s.points_for([list(range(n))]) == pytest.approx([sum(s.points_by_place()) / n] * n)


def test_finished_and_capped_games_sum_the_same(game_variant: tuple[str, str]) -> None:
    game, variant = game_variant
    total = _total(game, variant)
    history = random_history(game, variant, 7)
    done = replay(game, variant, history)
    assert done.is_terminal()
    assert sum(done.returns()) == pytest.approx(total)
    # cut short anywhere: the points of the ranking at that moment, in Python and in the kernel
    rng = random.Random(11)
    for ply in sorted(
        {0, 1, len(history) // 2, len(history) - 1, *rng.sample(range(len(history)), 3)}
    ):
        s = replay(game, variant, history[:ply])
        cut = s.points_for(s.ranking())
        assert sum(cut) == pytest.approx(total), (ply, s.ranking(), cut)
        assert s.random_playout(seed=ply, ply_cap=0) == pytest.approx(cut), ply
        for cap in (1, 5, 40, None):
            got = s.random_playout(seed=ply, ply_cap=cap)
            assert sum(got) == pytest.approx(total), (ply, cap, got)


@pytest.mark.parametrize(("game", "variant"), _BATCH, ids=[gv_id(*gv) for gv in _BATCH])
def test_batch_returns_sum_the_same(game: str, variant: str) -> None:
    total = _total(game, variant)
    for cap in (1, 3, None):
        b = plateau.StateBatch(game, variant, n=32, seed=5, ply_cap=cap)
        finished = truncated = 0
        for _ in range(5000):
            done, returns = b.step(b.sample_random())
            for i in np.flatnonzero(done == 1):
                assert returns[i].sum() == pytest.approx(total), (cap, returns[i])
                finished += 1
            # truncated at the cap (done 2) or running: no reward (a learner bootstraps)
            assert not returns[done != 1].any()
            truncated += int((done == 2).sum())
            if finished >= 8 or (cap is not None and truncated >= 64):
                break
        assert finished >= 8 if cap is None else truncated >= 64, (cap, finished, truncated)


def test_tournament_counts_a_round_won_only_for_a_sole_first(
    game_variant: tuple[str, str],
) -> None:
    game, variant = game_variant
    t = plateau.Tournament(game, variant)
    n = t.num_players
    gained = t.add([list(range(n))])
    assert t.wins == [0] * n
    assert gained == pytest.approx([sum(t.table) / n] * n)
    t.add([[n - 1], list(range(n - 1))])
    assert t.wins == [0] * (n - 1) + [1]
    assert sum(t.points) == pytest.approx(2 * sum(t.table))
