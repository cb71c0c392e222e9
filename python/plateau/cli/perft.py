"""``plateau perft``: leaf counts of the game tree after ACTIONS from the start."""

from __future__ import annotations

import argparse
import time

from plateau.cli.common import INTEGER, add_game_args, new_game_of


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("perft", help="count leaf positions after ACTIONS from the start")
    add_game_args(p)
    p.add_argument("depth", type=INTEGER, help="plies to count (0-63)")
    p.add_argument("actions", nargs="*", help="actions from the start, in notation")
    p.add_argument("--no-bulk", action="store_true", help="apply every last-ply action")
    p.add_argument("--all", action="store_true", help="every depth from 1 to DEPTH (0: depth 0)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    state = new_game_of(args)
    for depth in range(min(1, args.depth), args.depth + 1) if args.all else [args.depth]:
        t0 = time.perf_counter()
        nodes = state.perft(depth, bulk=not args.no_bulk)
        dt = time.perf_counter() - t0
        print(f"depth={depth} nodes={nodes} seconds={dt:.3f}")
    return 0
