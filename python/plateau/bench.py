"""``plateau bench``: speed figures of the engines, as ratios against yardsticks measured in
the same run (the native Plateau X yardstick program, OpenSpiel if installed, and the
engine's own apply/undo), since machines are shared and noisy. ``--game albea-plateau`` measures
the Plateau (Albea) engine instead, and ``--game empire-plateau`` the Empire Plateau engine;
they have no native yardstick: their rows compare with OpenSpiel and apply/undo, or state their
absolute target.

Every timed workload first checks its node or ply counts against known-good numbers.
"""

from __future__ import annotations

import functools
import random
import re
import resource
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from plateau.batch import StateBatch
from plateau.registry import new_game, random_playouts
from plateau.state import GameState


def _moves(text: str) -> list[str]:
    return text.split()


#: (label, variant, actions from the start, depth, leaves at depth - 1, leaves at depth);
#: the same positions and counts as tests/data/x_perft.json (a test keeps them equal)
PERFT_POSITIONS: list[tuple[str, str, list[str], int, int, int]] = [
    ("mini start", "mini", [], 4, 8_244_664, 1_266_430_336),
    ("standard start", "standard", [], 4, 27_464_460, 7_123_071_092),
    (
        "standard ply 10",
        "standard",
        _moves("P@e6 T@d1d2e2 D@d3d4 P@g4 T@a5a6b6 P@d5 P@c5 D@a4b4 T@f5g5f6 T@b1c1c2"),
        4,
        816_060,
        97_823_101,
    ),
    (
        "standard ply 24",
        "standard",
        _moves(
            "P@e6 P@e5 P@b4 P@d7 D@b5c5 T@g2f3g3 S@e3 T@f1g1f2 S@a1 S@b6 S@f2 D@f5g5 "
            "T@a2a3b3 e5-g2 b4-a5 S@g1 T@c3c4d4 D@a6a7 a5-a2 T@b3c3c4 T@c6d6c7 S@b7 D@c3c4 S@b5"
        ),
        5,
        2_303_845,
        104_068_448,
    ),
    (
        "double ply 10",
        "double",
        _moves("T@a6b6b7 P@d4 P@d7 P@e2 P@d1 D@c6c7 d7-c7 T@f2e3f3 T@a1b1a2 S@e5"),
        4,
        1_843_021,
        169_890_651,
    ),
]


@dataclass
class Row:
    """One line of the report: our figure, the yardstick's, their ratio and the target."""

    measure: str
    ours: float
    unit: str
    theirs: float | None = None
    yardstick: str = ""
    target: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def ratio(self) -> float | None:
        return None if not self.theirs else self.ours / self.theirs


class BenchError(RuntimeError):
    """A workload computed a wrong count: nothing it timed can be trusted."""


def _timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = fn()
    return out, max(time.perf_counter() - t0, 1e-9)


def _yardstick(path: str, *args: str) -> dict[str, float]:
    out = subprocess.run(
        [path, *args], capture_output=True, text=True, check=True, timeout=600
    ).stdout
    return {k: float(v) for k, v in re.findall(r"(\w+)=([0-9.eE+-]+)", out)}


def bench_perft(yardstick: str | None, quick: bool) -> list[Row]:
    rows = []
    for label, variant, actions, depth, before, count in PERFT_POSITIONS:
        state = new_game("plateau-x", variant)
        state.apply_all(actions)
        if state.perft(depth - 1) != before:
            raise BenchError(f"perft({depth - 1}) of {label} is wrong")
        if quick:
            depth, count = depth - 1, before
        nodes, secs = _timed(functools.partial(state.perft, depth))
        if nodes != count:
            raise BenchError(f"perft({depth}) of {label}: {nodes}, expected {count}")
        row = Row(f"perft({depth}) {label}, leaves/s", nodes / secs, "leaves/s", target=">= 0.3x")
        if yardstick:
            y = _yardstick(yardstick, "perft", variant, str(depth), *actions)
            if int(y["nodes"]) != count:
                raise BenchError(f"yardstick perft({depth}) of {label}: {y['nodes']}")
            row.theirs, row.yardstick = y["nodes"] / y["seconds"], "native yardstick"
        rows.append(row)
    return rows


