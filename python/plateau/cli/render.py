"""``plateau render``: a picture of a position: SVG, or PNG for ``--out *.png``."""

from __future__ import annotations

import argparse
import sys

from plateau.cli.common import (
    NON_NEGATIVE,
    add_game_args,
    load_game,
    new_game_of,
    no_game_index,
    positive_float,
    record_alone,
)
from plateau.files import replace_file


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("render", help="a picture of a position: SVG, or PNG for --out *.png")
    add_game_args(p)
    p.add_argument("actions", nargs="*", help="actions from the start, in notation")
    p.add_argument("--record", help="a JSON game record or arena JSON-lines file instead")
    p.add_argument("--game-index", type=NON_NEGATIVE, help="the arena game (its index)")
    p.add_argument("--ply", type=NON_NEGATIVE, help="after this many actions (default: all)")
    p.add_argument("--viewer", type=NON_NEGATIVE, help="draw what this player sees")
    p.add_argument("--no-last", action="store_true", help="do not mark the last action")
    p.add_argument("--scale", type=positive_float, default=1.0, help="PNG size factor")
    p.add_argument("--out", help="the file to write (.svg or .png; default: SVG on stdout)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from plateau import render

    if args.record:
        record_alone(args)
        state, _ = load_game(args.record, args.game_index)
    else:
        no_game_index(args)
        state = new_game_of(args)
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
