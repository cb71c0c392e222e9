"""``plateau demo`` (and ``plateau`` alone): a seeded random game of the standard variant printed
move by move, the final ranking, and perft of the start position."""

from __future__ import annotations

import argparse
import random
import time

from plateau.cli.common import NON_NEGATIVE, PERFT_DEPTH, POSITIVE, add_game_args, spec_of
from plateau.registry import game_info


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("demo", help="a seeded random game, move by move, and perft (default)")
    add_game_args(p)
    p.add_argument("--seed", type=NON_NEGATIVE, default=1, help="seed of the random game")
    p.add_argument("--ply-cap", type=POSITIVE, default=400, help="stop the game after this")
    p.add_argument(
        "--perft-depth", type=PERFT_DEPTH, default=3, help="perft of the start to this depth"
    )
    p.add_argument("--quiet", action="store_true", help="print only the moves and the end")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    spec = spec_of(args)
    state = spec.new_game()
    rng = random.Random(args.seed)
    print(
        f"A random game of {game_info(spec.game).title}, variant {state.variant!r}, "
        f"seed {args.seed}\n"
    )
    print(state)
    while not state.is_terminal() and state.ply < args.ply_cap:
        player = state.current_player
        legal = state.legal_actions()
        action = int(legal[rng.randrange(len(legal))])
        text = state.action_to_string(action)
        state.apply(action)
        print(f"\nply {state.ply - 1}: player {player} plays {text}   ({len(legal)} legal)")
        if not args.quiet:
            print(state)
    if args.quiet:
        print(state)
    print(f"\nfinal ranking (best first): {state.ranking()}")
    print(f"points: {state.returns()}")
    if not game_info(spec.game).perfect_information:
        print("\nthe same position as player 0 saw it (hidden faces as '?'):")
        print(state.observation_string(0))
    start = spec.new_game()
    print("\nperft of the start position (leaf counts, bulk counting at the last ply):")
    for depth in range(1, args.perft_depth + 1):
        t0 = time.perf_counter()
        nodes = start.perft(depth)
        dt = time.perf_counter() - t0
        rate = f"{nodes / dt:,.0f} leaves/s" if dt > 0 else ""
        print(f"  depth {depth}: {nodes:>15,}  {dt:8.3f} s  {rate}")
    return 0
