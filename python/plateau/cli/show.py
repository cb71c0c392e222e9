"""``plateau show``: the text diagram after ACTIONS, or of a saved record."""

from __future__ import annotations

import argparse

from plateau.cli.common import (
    NON_NEGATIVE,
    add_game_args,
    load_game,
    new_game_of,
    no_game_index,
    record_alone,
)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("show", help="the diagram after ACTIONS, or of a saved record")
    add_game_args(p)
    p.add_argument("actions", nargs="*", help="actions from the start, in notation")
    p.add_argument("--record", help="a JSON game record or arena JSON-lines file instead")
    p.add_argument("--game-index", type=NON_NEGATIVE, help="the arena game (its index)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.record:
        record_alone(args)
        state, title = load_game(args.record, args.game_index)
        print(title)
    else:
        no_game_index(args)
        state = new_game_of(args)
    print(state)
    print(f"ranking: {state.ranking()}  hash: {state.hash:016x}")
    return 0
