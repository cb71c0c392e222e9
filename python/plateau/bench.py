"""``plateau bench``: speed figures of a game's engine, measured the same way for every game in
the registry, from what its entry declares (``GameInfo.bench``, a :class:`~plateau.registry.
BenchSpec`).

The workloads: perft at the game's positions, legal-action generation, apply + undo and clone +
apply at its midgame position, random playouts in the compiled core, ``StateBatch`` stepping on
one and two threads (for games with a batch engine), the Python loop (legal actions, random
pick, apply), memory growth over many apply/undo/clone calls, and for games with hidden
information the determinizer. Machines are shared and noisy, so figures are compared with
yardsticks timed in the same run: the engine's own figures (apply + undo for clones, in-core
playouts for batches, one thread for two) and the yardsticks the game declares (another
implementation of the same rules, OpenSpiel's Python loop, ...), which fill the yardstick
column where they can run.

Every timed workload first checks its node or ply counts against known-good numbers: a wrong
count raises :class:`BenchError` instead of timing it.
"""

from __future__ import annotations

import functools
import math
import os
import random
import re
import resource
import sys
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from plateau.batch import StateBatch
from plateau.bench_spec import BenchSpec, Yardstick
from plateau.checks import check_int
from plateau.errors import InvalidArgumentError
from plateau.registry import (
    GameInfo,
    GameSpec,
    game_info,
    new_game,
    random_playouts,
    resolve,
    spec_of,
)
from plateau.state import GameState

#: targets every game shares (a game's BenchSpec.targets adds and overrides)
DEFAULT_TARGETS = {
    "batch-1": ">= 0.7x",
    "batch-2": ">= 1.8x",
    "clone": "<= 3x",
    "memory": "flat",
}


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
    #: the workload, for targets: ``perft``, ``legal``, ``apply-undo``, ``clone``, ...
    workload: str = ""
    #: the threads the workload runs on (a busy machine slows a 2-thread row first)
    threads: int = 1
    #: how many cores other processes used, on average, while the row's workload ran (None:
    #: not known, off Linux)
    others: float | None = None

    @property
    def ratio(self) -> float | None:
        return None if not self.theirs else self.ours / self.theirs

    @property
    def busy(self) -> bool:
        """Other processes took cores the workload needed: its figure may be low."""
        cores = os.cpu_count() or 1
        return self.others is not None and self.others > cores - self.threads + 0.1

    @property
    def verdict(self) -> str:
        """``met``, ``missed`` (``missed (busy)`` on a busy machine), ``no yardstick`` (a
        ratio target with nothing to divide by), ``not judged`` (a target in words), or ``""``
        without a target."""
        if not self.target:
            return ""
        met = meets(self.target, self.ours, self.ratio)
        if met is None:
            m = _TARGET.match(self.target)
            return "no yardstick" if m is not None and m.group(4) == "x" else "not judged"
        if met:
            return "met"
        return "missed (busy)" if self.busy else "missed"


_TARGET = re.compile(r"^\s*(>=|<=)\s*([0-9][0-9,]*(?:\.[0-9]+)?)\s*(M|k)?\s*(x|\S*/s\b)?")


def meets(target: str, ours: float, ratio: float | None) -> bool | None:
    """Whether a figure meets its target: ``">= 0.5x"`` and ``"<= 3x"`` compare the ratio,
    ``">= 300,000 plies/s"`` and ``">= 46 M/s"`` the figure itself, ``"flat"`` (memory) is
    growth under 1 MiB; None when it cannot be judged (no target, or a ratio target with no
    ratio).

    >>> meets(">= 0.5x", 10.0, 0.52), meets("<= 3x", 10.0, 3.2), meets(">= 46 M/s", 5e7, None)
    (True, False, True)
    >>> meets(">= 1.0x", 10.0, None) is None, meets("flat", 0.0, None)
    (True, True)
    """
    if target == "flat":
        return ours < 1024.0
    m = _TARGET.match(target)
    if m is None:
        return None
    op, number, scale, unit = m.groups()
    value = float(number.replace(",", "")) * {"M": 1e6, "k": 1e3, None: 1.0}[scale]
    if unit == "x":
        if ratio is None:
            return None
        figure = ratio
    else:
        figure = ours
    return figure >= value if op == ">=" else figure <= value


