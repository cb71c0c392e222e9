"""``plateau engine``: a bot served over the engine protocol on stdin/stdout."""

from __future__ import annotations

import argparse

from plateau.cli.common import NON_NEGATIVE


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "engine", help="serve a bot over the engine protocol on stdin/stdout (for the arena)"
    )
    p.add_argument("--bot", default="random", help="the bot spec to serve, e.g. mcts:iters=500")
    p.add_argument("--seed", type=NON_NEGATIVE, default=0, help="seed of the bot")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from plateau.engine import serve

    return serve(args.bot, seed=args.seed)
