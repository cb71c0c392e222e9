"""Information-set MCTS (``ismcts``): its tree is over what the mover knows, so its choice
cannot depend on what it cannot see; the tree's counts add up; opponent edges group the
actions the mover cannot tell apart."""

from __future__ import annotations

import random

import pytest

import plateau
from plateau.bots import make_bot
from plateau.bots.ismcts import InfoNode, ISMCTSBot


def albea_position(seed: int, plies: int = 6) -> plateau.GameState:
    rng = random.Random(seed)
    s = plateau.new_game("albea-plateau")
    while s.ply < plies:
        s.apply(rng.choice(s.legal_actions().tolist()))
    assert not s.is_terminal()
    return s


def bot(spec: str = "ismcts:iters=400", seed: int = 1) -> ISMCTSBot:
    b = make_bot(spec, seed=seed)
    assert isinstance(b, ISMCTSBot)
    return b


@pytest.mark.parametrize("seed", range(4))
def test_the_choice_depends_only_on_what_the_mover_sees(seed: int) -> None:
    s = albea_position(seed)
    me = s.current_player
    # the truth and two different guesses at the hidden faces: one view, one choice
    worlds = [s, s.view_for(me, seed=11), s.view_for(me, seed=12)]
    hidden = {str(w) for w in worlds}
    assert len(hidden) > 1  # the worlds differ in what the mover cannot see
    chosen = {bot(seed=seed).select_action(w) for w in worlds}
    assert len(chosen) == 1


def _check(node: InfoNode, players: int) -> int:
    """The counts of a subtree add up; returns its number of nodes."""
    below = sum(ch.visits for ch in node.children.values())
    # each visit either stopped here (the visit that made the node, or a finished game) or
    # went on to one child; the root's every visit goes on
    if node.player == -1:
        assert node.visits == below
    else:
        assert node.visits >= below + 1
    for ch in node.children.values():
        assert ch.visits >= 1 and ch.avail >= ch.visits
        assert len(ch.sums) == players
    return 1 + sum(_check(ch, players) for ch in node.children.values())


def test_tree_counts_and_opponent_edges() -> None:
    s = albea_position(3)
    me = s.current_player
    b = bot("ismcts:iters=1500")
    b.select_action(s)
    root = b.root
    assert root is not None and root.visits == b.iterations == 1500
    assert sum(ch.visits for ch in root.children.values()) == 1500
    assert _check(root, 2) > 100
    # the mover's own edges are action ids; the opponent's are texts as the mover sees them
    legal = set(s.legal_actions().tolist())
    assert set(root.children) <= legal
    replies = {k for ch in root.children.values() for k in ch.children}
    assert replies and all(isinstance(k, str) for k in replies)
    assert any("?" in k for k in replies)  # redacted faces: several actions, one edge
    world = s.clone()
    top = max(root.children.values(), key=lambda ch: ch.visits)
    world.apply(int(top.key))
    seen = {world.action_as_seen(a, me) for a in world.legal_actions().tolist()}
    assert set(top.children) <= seen
    assert len(seen) < world.num_legal_actions()


def test_perfect_information_is_plain_uct_on_ids() -> None:
    s = plateau.new_game("plateau-x", "mini")
    b = bot("ismcts:iters=600")
    before = (s.hash, s.history)
    action = b.select_action(s)
    assert (s.hash, s.history) == before and s.is_legal(action)
    assert b.root is not None
    keys = {k for ch in b.root.children.values() for k in ch.children}
    assert keys and all(isinstance(k, int) for k in keys)
    assert _check(b.root, 2) > 50


def test_seeds_budgets_and_info() -> None:
    s = albea_position(5)
    assert bot(seed=3).select_action(s) == bot(seed=3).select_action(s)
    timed = bot("ismcts:seconds=0.05,iters=1")
    timed.select_action(s)
    assert timed.iterations > 1
    info = timed.search_info()
    assert info["nodes"] == timed.iterations and 0.0 <= info["score"] <= 1.0
    done = s.clone()
    while not done.is_terminal():
        done.apply(int(done.legal_actions()[0]))
    with pytest.raises(ValueError, match="game is over"):
        bot().select_action(done)