class _Load:
    """What other processes used of the machine while a workload ran, from ``/proc/stat`` (the
    busy time of every core) less this process's own time and its children's."""

    def __init__(self) -> None:
        self.start = self._sample()

    @staticmethod
    def _sample() -> tuple[float, float, float] | None:
        try:
            with open("/proc/stat", encoding="ascii") as f:
                fields = [float(x) for x in f.readline().split()[1:]]
        except (OSError, ValueError):
            return None
        tick = float(os.sysconf("SC_CLK_TCK"))
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0.0)  # idle and iowait
        total = sum(fields[:8])  # guest time (fields 8 and 9) is counted in user time already
        t = os.times()
        own = t.user + t.system + t.children_user + t.children_system
        return (total - idle) / tick, own, time.monotonic()

    def others(self) -> float | None:
        """Cores used by other processes on average since this was made (None under half a
        second: the counters tick every 10 ms or so, too coarse for less)."""
        end = self._sample()
        if self.start is None or end is None or end[2] - self.start[2] < 0.5:
            return None
        busy, own = end[0] - self.start[0], end[1] - self.start[1]
        return max(0.0, (busy - own) / (end[2] - self.start[2]))


class BenchError(RuntimeError):
    """A workload computed a wrong count: nothing it timed can be trusted."""


@dataclass
class _Yardsticks:
    """The game's yardsticks, split by whether they can run here."""

    path: str | None
    ready: list[Yardstick]
    missing: list[Yardstick]

    @classmethod
    def of(cls, spec: BenchSpec, path: str | None) -> _Yardsticks:
        ready = [y for y in spec.yardsticks if y.available(path)]
        return cls(path, ready, [y for y in spec.yardsticks if y not in ready])

    def first(self, workload: str) -> Yardstick | None:
        """The first yardstick that can run and measures ``workload``."""
        return next((y for y in self.ready if getattr(y, workload) is not None), None)

    def note(self, row: Row, workload: str) -> None:
        """Say on ``row`` which yardsticks of its workload could not run (and why)."""
        for y in self.missing:
            if getattr(y, workload) is not None and y.missing_note:
                row.notes.append(y.missing_note)


def _rounds(quick: bool) -> int:
    """How many times a row compared with another is timed, the two in turn (the best of each
    is kept: on a shared machine interference only ever slows a run down)."""
    return 1 if quick else 3


def _timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = fn()
    return out, max(time.perf_counter() - t0, 1e-9)


def _spec(info: GameInfo) -> BenchSpec:
    if info.bench is None:
        raise InvalidArgumentError(f"{info.name!r} registers no benchmark (GameInfo.bench)")
    return info.bench


# -- perft --------------------------------------------------------------------------------------


def bench_perft(spec: BenchSpec, quick: bool, sticks: _Yardsticks | None = None) -> list[Row]:
    """Perft at each position: its depth (``quick``: one less), after checking the count one
    ply shallower; a yardstick that measures perft must count the same leaves."""
    sticks = sticks or _Yardsticks(None, [], [])
    rows = []
    for pos in spec.positions:
        state = pos.build()
        if not quick and (got := state.perft(pos.depth - 1)) != pos.quick_nodes:
            raise BenchError(
                f"perft({pos.depth - 1}) of {pos.label}: {got}, expected {pos.quick_nodes}"
            )
        depth, count = (pos.depth - 1, pos.quick_nodes) if quick else (pos.depth, pos.nodes)
        y = sticks.first("perft")
        best = their_best = math.inf
        for _ in range(_rounds(quick)):  # ours and the yardstick's in turn, the best of each
            # (a count shorter than a fifth of a second is repeated: the first few milliseconds
            # of a run on these machines are not yet at full speed)
            calls, secs = 0, 0.0
            while secs < (0.02 if quick else 0.2):
                nodes, took = _timed(functools.partial(state.perft, depth))
                if nodes != count:
                    raise BenchError(f"perft({depth}) of {pos.label}: {nodes}, expected {count}")
                calls, secs = calls + 1, secs + took
            best = min(best, secs / calls)
            if y is not None and y.perft is not None:
                theirs, their_secs = y.perft(sticks.path, state, depth)
                if theirs != count:  # (the program the user named: not a bug of ours)
                    raise InvalidArgumentError(
                        f"{y.name}: perft({depth}) of {pos.label}: {theirs}, not {count}: "
                        "it does not count the leaves of these rules"
                    )
                their_best = min(their_best, max(their_secs, 1e-9))
        row = Row(f"perft({depth}) {pos.label}, leaves/s", count / best, "leaves/s")
        row.workload = f"perft {pos.label}"
        if y is not None and their_best < math.inf:
            row.theirs, row.yardstick = count / their_best, y.name
        sticks.note(row, "perft")
        rows.append(row)
    return rows


