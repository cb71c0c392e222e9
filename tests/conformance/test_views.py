"""Views: what a bot playing a player is handed (``view_for``). With perfect information that
is a clone; with hidden information a determinization: a state consistent with the player's
view, without history, in which the player to move has exactly their real legal actions."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import plateau
from plateau import GameState
from support import Case, perfect, snapshot


def assert_is_a_determinization(view: GameState, s: GameState, player: int) -> None:
    assert type(view) is type(s) and view is not s
    assert view.is_determinization
    assert view.history == []
    assert (view.game, view.variant, view.options) == (s.game, s.variant, s.options)
    assert (view.num_players, view.ply) == (s.num_players, s.ply)
    assert view.current_player == s.current_player
    assert view.is_terminal() == s.is_terminal()
    if s.current_player == player:
        assert view.legal_actions().tolist() == s.legal_actions().tolist()
        assert view.legal_action_strings() == s.legal_action_strings()
    # what the player observes is the same in the world they are handed
    assert np.array_equal(view.observation_tensor(player), s.observation_tensor(player))
    seen, real = view.observation(player), s.observation(player)
    assert {k: v for k, v in seen.items() if k != "history"} == {
        k: v for k, v in real.items() if k != "history"
    }


def test_views_of_hidden_information(hidden_case: Case) -> None:
    s = hidden_case.state()
    before = snapshot(s)
    for p in range(s.num_players):
        view = s.view_for(p, seed=hidden_case.seed + p)
        assert_is_a_determinization(view, s, p)
        assert snapshot(s.view_for(p, seed=hidden_case.seed + p)) == snapshot(view)
        # the sampler behind it: the same worlds from the same seeds
        assert snapshot(s.resample_hidden(p, hidden_case.seed + p)) == snapshot(view)
        sampler = s.determinizer(p)
        for k in range(3):
            world = sampler.sample(k)
            assert_is_a_determinization(world, s, p)
            assert snapshot(sampler.sample(k)) == snapshot(world)
        # a view has no record and nothing to undo, but it plays on (bots search it)
        with pytest.raises(ValueError, match="determinization"):
            view.to_json()
        with pytest.raises(IndexError, match="determinization"):
            view.undo()
        for dup in (view.clone(), copy.deepcopy(view)):
            assert dup.is_determinization and snapshot(dup) == snapshot(view)
        if not view.is_terminal():
            twin = view.clone()
            a = int(twin.legal_actions()[0])
            twin.apply(a)
            assert twin.history == [a] and twin.is_determinization
            twin.undo()
            assert snapshot(twin) == snapshot(view)
            assert view.perft(1) == view.num_legal_actions()
            assert len(view.random_playout(1)) == s.num_players
    assert snapshot(s) == before


def test_views_with_perfect_information_are_clones(perfect_case: Case) -> None:
    s = perfect_case.state()
    before = snapshot(s)
    for p in range(s.num_players):
        view = s.view_for(p, seed=perfect_case.seed + p)
        assert view is not s and not view.is_determinization
        assert view == s and snapshot(view) == before
        for world in (s.resample_hidden(p, 5), s.determinizer(p).sample(5)):
            assert world is not s and world == s and snapshot(world) == before
        if view.ply:
            view.undo()  # independent of the original
        assert snapshot(s) == before


def test_actions_as_seen_are_what_history_strings_will_show(live_case: Case) -> None:
    s = live_case.state()
    before = snapshot(s)
    mover = s.current_player
    legal = s.legal_actions().tolist()
    for viewer in range(s.num_players):
        seen = [s.action_as_seen(a, viewer) for a in legal]
        if viewer == mover or perfect(live_case.game):
            assert seen == [s.action_to_string(a) for a in legal]
        for a, text in list(zip(legal, seen))[:: max(1, len(legal) // 7)]:
            after = s.clone()
            after.apply(a)
            assert after.history_strings(viewer)[-1] == text
    assert snapshot(s) == before
    with pytest.raises(ValueError, match="viewer"):
        s.action_as_seen(legal[0], s.num_players)
    illegal = next(a for a in range(s.num_distinct_actions) if a not in set(legal))
    with pytest.raises(plateau.IllegalActionError):
        s.action_as_seen(illegal, 0)


def test_hidden_actions_as_seen_hide_something(hidden_case: Case) -> None:
    # over a whole game, some action of the opponent reads differently to the other player
    # (otherwise information-set search would have nothing to group)
    s = plateau.new_game(hidden_case.game, hidden_case.variant)
    redacted = 0
    rng = np.random.default_rng(hidden_case.seed)
    while not s.is_terminal() and s.ply < 40:
        legal = s.legal_actions().tolist()
        other = (s.current_player + 1) % s.num_players
        redacted += sum(s.action_as_seen(a, other) != s.action_to_string(a) for a in legal)
        s.apply(legal[int(rng.integers(len(legal)))])
    assert redacted > 0
