"""Thread safety, for every registered game and variant (no per-game cases).

The contract: every kernel that releases the GIL works on private copies of its inputs or
holds a guard that refuses concurrent use with RuntimeError. ``state.perft`` and
``state.random_playout`` count and play on a private copy of the position at the time of the
call; ``plateau.random_playouts`` shares nothing; a ``StateBatch`` runs one method at a time
(a second concurrent call on the same batch raises RuntimeError, the GIL-holding readers
included) while two batches in two threads run in parallel; ``step`` copies the caller's
actions before checking them; a ``GameState`` shared by threads never crashes the interpreter
nor corrupts memory; perft deeper than the kernel can recurse is refused with ValueError.

A crash kills the process that has it, so every check that hammers runs in a subprocess
(``_run``): it imports this module there and calls one of the ``_w_*`` workers, which print
``OK ...`` (or a ``RESULT`` line) and exit 0, or fail an assertion (exit 1) or crash (killed
by a signal, shown in the failure with the faulthandler's tracebacks).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from typing import Any, Callable

import numpy as np
import pytest

import plateau
from plateau.errors import IllegalActionError
from plateau.registry import game_info

GAME_VARIANTS = [(g, v) for g in plateau.games() for v in plateau.variants(g)]
BATCH_GAME_VARIANTS = [(g, v) for g, v in GAME_VARIANTS if game_info(g).batch is not None]
BATCH_METHODS = [
    "legal_masks",
    "legal_lists",
    "num_legal",
    "sample_random",
    "step",
    "observations",
    "hashes",
    "plies",
    "current_players",
    "reset",
]
TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
MODULE = os.path.splitext(os.path.basename(__file__))[0]


def _ids(pairs: list[tuple[str, str]]) -> list[str]:
    return [f"{g}/{v}" for g, v in pairs]


# ---------------------------------------------------------------------------------------------
# running a worker in a subprocess
# ---------------------------------------------------------------------------------------------


def _run(worker: str, *args: Any, timeout: float = 20.0) -> str:
    """Run ``worker(*args)`` of this module in a fresh interpreter; its stdout if it exited 0.
    A crash or an assertion in the worker fails the calling test with the signal or exit
    status and the tail of the worker's stderr (faulthandler tracebacks included)."""
    code = (
        f"import sys; sys.path.insert(0, {TESTS_DIR!r}); import {MODULE} as m; "
        f"m.{worker}(*{args!r})"
    )
    call = f"{worker}{args!r}"
    try:
        proc = subprocess.run(
            [sys.executable, "-X", "faulthandler", "-c", code],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as e:
        err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else e.stderr
        pytest.fail(f"{call} did not finish within {timeout} s\n{(err or '')[-3000:]}")
    rc = proc.returncode
    how = f"killed by {signal.Signals(-rc).name}" if rc < 0 else f"exit status {rc}"
    assert rc == 0, (
        f"{call}: {how}\n--- stdout ---\n{proc.stdout[-2000:]}\n--- stderr ---\n"
        f"{proc.stderr[-4000:]}"
    )
    return proc.stdout


def _ok(out: str) -> str:
    lines = [line for line in out.splitlines() if line.startswith("OK")]
    assert lines, f"the worker printed no OK line:\n{out}"
    return lines[-1]


# ---------------------------------------------------------------------------------------------
# shared by the workers (they run in the subprocess)
# ---------------------------------------------------------------------------------------------


def _prepare() -> None:
    # switch threads often, so that more interleavings are tried in the bounded time
    sys.setswitchinterval(1e-4)


def _position(game: str, variant: str, seed: int, plies: int) -> Any:
    """A running game after ``plies`` seeded random plies (fewer if it would end)."""
    rng = random.Random(seed)
    s = plateau.new_game(game, variant)
    while s.ply < plies:
        legal = s.legal_actions().tolist()
        rng.shuffle(legal)
        for a in legal:
            s.apply(a)
            if not s.is_terminal():
                break
            s.undo()
        else:
            break
    assert not s.is_terminal()
    return s


def _running_action(s: Any, seed: int) -> int:
    """A legal action of ``s`` after which the game is still running."""
    legal = s.legal_actions().tolist()
    random.Random(seed).shuffle(legal)
    for a in legal:
        s.apply(a)
        over = s.is_terminal()
        s.undo()
        if not over:
            return int(a)
    raise AssertionError("every action ends the game")


def _perft_depth(s: Any, seconds: float) -> int:
    """The deepest perft of ``s`` whose next depth would take more than about ``seconds``."""
    d, prev = 1, 1
    while d < 6:
        t0 = time.perf_counter()
        c = s.perft(d)
        dt = time.perf_counter() - t0
        if c == 0 or dt * max(c / prev, 1.0) > seconds:
            return d
        prev, d = c, d + 1
    return d


def _batch_n(game: str, variant: str, seconds: float, per_game_bytes: int = 0) -> int:
    """A batch size whose random step (sample_random + step) takes about ``seconds``,
    at most 48 MB of ``per_game_bytes``, within [256, 200,000]."""
    probe = plateau.StateBatch(game, variant, n=2048, seed=0)
    acts = np.zeros(2048, dtype=np.int64)
    for _ in range(8):  # past the first plies, which may be cheaper than the rest
        probe.sample_random(acts)
        probe.step(acts)
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        probe.sample_random(acts)
        probe.step(acts)
        best = min(best, time.perf_counter() - t0)
    n = int(seconds / max(best / 2048, 1e-9))
    if per_game_bytes:
        n = min(n, 48_000_000 // per_game_bytes)
    return max(256, min(200_000, n))


def _check_batch_sane(b: Any) -> None:
    """Every game of ``b`` is a running position that can be stepped on."""
    counts = b.num_legal()
    assert (counts > 0).all(), f"games without legal actions: {np.flatnonzero(counts <= 0)[:10]}"
    plies = b.plies()
    assert ((plies >= 0) & (plies < b.ply_cap)).all(), f"bad plies {plies.min()}..{plies.max()}"
    players = b.current_players()
    assert ((players >= 0) & (players < b.num_players)).all()
    for _ in range(3):
        b.step(b.sample_random())


def _replay(game: str, variant: str, history: list[int]) -> Any:
    s = plateau.new_game(game, variant)
    for a in history:
        s.apply(a)
    return s


def _same_game(s: Any, ref: Any, what: str) -> None:
    assert s.hash == ref.hash, f"{what}: hash differs from a replay of its history"
    assert s.ply == ref.ply, f"{what}: ply {s.ply} != {ref.ply}"
    assert s.current_player == ref.current_player, f"{what}: player to move differs"
    assert s.legal_actions().tolist() == ref.legal_actions().tolist(), f"{what}: legal actions"


def _seen_mid_step(b: Any, acts: Any, pause: float) -> bool:
    """Step ``b`` while a thread, woken as the step begins, asks for ``num_legal`` after
    ``pause`` seconds: True if it found the batch in use, i.e. ran while the step ran. Never
    true of a step that holds the GIL: the other thread then runs before or after it."""
    go = threading.Event()
    busy: list[bool] = []

    def reader() -> None:
        go.wait()
        time.sleep(pause)  # lets the stepping thread get into the step
        try:
            b.num_legal()
            busy.append(False)
        except RuntimeError:
            busy.append(True)

    waiter = threading.Thread(target=reader)
    waiter.start()
    time.sleep(0.002)  # the reader is blocked in go.wait()
    b.sample_random(acts)
    go.set()
    with contextlib.suppress(RuntimeError):  # the reader may have had the batch first
        b.step(acts)
    _join([waiter])
    return busy[0]


def _start(threads: list[threading.Thread]) -> None:
    for t in threads:
        t.start()


def _join(threads: list[threading.Thread], timeout: float = 30.0) -> None:
    for t in threads:
        t.join(timeout)
        assert not t.is_alive(), f"{t.name} is stuck"


# ---------------------------------------------------------------------------------------------
# workers
# ---------------------------------------------------------------------------------------------


def _w_perft_private(game: str, variant: str, seconds: float) -> None:
    """Two threads count perft of one state while a third applies/undoes/clones it: every
    count is that of the position at the time of the call (P or P+a), nothing crashes."""
    _prepare()
    s = _position(game, variant, seed=3, plies=6)
    a = _running_action(s, seed=4)
    d = _perft_depth(s, 0.05)
    c0 = s.perft(d)
    s.apply(a)
    c1 = s.perft(d)
    s.undo()
    start = s.hash
    barrier = threading.Barrier(3)
    stop = threading.Event()
    counts: list[list[int]] = [[], []]
    hammered = [0]

    def count(out: list[int]) -> None:
        barrier.wait()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            out.append(s.perft(d))

    def hammer() -> None:
        barrier.wait()
        while not stop.is_set():
            s.apply(a)
            s.clone()
            s.undo()
            s.clone()
            hammered[0] += 1

    counters = [threading.Thread(target=count, args=(out,)) for out in counts]
    h = threading.Thread(target=hammer)
    _start([*counters, h])
    _join(counters)
    stop.set()
    _join([h])
    got = counts[0] + counts[1]
    bad = sorted({c for c in got if c not in (c0, c1)})
    assert not bad, f"perft({d}) gave {bad[:5]}; the position at the call counts {c0} or {c1}"
    # (the hammer runs only between the counts' GIL releases: how often depends on how fast
    # perft is, so only that it ran throughout the counting window is asserted)
    assert hammered[0] >= 20, f"the hammer ran {hammered[0]} times while perft counted"
    assert s.hash == start and s.perft(d) == c0
    print(f"OK depth={d} calls={len(got)} hammer={hammered[0]}")


def _w_random_playout_private(game: str, variant: str, seconds: float) -> None:
    """random_playout(seed) plays on a private copy: two threads get the single-threaded
    results, also while a third thread applies/undoes/clones the same state."""
    _prepare()
    s = _position(game, variant, seed=5, plies=4)
    a = _running_action(s, seed=6)
    seeds = list(range(1, 41))
    r0 = {k: s.random_playout(k) for k in seeds}
    s.apply(a)
    r1 = {k: s.random_playout(k) for k in seeds}
    s.undo()
    start = s.hash
    bad: list[str] = []
    calls = [0]
    hammered = [0]

    def play(offset: int, barrier: threading.Barrier, allowed: list[dict[int, Any]]) -> None:
        barrier.wait()
        deadline = time.monotonic() + seconds
        i = offset
        while time.monotonic() < deadline:
            k = seeds[i % len(seeds)]
            r = s.random_playout(k)
            calls[0] += 1
            if all(r != ok[k] for ok in allowed):
                bad.append(f"seed {k}: {r}, expected one of {[ok[k] for ok in allowed]}")
            i += 1

    # phase 1: two players, nobody changes the state
    barrier = threading.Barrier(2)
    players = [threading.Thread(target=play, args=(o, barrier, [r0])) for o in (0, 7)]
    _start(players)
    _join(players)
    # phase 2: the same with a hammer on the state
    barrier = threading.Barrier(3)
    stop = threading.Event()

    def hammer() -> None:
        barrier.wait()
        while not stop.is_set():
            s.apply(a)
            s.clone()
            s.undo()
            hammered[0] += 1

    players = [threading.Thread(target=play, args=(o, barrier, [r0, r1])) for o in (0, 7)]
    h = threading.Thread(target=hammer)
    _start([*players, h])
    _join(players)
    stop.set()
    _join([h])
    assert not bad, f"{len(bad)} wrong playouts, e.g. {bad[:3]}"
    assert hammered[0] > 0
    assert s.hash == start and {k: s.random_playout(k) for k in seeds} == r0
    print(f"OK calls={calls[0]} hammer={hammered[0]}")


def _w_module_playouts(game: str, variant: str) -> None:
    """plateau.random_playouts from four threads at once gives the sequential results."""
    _prepare()
    # a cap past the length of a random game of every game (Empire Plateau's run to about
    # 1,300 plies): capped games all look alike, and the seeds must give different results
    cap = 5000
    plateau.random_playouts(game, variant, n=50, seed=0, ply_cap=cap)
    t0 = time.perf_counter()
    plateau.random_playouts(game, variant, n=200, seed=0, ply_cap=cap)
    per_game = max((time.perf_counter() - t0) / 200, 1e-7)
    n = max(50, min(100_000, int(0.05 / per_game)))
    seeds = [11, 12, 13, 14]
    expected = {k: plateau.random_playouts(game, variant, n=n, seed=k, ply_cap=cap) for k in seeds}
    assert len({json.dumps(r, sort_keys=True) for r in expected.values()}) > 1
    got: dict[tuple[int, int], Any] = {}
    barrier = threading.Barrier(len(seeds))

    def run(k: int) -> None:
        barrier.wait()
        for rep in range(2):
            got[k, rep] = plateau.random_playouts(game, variant, n=n, seed=k, ply_cap=cap)

    threads = [threading.Thread(target=run, args=(k,)) for k in seeds]
    t0 = time.perf_counter()
    _start(threads)
    _join(threads)
    wall = time.perf_counter() - t0
    for (k, rep), r in sorted(got.items()):
        assert r == expected[k], f"seed {k} (round {rep}): {r} != {expected[k]}"
    assert len(got) == 2 * len(seeds)
    print(f"OK n={n} wall={wall:.2f}s")


def _w_batch_guard(game: str, variant: str, seconds: float) -> None:
    """While one thread steps a batch in a loop, every method called on the same batch from
    a second thread raises RuntimeError (at least once; never another error), and the batch
    stays sane. Prints one RESULT line per method."""
    _prepare()
    probe = plateau.StateBatch(game, variant, n=1)
    per_game = max(probe.num_distinct_actions, 4 * int(np.prod(probe.observation_shape)))
    n = _batch_n(game, variant, 0.01, per_game)
    b = plateau.StateBatch(game, variant, n=n, seed=5, ply_cap=50)
    masks = np.zeros((n, b.num_distinct_actions), dtype=np.uint8)
    obs = np.zeros((n, *b.observation_shape), dtype=np.float32)
    ids = np.zeros((n, 8), dtype=np.int64)
    counts = np.zeros(n, dtype=np.int32)
    acts_b = np.zeros(n, dtype=np.int64)
    calls: dict[str, Callable[[], object]] = {
        "legal_masks": lambda: b.legal_masks(masks),
        "legal_lists": lambda: b.legal_lists(ids=ids, counts=counts),
        "num_legal": lambda: b.num_legal(counts),
        "sample_random": lambda: b.sample_random(acts_b),
        "step": lambda: b.step(acts_b),
        "observations": lambda: b.observations(obs),
        "hashes": b.hashes,
        "plies": b.plies,
        "current_players": b.current_players,
        "reset": b.reset,
    }
    assert sorted(calls) == sorted(BATCH_METHODS)
    stop = threading.Event()
    runner_steps = [0]
    runner_errors: list[str] = []

    def runner() -> None:
        acts = np.zeros(n, dtype=np.int64)
        done = np.zeros(n, dtype=np.uint8)
        returns = np.zeros((n, b.num_players), dtype=np.float32)
        while not stop.is_set():
            try:
                b.sample_random(acts)
                b.step(acts, done, returns)
                runner_steps[0] += 1
            except (RuntimeError, IllegalActionError):
                pass  # the other thread had the batch, or reset it between the two calls
            except Exception as e:
                runner_errors.append(repr(e))

    r = threading.Thread(target=runner)
    r.start()
    try:
        while runner_steps[0] < 2:
            time.sleep(0.001)
        for name, call in calls.items():
            refused = ok = 0
            other: list[str] = []
            deadline = time.monotonic() + seconds
            while refused < 5 and time.monotonic() < deadline:
                try:
                    call()
                    ok += 1
                except RuntimeError:
                    refused += 1
                except IllegalActionError as e:
                    if name != "step":  # stale actions: the runner stepped meanwhile
                        other.append(repr(e))
                except Exception as e:
                    other.append(repr(e))
                # let the runner take the GIL and start a call: without this pause a slow call
                # here (Empire Plateau's masks) and a fast step there never meet, since this
                # thread keeps the GIL from one call to the next
                time.sleep(0.0002)
            result = {"method": name, "refused": refused, "ok": ok, "other": other[:3]}
            print("RESULT " + json.dumps(result), flush=True)
    finally:
        stop.set()
        r.join(30)
    assert not r.is_alive()
    assert not runner_errors, runner_errors[:3]
    _check_batch_sane(b)
    print(f"OK n={n} runner_steps={runner_steps[0]}")


def _play_batch(b: Any, steps: int) -> tuple[Any, ...]:
    """``steps`` random steps of ``b``, then its readers: what the batch ends with."""
    acts = np.zeros(b.num_envs, dtype=np.int64)
    done = np.zeros(b.num_envs, dtype=np.uint8)
    returns = np.zeros((b.num_envs, b.num_players), dtype=np.float32)
    counts = np.zeros(b.num_envs, dtype=np.int32)
    ids = np.zeros((b.num_envs, 4), dtype=np.int64)
    digest = []
    for _ in range(steps):
        b.sample_random(acts)
        b.step(acts, done, returns)
        digest.append(int(done.sum()) + float(returns.sum()))
    b.num_legal(counts)
    b.legal_lists(ids=ids, counts=counts)
    return (
        b.hashes().tolist(),
        b.plies().tolist(),
        b.current_players().tolist(),
        b.games_finished,
        digest,
        counts.tolist(),
        ids.tolist(),
    )


def _w_two_batches(game: str, variant: str) -> None:
    """Two batches stepped by two threads end as they do stepped one after the other, and a
    step lets other threads run meanwhile (it releases the GIL), which is what lets two
    batches step at the same time."""
    n = min(100_000, _batch_n(game, variant, 0.02))
    steps = 4

    def fresh() -> list[Any]:
        return [plateau.StateBatch(game, variant, n=n, seed=k, ply_cap=30) for k in (1, 2)]

    pair = fresh()
    got: list[Any] = [None, None]
    barrier = threading.Barrier(2)

    def run(i: int) -> None:
        barrier.wait()
        got[i] = _play_batch(pair[i], steps)

    threads = [threading.Thread(target=run, args=(i,)) for i in (0, 1)]
    _start(threads)
    _join(threads)
    pair = fresh()
    for i in (0, 1):
        assert got[i] == _play_batch(pair[i], steps), f"batch {i} differs when threaded"
    assert got[0] != got[1]
    # step releases the GIL: a thread woken as it begins runs while it runs (long steps, so
    # that the woken thread gets a core in time on a loaded machine)
    long_n = _batch_n(game, variant, 0.1)
    b = plateau.StateBatch(game, variant, n=long_n, seed=5, ply_cap=30)
    acts = np.zeros(long_n, dtype=np.int64)
    b.sample_random(acts)
    t0 = time.perf_counter()
    b.step(acts)  # the step alone: in some games drawing the actions costs far more
    pause = (time.perf_counter() - t0) / 8
    tries = 0
    while tries < 30:
        tries += 1
        if _seen_mid_step(b, acts, pause * (1 + tries % 3)):
            break
    else:
        raise AssertionError("no thread ever ran during a step: step holds the GIL")
    del b
    # masks and observations (big per game: smaller batches), two threads, two batches
    probe = plateau.StateBatch(game, variant, n=1)
    per_game = probe.num_distinct_actions + 4 * int(np.prod(probe.observation_shape))
    m = max(64, min(n, 24_000_000 // per_game))
    pair = [plateau.StateBatch(game, variant, n=m, seed=k, ply_cap=30) for k in (3, 4)]
    for b in pair:
        for _ in range(5):
            b.step(b.sample_random())
    ref = [(b.legal_masks(), b.observations()) for b in pair]
    outs = [(np.zeros_like(r[0]), np.zeros_like(r[1])) for r in ref]
    same = [True, True]
    barrier = threading.Barrier(2)

    def read(i: int) -> None:
        barrier.wait()
        for _ in range(3):
            pair[i].legal_masks(outs[i][0])
            pair[i].observations(outs[i][1])
            same[i] = same[i] and all(np.array_equal(x, y) for x, y in zip(outs[i], ref[i]))

    threads = [threading.Thread(target=read, args=(i,)) for i in (0, 1)]
    _start(threads)
    _join(threads)
    assert same == [True, True], "masks or observations differ when two threads read"
    print(f"OK n={n} a reader ran during step {tries}")


def _w_step_actions_mutated(game: str, variant: str, rounds: int) -> None:
    """Another thread writes garbage into the actions array while step() runs: step applies
    the actions as they were when checked (the same result as a twin batch stepped with a
    private copy) or raises IllegalActionError; every game is sane afterwards."""
    _prepare()
    n = _batch_n(game, variant, 0.05)
    b = plateau.StateBatch(game, variant, n=n, seed=9, ply_cap=12)
    twin = plateau.StateBatch(game, variant, n=n, seed=9, ply_cap=12)
    acts = np.zeros(n, dtype=np.int64)
    tacts = np.zeros(n, dtype=np.int64)
    done, tdone = np.zeros(n, dtype=np.uint8), np.zeros(n, dtype=np.uint8)
    ret = np.zeros((n, b.num_players), dtype=np.float32)
    tret = np.zeros_like(ret)
    times = []
    for _ in range(4):  # into the game, where steps take their usual time
        b.sample_random(acts)
        t0 = time.perf_counter()
        b.step(acts, done, ret)
        times.append(time.perf_counter() - t0)
        twin.sample_random(tacts)
        twin.step(tacts, tdone, tret)
    step_time = sorted(times)[2]
    rng = random.Random(1)
    applied = refused = 0
    for r in range(rounds):
        b.sample_random(acts)
        twin.sample_random(tacts)
        assert np.array_equal(acts, tacts)
        go = threading.Event()
        # the write lands early in some steps and late in others
        delay = step_time * (0.2 + 1.0 * r / max(rounds - 1, 1)) * rng.uniform(0.8, 1.2)

        # garbage in the first games only (checked first, applied last of all: the widest
        # window between check and use), or in every game
        span = 16 if r % 2 == 0 else n

        def scribble(delay: float = delay, go: threading.Event = go, span: int = span) -> None:
            go.wait()
            time.sleep(delay)
            acts[:span] = -100_000

        w = threading.Thread(target=scribble)
        w.start()
        go.set()
        try:
            b.step(acts, done, ret)
        except ValueError:  # IllegalActionError is one
            refused += 1
        else:
            applied += 1
            twin.step(tacts, tdone, tret)
            assert np.array_equal(done, tdone) and np.array_equal(ret, tret), f"round {r}"
        _join([w])
        assert np.array_equal(b.hashes(), twin.hashes()), f"round {r}: an unchecked id applied"
        assert np.array_equal(b.plies(), twin.plies()), f"round {r}: plies differ"
    assert applied > 0
    _check_batch_sane(b)
    print(f"OK n={n} step={step_time * 1000:.1f}ms applied={applied} refused={refused}")


def _w_step_overlapping_output(game: str, variant: str) -> None:
    """step(acts, done=acts.view(np.uint8)[56:]) on 8 games: refused with ValueError, or the
    same result as a twin batch stepped with a private copy of the actions."""
    b = plateau.StateBatch(game, variant, n=8, seed=21, ply_cap=6)
    twin = plateau.StateBatch(game, variant, n=8, seed=21, ply_cap=6)
    stepped = refused = 0
    for r in range(40):
        acts = b.sample_random()
        tacts = twin.sample_random()
        assert np.array_equal(acts, tacts)
        try:
            b.step(acts, done=acts.view(np.uint8)[56:])
        except ValueError:
            refused += 1
        else:
            stepped += 1
            twin.step(tacts.copy())
        assert b.hashes().tolist() == twin.hashes().tolist(), f"step {r}: hashes differ"
        assert b.plies().tolist() == twin.plies().tolist(), f"step {r}: plies differ"
    assert twin.games_finished > 0 or refused == 40
    _check_batch_sane(b)
    print(f"OK stepped={stepped} refused={refused}")


def _w_shared_state(game: str, variant: str, seconds: float) -> None:
    """Four threads apply, undo, clone, list, count, play out and serialize one state with no
    lock. Nothing crashes; every clone equals a replay of its history; undoing everything
    gives the start; the state still plays like a fresh one."""
    _prepare()
    s = plateau.new_game(game, variant)
    fresh = plateau.new_game(game, variant)
    start = s.hash
    d = _perft_depth(s, 0.01)
    clones: list[Any] = []
    unexpected: list[str] = []
    ops = [0]
    barrier = threading.Barrier(4)

    def work(seed: int) -> None:
        rng = random.Random(seed)
        barrier.wait()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            op = rng.randrange(12)
            try:
                if op <= 3:
                    legal = s.legal_actions()
                    if len(legal) and s.ply < 40:
                        s.apply(int(legal[rng.randrange(len(legal))]))
                    else:
                        s.undo()
                elif op <= 5:
                    s.undo()
                elif op == 6:
                    c = s.clone()
                    if len(clones) < 200:
                        clones.append(c)
                elif op == 7:
                    s.perft(d)
                elif op == 8:
                    text = s.to_json()
                    assert json.loads(text)["game"] == game
                elif op == 9:
                    s.random_playout(rng.randrange(1000))
                elif op == 10:
                    s.legal_actions_mask()
                    s.num_legal_actions()
                    s.is_legal(rng.randrange(s.num_distinct_actions))
                else:
                    _ = s.hash, s.ply, s.current_player, s.is_terminal()
                    repr(s)
                    str(s)
                ops[0] += 1
            except (IllegalActionError, IndexError):
                pass  # another thread moved the state between this thread's two calls
            except Exception as e:
                unexpected.append(f"op {op}: {e!r}")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    _start(threads)
    _join(threads)
    assert not unexpected, unexpected[:5]
    assert ops[0] > 100
    for i, c in enumerate(clones):
        _same_game(c, _replay(game, variant, c.history), f"clone {i}")
    last = s.clone()  # the threads are done: no lock needed
    _same_game(last, _replay(game, variant, last.history), "the final clone")
    _same_game(s, _replay(game, variant, s.history), "the state")
    while s.history:
        s.undo()
    assert s.hash == start, "undo back to the start does not give the start hash"
    _same_game(s, fresh, "the state undone to the start")
    assert s.perft(d) == fresh.perft(d)
    print(f"OK ops={ops[0]} clones={len(clones)}")


def _option_sets(game: str) -> list[dict[str, Any]]:
    """The game's default options, then each value of ``option_values`` in turn."""
    info = game_info(game)
    sets = [dict(info.options)]
    for name, values in info.option_values.items():
        sets += [{**info.options, name: v} for v in values]
    return sets


def _w_reinit_under_kernels(game: str, variant: str, seconds: float) -> None:
    """perft and random_playout run on a private copy of the position, and the copy may point
    into tables the state holds (an Empire Plateau board's): one thread re-initialises the
    state with each option set in turn (``s.__init__(variant, **options)``) while two others
    count and play on it. Every count and result is that of one of the start positions, and
    nothing crashes (nor, under the sanitizers, reads freed memory)."""
    _prepare()
    sets = _option_sets(game)
    factory = game_info(game).factory
    starts = [factory(variant, **o) for o in sets]
    d = min(_perft_depth(s, 0.02) for s in starts)
    counts = {s.perft(d) for s in starts}
    playouts = {k: {tuple(s.random_playout(k)) for s in starts} for k in range(1, 9)}
    s = factory(variant, **sets[-1])
    barrier = threading.Barrier(3)
    stop = threading.Event()
    seen: list[tuple[str, Any]] = []
    inits = [0]

    def count() -> None:
        barrier.wait()
        while not stop.is_set():
            seen.append(("perft", s.perft(d)))

    def play() -> None:
        barrier.wait()
        k = 0
        while not stop.is_set():
            k = k % 8 + 1
            seen.append((f"playout {k}", tuple(s.random_playout(k))))

    def reinit() -> None:
        barrier.wait()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for o in sets:
                s.__init__(variant, **o)
                inits[0] += 1

    threads = [threading.Thread(target=f) for f in (count, play, reinit)]
    _start(threads)
    _join(threads[2:])
    stop.set()
    _join(threads[:2])
    for what, got in seen:
        ok = got in counts if what == "perft" else got in playouts[int(what.split()[1])]
        assert ok, f"{what} gave {got}, which no start position gives"
    assert inits[0] > len(sets) and len(seen) > 2
    print(f"OK sets={len(sets)} depth={d} calls={len(seen)} inits={inits[0]}")


def _w_reinit_as_other_variants(game: str, seconds: float) -> None:
    """As ``_w_reinit_under_kernels``, with each variant of the game in turn: the re-initialised
    state may have another number of players than the copy a playout runs on, and the result
    has the copy's (it had the live state's: cut short, or padded with memory never written)."""
    _prepare()
    names = plateau.variants(game)
    starts = [plateau.new_game(game, v) for v in names]
    playouts = {k: {tuple(t.random_playout(k)) for t in starts} for k in range(1, 9)}
    s = plateau.new_game(game, names[0])
    stop = threading.Event()
    seen: list[tuple[int, tuple[float, ...]]] = []

    def play() -> None:
        k = 0
        while not stop.is_set():
            k = k % 8 + 1
            seen.append((k, tuple(s.random_playout(k))))

    player = threading.Thread(target=play)
    _start([player])
    deadline = time.monotonic() + seconds
    inits = 0
    while time.monotonic() < deadline:
        for v in names:
            s.__init__(v)
            inits += 1
    stop.set()
    _join([player])
    for k, got in seen:
        assert got in playouts[k], f"random_playout({k}) gave {got}, which no start gives"
    assert len(seen) > 2
    print(f"OK variants={len(names)} calls={len(seen)} inits={inits}")


def _w_apply_index_while_the_index_is_read(game: str, seconds: float) -> None:
    """``apply_index(k)`` with a ``k`` whose ``__index__`` is Python (the GIL may pass to
    another thread while it runs) on a state another thread plays on and takes back: the index
    is checked against the list of the moment it is used (a read past the list before, a
    crash or an action the game never allowed). Every refusal is typed, and the state still
    replays."""
    import numbers

    class SlowIndex:
        def __init__(self, k: int) -> None:
            self.k = k

        def __index__(self) -> int:
            time.sleep(0.0005)
            return self.k

    numbers.Integral.register(SlowIndex)
    _prepare()
    s = plateau.new_game(game)
    stop = threading.Event()

    def other() -> None:
        while not stop.is_set():
            for _ in range(20):
                if s.is_terminal():
                    break
                with contextlib.suppress(ValueError):
                    s.apply_index(0)
            while s.history:
                with contextlib.suppress(IndexError):  # (the main thread may undo first)
                    s.undo()

    t = threading.Thread(target=other)
    _start([t])
    deadline = time.monotonic() + seconds
    refused = calls = 0
    assert t.is_alive()
    while time.monotonic() < deadline:
        n = s.num_legal_actions()
        if not n:
            continue
        calls += 1
        try:
            s.apply_index(SlowIndex(n - 1))
        except (plateau.InvalidArgumentError, IllegalActionError):
            refused += 1
        else:
            with contextlib.suppress(IndexError):
                s.undo()
    assert t.is_alive(), "the other thread ended early: the race was not run"
    stop.set()
    _join([t])
    replay = plateau.new_game(game)
    replay.apply_all(s.history)
    assert replay.hash == s.hash and calls > 10
    print(f"OK calls={calls} refused={refused}")


def _w_reinit_while_arrays_are_made(game: str, seconds: float) -> None:
    """One thread re-initialises a state with every variant and option set of its game in
    turn (positions of different sizes: action counts, observation shapes, boards) while
    another asks it for arrays sized by its position: ``legal_actions_mask``,
    ``observation_tensor`` and ``legal_actions``. numpy lets other threads run while it makes a
    zeroed array of 1 KiB or more, so the state may change between the sizing and the
    filling: every array must still be whole and of one of the start positions' sizes, and
    nothing may write past one (a crash or heap corruption, which the sanitizer build
    reports at once)."""
    _prepare()
    factory = game_info(game).factory
    inits = [(v, o) for v in plateau.variants(game) for o in _option_sets(game)]
    starts = [factory(v, **o) for v, o in inits]
    masks = {s.num_distinct_actions for s in starts}
    shapes = {tuple(s.observation_shape) for s in starts}
    most = max(masks)
    s = factory(*inits[0][:1], **inits[0][1])
    barrier = threading.Barrier(2)
    stop = threading.Event()
    calls = [0, 0]

    def reinit() -> None:
        barrier.wait()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for v, o in inits:
                s.__init__(v, **o)
                calls[0] += 1
        stop.set()

    def read() -> None:
        barrier.wait()
        while not stop.is_set():
            m = s.legal_actions_mask()
            assert len(m) in masks and 0 < m.sum() <= len(m), (len(m), int(m.sum()))
            assert tuple(s.observation_tensor().shape) in shapes
            assert tuple(s.observation_tensor(0).shape) in shapes
            legal = s.legal_actions()
            assert len(legal) > 0 and legal[0] >= 0 and legal[-1] < most
            calls[1] += 1

    threads = [threading.Thread(target=f) for f in (reinit, read)]
    _start(threads)
    _join(threads)
    assert calls[0] > len(inits) and calls[1] > 10, calls
    print(f"OK inits={calls[0]} reads={calls[1]} sizes={sorted(masks)} shapes={len(shapes)}")


def _w_deep_perft(game: str, variant: str) -> None:
    """perft deeper than the kernel can recurse is refused with ValueError, from the start
    and mid-game, and the state is unchanged and usable."""
    for s in (plateau.new_game(game, variant), _position(game, variant, seed=2, plies=10)):
        h, n = s.hash, len(s.legal_actions())
        for depth in (10**6, 2**31 - 1):
            with pytest.raises(ValueError):
                s.perft(depth)
        assert s.hash == h and s.perft(1) == n
    print("OK")


def _w_solver_table_guard(game: str, variant: str, seconds: float) -> None:
    """The core solver searches a private copy and lets other threads run while it searches;
    its table serves one search at a time: a second search on it from another thread is
    refused with RuntimeError, the first goes on unharmed, and the state it was asked about
    may change meanwhile."""
    from plateau_core._common import SolverTable

    _prepare()
    s = _position(game, variant, seed=4, plies=6)
    other = s.clone()
    before = s.to_json()
    table = SolverTable(100_000)
    table.budget(deadline=time.perf_counter() + seconds)
    out: list[object] = []
    searching = threading.Thread(target=lambda: out.append(s.solver_forces(200, 0, 1, table)))
    searching.start()
    refused = moves = 0
    while searching.is_alive():
        try:
            other.solver_forces(2, 0, 1, table)
        except RuntimeError:
            refused += 1
        legal = s.legal_actions()  # the state the search was asked about moves on
        if len(legal) and s.ply < 30:
            s.apply(int(legal[0]))
            moves += 1
        elif s.ply:
            s.undo()
        time.sleep(0.001)
    _join([searching])
    assert out and out[0] in (True, False, None), out
    assert refused > 0 and table.nodes > 1024
    while s.ply > other.ply:
        s.undo()
    assert s.to_json() == before
    print(f"OK refused={refused} moves={moves} nodes={table.nodes}")


# ---------------------------------------------------------------------------------------------
# the tests
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "variant"), GAME_VARIANTS, ids=_ids(GAME_VARIANTS))
def test_perft_counts_the_position_at_the_call(game: str, variant: str) -> None:
    _ok(_run("_w_perft_private", game, variant, 0.4))


@pytest.mark.parametrize(("game", "variant"), GAME_VARIANTS, ids=_ids(GAME_VARIANTS))
def test_random_playout_plays_a_private_copy(game: str, variant: str) -> None:
    _ok(_run("_w_random_playout_private", game, variant, 0.2))


@pytest.mark.parametrize(("game", "variant"), GAME_VARIANTS, ids=_ids(GAME_VARIANTS))
def test_module_random_playouts_from_threads(game: str, variant: str) -> None:
    _ok(_run("_w_module_playouts", game, variant))


@functools.cache
def _guard_results(game: str, variant: str) -> dict[str, dict[str, Any]] | str:
    """One subprocess per game and variant tries every method (the test reports each); the
    failure of that subprocess, once, as a string."""
    try:
        out = _run("_w_batch_guard", game, variant, 0.5, timeout=30.0)
        _ok(out)
    except (AssertionError, pytest.fail.Exception) as e:
        return str(e)
    results = {}
    for line in out.splitlines():
        if line.startswith("RESULT "):
            r = json.loads(line[len("RESULT ") :])
            results[r["method"]] = r
    return results


@pytest.mark.parametrize("method", BATCH_METHODS)
@pytest.mark.parametrize(("game", "variant"), BATCH_GAME_VARIANTS, ids=_ids(BATCH_GAME_VARIANTS))
def test_batch_refuses_a_second_concurrent_call(game: str, variant: str, method: str) -> None:
    results = _guard_results(game, variant)
    assert not isinstance(results, str), results
    r = results[method]
    assert not r["other"], f"{method} raised {r['other']} while another thread stepped"
    assert r["refused"] > 0, (
        f"{method} never raised RuntimeError while another thread stepped the same batch "
        f"({r['ok']} calls went through)"
    )


@pytest.mark.parametrize(("game", "variant"), BATCH_GAME_VARIANTS, ids=_ids(BATCH_GAME_VARIANTS))
def test_two_batches_in_two_threads(game: str, variant: str) -> None:
    _ok(_run("_w_two_batches", game, variant))


@pytest.mark.parametrize(("game", "variant"), BATCH_GAME_VARIANTS, ids=_ids(BATCH_GAME_VARIANTS))
def test_step_copies_the_actions_before_checking(game: str, variant: str) -> None:
    _ok(_run("_w_step_actions_mutated", game, variant, 12))


@pytest.mark.parametrize(("game", "variant"), BATCH_GAME_VARIANTS, ids=_ids(BATCH_GAME_VARIANTS))
def test_step_output_overlapping_the_actions(game: str, variant: str) -> None:
    _ok(_run("_w_step_overlapping_output", game, variant))


@pytest.mark.parametrize(("game", "variant"), GAME_VARIANTS, ids=_ids(GAME_VARIANTS))
def test_shared_state_survives_threads(game: str, variant: str) -> None:
    _ok(_run("_w_shared_state", game, variant, 0.8))


@pytest.mark.parametrize(("game", "variant"), GAME_VARIANTS, ids=_ids(GAME_VARIANTS))
def test_a_solver_table_serves_one_search_at_a_time(game: str, variant: str) -> None:
    _ok(_run("_w_solver_table_guard", game, variant, 0.5))


@pytest.mark.parametrize("game", plateau.games())
def test_reinit_while_arrays_are_made(game: str) -> None:
    _ok(_run("_w_reinit_while_arrays_are_made", game, 1.0))


@pytest.mark.parametrize(("game", "variant"), GAME_VARIANTS, ids=_ids(GAME_VARIANTS))
def test_deep_perft_is_refused(game: str, variant: str) -> None:
    assert _ok(_run("_w_deep_perft", game, variant, timeout=10.0)) == "OK"


@pytest.mark.parametrize(("game", "variant"), GAME_VARIANTS, ids=_ids(GAME_VARIANTS))
def test_reinit_while_kernels_run(game: str, variant: str) -> None:
    _ok(_run("_w_reinit_under_kernels", game, variant, 0.4))


@pytest.mark.parametrize("game", plateau.games())
def test_reinit_as_other_variants_under_playouts(game: str) -> None:
    _ok(_run("_w_reinit_as_other_variants", game, 0.5))


@pytest.mark.parametrize("game", plateau.games())
def test_apply_index_while_the_index_is_read(game: str) -> None:
    _ok(_run("_w_apply_index_while_the_index_is_read", game, 0.5))
