"""The ``plateau`` command. With no arguments it runs the demo: a seeded random game of the
standard variant printed move by move, the final ranking, and perft of the start position."""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import time
from collections.abc import Callable, Sequence

from plateau import __version__
from plateau.checks import load_outside_json
from plateau.errors import InvalidRecordError, InvalidResultsError
from plateau.files import replace_file
from plateau.record import from_json, from_record
from plateau.registry import GameSpec, game_info, games, random_playouts, resolve
from plateau.state import GameState


def _add_game_args(p: argparse.ArgumentParser, what: str = "the game to play") -> None:
    # not choices=: an unknown game is the registry's UnknownGameError, one line and exit 2
    p.add_argument("--game", default="plateau-x", help=f"{what}: {', '.join(games())}")
    p.add_argument("--variant", default=None, help="variant name (default: the game's default)")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option (repeatable), e.g. board=ep24, board=my_board.json, max_plies=200; "
        "the value is read as JSON if it parses (numbers, true, false), else as text",
    )


def parse_option(text: str) -> tuple[str, object]:
    """``KEY=VALUE`` of ``--option``: the value as JSON where it parses, else the text.

    >>> parse_option("max_plies=200"), parse_option("board=ep24")
    (('max_plies', 200), ('board', 'ep24'))
    """
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise ValueError(f"--option {text!r}: expected KEY=VALUE, e.g. board=ep24")
    try:
        value: object = load_outside_json(raw, ValueError, "--option")
    except ValueError:  # not JSON: the text itself (a board's name or path)
        value = raw
    return key, value


def _spec(args: argparse.Namespace) -> GameSpec:
    """The game spec of ``--game``, ``--variant`` and the ``--option`` flags, checked once."""
    options: dict[str, object] = {}
    for text in args.option:
        key, value = parse_option(text)
        if key in options:
            raise ValueError(f"--option {key}: given twice")
        options[key] = value
    return resolve(args.game, args.variant, **options)


def _new_game(args: argparse.Namespace) -> GameState:
    """A new game of the command line's spec, after ``args.actions`` if it has them."""
    state = _spec(args).new_game()
    state.apply_all(getattr(args, "actions", []))
    return state


def _int_at_least(low: int) -> Callable[[str], int]:
    """An argparse type: an int >= ``low`` (so ``--jobs 0`` is refused with a message)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        return value

    return parse


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return value


POSITIVE = _int_at_least(1)
NON_NEGATIVE = _int_at_least(0)


def cmd_demo(args: argparse.Namespace) -> int:
    spec = _spec(args)
    state = spec.new_game()
    rng = random.Random(args.seed)
    print(
        f"A random game of {game_info(args.game).title}, variant {state.variant!r}, "
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
    if not game_info(args.game).perfect_information:
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


def cmd_perft(args: argparse.Namespace) -> int:
    state = _new_game(args)
    for depth in range(1, args.depth + 1) if args.all else [args.depth]:
        t0 = time.perf_counter()
        nodes = state.perft(depth, bulk=not args.no_bulk)
        dt = time.perf_counter() - t0
        print(f"depth={depth} nodes={nodes} seconds={dt:.3f}")
    return 0


def cmd_legal(args: argparse.Namespace) -> int:
    state = _new_game(args)
    for text in sorted(state.legal_action_strings()):
        print(text)
    return 0


def _record_alone(args: argparse.Namespace) -> None:
    """With ``--record`` the record gives the game: refuse what would otherwise be ignored."""
    given = [
        flag
        for flag, value in (
            ("--game", args.game != "plateau-x"),
            ("--variant", args.variant is not None),
            ("--option", bool(args.option)),
            ("ACTIONS", bool(args.actions)),
        )
        if value
    ]
    if given:
        raise ValueError(
            f"--record gives the game, its variant, options and actions: "
            f"{', '.join(given)} cannot go with it"
        )


def _no_game_index(args: argparse.Namespace) -> None:
    if args.game_index is not None:
        raise ValueError("--game-index picks a game of an arena file: it needs --record")


def cmd_show(args: argparse.Namespace) -> int:
    if args.record:
        _record_alone(args)
        state, title = _load_game(args.record, args.game_index)
        print(title)
    else:
        _no_game_index(args)
        state = _new_game(args)
    print(state)
    print(f"ranking: {state.ranking()}  hash: {state.hash:016x}")
    return 0


def _load_game(path: str, game_index: int | None = None) -> tuple[GameState, str]:
    """The game in ``path``, a JSON game record or an arena's JSON-lines file (the game whose
    ``index`` is ``game_index``, default the file's first), and a title for it."""
    from plateau import arena
    from plateau.checks import load_outside_json

    with open(path, encoding="utf-8") as f:
        text = f.read()
    first = text.lstrip().split("\n", 1)[0]
    try:
        head = load_outside_json(first, ValueError, path)
    except ValueError:
        head = None
    if not (isinstance(head, dict) and head.get("format") == arena.FORMAT):
        if game_index is not None:
            raise ValueError(f"{path} is a game record, not an arena file: no --game-index")
        state = from_json(text)
        return state, f"{os.path.basename(path)}: {state.game} {state.variant}"
    results = arena.read_results(path)
    if not results:
        raise ValueError(f"{path}: no arena game in the file")
    chosen = results[0] if game_index is None else None
    for r in results:
        if r.index == game_index:
            chosen = r
    if chosen is None:
        known = ", ".join(str(r.index) for r in results[:20])
        raise ValueError(f"{path} has no game with index {game_index} (games: {known}, ...)")
    try:
        state = from_record(chosen.record)
    except InvalidRecordError as e:
        raise InvalidResultsError(f"{path}: arena game {chosen.index}: its record: {e}") from None
    seats = ", ".join(f"{p}: {bot}" for p, bot in enumerate(chosen.seats))
    title = (
        f"arena game {chosen.index}, {chosen.game} {chosen.variant} ({seats}); "
        f"ranking {chosen.ranking}"
    )
    return state, title