# -- moves at the midgame position -------------------------------------------------------------


def bench_moves(spec: BenchSpec, quick: bool, state: GameState | None = None) -> list[Row]:
    """At the midgame position: apply + undo of one action; the same with ``legal_actions()``
    in between (the undo clears the cached list, so each call generates it afresh); clone +
    apply."""
    pos = spec.position(spec.midgame)
    state = pos.build() if state is None else state
    action = int(state.legal_actions()[0])
    count = state.num_legal_actions()
    n = 50_000 if quick else 500_000
    before = state.hash

    def apply_undo() -> None:
        for _ in range(n):
            state.apply(action)
            state.undo()

    def apply_generate_undo() -> int:
        total = 0
        for _ in range(n):
            state.apply(action)
            state.undo()
            total += len(state.legal_actions())
        return total

    def clone_apply() -> None:
        for _ in range(n):
            state.clone().apply(action)

    t_undo = t_gen = t_clone = math.inf
    for _ in range(_rounds(quick)):  # the three in turn, the best of each
        t_undo = min(t_undo, _timed(apply_undo)[1])
        generated, secs = _timed(apply_generate_undo)
        t_gen = min(t_gen, secs)
        t_clone = min(t_clone, _timed(clone_apply)[1])
        if state.hash != before or generated != n * count:
            raise BenchError(f"apply/undo changed the position {pos.label} or its legal actions")
    at = f"at {pos.label} ({count} legal actions)"
    undo_ns = t_undo / n * 1e9
    return [
        Row(f"apply() + undo() {at}, ns", undo_ns, "ns", workload="apply-undo"),
        Row(
            f"apply() + undo() + legal_actions() {at}, ns",
            t_gen / n * 1e9,
            "ns",
            theirs=undo_ns,
            yardstick="apply() + undo()",
            workload="legal",
        ),
        Row(
            f"clone() + apply() {at}, ns",
            t_clone / n * 1e9,
            "ns",
            theirs=undo_ns,
            yardstick="apply() + undo()",
            workload="clone",
        ),
    ]


# -- random playouts in the core ----------------------------------------------------------------


def bench_playouts(
    info: GameInfo, quick: bool, sticks: _Yardsticks | None = None, game: GameSpec | None = None
) -> Row:
    """Random games of ``game`` (None: the default variant and options) in the core:
    reproducible per seed, of a plausible length (checked for the default game only), then
    timed for about a second (``quick``: a tenth)."""
    sticks = sticks or _Yardsticks(None, [], [])
    spec, g = _spec(info), game or resolve(info.name)
    default = g == resolve(info.name)
    if not default:  # the yardsticks play the default game
        sticks = _Yardsticks(None, [], [])
    variant = g.variant
    first, secs = _timed(lambda: random_playouts(g, None, 200, seed=1))
    if first != random_playouts(g, None, 200, seed=1) or first["games"] != 200:
        raise BenchError("random playouts are not reproducible")
    n = int(min(max(200 * (0.1 if quick else 1.0) / secs, 200), 10_000_000))
    y = sticks.first("playouts")
    best = theirs = 0.0
    for _ in range(_rounds(quick)):  # ours and the yardstick's in turn, the best of each
        result, secs = _timed(lambda: random_playouts(g, None, n, seed=2))
        best = max(best, result["plies"] / secs)
        if y is not None and y.playouts is not None:
            theirs = max(theirs, y.playouts(sticks.path, variant, n, 2))
    for r, games in ((first, 200), (result, n)):
        mean = r["plies"] / games
        low, high = (spec.playout_plies if default else None) or (0, float("inf"))
        if r["games"] != games or not low <= mean <= high:
            raise BenchError(
                f"{r['games']} random games average {mean:.1f} plies, expected {games} games "
                f"of {low}..{high} plies"
            )
    row = Row("random playouts in the core, plies/s", best, "plies/s", workload="playouts")
    if y is not None and theirs:
        row.theirs, row.yardstick = theirs, y.name
    sticks.note(row, "playouts")
    return row


