"""Instruction counts of the hot paths of every game, under ``valgrind --tool=callgrind``: exact
where wall-clock times on a shared two-core machine move by 20% from run to run.

    python bench/icount.py              # measure; compare with bench/icount.json (exit 1 on a rise)
    python bench/icount.py --update     # measure and write bench/icount.json (the new baseline)
    python bench/icount.py --game albea-plateau --json out.json

For each registered game with a ``bench`` spec (its default variant), one process runs under
callgrind and does, after a warm-up of each, these workloads: ``perft`` (the spec's midgame
position at its quick depth, the count checked), ``generate`` (the legal actions generated
afresh 400 times), ``apply-undo`` (every legal action of the midgame applied and undone, to 600),
``clone`` (300 clones), ``playouts`` (20 random playouts in the core), ``python-loop`` (300
steps of ``legal_actions``, a ``random.randrange`` pick and ``apply``), ``python-fast`` (the same
steps through ``apply_index(randrange(num_legal_actions()))``) and ``batch-step`` (50
random steps of a ``StateBatch`` of 64 games, where the game has batches). The workloads are
separated by calls of ``os.getppid``, before each of which callgrind dumps its counters
(``--dump-before``), so that each count holds exactly one workload.

A count that rose by more than ``--tolerance`` percent (3) over the baseline fails the check;
every change is printed. A baseline holds for the environment it was measured in (CPython,
numpy, the Cython that generated the core, compiler and valgrind versions, recorded with it):
in another environment the changes are printed and nothing fails (re-baseline there with
``--update``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
BASELINE = HERE / "icount.json"
#: the environment a baseline holds for
ENV_KEYS = ("python", "numpy", "cython", "compiler", "valgrind", "machine")


def environment() -> dict[str, str]:
    import numpy

    try:
        vg = subprocess.run(
            ["valgrind", "--version"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        vg = "none"
    return {
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "cython": _built_with_cython(),
        "compiler": str(sysconfig.get_config_var("CC") or "?").split()[0]
        + " "
        + _compiler_version(),
        "valgrind": vg,
        "machine": platform.machine(),
    }


def _built_with_cython() -> str:
    """The Cython version that generated the installed compiled core (its modules carry it in
    the name of their function type, ``_cython_3_3_1``)."""
    import re

    import plateau_core

    for folder in plateau_core.__path__:
        for lib in sorted(Path(folder).glob("_common*.so")):
            found = re.search(rb"_cython_(\d+)_(\d+)_(\d+)", lib.read_bytes())
            if found:
                return ".".join(x.decode() for x in found.groups())
    return "?"


def _compiler_version() -> str:
    cc = str(sysconfig.get_config_var("CC") or "cc").split()[0]
    try:
        out = subprocess.run([cc, "-dumpfullversion"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return "?"
    return out.stdout.strip()


# -- the child: the workloads, between markers -------------------------------------------------


def workloads(game: str) -> list[tuple[str, Callable[[], object]]]:
    """The named workloads of ``game`` (each a callable), built and warmed up."""
    import plateau

    info = plateau.game_info(game)
    spec = info.bench
    assert spec is not None
    variant = info.default_variant
    mid = next(p for p in spec.positions if p.label == spec.midgame)
    work: list[tuple[str, Callable[[], object]]] = []

    def perft() -> int:
        n = int(mid.build().perft(mid.depth - 1))
        if n != mid.quick_nodes:
            raise SystemExit(f"{game}: perft {n} != {mid.quick_nodes}")
        return n

    work.append(("perft", perft))
    state = mid.build()
    first = int(state.legal_actions()[0])

    def generate() -> int:
        n = 0
        for _ in range(400):
            state.apply(first)
            state.undo()  # drops the cached list: the next call generates afresh
            n += len(state.legal_actions())
        return n

    work.append(("generate", generate))
    legal = state.legal_actions().tolist()

    def apply_undo() -> None:
        done = 0
        while done < 600:
            for a in legal:
                state.apply(a)
                state.undo()
            done += len(legal)

    work.append(("apply-undo", apply_undo))
    work.append(("clone", lambda: [state.clone() for _ in range(300)]))
    start = plateau.new_game(game, variant)
    work.append(("playouts", lambda: [start.random_playout(k, 400) for k in range(20)]))

    def python_loop() -> None:
        rng = random.Random(1)
        s = plateau.new_game(game, variant)
        for _ in range(300):
            if s.is_terminal():
                s = plateau.new_game(game, variant)
            actions = s.legal_actions()
            s.apply(int(actions[rng.randrange(len(actions))]))

    work.append(("python-loop", python_loop))

    def python_fast() -> None:  # the same random game through the fast path
        rng = random.Random(1)
        s = plateau.new_game(game, variant)
        for _ in range(300):
            if s.is_terminal():
                s = plateau.new_game(game, variant)
            s.apply_index(rng.randrange(s.num_legal_actions()))

    work.append(("python-fast", python_fast))
    if info.batch is not None:
        batch = plateau.StateBatch(game, variant, n=64, seed=1)
        actions = batch.sample_random()

        def batch_step() -> None:
            for _ in range(50):
                batch.sample_random(out=actions)
                batch.step(actions)

        work.append(("batch-step", batch_step))
    for _, run in work:  # warm-up: lazy imports, caches, first allocations
        run()
    return work


def child(game: str) -> None:
    work = workloads(game)
    print(json.dumps([name for name, _ in work]), flush=True)
    for _, run in work:
        os.getppid()  # callgrind dumps here: the counts so far go to a file of their own
        run()
    os.getppid()


# -- the parent ------------------------------------------------------------------------------


def measure(game: str) -> dict[str, int]:
    """The instruction count of each workload of ``game``, one callgrind run."""
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        cmd = [
            "valgrind",
            "--tool=callgrind",
            "--dump-before=os_getppid",
            f"--callgrind-out-file={out}/cg.%p",
            sys.executable,
            str(Path(__file__).resolve()),
            "--child",
            game,
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0", "OMP_NUM_THREADS": "1"}
        run = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
        if run.returncode != 0:
            raise SystemExit(f"{game}: the callgrind run failed:\n{run.stderr[-3000:]}")
        names = json.loads(run.stdout.strip().splitlines()[-1])
        dumps = sorted(
            (p for p in out.iterdir() if p.name.count(".") == 2),
            key=lambda p: int(p.name.rsplit(".", 1)[1]),
        )
        # dump 1: imports, set-up and warm-up; then one per workload
        if len(dumps) != len(names) + 1:
            raise SystemExit(f"{game}: {len(dumps)} callgrind dumps for {len(names)} workloads")
        return {name: _total(path) for name, path in zip(names, dumps[1:])}


def _total(path: Path) -> int:
    for line in path.read_text().splitlines():
        if line.startswith("totals:"):
            return int(line.split()[1])
    raise SystemExit(f"no totals in {path}")


def compare(
    counts: dict[str, dict[str, int]], baseline: dict[str, Any], tolerance: float
) -> tuple[list[str], list[str]]:
    """The report lines, and the lines of workloads that rose by more than ``tolerance`` %."""
    lines, rises = [], []
    base = baseline.get("counts", {})
    for game, works in counts.items():
        for name, n in works.items():
            old = base.get(game, {}).get(name)
            if old is None:
                lines.append(f"{game:16} {name:12} {n:>15,}  (no baseline)")
                continue
            change = 100.0 * (n - old) / old
            line = f"{game:16} {name:12} {n:>15,}  {change:+7.2f}% vs {old:,}"
            lines.append(line)
            if change > tolerance:
                rises.append(line)
    return lines, rises


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--child", metavar="GAME", help=argparse.SUPPRESS)
    p.add_argument("--game", action="append", help="only this game (repeatable)")
    p.add_argument("--update", action="store_true", help="write the baseline")
    p.add_argument("--tolerance", type=float, default=3.0, help="percent rise that fails")
    p.add_argument("--json", help="also write the counts here")
    args = p.parse_args(argv)
    if args.child:
        child(args.child)
        return 0
    import plateau

    names = args.game or [g for g in plateau.games() if plateau.game_info(g).bench is not None]
    counts = {g: measure(g) for g in names}
    env = environment()
    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    same_env = all(baseline.get("environment", {}).get(k) == env[k] for k in ENV_KEYS)
    lines, rises = compare(counts, baseline, args.tolerance)
    if rises and same_env and not args.update:
        # a game with a rise is measured again and each workload keeps the lower count: a real
        # rise comes back, a count inflated once does not (one CI run on 2026-12-04 counted
        # 79.1 M instructions for a perft that counts 72.1 M in every other run, in the same
        # build and environment; nothing in the workload explains it)
        again = [g for g in counts if compare({g: counts[g]}, baseline, args.tolerance)[1]]
        for g in again:
            second = measure(g)
            counts[g] = {name: min(n, second[name]) for name, n in counts[g].items()}
        print(f"measured again after a rise over {args.tolerance}%: {', '.join(again)}")
        lines, rises = compare(counts, baseline, args.tolerance)
    if args.json:
        Path(args.json).write_text(json.dumps({"environment": env, "counts": counts}, indent=1))
    if args.update:
        old = json.loads(BASELINE.read_text()) if BASELINE.exists() else {"counts": {}}
        merged = {**old.get("counts", {}), **counts}
        BASELINE.write_text(
            json.dumps({"environment": env, "counts": merged}, indent=1, sort_keys=True) + "\n"
        )
        print(f"baseline written to {BASELINE}")
        baseline = json.loads(BASELINE.read_text())
        same_env = True
        lines, rises = compare(counts, baseline, args.tolerance)
    print("\n".join(lines))
    if not same_env:
        print(
            "the baseline was measured in another environment "
            f"({baseline.get('environment')}; here {env}): changes shown, nothing fails"
        )
        return 0
    if rises:
        print(f"{len(rises)} workload(s) rose by more than {args.tolerance}%:")
        print("\n".join(rises))
        return 1
    print(f"no workload rose by more than {args.tolerance}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
