"""``plateau bench``: speed figures and ratios against yardsticks."""

from __future__ import annotations

import argparse
import os
import sys

from plateau.cli.common import add_game_args, spec_of


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("bench", help="speed figures and ratios against yardsticks")
    p.add_argument(
        "--yardstick",
        metavar="PATH",
        help="the native yardstick program the game's benchmark times against, if it has one "
        "(Plateau X: plateau-x-yardstick)",
    )
    p.add_argument("--quick", action="store_true", help="smaller workloads (a smoke run)")
    add_game_args(p, "the game to measure")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import platform
    import warnings

    from plateau.bench import format_table, run

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
        f"plateau bench --game {args.game}{flags} on {cpu}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print(format_table(rows))
    return 0