# -- StateBatch ------------------------------------------------------------------------------------


def _batch_worker(batch: StateBatch, iterations: int, masks: bool, out: list[int]) -> None:
    n = batch.num_envs
    mask = np.zeros((n, batch.num_distinct_actions), dtype=np.uint8) if masks else None
    actions = np.zeros(n, dtype=np.int64)
    done = np.zeros(n, dtype=np.uint8)
    returns = np.zeros((n, batch.num_players), dtype=np.float32)
    for _ in range(iterations):
        if mask is not None:
            batch.legal_masks(mask)
        batch.sample_random(actions)
        batch.step(actions, done, returns)
    out.append(n * iterations)


def bench_batch(
    info: GameInfo, quick: bool, playouts: Row, game: GameSpec | None = None
) -> list[Row]:
    """1,024 games of ``game`` (None: the default variant and options) stepped at random on
    one thread, compared with the playouts (the yardstick's if it ran, else the core's), then
    two batches on two threads, compared with one; and where the game says a learner would
    fill legal masks each step (``BenchSpec.batch_masks``), one thread with them. Each figure
    is the best of the rounds (one with ``quick``) of about a second each (0.1 s quick), the
    steps of a round counted on the batch itself: a few steps of a batch of a few games time
    the calls, not the games, and a window of some milliseconds times starting the threads."""
    spec, g, n = _spec(info), game or resolve(info.name), 1024
    start = g.new_game().num_legal_actions()
    check = StateBatch(g, n=4, seed=1)
    if int(check.legal_masks().sum()) != 4 * start:
        raise BenchError(f"batch masks of the start position are not {start} legal actions")
    seconds = 0.1 if quick else 1.0

    def steps_for(batch: StateBatch, masks: bool) -> int:
        """Steps of ``batch`` for a round of about ``seconds`` (timed on the batch itself,
        after a warm-up that spreads its games away from the opening)."""
        _batch_worker(batch, 10, masks, [])
        calibrate: list[int] = []
        _, secs = _timed(lambda: _batch_worker(batch, 10, masks, calibrate))
        return int(min(max(seconds * 10 / secs, 5), 100_000))

    def best(batches: list[StateBatch], masks: bool) -> float:
        """The best steps/s of ``batches`` stepped together, one thread each."""
        many = steps_for(batches[0], masks)
        for b in batches[1:]:
            _batch_worker(b, 10, masks, [])
        top = 0.0
        for _ in range(_rounds(quick)):
            done: list[int] = []
            workers = [
                threading.Thread(target=_batch_worker, args=(b, many, masks, done)) for b in batches
            ]

            def run_all(workers: list[threading.Thread] = workers) -> None:
                for w in workers:
                    w.start()
                for w in workers:
                    w.join()

            _, secs = _timed(run_all)
            top = max(top, sum(done) / secs)
        return top

    if playouts.theirs:
        theirs, yardstick = playouts.theirs, f"{playouts.yardstick} playouts"
    else:
        theirs, yardstick = playouts.ours, "in-core random playouts"
    single = best([StateBatch(g, n=n, seed=1)], False)
    rows = [
        Row(
            f"StateBatch random steps ({n:,} games), 1 thread, plies/s",
            single,
            "plies/s",
            theirs=theirs,
            yardstick=yardstick,
            workload="batch-1",
        ),
        Row(
            f"StateBatch random steps ({n:,} games each), 2 threads, plies/s",
            best([StateBatch(g, n=n, seed=s) for s in (1, 2)], False),
            "plies/s",
            theirs=single,
            yardstick="the 1-thread figure",
            workload="batch-2",
            threads=2,
        ),
    ]
    if spec.batch_masks:
        rows.append(
            Row(
                f"StateBatch step with legal masks ({n:,} games), 1 thread, plies/s",
                best([StateBatch(g, n=n, seed=1)], True),
                "plies/s",
                theirs=single,
                yardstick="random steps",
                workload="batch-masks",
            )
        )
    return rows