def cmd_render(args: argparse.Namespace) -> int:
    from plateau import render

    if args.record:
        _record_alone(args)
        state, _ = _load_game(args.record, args.game_index)
    else:
        _no_game_index(args)
        state = _new_game(args)
    plies = len(state.history)
    if args.ply is not None:
        if args.ply > plies:
            raise ValueError(f"--ply {args.ply}: the game has {plies} actions")
        for _ in range(plies - args.ply):
            state.undo()
    last = not args.no_last
    if args.out and args.out.lower().endswith(".png"):
        try:
            data = render.png(state, args.viewer, last, scale=args.scale)
        except ImportError as e:
            print(f"plateau: error: {e}", file=sys.stderr)
            return 2
        replace_file(args.out, data)
    elif args.out:
        replace_file(args.out, render.svg(state, args.viewer, last))
    else:
        print(render.svg(state, args.viewer, last))
    return 0


def cmd_view(args: argparse.Namespace) -> int:
    from plateau.render.viewer import viewer_html

    state, title = _load_game(args.file, args.game_index)
    page = viewer_html(state, title=args.title or title, viewer=args.viewer)
    replace_file(args.out, page)
    print(f"{args.out}: {len(state.history) + 1} pictures, {len(page):,} bytes")
    return 0


def cmd_playouts(args: argparse.Namespace) -> int:
    t0 = time.perf_counter()
    r = random_playouts(_spec(args), None, args.games, seed=args.seed, ply_cap=args.ply_cap)
    dt = max(time.perf_counter() - t0, 1e-9)
    print(
        f"games={r['games']} plies={r['plies']} ended={r['ended']} wins={r['wins']} "
        f"seconds={dt:.3f} games_per_s={r['games'] / dt:,.0f} plies_per_s={r['plies'] / dt:,.0f}"
    )
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    import platform
    import warnings

    from plateau.bench import format_table, run

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rows = run(
            yardstick=args.yardstick,
            quick=args.quick,
            game=_spec(args),
            progress=lambda what: print(f"  running: {what}", file=sys.stderr, flush=True),
        )
    for w in caught:
        print(f"plateau: warning: {w.message}", file=sys.stderr)
    cpu = platform.processor() or platform.machine()
    flags = f" --variant {args.variant}" if args.variant else ""
    flags += "".join(f" --option {o}" for o in args.option) + (" --quick" if args.quick else "")
    print(
        f"plateau bench --game {args.game}{flags} on {cpu}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print(format_table(rows))
    return 0


def cmd_arena(args: argparse.Namespace) -> int:
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
        _spec(args),
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


def cmd_openings(args: argparse.Namespace) -> int:
    from plateau.openings import evaluation_spread, make_openings, write_openings

    spec = _spec(args)
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
        f"{spreads[len(spreads) // 2]:g}, max {spreads[-1]:g}"
    )
    return 0


