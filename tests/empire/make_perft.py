"""Regenerate ``tests/empire/perft.json`` with the pure-Python Empire reference.

Usage (from the repository root)::

    python tests/empire/make_perft.py [--max-seconds 60] [--out FILE]

For each game -- ``two``, ``four``, ``duel``, ``three`` on ep16, ``two`` on ep24 -- it stores the
start position and six positions reached by seeded random play, each with the actions from the
start, the position dict (``State.position()``) and perft counts.  Depths 1 and 2 are always
counted; depth 3 only when its estimated time (depth-2 time x depth-2 count / depth-1 count) is
below ``--max-seconds`` (the estimate is machine dependent; the counts are not).

Random play: at each ply a seeded ``random.Random`` picks a capture, conquest or free with
probability 0.6 when one is legal, else a uniformly random legal action (so that conquests
happen within a few dozen turns).  The six positions of a game are the first position of a
seeded game (seed 1, 2, ... until all are found) in each category:

* ``turn start``: total 0, at least 8 plies played;
* ``mid-turn``: total > 0, the Emblem not moved;
* ``mid-turn, Emblem moved``: the Emblem has moved, small armies not locked;
* ``locked``: the Emblem moved after a small army;
* ``free window``: right after a conquest, at least one free legal (``duel``, where a
  conquest ends the game: ``conquest available``, a position with a conquest among its legal
  actions);
* ``late``: at least 60 plies played, mid-turn.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from empire.reference import State, perft

GAMES = [("two", "ep16"), ("four", "ep16"), ("duel", "ep16"), ("three", "ep16"), ("two", "ep24")]
HOT = 0.6
MAX_PLIES = 400


def categories(variant: str) -> list[tuple[str, Callable[[State, int, list[str]], bool]]]:
    def frees_open(s: State, ply: int, legal: list[str]) -> bool:
        return s.free_window is not None and any(a.startswith("+") for a in legal)

    def conquest_available(s: State, ply: int, legal: list[str]) -> bool:
        return any(s.classify(a) == "conquest" for a in legal)

    return [
        ("turn start", lambda s, ply, legal: s.total == 0 and ply >= 8),
        ("mid-turn", lambda s, ply, legal: s.total > 0 and not s.emblem_moved),
        ("mid-turn, Emblem moved", lambda s, ply, legal: s.emblem_moved and not s.locked),
        ("locked", lambda s, ply, legal: s.locked),
        (
            "conquest available" if variant == "duel" else "free window",
            conquest_available if variant == "duel" else frees_open,
        ),
        ("late", lambda s, ply, legal: ply >= 60 and s.total > 0),
    ]


def random_positions(variant: str, board: str) -> list[dict[str, Any]]:
    wanted = categories(variant)
    found: dict[str, dict[str, Any]] = {}
    seed = 0
    while len(found) < len(wanted):
        seed += 1
        if seed > 200:
            raise RuntimeError(f"{variant}/{board}: categories not found: {wanted}")
        rng = random.Random(f"empire-{variant}-{board}-{seed}")
        s = State(variant, board)
        actions: list[str] = []
        for ply in range(MAX_PLIES):
            if s.is_over():
                break
            legal = s.legal_actions()
            for name, test in wanted:
                if name not in found and test(s, ply, legal):
                    found[name] = {"name": f"{name} (seed {seed}, ply {ply})", "seed": seed,
                                   "actions": list(actions)}  # fmt: skip
            if len(found) == len(wanted):
                break
            hot = [a for a in legal if s.classify(a) in ("capture", "conquest", "free")]
            action = rng.choice(hot) if hot and rng.random() < HOT else rng.choice(legal)
            s.apply(action)
            actions.append(action)
    return [found[name] for name, _ in wanted]


def counts(state: State, max_seconds: float) -> tuple[dict[str, int], dict[str, float]]:
    result: dict[str, int] = {}
    seconds: dict[str, float] = {}
    for depth in (1, 2, 3):
        if depth == 3:
            estimate = seconds["2"] * result["2"] / max(result["1"], 1)
            if estimate > max_seconds:
                break
        t0 = time.perf_counter()
        result[str(depth)] = perft(state, depth)
        seconds[str(depth)] = round(time.perf_counter() - t0, 2)
    return result, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-seconds", type=float, default=60.0)
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "perft.json"))
    args = parser.parse_args()
    entries: list[dict[str, Any]] = []
    for variant, board in GAMES:
        specs = [{"name": "start", "seed": None, "actions": []}, *random_positions(variant, board)]
        for spec in specs:
            state = State(variant, board)
            for a in spec["actions"]:
                state.apply(a)
            depth, seconds = counts(state, args.max_seconds)
            print(f"{variant}/{board} {spec['name']}: {depth} in {seconds} s", flush=True)
            entries.append(
                {
                    "variant": variant,
                    "board": board,
                    "name": spec["name"],
                    "actions": spec["actions"],
                    "depth": depth,
                    "position": state.position(),
                }
            )
    data = {
        "description": (
            "Empire Plateau perft counts from the pure-Python reference "
            "(tests/empire/reference.py), generated by tests/empire/make_perft.py. "
            "Each entry: the variant and board, the actions from the start, the position they "
            "reach (State.position()), and the number of action sequences of each depth from it "
            "(every action -- move, free, end -- is one ply).  Depth 3 only where the reference "
            "took under a minute."
        ),
        "positions": entries,
    }
    Path(args.out).write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {args.out}: {len(entries)} positions")


if __name__ == "__main__":
    main()
