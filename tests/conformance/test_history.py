"""Undo, clones and copies: undoing back to the start restores every ply exactly; a clone and
its original are independent both ways (their undo records are shared copy-on-write); any
interleaving of clone, apply and undo leaves each game equal to a replay of its history."""

from __future__ import annotations

import copy
import random

import plateau
from plateau import GameState
from support import Case, replay, snapshot, undo_all, undo_one


def test_undo_back_to_the_start_restores_every_ply(case: Case) -> None:
    s = plateau.new_game(case.game, case.variant)
    seen = [snapshot(s)]
    for a in case.history:
        s.apply(a)
        seen.append(snapshot(s))
    taken_back = []
    for _ in range(len(case.history)):
        taken_back.append(undo_one(s))
        assert snapshot(s) == seen[s.ply], f"after undoing back to ply {s.ply}"
    assert taken_back == list(reversed(case.history))
    assert s.history == [] and s.to_json() == plateau.new_game(case.game, case.variant).to_json()
    # and it plays forward again to the same position
    s.apply_all(list(case.history))
    assert snapshot(s) == seen[-1]


def test_clone_is_equal_and_independent(case: Case) -> None:
    s = case.state()
    before = snapshot(s)
    twin = s.clone()
    assert twin is not s and type(twin) is type(s)
    assert snapshot(twin) == before
    # changing the clone leaves the original unchanged
    if not twin.is_terminal():
        twin.apply(int(twin.legal_actions()[-1]))
    for _ in range(min(twin.ply, 3)):
        undo_one(twin)  # undo goes back past the point where the clone was made
    assert snapshot(s) == before
    assert twin.ply != s.ply or s.ply == 0
    # changing the original leaves the clone unchanged
    twin2 = s.clone()
    if s.ply:
        s.undo()
    else:
        s.apply(int(s.legal_actions()[0]))
    assert snapshot(twin2) == before
    assert snapshot(s) != before


def test_clones_of_listed_positions_play_as_replays(live_case: Case) -> None:
    """A clone of a position whose legal actions were listed keeps the list (a search's
    clone-then-apply looks its action up): it answers and plays exactly as a fresh replay."""
    s = live_case.state()
    unlisted = s.clone()
    legal = s.legal_actions().tolist()
    listed = s.clone()
    assert listed.legal_actions().tolist() == unlisted.legal_actions().tolist() == legal
    rng = random.Random(live_case.seed)
    for a in rng.sample(legal, min(len(legal), 8)):
        child = s.clone()
        child.apply(a)
        fresh = replay(live_case.game, live_case.variant, [*s.history, a])
        assert snapshot(child) == snapshot(fresh)
    for a in (legal[-1] + 1, legal[0] - 1):
        if 0 <= a < s.num_distinct_actions and a not in legal:
            assert not s.clone().is_legal(a)
    # the parent moves on: a clone made before keeps the parent's old list
    s.apply(legal[0])
    assert listed.legal_actions().tolist() == legal
    assert s.clone().legal_actions().tolist() == s.legal_actions().tolist()


def test_clone_of_a_clone_and_dropping_the_parent(case: Case) -> None:
    s = case.state()
    before = snapshot(s)
    child = s.clone().clone()
    del s
    assert snapshot(child) == before
    undo_all(child)
    assert snapshot(child) == snapshot(plateau.new_game(case.game, case.variant))


def test_copy_and_deepcopy(case: Case) -> None:
    s = case.state()
    before = snapshot(s)
    for dup in (copy.copy(s), copy.deepcopy(s)):
        assert dup is not s and snapshot(dup) == before
        if dup.ply:
            dup.undo()
        else:
            dup.apply(int(dup.legal_actions()[0]))
        assert snapshot(s) == before
        assert snapshot(dup) != before
    box = copy.deepcopy({"a": s, "b": s})
    assert box["a"] is box["b"] and box["a"] is not s
    assert snapshot(box["a"]) == before


def light(s: GameState) -> tuple[object, ...]:
    return (
        s.hash,
        s.ply,
        s.current_player,
        s.legal_actions().tolist(),
        s.returns(),
        s.observation_tensor().tobytes(),
    )


def test_interleaved_clones_apply_and_undo_match_replays(game_variant: tuple[str, str]) -> None:
    """Clones share their undo records copy-on-write: any interleaving of clone, apply, undo and
    dropping games leaves every game exactly as a replay of its own history."""
    game, variant = game_variant
    rng = random.Random(f"interleave/{game}/{variant}")
    start = light(plateau.new_game(game, variant))
    games = [plateau.new_game(game, variant)]
    for step in range(6000):
        g = rng.choice(games)
        r = rng.random()
        if r < 0.15 and len(games) < 24:
            games.append(g.clone())
        elif r < 0.3 and g.ply:
            g.undo()
        elif r < 0.35 and len(games) > 1:
            games.remove(g)
        elif not g.is_terminal():
            legal = g.legal_actions()
            g.apply(int(legal[rng.randrange(len(legal))]))
        if step % 100 == 99:
            for x in games:
                assert light(replay(game, variant, x.history)) == light(x)
                y = x.clone()
                undo_all(y)
                assert light(y) == start
    for x in games:
        assert snapshot(replay(game, variant, x.history)) == snapshot(x)


def test_a_clone_and_its_parent_append_independently(live_case: Case) -> None:
    s = live_case.state()
    start = snapshot(s)
    legal = s.legal_actions().tolist()
    a, b = legal[0], legal[-1]
    child = s.clone()
    child.apply(a)
    after_a = snapshot(child)
    s.apply(b)  # the parent writes where the child appended: the records must be copied
    assert snapshot(child) == after_a
    assert (child.history[-1], s.history[-1]) == (a, b)
    assert child.history[:-1] == s.history[:-1] == list(live_case.history)
    assert snapshot(s) == snapshot(replay(live_case.game, live_case.variant, s.history))
    assert undo_one(child) == a and undo_one(s) == b
    assert snapshot(child) == snapshot(s) == start
    del s
    undo_all(child)
    assert snapshot(child) == snapshot(plateau.new_game(live_case.game, live_case.variant))