# -- the Python loop -------------------------------------------------------------------------------


#: the Python loops start a new game when one reaches this many plies, as random playouts and
#: batches do by default: without a cap, a random game of Empire Plateau (no turn limit by
#: default) can go on for ever, and a row would time that one game (and its growing history)
LOOP_PLY_CAP = 400


def python_loop(
    seconds: float,
    game: str | GameSpec,
    variant: str | None = None,
    fast: bool = False,
    ply_cap: int = LOOP_PLY_CAP,
) -> tuple[float, GameState]:
    """Steps per second of the loop every Python program driving the engine runs: legal
    actions, a random pick, apply (a new game when one ends or has played ``ply_cap``
    plies); and the last game's state. ``fast``: the same random game through the fast path,
    ``apply_index(randrange(num_legal_actions()))`` (no array built)."""
    rng = random.Random(3)
    steps = 0
    state = new_game(game, variant)
    left = ply_cap
    t0 = time.perf_counter()
    while True:
        if fast:
            randrange = rng.randrange
            for _ in range(1000):
                if left == 0 or state.is_terminal():
                    state = new_game(game, variant)
                    left = ply_cap
                left -= 1
                state.apply_index(randrange(state.num_legal_actions()))
        else:
            for _ in range(1000):
                if left == 0 or state.is_terminal():
                    state = new_game(game, variant)
                    left = ply_cap
                left -= 1
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
        steps += 1000
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return steps / dt, state


def bench_python_loop(
    info: GameInfo, quick: bool, sticks: _Yardsticks | None = None, game: GameSpec | None = None
) -> list[Row]:
    """The Python loop on ``game`` (None: the default variant and options), and the same
    loop through the fast path (``apply_index``); each last game must replay to the same
    position (every step applied a legal action)."""
    sticks = sticks or _Yardsticks(None, [], [])
    rounds = _rounds(quick)
    # (every round plays the same stretch of random games: a shorter one would weigh the
    # openings, where some games have more legal actions, more)
    seconds = 0.5 if quick else 3.0
    g = game or resolve(info.name)
    y = sticks.first("python_loop")
    rows = []
    best = {False: 0.0, True: 0.0}
    theirs: float | None = None
    for _ in range(rounds):  # each loop and the yardstick's in turn, the best of each
        for fast in (False, True):
            ours, state = python_loop(seconds, g, fast=fast)
            replay = g.new_game()
            replay.apply_all(state.history)
            if replay.hash != state.hash:
                raise BenchError("the Python loop's game does not replay to the same position")
            best[fast] = max(best[fast], ours)
        if y is not None and y.python_loop is not None:
            theirs = max(theirs or 0.0, y.python_loop(seconds))
    for fast in (False, True):
        ours = best[fast]
        label = (
            "Python loop, fast path: apply_index(randrange(num_legal_actions())), steps/s"
            if fast
            else "Python loop: legal_actions + random pick + apply, steps/s"
        )
        row = Row(label, ours, "steps/s", workload="python-fast" if fast else "python-loop")
        if y is not None and theirs is not None:
            row.theirs, row.yardstick = theirs, y.name
            if fast:
                row.notes.append("the yardstick runs its usual loop (it has no such fast path)")
        sticks.note(row, "python_loop")
        rows.append(row)
    return rows


# -- memory and determinization ---------------------------------------------------------------


