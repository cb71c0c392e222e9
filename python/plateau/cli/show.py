"""``plateau show``: the text diagram after ACTIONS, or of a saved record."""

from __future__ import annotations

import argparse

from plateau.cli.common import add_position_args, position_of, printable


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("show", help="the diagram after ACTIONS, or of a saved record")
    add_position_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    state, title = position_of(args)
    if title is not None:
        print(printable(title))
    print(state)
    print(f"ranking: {state.ranking()}  hash: {state.hash:016x}")
    return 0
