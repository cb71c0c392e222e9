"""``plateau arena-report``: the standings of an arena again, from its JSON-lines file."""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("arena-report", help="re-tabulate an arena from its JSON-lines file")
    p.add_argument("file", help="the JSON-lines file of an arena (its --out)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from plateau import arena
    from plateau.cli.common import printable

    # (bot names, time controls and the like come from the file: no escape sequence of it
    # reaches the terminal)
    print(printable(arena.report(args.file).format_table()))
    return 0
