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

import math
import random
import re
import subprocess
import time
from typing import TYPE_CHECKING

from plateau.bench_spec import Yardstick
from plateau.checks import shown
from plateau.errors import InvalidArgumentError

if TYPE_CHECKING:
    from plateau.state import GameState


#: how long one call of a yardstick program may take (a perft at the bench's depth takes
#: seconds: this only stops one that hangs)
TIMEOUT = 600.0


def _run(path: str, *args: str) -> str:
    """What ``path`` prints when run with ``args``: InvalidArgumentError naming the program if
    it cannot be run, fails, or does not end within ``TIMEOUT``."""
    what = f"--yardstick {shown(path)} {args[0]}"
    try:
        done = subprocess.run(
            [path, *args],
            capture_output=True,
            text=True,
            errors="replace",  # (bytes that are not text are shown, not a UnicodeDecodeError)
            timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        raise InvalidArgumentError(f"{what}: no answer in {TIMEOUT:g} s") from None
    except OSError as e:
        raise InvalidArgumentError(f"{what}: cannot run it: {e.strerror or e}") from None
    if done.returncode != 0:
        raise InvalidArgumentError(
            f"{what}: exit status {done.returncode}: {shown(done.stderr.strip() or done.stdout)}"
        )
    return done.stdout


#: the values of the fields a yardstick program prints: a count, a duration or a rate
_COUNT = re.compile(r"[0-9]{1,18}")  # (below 2**63)
_NUMBER = re.compile(r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _field(path: str, out: str, key: str, count: bool = False) -> float:
    """The value of ``key=V`` in ``out`` (the last, if printed twice): a count or a finite
    number >= 0; InvalidArgumentError naming the program, the field and its output otherwise."""
    values = re.findall(rf"(?<!\w){key}=(\S*)", out)
    if values:
        v = values[-1]
        if count and _COUNT.fullmatch(v):
            return int(v)
        if not count and _NUMBER.fullmatch(v) and math.isfinite(x := float(v)):
            return x
    kind = "a whole number" if count else "a finite number >= 0"
    raise InvalidArgumentError(
        f"--yardstick {shown(path)}: {key}= is not {kind} in its output {shown(out)}"
    )


def _needs(path: str | None) -> str:
    if path is None:  # pragma: no cover - the bench asks available() first
        raise InvalidArgumentError("this yardstick runs the program named by --yardstick PATH")
    return path


def _program_perft(path: str | None, state: GameState, depth: int) -> tuple[int, float]:
    path = _needs(path)
    y = _run(path, "perft", state.variant, str(depth), *state.history_strings())
    return int(_field(path, y, "nodes", count=True)), _field(path, y, "seconds")


def _program_playouts(path: str | None, variant: str, n: int, seed: int) -> float:
    path = _needs(path)
    y = _run(path, "playouts", variant, str(n), str(seed))
    return _field(path, y, "plies_per_s")


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
