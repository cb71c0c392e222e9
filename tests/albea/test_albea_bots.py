"""Bots on Plateau (Albea): the heuristic they use, and that each finds an immediate win."""

from __future__ import annotations

import random

import pytest

import plateau
from plateau import AlbeaPlateauState
from plateau.bots import make_bot

VALUE = {"xx": 1, "bb": 4, "rr": 5, "bx": 8, "rx": 10, "ox": 15, "rb": 21}


def slow_values(s: AlbeaPlateauState) -> list[float]:
    """The documented heuristic, from the public board view (independent of the C code)."""
    v = [0.0, 0.0]
    runs = [0, 0]
    for st in s.board():
        run, prev = 0, -1
        for pc in st:
            run = run + 1 if pc["owner"] == prev else 1
            prev = pc["owner"]
            runs[prev] = max(runs[prev], run)
        if st:
            top = st[-1]
            v[top["owner"]] += 2
            colored = top["type"][top["up"]] != "x"
            if colored and any(pc["owner"] != top["owner"] for pc in st):
                v[top["owner"]] += 1
    for p in (0, 1):
        held = s.prisoners(p)
        v[p] += 10 * sum(held.values()) + 0.2 * sum(VALUE[t] * n for t, n in held.items())
        v[p] += 3 * runs[p]
    return v


@pytest.mark.parametrize("seed", range(30))
def test_heuristic_matches_its_definition(seed: int) -> None:
    rng = random.Random(seed)
    s = plateau.new_game("albea-plateau")
    while not s.is_terminal():
        v = slow_values(s)
        for p in (0, 1):
            assert s.heuristic(p) == pytest.approx(v[p] - v[1 - p])
        assert s.heuristic(0) == -s.heuristic(1)
        s.apply(int(rng.choice(s.legal_actions().tolist())))


def winning_capture() -> AlbeaPlateauState:
    # the rules page, worked check 10: White holds five prisoners and can capture a sixth
    return AlbeaPlateauState.from_position(
        {"b1": "Wxx Wrr", "b2": "Bxx", "d4": "Bbb Bxx"},
        to_move=1,
        prisoners=([], ["xx", "xx", "bb", "rr", "rr"]),
    )


@pytest.mark.parametrize(
    "spec",
    ["greedy", "alphabeta:depth=2", "mcts:iters=300", "mcts:iters=1200,determinizations=3"],
)
def test_bots_take_an_immediate_win(spec: str) -> None:
    s = winning_capture()
    bot = make_bot(spec, seed=1)
    a = bot.select_action(s.view_for(1, seed=3))
    s.apply(a)
    assert s.is_terminal() and s.winner == 1, s.action_to_string(a)


def test_mcts_determinizations_search_every_world() -> None:
    rng = random.Random(4)
    s = plateau.new_game("albea-plateau")
    while s.ply < 20:
        s.apply(int(rng.choice(s.legal_actions().tolist())))
    view = s.view_for(s.current_player, seed=1)
    before = (view.hash, view.history, view.position_dict())
    bot = make_bot("mcts:iters=120,determinizations=4", seed=2)
    a = bot.select_action(view)
    assert s.is_legal(a) and bot.iterations == 4 * 30
    assert (view.hash, view.history, view.position_dict()) == before
    with pytest.raises(ValueError):
        make_bot("mcts:determinizations=0")


@pytest.mark.parametrize("seed", range(40))
def test_winning_actions_in_c_agree_with_trying_each_action(seed: int) -> None:
    rng = random.Random(seed)
    s = plateau.new_game("albea-plateau")
    found = 0
    while not s.is_terminal():
        fast = s.winning_actions().tolist()
        assert fast == plateau.GameState.winning_actions(s).tolist()
        found += len(fast)
        s.apply(int(rng.choice(s.legal_actions().tolist())))
    assert found > 0  # random games pass by positions with a winning move


def test_winning_actions_of_the_worked_win() -> None:
    s = winning_capture()
    assert s.legal_action_strings() and s.winning_actions().dtype.name == "int64"
    wins = [s.action_to_string(a) for a in s.winning_actions()]
    assert "b1:1-b2" in wins and "b1:2-b2" in wins
    for text in s.legal_action_strings():
        t = s.clone()
        t.apply(text)
        assert (t.winner == 1) == (text in wins)
