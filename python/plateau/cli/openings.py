"""``plateau openings``: an opening file of positions a static evaluation judges even."""

from __future__ import annotations

import argparse

from plateau.cli.common import (
    NON_NEGATIVE,
    POSITIVE,
    add_game_args,
    number,
    spec_of,
    summary_stream,
)
from plateau.record import from_record


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "openings", help="write an opening file of positions a static evaluation judges even"
    )
    add_game_args(p)
    p.add_argument("--count", type=POSITIVE, required=True, help="how many openings")
    p.add_argument("--plies", type=POSITIVE, required=True, help="plies from the start")
    p.add_argument("--out", required=True, help="the opening file to write (JSON lines)")
    p.add_argument("--bot", help="a bot spec that plays the plies (default: random plies)")
    p.add_argument(
        "--max-eval",
        type=number,
        default=None,
        help="keep positions whose evaluation spread (the largest |heuristic| over the "
        "players) is at most this (default: any)",
    )
    p.add_argument("--seed", type=NON_NEGATIVE, default=0, help="seed of the random lines")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from plateau.openings import evaluation_spread, make_openings, write_openings

    spec = spec_of(args)
    records = make_openings(
        spec,
        None,
        args.count,
        args.plies,
        bot=args.bot,
        max_eval=args.max_eval,
        seed=args.seed,
    )
    write_openings(args.out, records)
    spreads = sorted(evaluation_spread(from_record(r)) for r in records)
    print(
        f"{len(records)} openings of {spec.game}/{spec.variant} after {args.plies} plies written "
        f"to {args.out}; evaluation spread min {spreads[0]:g}, median "
        f"{spreads[len(spreads) // 2]:g}, max {spreads[-1]:g}",
        file=summary_stream(args.out),
    )
    return 0