def bench_playouts(yardstick: str | None, quick: bool) -> list[Row]:
    n = 20_000 if quick else 200_000
    first = random_playouts("plateau-x", "standard", 200, seed=1)
    if first != random_playouts("plateau-x", "standard", 200, seed=1) or first["ended"] != 200:
        raise BenchError("random playouts are not reproducible")
    result, secs = _timed(lambda: random_playouts("plateau-x", "standard", n, seed=2))
    avg = result["plies"] / n
    if not 40 <= avg <= 60:  # the rules page: a random standard game lasts about 50 plies
        raise BenchError(f"random standard games average {avg:.1f} plies, expected about 50")
    row = Row(
        "random playouts in the core, plies/s", result["plies"] / secs, "plies/s", target=">= 0.5x"
    )
    if yardstick:
        y = _yardstick(yardstick, "playouts", "standard", str(n), "2")
        row.theirs, row.yardstick = y["plies_per_s"], "native yardstick"
    return [row]


def _python_loop(seconds: float, game: str = "plateau-x") -> float:
    rng = random.Random(3)
    steps = 0
    state = new_game(game)
    t0 = time.perf_counter()
    while True:
        for _ in range(1000):
            if state.is_terminal():
                state = new_game(game)
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        steps += 1000
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return steps / dt


def _openspiel_loop(seconds: float) -> float | None:
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("breakthrough")
    rng = random.Random(3)
    steps = 0
    state = game.new_initial_state()
    t0 = time.perf_counter()
    while True:
        for _ in range(1000):
            if state.is_terminal():
                state = game.new_initial_state()
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        steps += 1000
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return float(steps / dt)


def bench_python_driven(quick: bool) -> list[Row]:
    seconds = 0.5 if quick else 3.0
    # correctness first: a Python-driven game is a legal game the reference counts agree with
    state = new_game("plateau-x", "standard")
    if state.perft(2) != 98_308:
        raise BenchError("perft(2) of the standard start is wrong")
    ours = _python_loop(seconds)
    theirs = _openspiel_loop(seconds)
    row = Row(
        "Python loop: legal_actions + random pick + apply, steps/s",
        ours,
        "steps/s",
        target=">= 1.0x",
    )
    if theirs is not None:
        row.theirs, row.yardstick = theirs, "OpenSpiel breakthrough, same loop"
    else:
        row.notes.append("OpenSpiel not installed (pip install 'plateau[bench]')")
    return [row]


def _batch_worker(batch: StateBatch, iterations: int, out: list[int]) -> None:
    n = batch.num_envs
    masks = np.zeros((n, batch.num_distinct_actions), dtype=np.uint8)
    actions = np.zeros(n, dtype=np.int64)
    done = np.zeros(n, dtype=np.uint8)
    returns = np.zeros((n, batch.num_players), dtype=np.float32)
    for _ in range(iterations):
        batch.legal_masks(masks)
        batch.sample_random(actions)
        batch.step(actions, done, returns)
    out.append(n * iterations)


def bench_batch(yardstick_playouts: float | None, quick: bool) -> list[Row]:
    n, iterations = 1024, (50 if quick else 1000)
    check = StateBatch("plateau-x", "standard", n=4, seed=1)
    if int(check.legal_masks().sum()) != 4 * 326:
        raise BenchError("batch masks of the start position are wrong")
    rows = []
    one = StateBatch("plateau-x", "standard", n=n, seed=1)
    done: list[int] = []
    _, secs = _timed(lambda: _batch_worker(one, iterations, done))
    single = done[0] / secs
    rows.append(
        Row(
            "StateBatch step with masks, 1 thread, plies/s",
            single,
            "plies/s",
            theirs=yardstick_playouts,
            target=">= 0.3x",
            yardstick="native yardstick playouts" if yardstick_playouts else "",
        )
    )
    batches = [StateBatch("plateau-x", "standard", n=n, seed=s) for s in (1, 2)]
    done = []
    threads = [threading.Thread(target=_batch_worker, args=(b, iterations, done)) for b in batches]

    def run_two() -> None:
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    _, secs = _timed(run_two)
    rows.append(
        Row(
            "StateBatch step with masks, 2 threads, plies/s",
            sum(done) / secs,
            "plies/s",
            theirs=single,
            yardstick="the 1-thread figure",
            target=">= 1.7x",
        )
    )
    return rows


def _midgame() -> GameState:
    _label, variant, actions, *_ = PERFT_POSITIONS[3]
    state = new_game("plateau-x", variant)
    state.apply_all(actions)
    return state


