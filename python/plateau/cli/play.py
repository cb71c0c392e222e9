"""``plateau play``: a game in the terminal against bots."""

from __future__ import annotations

import argparse

from plateau.cli.common import NON_NEGATIVE, add_game_args, game_given, spec_of
from plateau.errors import InvalidArgumentError, InvalidRecordError
from plateau.files import read_text_limited
from plateau.record import from_json


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("play", help="play in the terminal against bots")
    add_game_args(p)
    p.add_argument(
        "--human",
        type=NON_NEGATIVE,
        action="append",
        default=None,
        help="a seat you play (repeatable; default 0)",
    )
    p.add_argument("--bots", default="mcts:seconds=1", help="bot spec(s) for the other seats")
    p.add_argument("--seed", type=NON_NEGATIVE, default=0, help="seed of the bots")
    p.add_argument("--load", help="continue a saved game record")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from plateau.bots import make_bot
    from plateau.play import HELP, play, read_line

    if args.load is not None:  # first: the bots are checked against the game actually played
        given = game_given(args)
        if given:
            raise InvalidArgumentError(
                f"--load gives the game, its variant and options: {', '.join(given)} cannot go "
                "with it"
            )
        state = from_json(read_text_limited(args.load, InvalidRecordError))
    else:
        state = spec_of(args).new_game()
    humans = sorted(set(args.human))
    for h in humans:
        if not 0 <= h < state.num_players:
            raise InvalidArgumentError(f"--human {h}: seats are 0..{state.num_players - 1}")
    from plateau.arena import split_bot_list

    specs = split_bot_list(args.bots)
    others = [p for p in range(state.num_players) if p not in humans]
    if len(specs) not in (1, len(others)):
        raise InvalidArgumentError(f"{len(others)} seats need bots; give one spec or {len(others)}")
    bots = {p: make_bot(specs[i % len(specs)], seed=args.seed + p) for i, p in enumerate(others)}
    for bot in bots.values():
        bot.check_game(state)  # before the first move, not in the middle of the game
    print(HELP)
    play(state, humans, bots, read=read_line)
    return 0