def bench_memory(spec: BenchSpec, quick: bool) -> Row:
    """Peak memory growth over many apply/undo/clone calls at the midgame position."""
    state = spec.position(spec.midgame).build()
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
    row = Row(
        f"peak memory growth over {cycles:,} apply/undo/clone calls, KiB",
        (rss1 - rss0) * scale / 1024,
        "KiB",
        workload="memory",
    )
    if spec.state_size is not None:
        state_bytes, per_ply = spec.state_size
        row.notes.append(
            f"a state is {state_bytes} bytes without its history (+{per_ply} bytes per ply)"
        )
    return row


def bench_determinizer(spec: BenchSpec, quick: bool) -> Row:
    """Sampling a world consistent with the mover's view at the midgame position (games with
    hidden information); the mover's legal actions must be those of the real position."""
    pos = spec.position(spec.midgame)
    state = pos.build()
    det = state.determinizer(state.current_player)
    if det.sample(1).legal_actions().tolist() != state.legal_actions().tolist():
        raise BenchError(f"a determinization at {pos.label} has other legal actions")
    k = 200 if quick else 5000
    _, secs = _timed(lambda: [det.sample(i) for i in range(k)])
    return Row(
        f"determinizer sample at {pos.label}, us", secs / k * 1e6, "us", workload="determinizer"
    )


# -- the report -----------------------------------------------------------------------------------


def run(
    yardstick: str | None = None,
    quick: bool = False,
    progress: Callable[[str], None] | None = None,
    game: str | GameSpec = "plateau-x",
) -> list[Row]:
    """Run every benchmark of ``game`` (a name, or a :class:`plateau.GameSpec`) and return the
    report's rows; ``progress`` is told each workload as it starts. ``yardstick``: the path of
    the program the game's program yardstick runs (its rows have no yardstick figure without
    it; a warning if the game has none). Perft, moves, clones, memory and determinizations are
    timed at the game's registered positions (default options); playouts, batches and the
    Python loop play the spec."""
    say = progress or (lambda _msg: None)
    g = spec_of(game)
    info = g.info
    game = g.game
    spec = _spec(info)
    sticks = _Yardsticks.of(spec, yardstick)
    if yardstick is not None and not any(y.uses_path for y in spec.yardsticks):
        warnings.warn(
            f"{game} has no yardstick program: --yardstick {yardstick} is not used",
            stacklevel=2,
        )
    rows: list[Row] = []

    def measured(what: str, work: Callable[[], Row | list[Row]]) -> list[Row]:
        """Run one group of workloads, noting what other processes used meanwhile."""
        say(what)
        load = _Load()
        got = work()
        group = got if isinstance(got, list) else [got]
        others = load.others()
        for r in group:
            r.others = others
        return group

    rows += measured("perft", lambda: bench_perft(spec, quick, sticks))
    rows += measured("apply, undo, legal actions, clone", lambda: bench_moves(spec, quick))
    rows += measured("random playouts", lambda: bench_playouts(info, quick, sticks, g))
    playouts = rows[-1]
    if info.batch is not None:
        rows += measured("batched stepping", lambda: bench_batch(info, quick, playouts, g))
    rows += measured("Python-driven loop", lambda: bench_python_loop(info, quick, sticks, g))
    rows += measured("memory", lambda: bench_memory(spec, quick))
    if not info.perfect_information:
        rows += measured("determinization", lambda: bench_determinizer(spec, quick))
    _set_targets(rows, {**DEFAULT_TARGETS, **spec.targets})
    if g != resolve(game):
        played = ("playouts", "batch-1", "batch-2", "batch-masks", "python-loop", "python-fast")
        for r in rows:
            if r.workload not in played:
                r.notes.append("the registered positions, default options")
    return rows


def _set_targets(rows: Sequence[Row], targets: dict[str, str]) -> None:
    for r in rows:
        general = r.workload.split(" ")[0]  # "perft start" -> "perft"
        r.target = targets.get(r.workload, targets.get(general, ""))


