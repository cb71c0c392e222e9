"""``plateau playouts``: uniformly random games inside the compiled core."""

from __future__ import annotations

import argparse
import time

from plateau.cli.common import NON_NEGATIVE, POSITIVE, add_game_args, spec_of
from plateau.registry import random_playouts


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("playouts", help="uniformly random games inside the core")
    add_game_args(p)
    p.add_argument("--games", type=POSITIVE, default=10000, help="how many games")
    p.add_argument("--seed", type=NON_NEGATIVE, default=0, help="seed of the first game")
    p.add_argument("--ply-cap", type=POSITIVE, default=400, help="cap on plies a game")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    t0 = time.perf_counter()
    r = random_playouts(spec_of(args), None, args.games, seed=args.seed, ply_cap=args.ply_cap)
    dt = max(time.perf_counter() - t0, 1e-9)
    print(
        f"games={r['games']} plies={r['plies']} ended={r['ended']} wins={r['wins']} "
        f"seconds={dt:.3f} games_per_s={r['games'] / dt:,.0f} plies_per_s={r['plies'] / dt:,.0f}"
    )
    return 0
