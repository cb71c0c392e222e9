"""``plateau arena``: bots and engines against each other, many games, with statistics."""

from __future__ import annotations

import argparse
import os
import sys

from plateau.cli.common import (
    NON_NEGATIVE,
    POSITIVE,
    RESUME_HINT,
    add_game_args,
    positive_seconds,
    spec_of,
)
from plateau.pairings import FORMATS


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("arena", help="bots against bots, many games, with statistics")
    add_game_args(p)
    p.add_argument(
        "--bots",
        required=True,
        help="the bots, e.g. mcts:iters=2000,greedy,random,random: one per seat, or more for a "
        "tournament",
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="who plays whom: seats (one bot per seat, rotated; the default then), round-robin "
        "(every set of bots in every seating; the default with more bots than seats), gauntlet "
        "(the first bot against the others)",
    )
    count = p.add_mutually_exclusive_group()
    count.add_argument(
        "--games",
        type=POSITIVE,
        default=None,
        help="how many games (default 100, or the whole rounds of a tournament that reach it); "
        "with --sprt the maximum (default 20000)",
    )
    count.add_argument(
        "--rounds",
        type=POSITIVE,
        default=None,
        help="how many rounds: each plays every seating once (the seat rotations, or every "
        "pairing of a tournament in each seating), from one opening",
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
        type=positive_seconds,
        default=None,
        help="seconds a bot may take for a move before it forfeits",
    )
    p.add_argument(
        "--ply-cap",
        type=POSITIVE,
        default=400,
        help="stop a game after this, scored as it stands",
    )
    p.add_argument(
        "--resign",
        metavar="SETTINGS",
        help='two players: "movecount=3 score=600" ends a game when one side has reported a '
        "score <= -600 for 3 moves of its own and the other >= +600 for as many",
    )
    p.add_argument(
        "--draw",
        metavar="SETTINGS",
        help='two players: "movenumber=40 movecount=8 score=10" draws a game when, after ply '
        "40, both sides have reported |score| <= 10 for 8 moves of their own",
    )
    p.add_argument(
        "--adjudicate-solver",
        metavar="SETTINGS",
        help='two players: "nodes=20000 after=0" ends a game as soon as the solver proves its '
        "value within that many nodes (from that ply on)",
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
    from plateau.adjudication import Adjudication
    from plateau.clock import TimeControl
    from plateau.errors import InvalidArgumentError
    from plateau.openings import OpeningSource
    from plateau.pairings import Schedule, default_format
    from plateau.sprt import SPRT

    sprt = SPRT.parse(args.sprt) if args.sprt is not None else None
    openings = None
    if args.openings is not None:
        openings = OpeningSource(path=args.openings)
    elif args.random_plies is not None:
        openings = OpeningSource(random_plies=args.random_plies)
    spec = spec_of(args)
    bots = arena.split_bot_list(args.bots)
    seats = spec.new_game().num_players
    fmt = args.format or default_format(len(bots), seats)
    try:
        round_games = Schedule.make(fmt, len(bots), seats).round_games
    except InvalidArgumentError as e:
        raise InvalidArgumentError(f"{spec.game}/{spec.variant}: {e}") from None
    if args.rounds is not None:
        games = args.rounds * round_games
    elif args.games is not None:
        games = args.games
    else:
        games = 20000 if sprt else -(-100 // round_games) * round_games
    try:
        result = arena.run(
            spec,
            None,
            bots,
            format=fmt,
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
            adjudication=Adjudication.parse(args.resign, args.draw, args.adjudicate_solver),
        )
    except arena.ArenaWorkerError as e:
        hint = RESUME_HINT if args.out else ""
        print(f"plateau: error: {e}{hint}", file=sys.stderr)
        return 1
    print(result.format_table())
    return 0
