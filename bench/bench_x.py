"""Plateau X benchmarks (pytest-benchmark): ``pytest bench``.

Each benchmark first checks that what it times is right (node counts from the test data).
Ratios against the native yardstick and OpenSpiel: ``plateau bench`` (see the README).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import plateau

DATA = json.loads(
    (Path(__file__).resolve().parent.parent / "tests" / "data" / "x_perft.json").read_text()
)


def _position(variant: str, min_plies: int) -> tuple[plateau.GameState, dict[str, int]]:
    for pos in DATA["positions"]:
        if pos["variant"] == variant and len(pos["actions"]) >= min_plies:
            state = plateau.new_game("plateau-x", variant)
            state.apply_all(pos["actions"])
            return state, {k: int(v) for k, v in pos["depth"].items()}
    raise LookupError(variant)


@pytest.mark.parametrize(
    ("variant", "plies", "depth"),
    [
        ("standard", 0, 3),
        ("mini", 0, 3),
        ("standard", 10, 3),
        ("double", 20, 3),
    ],
)
def bench_perft(benchmark: Any, variant: str, plies: int, depth: int) -> None:
    state, counts = _position(variant, plies)
    assert state.perft(depth) == counts[str(depth)]
    assert benchmark(state.perft, depth) == counts[str(depth)]


def bench_random_playouts_in_core(benchmark: Any) -> None:
    first = plateau.random_playouts("plateau-x", "standard", 500, seed=5)
    assert first == plateau.random_playouts("plateau-x", "standard", 500, seed=5)
    result = benchmark(plateau.random_playouts, "plateau-x", "standard", 500, 5)
    assert result["plies"] == first["plies"]


def bench_python_driven_random_game(benchmark: Any) -> None:
    def play() -> int:
        rng = random.Random(7)
        state = plateau.new_game("plateau-x", "standard")
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(int(legal[rng.randrange(len(legal))]))
        return state.ply

    assert play() == play() > 0
    benchmark(play)


def bench_apply_undo(benchmark: Any) -> None:
    state, _ = _position("standard", 10)
    action = int(state.legal_actions()[0])
    before = state.hash

    def cycle() -> None:
        for _ in range(1000):
            state.apply(action)
            state.undo()

    benchmark(cycle)
    assert state.hash == before


def bench_clone_apply(benchmark: Any) -> None:
    state, _ = _position("standard", 10)
    action = int(state.legal_actions()[0])

    def cycle() -> None:
        for _ in range(1000):
            state.clone().apply(action)

    benchmark(cycle)
    assert state.ply == 10


def bench_legal_actions(benchmark: Any) -> None:
    state, counts = _position("standard", 10)
    assert len(state.legal_actions()) == counts["1"]
    benchmark(state.legal_actions)


@pytest.mark.parametrize("threads", [1, 2])
def bench_batch_step_with_masks(benchmark: Any, threads: int) -> None:
    import threading

    import numpy as np

    n = 256
    batches = [plateau.StateBatch("plateau-x", "standard", n=n, seed=s) for s in range(threads)]
    assert int(batches[0].legal_masks().sum()) == n * 326  # the start position: 326 each

    def work(batch: plateau.StateBatch) -> None:
        masks = np.zeros((n, batch.num_distinct_actions), dtype=np.uint8)
        actions = np.zeros(n, dtype=np.int64)
        for _ in range(20):
            batch.legal_masks(masks)
            batch.sample_random(actions)
            batch.step(actions)

    def run() -> None:
        workers = [threading.Thread(target=work, args=(b,)) for b in batches]
        for w in workers:
            w.start()
        for w in workers:
            w.join()

    benchmark(run)
