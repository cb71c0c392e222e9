"""Ctrl-C stops long work: every long-running kernel checks for signals every few milliseconds
and raises KeyboardInterrupt, leaving the state as it was; the command line ends with one line.

Each check runs in a subprocess that gets a real SIGINT. The bound asserted here is loose (a
second, where the kernels without their checks ran for minutes): the machines are shared, and
the latency itself (tens of milliseconds) is a measurement, printed with ``-s``.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import plateau
from support import default_signals

GAMES = plateau.games()
BOUND = 1.0  # seconds from SIGINT to KeyboardInterrupt; measured: well under 0.2 s

# each snippet starts a call that runs for minutes; ``s`` (if any) must be unchanged after it
LONG_CALLS = {
    "perft": (
        "s = plateau.new_game({game!r}); before = s.to_json(), s.hash\ncall = lambda: s.perft(9)"
    ),
    "random_playouts": "s = None\ncall = lambda: plateau.random_playouts({game!r}, n=10**12)",
    "solver_forces": (
        "from plateau_core._common import SolverTable\n"
        "s = plateau.new_game({game!r}); before = s.to_json(), s.hash\n"
        "call = lambda: s.solver_forces(200, 0, 1, SolverTable(10**6))"
    ),
    "random_playout": (
        "s = plateau.new_game({game!r}); before = s.to_json(), s.hash\n"
        "call = lambda: [s.random_playout(i, ply_cap=None) for i in range(10**12)]"
    ),
}

CHILD = """
import sys, time, plateau
{setup}
print("started", flush=True)
try:
    call()
except KeyboardInterrupt:
    caught = time.time()
    same = s is None or (s.to_json(), s.hash) == before
    print("caught", caught, same, flush=True)
    sys.exit(0)
print("finished", flush=True)
"""


@contextlib.contextmanager
def _child(code: str, **kwargs: Any) -> Iterator[subprocess.Popen[str]]:
    """``python -c code`` with pipes and the default SIGINT; killed if a check fails first."""
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_signals,
        **kwargs,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def _interrupt(code: str, wait: float = 0.5) -> tuple[subprocess.Popen[str], float, str]:
    """Start ``code``, send SIGINT ``wait`` seconds after it says "started"; return the process,
    the time the signal was sent, and the rest of its stdout."""
    with _child(code) as proc:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.strip() == "started", first + proc.stderr.read() if proc.stderr else ""
        time.sleep(wait)
        sent = time.time()
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
    return proc, sent, out


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("call", sorted(LONG_CALLS))
def test_ctrl_c_stops_a_long_kernel_and_leaves_the_state(game: str, call: str) -> None:
    code = CHILD.format(setup=LONG_CALLS[call].format(game=game))
    proc, sent, out = _interrupt(code)
    assert proc.returncode == 0, out
    word, caught, same = out.split()
    assert word == "caught" and same == "True"
    latency = float(caught) - sent
    print(f"{game} {call}: KeyboardInterrupt {latency * 1000:.0f} ms after SIGINT")
    assert latency < BOUND


def test_perft_on_the_command_line_ends_with_one_line() -> None:
    code = (
        "import sys; from plateau.cli import main; print('started', flush=True); "
        "sys.exit(main(['perft', '--variant', 'standard', '9']))"
    )
    with _child(code) as proc:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "started"
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.strip() == "plateau: interrupted", err


def test_an_interrupted_arena_ends_with_one_line_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "arena.jsonl"
    args = [
        "arena", "--game", "plateau-x", "--variant", "mini", "--bots", "mcts:iters=300,random",
        "--games", "40", "--jobs", "2", "--seed", "3", "--out", str(out),
    ]  # fmt: skip
    code = (
        "import sys; from plateau.cli import main; print('started', flush=True); "
        f"sys.exit(main({args!r}))"
    )
    env = dict(os.environ, TQDM_DISABLE="1")
    with _child(code, env=env) as proc:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "started"
        deadline = time.time() + 60
        while time.time() < deadline and (
            not out.exists() or len(out.read_text().splitlines()) < 2
        ):
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    last = err.strip().splitlines()[-1]
    assert last.startswith("plateau: interrupted") and "--resume" in last, err
    assert "Traceback" not in err
    kept = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    assert 2 <= len(kept) < 40
    finish = subprocess.run(
        [sys.executable, "-m", "plateau", *args, "--resume"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert finish.returncode == 0, finish.stderr
    indices = sorted(json.loads(line)["index"] for line in out.read_text().splitlines())
    assert indices == list(range(40))


@pytest.mark.parametrize("searching", [False, True])
def test_an_interrupted_engine_ends_with_one_line(searching: bool) -> None:
    # (its input is read in a thread of its own, which is blocked in a read when Ctrl-C comes:
    # the interpreter's shutdown must not wait for it)
    code = (
        "import sys; from plateau.cli import main; "
        f"sys.exit(main(['engine', '--bot', 'mcts:iters={10**9}']))"
    )
    with _child(code, stdin=subprocess.PIPE) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write("plateau-engine 1\ngame plateau-x mini\nposition start\nisready\n")
        proc.stdin.write("go\n" if searching else "")
        proc.stdin.flush()
        while proc.stdout.readline().strip() != "ready":
            pass
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.strip() == "plateau: interrupted", err