def format_table(rows: list[Row]) -> str:
    """The rows as a Markdown table, each with its verdict against its target, and a line on
    how busy the machine was (a missed target on a busy machine says so)."""
    lines = [
        "| measure | plateau | yardstick | ratio | target | verdict |",
        "|---|---:|---|---:|---|---|",
    ]
    for r in rows:
        theirs = f"{r.theirs:,.0f} ({r.yardstick})" if r.theirs else "-"
        ratio = f"{r.ratio:.2f}x" if r.ratio is not None else "-"
        note = f" ({'; '.join(r.notes)})" if r.notes else ""
        lines.append(
            f"| {r.measure}{note} | {r.ours:,.0f} | {theirs} | {ratio} | {r.target} | {r.verdict} |"
        )
    known = [r.others for r in rows if r.others is not None]
    if known:
        cores = os.cpu_count() or 1
        busy = [r for r in rows if r.busy]
        lines.append("")
        lines.append(
            f"Other processes used {min(known):.2f}-{max(known):.2f} of the {cores} cores while "
            "the rows ran; "
            + (
                f"{len(busy)} row{'s' * (len(busy) != 1)} ran on a busy machine (others took "
                "cores they needed): "
                "their figures may be low, run again on a quiet one."
                if busy
                else "the machine was quiet enough for every row."
            )
        )
    missing = [r for r in rows if r.verdict == "no yardstick"]
    if missing:
        lines.append(
            f"{len(missing)} row{'s have' if len(missing) != 1 else ' has'} a ratio target but "
            "no yardstick ran"
            + (
                " (perft and playouts need --yardstick PATH)"
                if any(r.workload.startswith(("perft", "playouts")) for r in missing)
                else ""
            )
            + "."
        )
    return "\n".join(lines)


# -- throughput curves ---------------------------------------------------------------------------

#: the batch sizes of :func:`batch_curve`
BATCH_SIZES = (1, 4, 16, 64, 256, 1024, 4096, 16384, 32768)


@dataclass
class CurvePoint:
    """One point of a throughput curve: ``threads`` batches of ``size`` games of ``game``
    stepped at random, ``steps`` game-steps per second in all."""

    game: str
    size: int
    threads: int
    steps: float


def batch_curve(
    game: str | GameSpec,
    sizes: Sequence[int] = BATCH_SIZES,
    threads: Sequence[int] = (1, 2),
    seconds: float = 0.3,
    warm_up: int = 100,
) -> list[CurvePoint]:
    """Random ``StateBatch`` steps per second of ``game`` against the batch size, on each
    number of threads (one batch of that size per thread, masks filled each step where the
    game's bench says a learner would), about ``seconds`` a point. Each batch first plays
    ``warm_up`` steps untimed, so that its games are spread over every phase of a game (a big
    batch is timed for few steps, which from the start would all be openings)."""
    g = game if isinstance(game, GameSpec) else resolve(game)
    info = game_info(g.game)
    if info.batch is None:
        raise InvalidArgumentError(f"{g.game} has no batches")
    masks = _spec(info).batch_masks
    out = []
    for size in sizes:
        check_int(size, "size", 1, 1 << 20)
        calibrate: list[int] = []
        t0 = time.perf_counter()
        _batch_worker(StateBatch(g, n=size, seed=1), 3, masks, calibrate)
        secs = time.perf_counter() - t0
        iterations = int(min(max(seconds * 3 / max(secs, 1e-9), 3), 1_000_000))
        for t in threads:
            batches = [StateBatch(g, n=size, seed=1 + k) for k in range(t)]
            for b in batches:
                _batch_worker(b, warm_up, masks, [])
            done: list[int] = []
            workers = [
                threading.Thread(target=_batch_worker, args=(b, iterations, masks, done))
                for b in batches
            ]

            def run_all(workers: list[threading.Thread] = workers) -> None:
                for w in workers:
                    w.start()
                for w in workers:
                    w.join()

            _, secs = _timed(run_all)
            out.append(CurvePoint(g.game, size, t, sum(done) / secs))
    return out


