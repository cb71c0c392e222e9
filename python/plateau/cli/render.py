"""``plateau render``: a picture of a position: SVG, or PNG for ``--out *.png``."""

from __future__ import annotations

import argparse
import os
import sys

from plateau.cli.common import NON_NEGATIVE, add_position_args, position_of, positive_float
from plateau.errors import InvalidArgumentError
from plateau.files import replace_file

#: suffixes of picture formats other than PNG and SVG: refused rather than given SVG text
OTHER_PICTURES = frozenset(
    [
        ".gif",
        ".jpg",
        ".jpeg",
        ".webp",
        ".bmp",
        ".tif",
        ".tiff",
        ".pdf",
        ".eps",
        ".ps",
        ".ico",
        ".avif",
        ".heic",
        ".jxl",
    ]
)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("render", help="a picture of a position: SVG, or PNG for --out *.png")
    add_position_args(p)
    p.add_argument("--ply", type=NON_NEGATIVE, help="after this many actions (default: all)")
    p.add_argument("--viewer", type=NON_NEGATIVE, help="draw what this player sees")
    p.add_argument("--no-last", action="store_true", help="do not mark the last action")
    p.add_argument("--scale", type=positive_float, default=1.0, help="PNG size factor")
    p.add_argument("--out", help="the file to write (.svg or .png; default: SVG on stdout)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from plateau import render

    suffix = os.path.splitext(args.out or "")[1].lower()
    if suffix in OTHER_PICTURES:
        raise InvalidArgumentError(
            f"--out {args.out}: plateau render writes PNG (.png) or SVG (any other name), "
            f"not {suffix[1:].upper()}"
        )
    state, _ = position_of(args)
    plies = len(state.history)
    if args.ply is not None:
        if args.ply > plies:
            raise InvalidArgumentError(f"--ply {args.ply}: the game has {plies} actions")
        for _ in range(plies - args.ply):
            state.undo()
    last = not args.no_last
    if suffix == ".png":
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
