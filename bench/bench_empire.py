"""Empire Plateau benchmarks only Empire has (pytest-benchmark): ``pytest bench``.

Perft in the ``duel`` and ``four`` variants (the registered bench positions, timed for every game
by bench_games.py, are of ``two``) and legal actions at an open midgame position. Each benchmark
first checks that what it times is right (node counts from tests/empire/perft.json, counted
by the independent reference). Figures and targets: docs/empire-plateau.md, "Speed".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

import plateau

DATA = json.loads(
    (Path(__file__).resolve().parent.parent / "tests" / "empire" / "perft.json").read_text()
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
    [("duel", "start", 3), ("duel", "turn start", 3), ("four", "late", 3)],
)
def bench_perft_other_variants(benchmark: Any, variant: str, name: str, depth: int) -> None:
    state, counts = _position(variant, name)
    assert state.perft(depth) == counts[str(depth)]
    assert benchmark(state.perft, depth) == counts[str(depth)]


def bench_legal_actions_open_emblem(benchmark: Any, regenerate: Callable[..., int]) -> None:
    # the Emblem free in the middle of the board at the start of a turn: 12-step walks
    state, counts = _position("duel", "turn start")
    assert len(state.legal_actions()) == counts["1"]
    assert benchmark(regenerate, state, 200) == 200 * counts["1"]
