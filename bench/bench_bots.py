"""Bot benchmarks (pytest-benchmark): ``pytest bench/bench_bots.py``.

MCTS iterations per second and search nodes per second on two fixed positions: the mini start
and a standard midgame (ply 24 of the perft test data); and one ``planner`` turn from the start
of Plateau X mini and Empire Plateau. Each benchmark first checks that the
bot returns a legal action (and, for the deterministic searches, the same node count each
time); the rates are in each benchmark's ``extra_info``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import plateau
from plateau.bots import make_bot
from plateau.bots.alphabeta import SearchBot
from plateau.bots.mcts import MCTSBot
from plateau.bots.planner import PlannerBot

DATA = json.loads(
    (Path(__file__).resolve().parent.parent / "tests" / "x" / "perft.json").read_text()
)


def _position(variant: str, plies: int) -> plateau.GameState:
    for pos in DATA["positions"]:
        if pos["variant"] == variant and len(pos["actions"]) == plies:
            state = plateau.new_game("plateau-x", variant)
            state.apply_all(pos["actions"])
            return state
    raise LookupError((variant, plies))


POSITIONS = {"mini-start": ("mini", 0), "standard-ply24": ("standard", 24)}


def _rate(benchmark: Any, work: int, key: str) -> None:
    stats = getattr(benchmark, "stats", None)
    if stats is not None and stats.stats.mean > 0:
        benchmark.extra_info[key] = round(work / stats.stats.mean)


@pytest.mark.parametrize("where", list(POSITIONS))
def bench_mcts_iterations(benchmark: Any, where: str) -> None:
    state = _position(*POSITIONS[where])
    spec = "mcts:iters=1000,reuse=false"

    def run() -> int:
        bot = make_bot(spec, seed=1)
        assert isinstance(bot, MCTSBot)
        action = bot.select_action(state)
        assert bot.iterations == 1000
        return action

    assert state.is_legal(run())
    assert state.is_legal(benchmark(run))
    _rate(benchmark, 1000, "iterations_per_s")


@pytest.mark.parametrize(
    ("spec", "where"),
    [
        ("alphabeta:depth=3", "mini-start"),
        ("paranoid:depth=3", "mini-start"),
        ("paranoid:depth=3", "standard-ply24"),
        ("maxn:depth=2", "mini-start"),
        ("maxn:depth=2", "standard-ply24"),
    ],
)
def bench_search_nodes(benchmark: Any, spec: str, where: str) -> None:
    state = _position(*POSITIONS[where])
    counts = []

    def run() -> int:
        bot = make_bot(spec, seed=1)  # a fresh bot: the same root order, the same search
        assert isinstance(bot, SearchBot)
        action = bot.select_action(state)
        counts.append(bot.nodes)
        return action

    first = run()
    assert state.is_legal(first) and counts[0] > 0
    assert benchmark(run) == first
    assert set(counts) == {counts[0]}
    _rate(benchmark, counts[0], "nodes_per_s")


@pytest.mark.parametrize(("game", "variant"), [("plateau-x", "mini"), ("empire-plateau", "two")])
def bench_planner_turn(benchmark: Any, game: str, variant: str) -> None:
    """One ``planner`` search from the start (a whole Empire turn: a dozen actions)."""
    state = plateau.new_game(game, variant)

    def run() -> int:
        bot = make_bot("planner", seed=1)
        assert isinstance(bot, PlannerBot)
        action = bot.select_action(state)
        assert bot.searches == 1
        return action

    first = run()
    assert state.is_legal(first)
    assert benchmark(run) == first  # seeded: the same choice every time
