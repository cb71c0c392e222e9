"""Yardsticks for ``plateau bench``: other implementations timed in the same run, which a game
names in its registry entry (``BenchSpec.yardsticks``).

- :func:`program`: a native program outside this repository, named by ``--yardstick PATH``, that
  speaks the yardstick protocol: ``PATH perft VARIANT DEPTH ACTIONS...`` prints
  ``nodes=N seconds=S`` and ``PATH playouts VARIANT N SEED`` prints ``plies_per_s=R`` (the
  ``plateau-x-yardstick`` of Plateau X does).
- :data:`OPENSPIEL_BREAKTHROUGH`: OpenSpiel's C++ ``breakthrough`` driven by the same Python loop
  as the bench's own (legal actions, random pick, apply), when OpenSpiel is installed.
"""

from __future__ import annotations

import random
import re
import subprocess
import time
from typing import TYPE_CHECKING

from plateau.bench_spec import Yardstick
from plateau.errors import InvalidArgumentError

if TYPE_CHECKING:
    from plateau.state import GameState


def _run(path: str, *args: str) -> dict[str, float]:
    out = subprocess.run(
        [path, *args], capture_output=True, text=True, check=True, timeout=600
    ).stdout
    return {k: float(v) for k, v in re.findall(r"(\w+)=([0-9.eE+-]+)", out)}


def _needs(path: str | None) -> str:
    if path is None:  # pragma: no cover - the bench asks available() first
        raise InvalidArgumentError("this yardstick runs the program named by --yardstick PATH")
    return path


def _program_perft(path: str | None, state: GameState, depth: int) -> tuple[int, float]:
    y = _run(_needs(path), "perft", state.variant, str(depth), *state.history_strings())
    return int(y["nodes"]), y["seconds"]


def _program_playouts(path: str | None, variant: str, n: int, seed: int) -> float:
    return _run(_needs(path), "playouts", variant, str(n), str(seed))["plies_per_s"]


def program(name: str = "native yardstick") -> Yardstick:
    """A native program speaking the yardstick protocol, run from ``--yardstick PATH`` (its
    rows have no yardstick figure without it)."""
    return Yardstick(
        name=name,
        available=lambda path: path is not None,
        uses_path=True,
        perft=_program_perft,
        playouts=_program_playouts,
    )


def _has_openspiel(_path: str | None) -> bool:
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
    except ImportError:
        return False
    return True


def _openspiel_loop(seconds: float) -> float:
    import pyspiel  # type: ignore[import-not-found,unused-ignore]

    from plateau.bench import LOOP_PLY_CAP  # (here: plateau.bench's games import this module)

    game = pyspiel.load_game("breakthrough")
    rng = random.Random(3)
    steps = 0
    state = game.new_initial_state()
    left = cap = LOOP_PLY_CAP  # the cap of plateau.bench's loop, its cost paid alike
    t0 = time.perf_counter()
    while True:
        for _ in range(1000):
            if left == 0 or state.is_terminal():
                state = game.new_initial_state()
                left = cap
            left -= 1
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        steps += 1000
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return float(steps / dt)


OPENSPIEL_BREAKTHROUGH = Yardstick(
    name="OpenSpiel breakthrough, same loop",
    available=_has_openspiel,
    missing_note="OpenSpiel not installed (pip install 'plateau[bench]')",
    python_loop=_openspiel_loop,
)