def format_curve(points: Sequence[CurvePoint]) -> str:
    """The points as a markdown table: one row per game and batch size, a column per thread
    count (game-steps per second)."""
    threads = sorted({p.threads for p in points})
    head = "| game | batch size | " + " | ".join(f"{t} thread{'s' * (t > 1)}" for t in threads)
    lines = [head + " |", "|---|---:|" + "---:|" * len(threads)]
    by_key = {(p.game, p.size, p.threads): p.steps for p in points}
    for game, size in dict.fromkeys((p.game, p.size) for p in points):
        cells = [f"{by_key[(game, size, t)]:,.0f}" for t in threads]
        lines.append(f"| {game} | {size:,} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


#: line colours of the curves, by game (in registry order)
_COLOURS = ("#1f5fa8", "#c0392b", "#2e8b57", "#8e44ad", "#d35400")


def curve_svg(points: Sequence[CurvePoint], title: str = "") -> str:
    """The points as an SVG line chart: game-steps per second (log scale) against the batch
    size (log scale), a colour per game, solid for one thread and dashed for more."""
    if not points:
        raise InvalidArgumentError("no points to draw")
    width, height, left, right, top, bottom = 800, 460, 80, 240, 40, 60
    xs = [math.log2(p.size) for p in points]
    ys = [math.log10(max(p.steps, 1.0)) for p in points]
    x0, x1 = min(xs), max(max(xs), min(xs) + 1)
    y0, y1 = math.floor(min(ys)), math.ceil(max(ys))
    y1 = max(y1, y0 + 1)

    def px(x: float) -> float:
        return left + (x - x0) / (x1 - x0) * (width - left - right)

    def py(y: float) -> float:
        return height - bottom - (y - y0) / (y1 - y0) * (height - top - bottom)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    if title:
        parts.append(f'<text x="{left}" y="24" font-size="14">{_escape(title)}</text>')
    for k in range(int(x0), int(x1) + 1):
        if k % 2 == 0 or x1 - x0 < 8:
            x = px(k)
            parts.append(
                f'<line x1="{x:.1f}" y1="{py(y0):.1f}" x2="{x:.1f}" y2="{py(y1):.1f}" '
                'stroke="#ddd"/>'
            )
            parts.append(
                f'<text x="{x:.1f}" y="{py(y0) + 16:.1f}" text-anchor="middle">{2**k:,}</text>'
            )
    for k in range(y0, y1 + 1):
        y = py(k)
        parts.append(
            f'<line x1="{px(x0):.1f}" y1="{y:.1f}" x2="{px(x1):.1f}" y2="{y:.1f}" stroke="#ddd"/>'
        )
        parts.append(f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">1e{k}</text>')
    parts.append(
        f'<text x="{(left + width - right) / 2:.1f}" y="{height - 18}" text-anchor="middle">'
        "games in a batch</text>"
    )
    parts.append(
        f'<text x="18" y="{(top + height - bottom) / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 18 {(top + height - bottom) / 2:.1f})">game-steps per second'
        "</text>"
    )
    games = list(dict.fromkeys(p.game for p in points))
    legend_y = top + 10
    for gi, game in enumerate(games):
        colour = _COLOURS[gi % len(_COLOURS)]
        for t in sorted({p.threads for p in points if p.game == game}):
            line = sorted((p for p in points if p.game == game and p.threads == t), key=_size)
            dash = "" if t == 1 else ' stroke-dasharray="6 4"'
            coords = " ".join(
                f"{px(math.log2(p.size)):.1f},{py(math.log10(max(p.steps, 1.0))):.1f}" for p in line
            )
            parts.append(
                f'<polyline points="{coords}" fill="none" stroke="{colour}" '
                f'stroke-width="2"{dash}/>'
            )
            lx = width - right + 16
            parts.append(
                f'<line x1="{lx}" y1="{legend_y}" x2="{lx + 28}" y2="{legend_y}" '
                f'stroke="{colour}" stroke-width="2"{dash}/>'
            )
            label = f"{game}, {t} thread{'s' * (t > 1)}"
            parts.append(f'<text x="{lx + 34}" y="{legend_y + 4}">{_escape(label)}</text>')
            legend_y += 20
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _size(p: CurvePoint) -> int:
    return p.size


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
