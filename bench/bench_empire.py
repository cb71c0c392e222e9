"""Empire Plateau benchmarks (pytest-benchmark): ``pytest bench``.

Move generation (perft, legal actions at the start and at an open midgame position), make and
undo, clones, in-core playouts, the Python-driven loop and the batch. Each benchmark first checks
that what it times is right (node counts from tests/data/empire_perft.json, counted by the
independent reference). Figures and targets: docs/empire-plateau.md, "Speed".
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import plateau

DATA = json.loads(
    (Path(__file__).resolve().parent.parent / "tests" / "data" / "empire_perft.json").read_text()
)


def _position(variant: str, name: str) -> tuple[plateau.GameState, dict[str, int]]:
    for pos in DATA["positions"]:
        if pos["variant"] == variant and pos["board"] == "ep16" and pos["name"].startswith(name):
            state = plateau.new_game("empire-plateau", variant)
            state.apply_all(pos["actions"])
            return state, {k: int(v) for k, v in pos["depth"].items()}
    raise LookupError((variant, name))


@pytest.mark.parametrize(
    ("variant", "name", "depth"),
    [("two", "start", 3), ("duel", "start", 3), ("duel", "turn start", 3), ("four", "late", 3)],
)
def bench_perft(benchmark: Any, variant: str, name: str, depth: int) -> None:
    state, counts = _position(variant, name)
    assert state.perft(depth) == counts[str(depth)]
    assert benchmark(state.perft, depth) == counts[str(depth)]


def bench_legal_actions_open_emblem(benchmark: Any) -> None:
    # the Emblem free in the middle of the board at the start of a turn: 12-step walks
    state, counts = _position("duel", "turn start")
    assert len(state.legal_actions()) == counts["1"]

    def generate() -> int:
        n = 0
        for _ in range(200):
            state.apply(int(state.legal_actions()[0]))
            state.undo()  # invalidates the cached list, so the next call generates again
            n += len(state.legal_actions())
        return n

    assert benchmark(generate) == 200 * counts["1"]


def bench_random_playouts_in_core(benchmark: Any) -> None:
    first = plateau.random_playouts("empire-plateau", n=20, seed=5, ply_cap=None)
    assert first["ended"] == 20
    result = benchmark(plateau.random_playouts, "empire-plateau", None, 20, 5, None)
    assert result["plies"] == first["plies"]


def bench_python_driven_random_game(benchmark: Any) -> None:
    def play() -> int:
        rng = random.Random(7)
        state = plateau.new_game("empire-plateau", "duel")
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(int(legal[rng.randrange(len(legal))]))
        return state.ply

    assert play() == play() > 0
    benchmark(play)


def bench_apply_undo(benchmark: Any) -> None:
    state, _ = _position("two", "late")
    action = int(state.legal_actions()[0])
    before = state.hash

    def cycle() -> None:
        for _ in range(1000):
            state.apply(action)
            state.undo()

    benchmark(cycle)
    assert state.hash == before


def bench_clone_apply(benchmark: Any) -> None:
    state, _ = _position("two", "late")
    action = int(state.legal_actions()[0])
    plies = state.ply

    def cycle() -> None:
        for _ in range(1000):
            state.clone().apply(action)

    benchmark(cycle)
    assert state.ply == plies


def bench_batch_step_random(benchmark: Any) -> None:
    batch = plateau.StateBatch("empire-plateau", n=256, seed=1)
    actions = batch.sample_random()
    assert batch.legal_lists(width=512)[1].min() == 133

    def run() -> int:
        finished = 0
        for _ in range(20):
            batch.sample_random(actions)
            done, _returns = batch.step(actions)
            finished += int((done > 0).sum())
        return finished

    benchmark(run)
    assert batch.plies().max() > 0
