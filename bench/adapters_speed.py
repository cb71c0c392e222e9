"""Agent-steps per second through the PettingZoo and Gymnasium adapters, on every registered game
and variant (issue 25): ``python bench/adapters_speed.py [--seconds 2] [--rounds 3] [--game G]``.

Two ways of running the same loop of random legal play, side by side:

- ``old``: the default environments (a fresh mask per observation) and the agent picking from
  the mask as the docs used to show it, ``rng.choice(np.flatnonzero(mask))`` with a numpy
  generator;
- ``new``: ``reuse_masks=True`` (each mask one buffer updated in place) and the agent picking
  uniformly from the compact legal ids, ``legal[rng.randrange(len(legal))]`` with
  ``random.Random``.

The adapters timed: the PettingZoo AEC environment as ``plateau.pettingzoo.env`` makes it (with
PettingZoo's order-enforcing wrapper), driven by ``agent_iter`` and ``last``; the Gymnasium
single-agent environment against the ``random`` bot (its steps include the bot's actions, counted
as one agent-step with the agent's action); the vector environment over ``StateBatch`` (8 games,
``action_masks`` read every step, one agent-step per game); every game cut after ``CAP``
actions. An agent-step is one action by the
agent being trained (steps of a done agent with None are not counted). Each figure is the range
over ``--rounds`` runs of ``--seconds`` each. Needs the ``pettingzoo`` extra.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Callable

import numpy as np

import plateau
from plateau.gymnasium import BatchEnv, SingleAgentEnv
from plateau.pettingzoo import env as aec_env

#: games are cut after this many actions: random play in Empire Plateau's duel can go on for
#: tens of thousands of plies (its random games end after 200-3,600 plies as a rule)
CAP = 5000


def aec_steps(game: str, variant: str, new: bool, seconds: float) -> float:
    """Agent-steps/s of random legal play through the wrapped AEC environment."""
    e = aec_env(game=game, variant=variant, max_game_length=CAP, reuse_masks=new)
    rnd = random.Random(0)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        e.reset()
        for _agent in e.agent_iter():
            obs, _reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            if new:
                legal = info["legal_actions"]
                action = int(legal[rnd.randrange(len(legal))])
            else:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            e.step(action)
            steps += 1
    return steps / (time.perf_counter() - start)


def single_steps(game: str, variant: str, new: bool, seconds: float) -> float:
    """Agent-steps/s of random legal play by seat 0 of the single-agent environment."""
    e = SingleAgentEnv(
        game, variant, opponent="random", seat=0, max_game_length=CAP, reuse_masks=new
    )
    rnd = random.Random(0)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _obs, info = e.reset(seed=steps)
        done = False
        while not done:
            if new:
                legal = info["legal_actions"]
                action = int(legal[rnd.randrange(len(legal))])
            else:
                action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _obs, _reward, terminated, truncated, info = e.step(action)
            steps += 1
            done = terminated or truncated
    return steps / (time.perf_counter() - start)


def batch_steps(game: str, variant: str, new: bool, seconds: float) -> float:
    """Agent-steps/s of the vector environment (8 games) with its masks read every step."""
    if plateau.game_info(game).batch is None:
        return float("nan")
    e = BatchEnv(game, variant, num_envs=8, ply_cap=CAP, reuse_masks=new)
    e.reset(seed=0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            e.action_masks()
            e.step(e.sample_legal())
        steps += 50 * e.num_envs
    return steps / (time.perf_counter() - start)


ADAPTERS: dict[str, Callable[[str, str, bool, float], float]] = {
    "PettingZoo AEC": aec_steps,
    "Gymnasium single-agent": single_steps,
    "Gymnasium BatchEnv (8)": batch_steps,
}


def span(values: list[float]) -> str:
    if any(v != v for v in values):
        return "-"
    return f"{min(values):,.0f}-{max(values):,.0f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--game", action="append", help="a game (repeat; default: every game)")
    parser.add_argument("--variant", help="one variant (default: every variant)")
    args = parser.parse_args(argv)
    print(
        "| game | variant | adapter | old: fresh masks, rng.choice | new: reuse_masks, randrange |"
    )
    print("|---|---|---|---:|---:|")
    for game in args.game or plateau.games():
        variants = [args.variant] if args.variant else list(plateau.game_info(game).variants)
        for variant in variants:
            for name, run in ADAPTERS.items():
                figures: dict[bool, list[float]] = {False: [], True: []}
                for _ in range(args.rounds):
                    for new in (False, True):  # interleaved, so that load hits both alike
                        figures[new].append(run(game, variant, new, args.seconds))
                row = [game, variant, name, span(figures[False]), span(figures[True])]
                print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
