"""What ``plateau bench`` times for Albea's Plateau: perft positions with their counts, the
checks of its random games, its yardstick and targets (found here by the registry's convention:
``GameInfo.bench``)."""

from __future__ import annotations

import random

from plateau import yardsticks
from plateau.bench_spec import BenchPosition, BenchSpec
from plateau.games.albea.state import AlbeaPlateauState


def _random_position(seed: int, plies: int) -> AlbeaPlateauState:
    """The position after ``plies`` plies of uniformly random play seeded with ``seed`` (as the
    positions of tests/albea/perft.json were made)."""
    rng = random.Random(seed)
    state = AlbeaPlateauState()
    while state.ply < plies:
        state.apply(rng.choice(state.legal_action_strings()))
    return state


#: what ``plateau bench`` times: positions and counts of tests/albea/perft.json (a test
#: keeps them equal); the targets are those of docs/albea-plateau-design.md, and the Python
#: loop's is the speed goal of docs/performance.md (ahead of OpenSpiel's loop)
BENCH = BenchSpec(
    positions=(
        BenchPosition("start", AlbeaPlateauState, 3, 232_225_980, 1_455_300),
        BenchPosition("ply 30", lambda: _random_position(11, 30), 3, 3_829_112, 22_736),
    ),
    midgame="ply 30",
    playout_plies=(60, 95),  # the design's 3,000 reference games: a mean of 76 plies
    batch_masks=False,  # 41,188 ids a game: a learner here steps with legal_lists
    yardsticks=(yardsticks.OPENSPIEL_BREAKTHROUGH,),
    targets={
        "perft start": ">= 46 M/s (perft(3) of the start in <= 5 s)",
        "playouts": ">= 300,000 plies/s",
        "python-loop": ">= 1.0x",
    },
)
