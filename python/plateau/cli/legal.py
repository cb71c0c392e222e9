"""``plateau legal``: the legal actions after ACTIONS, byte-sorted."""

from __future__ import annotations

import argparse

from plateau.cli.common import add_game_args, new_game_of


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("legal", help="the legal actions after ACTIONS, byte-sorted")
    add_game_args(p)
    p.add_argument("actions", nargs="*", help="actions from the start, in notation")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    state = new_game_of(args)
    for text in sorted(state.legal_action_strings()):
        print(text)
    return 0