def cmd_arena_report(args: argparse.Namespace) -> int:
    from plateau import arena

    print(arena.report(args.file).format_table())
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from plateau.bots import make_bot
    from plateau.play import HELP, play

    if args.load:  # first: the bots are checked against the game actually played
        with open(args.load, encoding="utf-8") as f:
            state = from_json(f.read())
    else:
        state = _spec(args).new_game()
    humans = sorted(set(args.human))
    for h in humans:
        if not 0 <= h < state.num_players:
            raise ValueError(f"--human {h}: seats are 0..{state.num_players - 1}")
    from plateau.arena import split_bot_list

    specs = split_bot_list(args.bots)
    others = [p for p in range(state.num_players) if p not in humans]
    if len(specs) not in (1, len(others)):
        raise ValueError(f"{len(others)} seats need bots; give one spec or {len(others)}")
    bots = {p: make_bot(specs[i % len(specs)], seed=args.seed + p) for i, p in enumerate(others)}
    for bot in bots.values():
        bot.check_game(state)  # before the first move, not in the middle of the game
    print(HELP)
    play(state, humans, bots)
    return 0


def cmd_engine(args: argparse.Namespace) -> int:
    from plateau.engine import serve

    return serve(args.bot, seed=args.seed)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="plateau",
        description="Rules engines for the Plateau board games. With no command: the demo.",
    )
    parser.add_argument("--version", action="version", version=f"plateau {__version__}")
    sub = parser.add_subparsers(dest="command")

    p = sub.add_parser("demo", help="a seeded random game, move by move, and perft (default)")
    _add_game_args(p)
    p.add_argument("--seed", type=NON_NEGATIVE, default=1, help="seed of the random game")
    p.add_argument("--ply-cap", type=POSITIVE, default=400, help="stop the game after this")
    p.add_argument(
        "--perft-depth", type=NON_NEGATIVE, default=3, help="perft of the start to this depth"
    )
    p.add_argument("--quiet", action="store_true", help="print only the moves and the end")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("perft", help="count leaf positions after ACTIONS from the start")
    _add_game_args(p)
    p.add_argument("depth", type=int, help="plies to count (0-63)")
    p.add_argument("actions", nargs="*", help="actions from the start, in notation")
    p.add_argument("--no-bulk", action="store_true", help="apply every last-ply action")
    p.add_argument("--all", action="store_true", help="every depth from 1 to DEPTH")
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser("legal", help="the legal actions after ACTIONS, byte-sorted")
    _add_game_args(p)
    p.add_argument("actions", nargs="*", help="actions from the start, in notation")
    p.set_defaults(func=cmd_legal)

    p = sub.add_parser("show", help="the diagram after ACTIONS, or of a saved record")
    _add_game_args(p)
    p.add_argument("actions", nargs="*", help="actions from the start, in notation")
    p.add_argument("--record", help="a JSON game record or arena JSON-lines file instead")
    p.add_argument("--game-index", type=NON_NEGATIVE, help="the arena game (its index)")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("render", help="a picture of a position: SVG, or PNG for --out *.png")
    _add_game_args(p)
    p.add_argument("actions", nargs="*", help="actions from the start, in notation")
    p.add_argument("--record", help="a JSON game record or arena JSON-lines file instead")
    p.add_argument("--game-index", type=NON_NEGATIVE, help="the arena game (its index)")
    p.add_argument("--ply", type=NON_NEGATIVE, help="after this many actions (default: all)")
    p.add_argument("--viewer", type=NON_NEGATIVE, help="draw what this player sees")
    p.add_argument("--no-last", action="store_true", help="do not mark the last action")
    p.add_argument("--scale", type=_positive_float, default=1.0, help="PNG size factor")
    p.add_argument("--out", help="the file to write (.svg or .png; default: SVG on stdout)")
    p.set_defaults(func=cmd_render)

    p = sub.add_parser("view", help="an HTML page to step through a game (no server needed)")
    p.add_argument("file", help="a JSON game record or an arena JSON-lines file")
    p.add_argument("--game-index", type=NON_NEGATIVE, help="the arena game (its index)")
    p.add_argument("--viewer", type=NON_NEGATIVE, help="draw what this player sees")
    p.add_argument("--title", help="the page's title")
    p.add_argument("--out", required=True, help="the HTML file to write")
    p.set_defaults(func=cmd_view)

    p = sub.add_parser("playouts", help="uniformly random games inside the core")
    _add_game_args(p)
    p.add_argument("--games", type=POSITIVE, default=10000, help="how many games")
    p.add_argument("--seed", type=NON_NEGATIVE, default=0, help="seed of the first game")
    p.add_argument("--ply-cap", type=POSITIVE, default=400, help="cap on plies a game")
    p.set_defaults(func=cmd_playouts)

    p = sub.add_parser("arena", help="bots against bots, many games, with statistics")
    _add_game_args(p)
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
        type=_positive_float,
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
    p.set_defaults(func=cmd_arena)

    p = sub.add_parser(
        "openings", help="write an opening file of positions a static evaluation judges even"
    )
    _add_game_args(p)
    p.add_argument("--count", type=POSITIVE, required=True, help="how many openings")
    p.add_argument("--plies", type=POSITIVE, required=True, help="plies from the start")
    p.add_argument("--out", required=True, help="the opening file to write (JSON lines)")
    p.add_argument("--bot", help="a bot spec that plays the plies (default: random plies)")
    p.add_argument(
        "--max-eval",
        type=float,
        default=None,
        help="keep positions whose evaluation spread (the largest |heuristic| over the "
        "players) is at most this (default: any)",
    )
    p.add_argument("--seed", type=NON_NEGATIVE, default=0, help="seed of the random lines")
    p.set_defaults(func=cmd_openings)

    p = sub.add_parser("arena-report", help="re-tabulate an arena from its JSON-lines file")
    p.add_argument("file", help="the JSON-lines file of an arena (its --out)")
    p.set_defaults(func=cmd_arena_report)

    p = sub.add_parser("play", help="play in the terminal against bots")
    _add_game_args(p)
    p.add_argument(
        "--human",
        type=int,
        action="append",
        default=None,
        help="a seat you play (repeatable; default 0)",
    )
    p.add_argument("--bots", default="mcts:seconds=1", help="bot spec(s) for the other seats")
    p.add_argument("--seed", type=NON_NEGATIVE, default=0, help="seed of the bots")
    p.add_argument("--load", help="continue a saved game record")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "engine", help="serve a bot over the engine protocol on stdin/stdout (for the arena)"
    )
    p.add_argument("--bot", default="random", help="the bot spec to serve, e.g. mcts:iters=500")
    p.add_argument("--seed", type=NON_NEGATIVE, default=0, help="seed of the bot")
    p.set_defaults(func=cmd_engine)

    p = sub.add_parser("bench", help="speed figures and ratios against yardsticks")
    p.add_argument(
        "--yardstick",
        metavar="PATH",
        help="the native yardstick program the game's benchmark times against, if it has one "
        "(Plateau X: plateau-x-yardstick)",
    )
    p.add_argument("--quick", action="store_true", help="smaller workloads (a smoke run)")
    _add_game_args(p, "the game to measure")
    p.set_defaults(func=cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # bots of your own by import path (--bots mybots:MyBot) are found in the current directory,
    # as `python -m` would find them
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "human", 0) is None:
        args.human = [0]
    if args.command is None:
        args = parser.parse_args(["demo", *(argv or [])])
    try:
        return int(args.func(args))
    except BrokenPipeError:  # `plateau show | head`: the reader left; stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except (ValueError, OSError) as e:  # bad actions, records, options or files: a message
        print(f"plateau: error: {e}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, SystemExit) as e:  # Ctrl-C, or a signal ending an arena
        signum = getattr(e, "signum", None)  # plateau.arena.Terminated: SIGTERM, SIGHUP
        if isinstance(e, SystemExit) and not isinstance(signum, int):
            raise
        hint = " (the games so far are in --out; continue with --resume)"
        resumable = args.command == "arena" and getattr(args, "out", None)
        what = "interrupted" if signum is None else f"terminated by {signal.Signals(signum).name}"
        print(f"\nplateau: {what}{hint if resumable else ''}", file=sys.stderr)
        return 130 if signum is None else 128 + signum