def bench_clone(quick: bool, state: GameState | None = None) -> list[Row]:
    state = _midgame() if state is None else state
    action = int(state.legal_actions()[0])
    n = 50_000 if quick else 500_000
    before = state.hash

    def apply_undo() -> None:
        for _ in range(n):
            state.apply(action)
            state.undo()

    def clone_apply() -> None:
        for _ in range(n):
            state.clone().apply(action)

    _, t_undo = _timed(apply_undo)
    _, t_clone = _timed(clone_apply)
    if state.hash != before:
        raise BenchError("apply/undo changed the position")
    row = Row(
        f"clone() + apply() at ply {state.ply}, ns",
        t_clone / n * 1e9,
        "ns",
        theirs=t_undo / n * 1e9,
        yardstick="apply() + undo()",
        target="<= 3x",
    )
    return [row]


def bench_memory(quick: bool) -> list[Row]:
    from plateau_core import x as _x

    state = _midgame()
    action = int(state.legal_actions()[0])
    cycles = 1_000_000 if quick else 10_000_000
    for _ in range(10_000):  # warm up allocator pools
        state.clone().apply(action)
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(cycles // 3):
        state.apply(action)
        state.undo()
        state.clone().apply(action)
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss is KiB on Linux
    grown = (rss1 - rss0) * scale / 1024
    row = Row(
        f"peak memory growth over {cycles:,} apply/undo/clone calls, KiB",
        grown,
        "KiB",
        target="flat",
    )
    row.notes.append(
        f"a state is {_x.STATE_NBYTES} bytes without its history "
        f"(+{_x.HISTORY_NBYTES_PER_PLY} bytes per ply of history)"
    )
    return [row]


def _albea_midgame() -> GameState:
    # seed 11, 30 plies of uniformly random play (tests/data/albea_perft.json)
    rng = random.Random(11)
    state = new_game("albea-plateau")
    while state.ply < 30:
        state.apply(rng.choice(state.legal_action_strings()))
    return state


def run_albea(quick: bool = False, say: Callable[[str], None] = lambda _msg: None) -> list[Row]:
    """The Plateau (Albea) engine's rows."""
    rows: list[Row] = []
    say("plateau perft")
    start, mid = new_game("albea-plateau"), _albea_midgame()
    for label, state, depth, nodes in (
        ("start", start, 2 if quick else 3, 1_455_300 if quick else 232_225_980),
        ("ply 30", mid, 2 if quick else 3, 22_736 if quick else 3_829_112),
    ):
        got, dt = _timed(functools.partial(state.perft, depth))
        if got != nodes:
            raise BenchError(f"plateau perft({depth}) of the {label} position: {got} != {nodes}")
        target = ">= 46 M/s (perft(3) of the start in <= 5 s)" if label == "start" else ""
        rows.append(
            Row(f"plateau perft({depth}) {label}, leaves/s", nodes / dt, "leaves/s", target=target)
        )
    say("plateau random playouts")
    n = 1000 if quick else 20_000
    first = random_playouts("albea-plateau", n=200, seed=9)
    if first != random_playouts("albea-plateau", n=200, seed=9) or first["games"] != 200:
        raise BenchError("plateau playouts are not reproducible")
    res, dt = _timed(lambda: random_playouts("albea-plateau", n=n, seed=1))
    rows.append(
        Row(
            "plateau in-core random playouts, plies/s",
            res["plies"] / dt,
            "plies/s",
            target=">= 300,000 plies/s",
        )
    )
    say("plateau batched stepping")
    batch = StateBatch("albea-plateau", n=1024, seed=1)
    acts = batch.sample_random()
    steps = 20 if quick else 200

    def stepping() -> None:
        for _ in range(steps):
            batch.sample_random(acts)
            batch.step(acts)

    _, dt = _timed(stepping)
    rows.append(
        Row(
            "plateau StateBatch random steps, 1 thread, plies/s",
            1024 * steps / dt,
            "plies/s",
            theirs=rows[-1].ours,
            yardstick="in-core random playouts",
        )
    )
    say("plateau Python-driven loop")
    seconds = 0.5 if quick else 3.0
    row = Row(
        "plateau Python loop: legal_actions + random pick + apply, steps/s",
        _python_loop(seconds, "albea-plateau"),
        "steps/s",
        target=">= 300,000 steps/s",
    )
    theirs = _openspiel_loop(seconds)
    if theirs is not None:
        row.theirs, row.yardstick = theirs, "OpenSpiel breakthrough, same loop"
    rows.append(row)
    say("plateau clone")
    rows += bench_clone(quick, _albea_midgame())
    rows[-1].measure = "plateau " + rows[-1].measure
    say("plateau determinization")
    det = mid.determinizer(mid.current_player)
    k = 200 if quick else 5000
    _, dt = _timed(lambda: [det.sample(i) for i in range(k)])
    rows.append(Row(f"plateau determinizer sample at ply {mid.ply}, us", dt / k * 1e6, "us"))
    return rows


def run_empire(quick: bool = False, say: Callable[[str], None] = lambda _msg: None) -> list[Row]:
    """The Empire Plateau engine's rows (targets: docs/empire-plateau.md, "Speed")."""
    rows: list[Row] = []
    say("empire perft")
    for variant, nodes in (("two", 306_547), ("duel", 492_839)):
        state = new_game("empire-plateau", variant)
        got, dt = _timed(functools.partial(state.perft, 3))
        if got != nodes:
            raise BenchError(f"empire perft(3) of the {variant} start: {got} != {nodes}")
        rows.append(
            Row(
                f"empire perft(3) {variant} start ({dt * 1000:.1f} ms), leaves/s",
                nodes / dt,
                "leaves/s",
                target="perft(3) of the two start < 0.1 s" if variant == "two" else "",
            )
        )
    say("empire random playouts")
    first = random_playouts("empire-plateau", n=20, seed=9, ply_cap=None)
    if first != random_playouts("empire-plateau", n=20, seed=9, ply_cap=None):
        raise BenchError("empire playouts are not reproducible")
    n = 20 if quick else 300
    res, dt = _timed(lambda: random_playouts("empire-plateau", n=n, seed=1, ply_cap=None))
    rows.append(
        Row(
            "empire in-core random playouts (whole games), actions/s",
            res["plies"] / dt,
            "actions/s",
            target=">= 200,000 actions/s",
        )
    )
    say("empire batched stepping")
    batch = StateBatch("empire-plateau", n=1024, seed=1)
    acts = batch.sample_random()
    steps = 10 if quick else 100

    def stepping() -> None:
        for _ in range(steps):
            batch.sample_random(acts)
            batch.step(acts)

    _, dt = _timed(stepping)
    rows.append(
        Row(
            "empire StateBatch random steps (games cut at 400 plies), 1 thread, plies/s",
            1024 * steps / dt,
            "plies/s",
        )
    )
    say("empire Python-driven loop")
    rows.append(
        Row(
            "empire Python loop: legal_actions + random pick + apply, steps/s",
            _python_loop(0.5 if quick else 3.0, "empire-plateau"),
            "steps/s",
        )
    )
    say("empire clone")
    mid = new_game("empire-plateau")
    rng = random.Random(11)
    while mid.ply < 60:
        mid.apply(rng.choice(mid.legal_action_strings()))
    rows += bench_clone(quick, mid)
    rows[-1].measure = "empire " + rows[-1].measure
    return rows


def run(
    yardstick: str | None = None,
    quick: bool = False,
    progress: Callable[[str], None] | None = None,
    game: str = "plateau-x",
) -> list[Row]:
    """Run every benchmark of ``game`` and return the report's rows."""
    say = progress or (lambda _msg: None)
    if game == "albea-plateau":
        return run_albea(quick, say)
    if game == "empire-plateau":
        return run_empire(quick, say)
    if game != "plateau-x":
        raise ValueError(f"no benchmarks for game {game!r}")
    rows: list[Row] = []
    say("perft")
    rows += bench_perft(yardstick, quick)
    say("random playouts")
    playouts = bench_playouts(yardstick, quick)
    rows += playouts
    say("Python-driven loop")
    rows += bench_python_driven(quick)
    say("batched stepping")
    rows += bench_batch(playouts[0].theirs, quick)
    say("clone")
    rows += bench_clone(quick)
    say("memory")
    rows += bench_memory(quick)
    return rows


def format_table(rows: list[Row]) -> str:
    """The rows as a Markdown table."""
    lines = [
        "| measure | plateau | yardstick | ratio | target |",
        "|---|---:|---|---:|---|",
    ]
    for r in rows:
        theirs = f"{r.theirs:,.0f} ({r.yardstick})" if r.theirs else "-"
        ratio = f"{r.ratio:.2f}x" if r.ratio is not None else "-"
        note = f" ({'; '.join(r.notes)})" if r.notes else ""
        lines.append(f"| {r.measure}{note} | {r.ours:,.0f} | {theirs} | {ratio} | {r.target} |")
    return "\n".join(lines)
