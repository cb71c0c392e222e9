"""Benchmarks of every registered game (pytest-benchmark): ``pytest bench``.

Parametrized over ``plateau.games()`` from what each game registers (``GameInfo.bench``, the
positions and counts ``plateau bench`` times, and its variants), through the public API only, so
a new game gets these benchmarks by registering: perft at each bench position, legal-action
generation, apply + undo, clone + apply, a random playout from the midgame position, random
playouts in the core and the Python-driven loop (every variant), ``StateBatch`` stepping on one
and two threads, and for games with hidden information the determinizer. Each benchmark first
checks that what it times is right (the registered perft counts, reproducible seeded games).
What only one game has stays in its own file (bench_empire.py). Ratios against the yardsticks
(the native Plateau X yardstick, OpenSpiel) and the targets: ``plateau bench --game GAME``.
"""

from __future__ import annotations

import random
import threading
from typing import Any, Callable

import numpy as np
import pytest

import plateau
from plateau.bench_spec import BenchPosition, BenchSpec


def _spec(game: str) -> BenchSpec:
    spec = plateau.game_info(game).bench
    assert spec is not None, f"{game} registers no benchmark"
    return spec


def _id(*parts: object) -> str:
    return "-".join(str(p).replace(" ", "_") for p in parts)


#: the games that register bench positions
BENCHED = [g for g in plateau.games() if plateau.game_info(g).bench is not None]
#: every variant of every game
VARIANTS = [pytest.param(g, v, id=_id(g, v)) for g in plateau.games() for v in plateau.variants(g)]
#: perft at each bench position: one ply shallower (``plateau bench --quick``) and its depth
PERFT = [
    pytest.param(g, p.label, depth, id=_id(g, p.label, f"d{depth}"))
    for g in BENCHED
    for p in _spec(g).positions
    for depth in (p.depth - 1, p.depth)
]
BATCHED = [g for g in BENCHED if plateau.game_info(g).batch is not None]
HIDDEN = [g for g in BENCHED if not plateau.game_info(g).perfect_information]
#: the plies one round of in-core playouts plays, about (games = this / a game's mean length)
PLAYOUT_PLIES = 25_000


def _checked(pos: BenchPosition) -> plateau.GameState:
    """The bench position ``pos``, after checking that its legal actions are right: the perft
    of the position each leads to adds up to the registered count."""
    state = pos.build()
    total = 0
    for action in state.legal_actions().tolist():
        state.apply(action)
        total += state.perft(pos.depth - 2)
        state.undo()
    assert total == pos.quick_nodes, (pos.label, total)
    return state


def _midgame(game: str) -> tuple[plateau.GameState, BenchPosition]:
    """The game's midgame bench position, checked."""
    pos = _spec(game).position(_spec(game).midgame)
    return _checked(pos), pos


@pytest.mark.parametrize(("game", "label", "depth"), PERFT)
def bench_perft(benchmark: Any, game: str, label: str, depth: int) -> None:
    pos = _spec(game).position(label)
    state = pos.build()
    counts = {pos.depth - 1: pos.quick_nodes, pos.depth: pos.nodes}
    assert state.perft(pos.depth - 1) == pos.quick_nodes
    assert benchmark(state.perft, depth) == counts[depth]


@pytest.mark.parametrize("game", BENCHED)
def bench_legal_actions(benchmark: Any, game: str, regenerate: Callable[..., int]) -> None:
    state, _ = _midgame(game)
    count = len(state.legal_actions())
    assert benchmark(regenerate, state, 1000) == 1000 * count


@pytest.mark.parametrize("game", BENCHED)
def bench_apply_undo(benchmark: Any, game: str) -> None:
    state, _ = _midgame(game)
    action = int(state.legal_actions()[0])
    before = state.hash

    def cycle() -> None:
        for _ in range(1000):
            state.apply(action)
            state.undo()

    benchmark(cycle)
    assert state.hash == before


