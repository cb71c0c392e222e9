"""``plateau suite``: a bot's or engine's score on a test-position suite, by difficulty."""

from __future__ import annotations

import argparse

from plateau.cli.common import positive_seconds


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "suite", help="a bot's score on a test-position suite (proven wins), by difficulty"
    )
    p.add_argument(
        "suite", nargs="?", help="a suite file, or the name of a shipped suite (see --list)"
    )
    p.add_argument("--bot", help="a bot spec, or an engine: engine:cmd=...")
    p.add_argument(
        "--seconds", type=positive_seconds, default=1.0, help="seconds a position (default 1)"
    )
    p.add_argument("--list", action="store_true", help="the shipped suites and their sizes")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from plateau.errors import InvalidArgumentError
    from plateau.suites import read_suite, run_suite, shipped_suites

    if args.list:
        for name, path in shipped_suites().items():
            positions = read_suite(path)
            grades = sorted({p.difficulty for p in positions})
            print(f"{name}: {len(positions)} positions, win in {', '.join(map(str, grades))}")
        return 0
    if args.suite is None or args.bot is None:
        raise InvalidArgumentError("give a suite and --bot SPEC (or --list)")
    print(run_suite(args.suite, args.bot, args.seconds).format_table())
    return 0
