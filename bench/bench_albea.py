"""Plateau (Albea) benchmarks (pytest-benchmark): ``pytest bench``.

Move generation (perft, legal_actions), make/unmake, in-core playouts, the Python-driven loop
and determinization. Each benchmark first checks that what it times is right (node counts
from tests/data/albea_perft.json). Figures with targets: ``plateau bench --game albea-plateau``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import plateau

DATA = json.loads(
    (Path(__file__).resolve().parent.parent / "tests" / "data" / "albea_perft.json").read_text()
)


def _position(min_plies: int) -> tuple[plateau.GameState, dict[str, int]]:
    for pos in DATA["positions"]:
        if len(pos["actions"]) >= min_plies:
            state = plateau.new_game("albea-plateau")
            state.apply_all(pos["actions"])
            return state, {k: int(v) for k, v in pos["depth"].items()}
    raise LookupError(min_plies)


@pytest.mark.parametrize(("plies", "depth"), [(0, 2), (0, 3), (30, 3), (30, 4)])
def bench_perft(benchmark: Any, plies: int, depth: int) -> None:
    state, counts = _position(plies)
    assert state.perft(depth) == counts[str(depth)]
    assert benchmark(state.perft, depth) == counts[str(depth)]


def bench_legal_actions_midgame(benchmark: Any) -> None:
    state, counts = _position(30)
    assert len(state.legal_actions()) == counts["1"]

    def generate() -> int:
        n = 0
        for _ in range(1000):
            state.apply(int(state.legal_actions()[0]))
            state.undo()  # invalidates the cached list, so the next call generates again
            n += len(state.legal_actions())
        return n

    assert benchmark(generate) == 1000 * counts["1"]


def bench_random_playouts_in_core(benchmark: Any) -> None:
    first = plateau.random_playouts("albea-plateau", n=500, seed=5)
    assert first == plateau.random_playouts("albea-plateau", n=500, seed=5)
    result = benchmark(plateau.random_playouts, "albea-plateau", None, 500, 5)
    assert result["plies"] == first["plies"]


def bench_random_playout_from_midgame(benchmark: Any) -> None:
    state, _ = _position(30)
    before = state.hash
    assert state.random_playout(3) == state.random_playout(3)
    benchmark(state.random_playout, 3)
    assert state.hash == before


def bench_python_driven_random_game(benchmark: Any) -> None:
    def play() -> int:
        rng = random.Random(7)
        state = plateau.new_game("albea-plateau")
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(int(legal[rng.randrange(len(legal))]))
        return state.ply

    assert play() == play() > 0
    benchmark(play)


def bench_apply_undo(benchmark: Any) -> None:
    state, _ = _position(30)
    action = int(state.legal_actions()[0])
    before = state.hash

    def cycle() -> None:
        for _ in range(1000):
            state.apply(action)
            state.undo()

    benchmark(cycle)
    assert state.hash == before


def bench_clone_apply(benchmark: Any) -> None:
    state, _ = _position(30)
    action = int(state.legal_actions()[0])

    def cycle() -> None:
        for _ in range(1000):
            state.clone().apply(action)

    benchmark(cycle)
    assert len(state.history) == 30


def bench_determinizer_sample(benchmark: Any) -> None:
    state, _ = _position(30)
    det = state.determinizer(state.current_player)
    legal = state.legal_actions().tolist()
    assert det.sample(1).legal_actions().tolist() == legal
    benchmark(det.sample, 1)


def bench_batch_step_random(benchmark: Any) -> None:
    batch = plateau.StateBatch("albea-plateau", n=256, seed=1)
    actions = batch.sample_random()
    assert batch.legal_lists(width=8192)[1].min() == 1260

    def run() -> int:
        finished = 0
        for _ in range(20):
            batch.sample_random(actions)
            done, _returns = batch.step(actions)
            finished += int((done > 0).sum())
        return finished

    benchmark(run)
    assert batch.plies().max() > 0
