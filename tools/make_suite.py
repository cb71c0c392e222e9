"""Make a test-position suite (``plateau.suites``) from bot games: positions where the player to
move has a forced win, proven by the solver with every winning first action, graded by the
distance (win in 1, 3, 5, ... actions).

    python tools/make_suite.py plateau-x mini python/plateau/games/x/suites/plateau-x-mini.jsonl \\
        --count 300 --distances 1,3,5,7 --bots greedy,mcts:iters=200 --nodes 300000

Each game is played by the bots (alternating who starts, a few random plies first), then walked
back from its end: each position is solved within ``--nodes``; a proven win whose every first
action is decided, at a wanted distance whose share is not yet full, joins the suite (at most
two positions per distance per game, four plies apart or more), if at most ``--max-share`` of
its actions win. In a game with hidden information the position must also have the same answer
in ``--views`` worlds drawn from the mover's view (bots are handed such a view). The walk stops
after three unproven positions in a row.

    python tools/make_suite.py albea-plateau standard OUT --distances 1,3 --within \
        --bots greedy,alphabeta:depth=2 --nodes 200000
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import plateau
from plateau.bots import make_bot
from plateau.solver import Solution, Solver
from plateau.suites import SuitePosition, read_suite, write_suite


def same_in_views(
    state: plateau.GameState, sol: Solution, solver: Solver, views: int, rng: random.Random
) -> bool:
    """Whether ``views`` worlds drawn from the mover's view of ``state`` (a game with hidden
    information; always true otherwise) have the answer ``sol`` has for the referee's position."""
    if plateau.game_info(state.game).perfect_information:
        return True
    sampler = state.determinizer(state.current_player)

    def answer(s: plateau.GameState, got: Solution) -> tuple[object, ...]:
        return (
            got.value,
            got.distance,
            got.complete,
            sorted(s.action_to_string(a) for a in got.winning_actions),
            sorted(s.action_to_string(a) for a in got.best_actions),
        )

    want = answer(state, sol)
    for _ in range(views):
        world = sampler.sample(rng.getrandbits(63))
        if answer(world, solver.solve(world)) != want:
            return False
    return True


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game")
    p.add_argument("variant")
    p.add_argument("out")
    p.add_argument("--count", type=int, default=300, help="positions in the suite")
    p.add_argument("--distances", default="1,3,5,7", help="the distances wanted, equal shares")
    p.add_argument("--bots", default="greedy,mcts:iters=200", help="the two bots of the games")
    p.add_argument("--random-plies", type=int, default=4, help="random plies to open each game")
    p.add_argument("--nodes", type=int, default=300_000, help="the solver's budget a position")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-games", type=int, default=5000)
    p.add_argument(
        "--max-seconds",
        type=float,
        default=0.0,
        help="stop after this long with what was found (0: no limit)",
    )
    p.add_argument(
        "--max-share",
        type=float,
        default=0.34,
        help="keep a position only if at most this share of its actions win (default 0.34: "
        "a position where most actions win tests nothing)",
    )
    p.add_argument(
        "--within",
        action="store_true",
        help="list the first actions that win within each position's distance (the others "
        "proven not to) instead of at any distance: for games without a move limit, where a "
        "slower win cannot be told from no win",
    )
    p.add_argument(
        "--views",
        type=int,
        default=8,
        help="games with hidden information: keep a position only if the solver gives the same "
        "answer (value, distance, winning and fastest actions) in this many worlds drawn from "
        "the mover's view as in the referee's position, so that a bot handed a view can know it",
    )
    p.add_argument(
        "--append",
        action="store_true",
        help="keep the positions already in OUT (a position already there is not taken again) "
        "and add the new ones after them, numbered on: how a suite gets a deeper grade",
    )
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    args = p.parse_args(argv)
    from plateau.cli.common import parse_option

    options = dict(parse_option(o) for o in args.option)
    distances = [int(d) for d in args.distances.split(",")]
    share = {
        d: args.count // len(distances) + (i < args.count % len(distances))
        for i, d in enumerate(distances)
    }
    found: dict[int, list[SuitePosition]] = {d: [] for d in distances}
    seen: set[int] = set()
    kept: list[SuitePosition] = []
    if args.append and Path(args.out).exists():
        kept = read_suite(args.out)
        seen.update(pos.state().hash for pos in kept)
    specs = args.bots.split(",")
    t0 = time.time()
    for game_no in range(args.max_games):
        if all(len(found[d]) >= share[d] for d in distances):
            break
        if args.max_seconds and time.time() - t0 > args.max_seconds:
            break
        seed = args.seed * 1_000_003 + game_no
        rng = random.Random(seed)
        state = plateau.new_game(args.game, args.variant, **options)
        bots = [make_bot(specs[(i + game_no) % 2], seed=seed + i) for i in range(2)]
        while not state.is_terminal() and state.ply < 600:
            if state.ply < args.random_plies:
                state.apply(rng.choice(state.legal_actions().tolist()))
            else:
                state.apply(bots[state.current_player].select_action(state))
        if not state.is_terminal():
            continue
        # within=1 means "within each position's own distance" (the solver never goes below it)
        solver = Solver(
            nodes=args.nodes, max_distance=max(distances), within=1 if args.within else None
        )
        taken: dict[int, int] = {}  # distance -> the ply of the last position taken
        taken_all: list[int] = []
        misses = 0
        while state.ply > args.random_plies and misses < 3:
            state.undo()
            if state.hash in seen:
                continue
            sol = solver.solve(state)
            if not sol.proven:
                misses += 1
                continue
            misses = 0
            d = sol.distance
            if (
                sol.value != "win"
                or not sol.complete
                or d not in found
                or (d in taken and taken[d] - state.ply < 4)
                or sum(1 for k in taken_all if k == d) >= 2
                or len(found[d]) >= share[d]
                or len(sol.winning_actions) > args.max_share * state.num_legal_actions()
            ):
                continue
            if not same_in_views(state, sol, solver, args.views, rng):
                continue
            seen.add(state.hash)
            taken[d] = state.ply
            taken_all.append(d)
            names = {a: state.action_to_string(a) for a in sol.winning_actions}
            found[d].append(
                SuitePosition(
                    id="",
                    game=state.game,
                    variant=state.variant,
                    options=dict(options),
                    actions=state.history_strings(),
                    to_move=state.current_player,
                    value="win",
                    distance=d,
                    best=[names[a] for a in sol.best_actions],
                    winning=[names[a] for a in sol.winning_actions],
                    difficulty=d,
                    within=sol.within,
                    comment=f"{specs[game_no % 2]} v {specs[(game_no + 1) % 2]}, seed {seed}, "
                    f"ply {state.ply}; {len(sol.winning_actions)} of "
                    f"{state.num_legal_actions()} actions win",
                )
            )
        counts = ", ".join(f"win in {d}: {len(found[d])}/{share[d]}" for d in distances)
        print(f"game {game_no}: {counts} ({time.time() - t0:.0f} s)", file=sys.stderr, flush=True)
    positions = [pos for d in distances for pos in found[d]]
    prefix = f"{args.game}-{args.variant}"
    for k, pos in enumerate(positions, len(kept) + 1):
        pos.id = f"{prefix}-{k:04d}"
    write_suite(args.out, kept + positions)
    print(
        f"{len(positions)} new positions, {len(kept) + len(positions)} in {args.out} "
        f"({time.time() - t0:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