@pytest.mark.parametrize("game", BENCHED)
def bench_clone_apply(benchmark: Any, game: str) -> None:
    state, _ = _midgame(game)
    action = int(state.legal_actions()[0])
    before = (state.ply, state.hash)

    def cycle() -> None:
        for _ in range(1000):
            state.clone().apply(action)

    benchmark(cycle)
    assert (state.ply, state.hash) == before


@pytest.mark.parametrize("game", BENCHED)
def bench_random_playout_from_midgame(benchmark: Any, game: str) -> None:
    state, _ = _midgame(game)
    before = state.hash
    assert state.random_playout(3) == state.random_playout(3)
    benchmark(state.random_playout, 3)
    assert state.hash == before


@pytest.mark.parametrize(("game", "variant"), VARIANTS)
def bench_random_playouts_in_core(benchmark: Any, game: str, variant: str) -> None:
    # as many games as make about PLAYOUT_PLIES plies, from a seeded sample: the same on
    # every machine; no ply cap, so every game must end
    sample = plateau.random_playouts(game, variant, 20, seed=5, ply_cap=None)
    n = max(20, round(PLAYOUT_PLIES * 20 / sample["plies"]))
    first = plateau.random_playouts(game, variant, n, seed=5, ply_cap=None)
    assert first == plateau.random_playouts(game, variant, n, seed=5, ply_cap=None)
    assert first["games"] == first["ended"] == n
    bounds = _spec(game).playout_plies if game in BENCHED else None
    if bounds is not None and variant == plateau.game_info(game).default_variant:
        assert bounds[0] <= first["plies"] / n <= bounds[1]
    result = benchmark(plateau.random_playouts, game, variant, n, 5, None)
    assert result == first


@pytest.mark.parametrize(("game", "variant"), VARIANTS)
def bench_python_driven_random_game(benchmark: Any, game: str, variant: str) -> None:
    def play() -> plateau.GameState:
        rng = random.Random(7)
        state = plateau.new_game(game, variant)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(int(legal[rng.randrange(len(legal))]))
        return state

    first = play()
    replay = plateau.new_game(game, variant)
    replay.apply_all(first.history)
    assert first.ply > 0 and replay.hash == first.hash and replay.is_terminal()
    assert play().hash == first.hash
    assert benchmark(play).hash == first.hash


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("game", BATCHED)
def bench_batch_step_random(benchmark: Any, game: str, threads: int) -> None:
    # with legal masks each step where a learner would fill them (BenchSpec.batch_masks)
    masks, n = _spec(game).batch_masks, 256
    state = plateau.new_game(game)
    for pos in _spec(game).positions:
        if pos.build().hash == state.hash:  # a bench position is the start: check its actions
            state = _checked(pos)
    start = np.sort(state.legal_actions())
    batches = [plateau.StateBatch(game, n=n, seed=s) for s in range(1, threads + 1)]
    ids, counts = batches[0].legal_lists(width=len(start))
    assert (counts == len(start)).all() and (ids == start).all()
    if masks:
        assert int(batches[0].legal_masks().sum()) == n * len(start)

    def work(batch: plateau.StateBatch) -> None:
        mask = np.zeros((n, batch.num_distinct_actions), dtype=np.uint8) if masks else None
        actions = np.zeros(n, dtype=np.int64)
        for _ in range(20):
            if mask is not None:
                batch.legal_masks(mask)
            batch.sample_random(actions)
            batch.step(actions)

    def run() -> None:
        workers = [threading.Thread(target=work, args=(b,)) for b in batches]
        for w in workers:
            w.start()
        for w in workers:
            w.join()

    benchmark(run)
    assert all(b.plies().max() > 0 for b in batches)


@pytest.mark.parametrize("game", HIDDEN)
def bench_determinizer_sample(benchmark: Any, game: str) -> None:
    state, _ = _midgame(game)
    det = state.determinizer(state.current_player)
    legal = state.legal_actions().tolist()
    assert det.sample(1).legal_actions().tolist() == legal
    benchmark(det.sample, 1)
