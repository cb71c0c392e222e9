"""``plateau view``: an HTML page to step through a saved game."""

from __future__ import annotations

import argparse

from plateau.cli.common import NON_NEGATIVE, load_game, summary_stream
from plateau.files import replace_file


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("view", help="an HTML page to step through a game (no server needed)")
    p.add_argument("file", help="a JSON game record or an arena JSON-lines file")
    p.add_argument("--game-index", type=NON_NEGATIVE, help="the arena game (its index)")
    p.add_argument("--viewer", type=NON_NEGATIVE, help="draw what this player sees")
    p.add_argument("--title", help="the page's title")
    p.add_argument("--out", required=True, help="the HTML file to write")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from plateau.render.viewer import viewer_html

    state, title = load_game(args.file, args.game_index)
    page = viewer_html(state, title=args.title or title, viewer=args.viewer)
    replace_file(args.out, page)
    print(
        f"{args.out}: {len(state.history) + 1} pictures, {len(page):,} bytes",
        file=summary_stream(args.out),
    )
    return 0
