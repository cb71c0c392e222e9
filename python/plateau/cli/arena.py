"""``plateau arena``: bots and engines against each other, many games, with statistics."""

from __future__ import annotations

import argparse
import os

from plateau.cli.common import NON_NEGATIVE, POSITIVE, add_game_args, positive_float, spec_of


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("arena", help="bots against bots, many games, with statistics")
    add_game_args(p)
    p.add_argument(
        "--bots", required=True, help="one spec per seat, e.g. mcts:iters=2000,greedy,random,random"
    )
    p.add_argument(
        "--games",
        type=POSITIVE,
        default=None,
        help="how many games (default 100); with --sprt the maximum (default 20000)",
    )
    p.add_argument("--jobs", type=POSITIVE, default=os.cpu_count() or 1, help="worker processes")
    p.add_argument("--seed", type=NON_NEGATIVE, default=0, help="seed of the whole arena")
    p.add_argument("--out", help="JSON-lines file: one game record per line")
    p.add_argument("--resume", action="store_true", help="keep the games already in --out")
    p.add_argument(
        "--backend", choices=["process", "ray"], default="process", help="where games run"
    )
    p.add_argument("--address", help="Ray cluster address (default: a local Ray instance)")
    p.add_argument(
        "--move-timeout",
        type=positive_float,
        default=None,
        help="seconds a bot may take for a move before it forfeits",
    )
    p.add_argument(
        "--ply-cap",
        type=POSITIVE,
        default=400,
        help="stop a game after this, scored as it stands",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument(
        "--sprt",
        nargs="+",
        metavar="KEY=VALUE",
        help="two bots: play game pairs until a sequential test decides, e.g. "
        "--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 [model=trinomial] (docs/sprt.md)",
    )
    p.add_argument(
        "--tc",
        metavar="BASE+INC",
        help="game clocks: BASE seconds per seat and game, INC added after each move "
        "(e.g. 10+0.1); a bot whose clock runs out loses on time",
    )
    start = p.add_mutually_exclusive_group()
    start.add_argument(
        "--openings",
        metavar="FILE",
        help="start games from the openings of FILE (JSON lines of game records, cycled); "
        "the seat rotations of a game share its opening (docs/openings.md)",
    )
    start.add_argument(
        "--random-plies",
        type=POSITIVE,
        metavar="N",
        help="start games after N random plies (seeded by --seed), shared by the seat rotations",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from plateau import arena
    from plateau.clock import TimeControl
    from plateau.openings import OpeningSource
    from plateau.sprt import SPRT

    sprt = SPRT.parse(args.sprt) if args.sprt is not None else None
    openings = None
    if args.openings is not None:
        openings = OpeningSource(path=args.openings)
    elif args.random_plies is not None:
        openings = OpeningSource(random_plies=args.random_plies)
    games = args.games if args.games is not None else (20000 if sprt else 100)
    result = arena.run(
        spec_of(args),
        None,
        arena.split_bot_list(args.bots),
        games=games,
        jobs=args.jobs,
        seed=args.seed,
        out=args.out,
        resume=args.resume,
        backend=args.backend,
        address=args.address,
        move_timeout=args.move_timeout,
        ply_cap=args.ply_cap,
        progress=not args.no_progress,
        sprt=sprt,
        tc=TimeControl.parse(args.tc) if args.tc is not None else None,
        openings=openings,
    )
    print(result.format_table())
    return 0
