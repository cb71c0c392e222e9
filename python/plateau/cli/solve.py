"""``plateau solve``: prove a two-player position's value (win, loss or draw with its distance,
and every winning first action) within a budget."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

from plateau.cli.common import (
    NON_NEGATIVE,
    POSITIVE,
    add_position_args,
    position_of,
    positive_seconds,
    printable,
)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "solve",
        help="prove a two-player position: win, loss or draw, its distance, the winning actions",
    )
    add_position_args(p)
    p.add_argument(
        "--ply",
        type=NON_NEGATIVE,
        default=None,
        help="with --record: the position after this many of its actions (default: its end)",
    )
    p.add_argument(
        "--seconds", type=positive_seconds, default=10.0, help="time budget (default 10)"
    )
    p.add_argument("--nodes", type=POSITIVE, default=None, help="node budget (default: none)")
    p.add_argument(
        "--max-distance",
        type=POSITIVE,
        default=200,
        help="the deepest distance in actions searched (default 200, at most 1000)",
    )
    p.add_argument("--json", action="store_true", help="the solution as one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from plateau.errors import InvalidArgumentError
    from plateau.solver import solve

    state, title = position_of(args)
    if args.ply is not None:
        if args.record is None:
            raise InvalidArgumentError(
                "--ply picks a position of a --record; without one, give "
                "the ACTIONS that lead to it"
            )
        if args.ply > state.ply:
            raise InvalidArgumentError(f"--ply {args.ply}: the record has {state.ply} actions")
        while state.ply > args.ply:
            state.undo()
    sol = solve(state, seconds=args.seconds, nodes=args.nodes, max_distance=args.max_distance)
    if args.json:
        data = asdict(sol)
        data["proven"], data["complete"] = sol.proven, sol.complete
        data["names"] = {str(k): v for k, v in sol.names.items()}
        print(json.dumps({"game": state.game, "variant": state.variant, "ply": state.ply, **data}))
        return 0
    if title is not None:
        print(printable(title))
    print(
        f"{state.game}/{state.variant} after {state.ply} actions, player {state.current_player} "
        "to act:"
    )
    print(sol)
    return 0
