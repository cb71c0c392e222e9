"""``plateau bench``: speed figures and ratios against yardsticks."""

from __future__ import annotations

import argparse
import os
import sys

from plateau.cli.common import add_game_args, game_of, spec_of


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("bench", help="speed figures and ratios against yardsticks")
    p.add_argument(
        "--yardstick",
        metavar="PATH",
        help="the native yardstick program the game's benchmark times against, if it has one "
        "(Plateau X: plateau-x-yardstick)",
    )
    p.add_argument("--quick", action="store_true", help="smaller workloads (a smoke run)")
    p.add_argument(
        "--plot",
        metavar="FILE.svg",
        help="instead: StateBatch steps/s against the batch size (1 to 32,768) on 1 and 2 "
        "threads, for every game with batches; prints the table and draws it to FILE.svg",
    )
    add_game_args(p, "the game to measure")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import platform
    import warnings

    from plateau.bench import format_table, run

    if args.plot:
        return plot(args)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rows = run(
            yardstick=args.yardstick,
            quick=args.quick,
            game=spec_of(args),
            progress=lambda what: print(f"  running: {what}", file=sys.stderr, flush=True),
        )
    for w in caught:
        print(f"plateau: warning: {w.message}", file=sys.stderr)
    cpu = platform.processor() or platform.machine()
    flags = f" --variant {args.variant}" if args.variant else ""
    flags += "".join(f" --option {o}" for o in args.option) + (" --quick" if args.quick else "")
    print(
        f"plateau bench --game {game_of(args)}{flags} on {cpu}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print(format_table(rows))
    return 0


def plot(args: argparse.Namespace) -> int:
    """``--plot FILE``: the throughput curves of every game with batches."""
    import platform
    from pathlib import Path

    from plateau.bench import BATCH_SIZES, batch_curve, curve_svg, format_curve
    from plateau.errors import InvalidArgumentError
    from plateau.registry import game_info, games

    folder = Path(args.plot).resolve().parent
    if not folder.is_dir():  # say so before minutes of measuring, not after
        raise InvalidArgumentError(f"--plot {args.plot}: no such folder {str(folder)!r}")
    sizes = BATCH_SIZES[:6] if args.quick else BATCH_SIZES
    seconds = 0.05 if args.quick else 0.3
    points = []
    for game in games():
        if game_info(game).batch is None:
            continue
        print(f"  running: {game}", file=sys.stderr, flush=True)
        points += batch_curve(game, sizes=sizes, seconds=seconds, warm_up=5 if args.quick else 100)
    cpu = platform.processor() or platform.machine()
    where = f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"
    Path(args.plot).write_text(
        curve_svg(points, f"StateBatch random steps ({where})"), encoding="utf-8"
    )
    print(f"plateau bench --plot on {where}: game-steps per second")
    print(format_curve(points))
    print(f"drawn to {args.plot}")
    return 0
